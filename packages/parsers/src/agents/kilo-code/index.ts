import type { AgentPlugin } from '../../sdk/types.js';
import { familyParsers } from '../cline/family.js';
import { KILO_PROFILE } from '../cline/profile.js';
import { familyParsers as openCodeFamilyParsers } from '../opencode/family.js';
import { KILO_CLI_PROFILE } from './cli-profile.js';

/**
 * Kilo Code: its legacy VS Code extension (a Roo Code fork) through the Cline family's parsers, and
 * its CLI and new extension backend (an OpenCode fork writing kilo.db) through the OpenCode family's.
 */
export const kiloCodePlugin: AgentPlugin = {
  agent: KILO_PROFILE.agent,
  parsers: [...familyParsers(KILO_PROFILE), ...openCodeFamilyParsers(KILO_CLI_PROFILE)],
};
