import type { Parser } from '../../sdk/types.js';
import { chatParser } from './chat-parser.js';
import { checkpointParser } from './checkpoints.js';
import { configFilesParser } from './config-files.js';
import { FamilyPaths } from './paths.js';
import type { FamilyProfile } from './profile.js';
import { promptLogParser, shellHistoryParser } from './prompt-logs.js';
import { settingsParser } from './settings.js';
import { reflogParser, usageParser } from './small-stores.js';

/**
 * The parsers of one member of the Gemini CLI family, instantiated from its profile: Gemini CLI
 * and Qwen Code run the same code under their own agent id, paths and settings keys.
 */
export function familyParsers(profile: FamilyProfile): Parser[] {
  const paths = new FamilyPaths(profile);
  return [
    chatParser(paths),
    promptLogParser(paths),
    shellHistoryParser(paths),
    checkpointParser(paths),
    settingsParser(paths),
    configFilesParser(paths),
    reflogParser(paths),
    ...(profile.usageRecords ? [usageParser(paths)] : []),
  ];
}
