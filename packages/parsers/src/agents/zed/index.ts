import { pathParser } from '../../sdk/path-parser.js';
import type { AgentPlugin } from '../../sdk/types.js';
import { ZED_PATHS } from './paths.js';
import { parseZedTextThread } from './text-thread-parser.js';
import { parseZedThreads } from './threads-parser.js';

/** Zed's Agent Panel: the threads in `threads/threads.db` (zstd or JSON documents) and the older Assistant's text threads. */
export const zedPlugin: AgentPlugin = {
  agent: 'zed',
  parsers: [
    pathParser('zed', 'threads', ['~/.local/share/zed/threads/threads.db (+ -wal)', '~/Library/Application Support/Zed/threads/threads.db', '%LOCALAPPDATA%/Zed/threads/threads.db'], ZED_PATHS.threads, parseZedThreads),
    pathParser('zed', 'text-threads', ['<zed data or config folder>/conversations/*.zed.json', '~/.local/state/zed/text_threads/*.zed.json'], ZED_PATHS.textThread, parseZedTextThread),
  ],
};
