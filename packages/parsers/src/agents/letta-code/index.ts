import { pathParser } from '../../sdk/path-parser.js';
import type { AgentPlugin } from '../../sdk/types.js';
import { parseLettaChunkLog } from './chunk-log-parser.js';
import { LETTA_PATHS } from './paths.js';
import { parseLettaSessions } from './sessions-parser.js';
import { parseLettaTranscript } from './transcript-parser.js';

/** Letta Code: the local backend's transcripts, the session summaries both backends write, and the stream chunk logs. */
export const lettaCodePlugin: AgentPlugin = {
  agent: 'letta-code',
  parsers: [
    pathParser('letta-code', 'transcript', ['~/.letta/lc-local-backend/conversations/<key>/messages.jsonl'], LETTA_PATHS.transcript, parseLettaTranscript),
    pathParser('letta-code', 'sessions', ['~/.letta/sessions.jsonl'], LETTA_PATHS.sessions, parseLettaSessions),
    pathParser('letta-code', 'chunk-log', ['~/.letta/logs/chunk-logs/<agentId>/<sessionId>.jsonl'], LETTA_PATHS.chunkLog, parseLettaChunkLog),
  ],
};
