import type { AgentPlugin, Parser } from '../../sdk/types.js';
import { ZED_PATHS } from './paths.js';
import { parseZedTextThread } from './text-thread-parser.js';
import { parseZedThreads } from './threads-parser.js';

function zedParser(name: string, patterns: string[], re: RegExp, parse: Parser['parse']): Parser {
  return {
    agent: 'zed',
    name,
    patterns,
    wants: (rel) => re.test(rel),
    secondary: () => false,
    secondaryToleranceSeconds: () => 0,
    recordsSync: false,
    parse,
  };
}

/** Zed's Agent Panel: the threads in `threads/threads.db` (zstd or JSON documents) and the older Assistant's text threads. */
export const zedPlugin: AgentPlugin = {
  agent: 'zed',
  parsers: [
    zedParser('threads', ['~/.local/share/zed/threads/threads.db (+ -wal)', '~/Library/Application Support/Zed/threads/threads.db', '%LOCALAPPDATA%/Zed/threads/threads.db'], ZED_PATHS.threads, parseZedThreads),
    zedParser('text-threads', ['<zed data or config folder>/conversations/*.zed.json', '~/.local/state/zed/text_threads/*.zed.json'], ZED_PATHS.textThread, parseZedTextThread),
  ],
};
