/**
 * Continue's files, home-relative (CONTINUE_GLOBAL_DIR is collected as `.continue`): sessions,
 * the session index, the dev data logs, the configs; and a project's `.continue/` blocks.
 */

/** `.continue/sessions/<id>.json` (not the index): the session id. */
export function sessionFile(rel: string): string | undefined {
  const m = /^\.continue\/sessions\/([^/]+)\.json$/i.exec(rel);
  return m && m[1].toLowerCase() !== 'sessions' ? m[1] : undefined;
}

/** `.continue/sessions/sessions.json`. */
export function isSessionIndex(rel: string): boolean {
  return /^\.continue\/sessions\/sessions\.json$/i.test(rel);
}

/** `.continue/dev_data/<schema>/<event>.jsonl` or the older `.continue/dev_data/<event>.jsonl`: the event name. */
export function devDataEvent(rel: string): string | undefined {
  return /^\.continue\/dev_data\/(?:[^/]+\/)?([^/]+)\.jsonl$/i.exec(rel)?.[1];
}

/** A config holding models and MCP servers: `.continue/config.{yaml,json}`, `.continuerc.json`, a block under `mcpServers/` (home or project). */
export function isConfig(rel: string): boolean {
  return /^(?:\.continue\/config\.(?:yaml|yml|json)|\.continue\/mcpServers\/[^/]+\.(?:yaml|yml|json)|\.continuerc\.json)$/i.test(rel);
}

/** The dev data logs a session joins, relative to its file (newest schema first). */
export const DEV_DATA_DIRS = ['../dev_data/0.2.0/', '../dev_data/0.1.0/', '../dev_data/'] as const;

/** A `file://` URI as a path (VS Code's Windows form `file:///c%3A/x` → `c:\x`); other strings as they are. */
export function uriPath(v: string): string {
  if (!/^file:\/\//i.test(v)) return v;
  let rest = v.replace(/^file:\/\/(?:localhost)?/i, '');
  try {
    rest = decodeURIComponent(rest);
  } catch {
    return v;
  }
  // file://host/share names another machine's folder: kept as the URI.
  if (!rest.startsWith('/')) return v;
  const win = /^\/([A-Za-z]:)(\/.*)?$/.exec(rest);
  return win ? `${win[1]}${(win[2] ?? '\\').replace(/\//g, '\\')}` : rest;
}
