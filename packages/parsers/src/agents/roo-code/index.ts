import type { AgentPlugin } from '../../sdk/types.js';
import { familyParsers } from '../cline/family.js';
import { ROO_PROFILE } from '../cline/profile.js';

/** Roo Code, a Cline fork: the Cline family's parsers under the roo-code id, extension folder and settings keys. */
export const rooCodePlugin: AgentPlugin = {
  agent: ROO_PROFILE.agent,
  parsers: familyParsers(ROO_PROFILE),
};
