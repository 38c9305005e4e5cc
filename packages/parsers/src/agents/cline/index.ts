import type { AgentPlugin } from '../../sdk/types.js';
import { familyParsers } from './family.js';
import { CLINE_PROFILE } from './profile.js';

/** Cline: task folders (UI log, API history, metadata, index), MCP and approval settings, and the SDK session store of its CLI. */
export const clinePlugin: AgentPlugin = {
  agent: CLINE_PROFILE.agent,
  parsers: familyParsers(CLINE_PROFILE),
};
