import type { AgentPlugin, Parser } from '../../sdk/types.js';
import { parseLettaChunkLog } from './chunk-log-parser.js';
import { LETTA_PATHS } from './paths.js';
import { parseLettaSessions } from './sessions-parser.js';
import { parseLettaTranscript } from './transcript-parser.js';

function lettaParser(name: string, patterns: string[], re: RegExp, parse: Parser['parse']): Parser {
  return {
    agent: 'letta-code',
    name,
    patterns,
    wants: (rel) => re.test(rel),
    secondary: () => false,
    secondaryToleranceSeconds: () => 0,
    recordsSync: false,
    parse,
  };
}

/** Letta Code: the local backend's transcripts, the session summaries both backends write, and the stream chunk logs. */
export const lettaCodePlugin: AgentPlugin = {
  agent: 'letta-code',
  parsers: [
    lettaParser('transcript', ['~/.letta/lc-local-backend/conversations/<key>/messages.jsonl'], LETTA_PATHS.transcript, parseLettaTranscript),
    lettaParser('sessions', ['~/.letta/sessions.jsonl'], LETTA_PATHS.sessions, parseLettaSessions),
    lettaParser('chunk-log', ['~/.letta/logs/chunk-logs/<agentId>/<sessionId>.jsonl'], LETTA_PATHS.chunkLog, parseLettaChunkLog),
  ],
};
