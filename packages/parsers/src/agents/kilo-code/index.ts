import type { AgentPlugin } from '../../sdk/types.js';
import { familyParsers } from '../cline/family.js';
import { KILO_PROFILE } from '../cline/profile.js';

/**
 * Kilo Code: its legacy VS Code extension (a Roo Code fork) through the Cline family's parsers.
 * Its CLI and new extension backend write OpenCode's kilo.db: read by the OpenCode family's
 * parsers once they are on main (issue 17, agents-sql), instantiated here with Kilo's profile.
 */
export const kiloCodePlugin: AgentPlugin = {
  agent: KILO_PROFILE.agent,
  parsers: familyParsers(KILO_PROFILE),
};
