import type { AgentPlugin } from '../../sdk/types.js';
import { AGENT } from './common.js';
import { vscodeDebugLogParser } from './debug-log-parser.js';
import { vscodeEditingParser } from './editing-parser.js';
import { vscodeLogParser } from './log-parser.js';
import { vscodeSessionParser } from './session-parser.js';
import { vscodeCloudParser, vscodeMcpParser, vscodeSettingsParser } from './small-parsers.js';
import { vscodeStateParser } from './state-parser.js';
import { vscodeStoreParser } from './store-parser.js';
import { vscodeTranscriptParser } from './transcript-parser.js';

/** VS Code's chat with GitHub Copilot Chat: one parser per file kind of the spec's Parser plan, the session files first. */
export const vscodeCopilotChatPlugin: AgentPlugin = {
  agent: AGENT,
  parsers: [
    vscodeSessionParser,
    vscodeStateParser,
    vscodeEditingParser,
    vscodeTranscriptParser,
    vscodeDebugLogParser,
    vscodeStoreParser,
    vscodeCloudParser,
    vscodeSettingsParser,
    vscodeMcpParser,
    vscodeLogParser,
  ],
};
