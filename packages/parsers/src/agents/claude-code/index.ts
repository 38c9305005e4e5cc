import type { AgentPlugin } from '../../sdk/types.js';
import { globalStateParser } from './global-state.js';
import { historyParser } from './history.js';
import { mcpConfigParser, mcpLogParser } from './mcp.js';
import { settingsParser } from './settings.js';
import { processParser, sessionsIndexParser, todosParser } from './small-stores.js';
import { transcriptParser } from './transcript.js';

/** Claude Code: transcripts, prompt history, global state, settings, MCP configs and logs, todos and the process registry. */
export const claudeCodePlugin: AgentPlugin = {
  agent: 'claude-code',
  parsers: [transcriptParser, historyParser, globalStateParser, settingsParser, todosParser, processParser, sessionsIndexParser, mcpConfigParser, mcpLogParser],
};
