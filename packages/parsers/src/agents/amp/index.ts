import { pathParser } from '../../sdk/path-parser.js';
import type { AgentPlugin } from '../../sdk/types.js';
import { parseAmpThread } from './thread-parser.js';

const THREAD = /^\.local\/share\/amp\/threads\/T-[^/]+\.json$/;

/** Amp: the local thread copies older builds kept (newer ones keep threads on ampcode.com only). */
export const ampPlugin: AgentPlugin = {
  agent: 'amp',
  parsers: [pathParser('amp', 'threads', ['~/.local/share/amp/threads/T-<uuid>.json (every OS)'], THREAD, parseAmpThread)],
};
