import { pathParser } from '../../sdk/path-parser.js';
import type { AgentPlugin } from '../../sdk/types.js';
import { parseAmpSettings, SETTINGS } from './settings-parser.js';
import { parseAmpThread } from './thread-parser.js';

const THREAD = /^\.local\/share\/amp\/threads\/T-[^/]+\.json$/;

/** Amp: the local thread copies older builds kept (newer ones keep threads on ampcode.com only), and its settings. */
export const ampPlugin: AgentPlugin = {
  agent: 'amp',
  parsers: [
    pathParser('amp', 'threads', ['~/.local/share/amp/threads/T-<uuid>.json (every OS)'], THREAD, parseAmpThread),
    // Secret files (MCP env and headers): the parser prints permission rules and server names only.
    pathParser(
      'amp',
      'settings',
      ['~/.config/amp/settings.json(c) (every OS)', '.amp/settings.json(c) (project)', '/etc/ampcode/managed-settings.json', '/Library/Application Support/ampcode/managed-settings.json', 'C:/ProgramData/ampcode/managed-settings.json'],
      SETTINGS,
      parseAmpSettings,
      { secret: true },
    ),
  ],
};
