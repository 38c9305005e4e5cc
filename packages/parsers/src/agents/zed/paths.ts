/**
 * Zed's files (zed-industries/zed crates/paths/src/paths.rs, crates/agent/src/db.rs). The data
 * folder holds `threads/threads.db` (the Agent Panel's threads) and the older Assistant's text
 * threads in `conversations/`; newer builds keep text threads in the state folder's
 * `text_threads/`; on macOS `conversations/` sat in the config folder. The config folder's
 * `settings.json` and a project's `.zed/settings.json` hold the agent and MCP settings.
 */
const DATA = String.raw`(?:Library/Application Support/Zed|\.local/share/zed|AppData/Local/Zed|\.var/app/dev\.zed\.Zed/data/zed)`;
const CONFIG = String.raw`(?:\.config/zed|\.var/app/dev\.zed\.Zed/config/zed|AppData/Roaming/Zed)`;
const STATE = String.raw`\.local/state/zed`;

/** The paths the zed parsers want, relative to a home. */
export const ZED_PATHS = {
  /** The agent threads database (Linux, Flatpak, macOS, Windows). */
  threads: new RegExp(`^${DATA}/threads/threads\\.db$`),
  /** A text thread (`<title> - <n>.zed.json`) in any of the folders builds have used. */
  textThread: new RegExp(`^(?:${DATA}|${CONFIG}|${STATE})/(?:conversations|text_threads)/[^/]+\\.zed\\.json$`),
  /** The user settings (config folder) or a project's `.zed/settings.json` (relative to its root). */
  settings: new RegExp(`^(?:${CONFIG}/|\\.zed/)settings\\.json$`),
};
