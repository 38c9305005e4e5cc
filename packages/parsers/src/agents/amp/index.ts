import type { AgentPlugin } from '../../sdk/types.js';
import { parseAmpThread } from './thread-parser.js';

const THREAD = /^\.local\/share\/amp\/threads\/T-[^/]+\.json$/;

/** Amp: the local thread copies older builds kept (newer ones keep threads on ampcode.com only). */
export const ampPlugin: AgentPlugin = {
  agent: 'amp',
  parsers: [
    {
      agent: 'amp',
      name: 'threads',
      patterns: ['~/.local/share/amp/threads/T-<uuid>.json (every OS)'],
      wants: (rel) => THREAD.test(rel),
      secondary: () => false,
      secondaryToleranceSeconds: () => 0,
      recordsSync: false,
      parse: parseAmpThread,
    },
  ],
};
