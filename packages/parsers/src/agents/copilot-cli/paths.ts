/**
 * Where the Copilot CLI keeps its files, as the seed's Parser plan writes them: home-relative
 * regexes over `artifact.rel`, with the three config homes (the XDG ones predate the CLI's
 * migration into ~/.copilot).
 */

/** The config home alternation the seed writes `<home>`. */
export const COPILOT_HOME = String.raw`(?:\.copilot|\.local/state/\.copilot|\.config/\.copilot)`;

const SESSION = `${COPILOT_HOME}/session-state/[0-9a-f-]{36}`;

/** The regex source of every file a copilot-cli parser reads, by parser. */
export const COPILOT_PATTERNS = {
  events: [String.raw`^${SESSION}/events\.jsonl$`],
  workspace: [String.raw`^${SESSION}/workspace\.yaml$`],
  // The older rewind-snapshots/ directory is what 1.0.59/1.0.60 wrote (real corpus, XEFF09).
  snapshots: [String.raw`^${SESSION}/rewind-file-snapshots/index\.json$`, String.raw`^${SESSION}/rewind-snapshots/index\.json$`],
  store: [String.raw`^${COPILOT_HOME}/session-store\.db$`],
  history: [String.raw`^${COPILOT_HOME}/command-history-state\.json$`],
  permissions: [String.raw`^${COPILOT_HOME}/permissions-config\.json$`],
  settings: [String.raw`^${COPILOT_HOME}/settings\.json$`],
  sidebar: [String.raw`^${COPILOT_HOME}/sidebar-sessions-state/[0-9a-f]{64}\.json$`],
  // Rotated logs (process-<ms>-<pid>.<n>.log) hold sign-in lines too (issue 152).
  processLog: [String.raw`^${COPILOT_HOME}/logs/process-\d+-\d+\.log$`, String.raw`^${COPILOT_HOME}/logs/process-\d+-\d+\.\d+\.log$`],
  // The user's MCP config (the XDG migration list names it `mcp-config`, with or without
  // .json), then the project files, whose rel is relative to the project root (Project-local files).
  mcpConfig: [
    String.raw`^${COPILOT_HOME}/mcp-config(?:\.json)?$`,
    String.raw`^\.mcp\.json$`,
    String.raw`^\.github/mcp\.json$`,
    String.raw`^\.github/copilot/settings(?:\.local)?\.json$`,
  ],
  // The cache directory on each OS (seed: Package and cache directory).
  mcpTools: [String.raw`^(?:AppData/Local/copilot|Library/Caches/copilot|\.cache/copilot)/mcp-tools/[^/]+\.json$`],
  // VS Code's Copilot Chat writes it for a session it runs (seed: vscode.metadata.json).
  vscodeMetadata: [String.raw`^${SESSION}/vscode\.metadata\.json$`],
} as const satisfies Record<string, readonly string[]>;

/** A `wants()` over some regex sources: true when any matches the whole path. */
export function matcher(patterns: readonly string[]): (rel: string) => boolean {
  const res = patterns.map((p) => new RegExp(p));
  return (rel) => res.some((re) => re.test(rel));
}

const SESSION_DIR = /(?:^|\/)session-state\/([0-9a-f-]{36})\//;

/** The session id a path's `session-state/<uuid>/` directory names, or ''. */
export function sessionIdFromRel(rel: string): string {
  return SESSION_DIR.exec(rel)?.[1] ?? '';
}
