import { pathParser } from '../../sdk/path-parser.js';
import type { AgentPlugin } from '../../sdk/types.js';
import { ZED_PATHS } from './paths.js';
import { parseZedSettings } from './settings-parser.js';
import { parseZedTextThread } from './text-thread-parser.js';
import { parseZedThreads } from './threads-parser.js';

/** Zed's Agent Panel: the threads in `threads/threads.db` (zstd or JSON documents), the older Assistant's text threads, and the settings (agent permissions, models, MCP servers). */
export const zedPlugin: AgentPlugin = {
  agent: 'zed',
  parsers: [
    pathParser('zed', 'threads', ['~/.local/share/zed/threads/threads.db (+ -wal)', '~/Library/Application Support/Zed/threads/threads.db', '%LOCALAPPDATA%/Zed/threads/threads.db'], ZED_PATHS.threads, parseZedThreads),
    pathParser('zed', 'text-threads', ['<zed data or config folder>/conversations/*.zed.json', '~/.local/state/zed/text_threads/*.zed.json'], ZED_PATHS.textThread, parseZedTextThread),
    // Flagged for context server env and headers: only settings, server names and URLs without credentials are printed.
    pathParser('zed', 'settings', ['~/.config/zed/settings.json', '~/.var/app/dev.zed.Zed/config/zed/settings.json', '%APPDATA%/Zed/settings.json', '<project>/.zed/settings.json'], ZED_PATHS.settings, parseZedSettings, { secret: true }),
  ],
};
