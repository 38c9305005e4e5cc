import type { AgentPlugin } from '../../sdk/types.js';

/** GitHub Copilot CLI: its parsers (being written; see issue 4). */
export const copilotCliPlugin: AgentPlugin = { agent: 'copilot-cli', parsers: [] };
