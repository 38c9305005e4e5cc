import type { AgentPlugin } from '../../sdk/types.js';
import { familyParsers } from './family.js';
import { OPENCODE_PROFILE } from './profile.js';

/** OpenCode: opencode.db (sessions, messages, parts, todos, permissions, the event log), the legacy JSON store, config files, the recent-model list. */
export const openCodePlugin: AgentPlugin = {
  agent: OPENCODE_PROFILE.agent,
  parsers: familyParsers(OPENCODE_PROFILE),
};
