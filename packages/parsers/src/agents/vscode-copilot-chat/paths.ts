/**
 * Where VS Code's chat and the Copilot Chat extension keep their files, as home-relative paths
 * (spec vscode-copilot-chat.md, Parser plan). Every path sits in an editor's data folder <D>
 * (`.config/Code`, `Library/Application Support/Code - Insiders`, `.vscode-server/data`, ...) and
 * most in its user folder <U> = <D>/User (or a profile below it); {@link locate} finds both, and the
 * patterns below match what follows them.
 */

// The editor table of DESIGN "Editor families" (catalog/families/editors.yaml); VS Code's chat is
// core code, so every editor of the family that keeps it writes the same files.
const FOLDERS = ['Code', 'Code - Insiders', 'Code - OSS', 'Code - Exploration', 'VSCodium', 'VSCodium - Insiders', 'Cursor', 'Windsurf', 'Windsurf - Next', 'Kiro', 'Trae', 'Trae CN', 'Positron', 'Antigravity'];
const SERVERS = ['.vscode-server', '.vscode-remote', '.vscode-server-insiders', '.vscode-server-oss', '.vscodium-server', '.vscodium-server-insiders', '.cursor-server', '.windsurf-server', '.kiro-server', '.trae-server', '.trae-cn-server', '.positron-server', '.antigravity-server', '.antigravity-ide-server'];
const NAMES: Record<string, string> = {
  Code: 'Visual Studio Code',
  'Code - Insiders': 'Visual Studio Code - Insiders',
  '.vscode-server': 'Visual Studio Code',
  '.vscode-remote': 'Visual Studio Code',
  '.vscode-server-insiders': 'Visual Studio Code - Insiders',
  '.vscode-server-oss': 'Code - OSS',
  '.vscodium-server': 'VSCodium',
  '.vscodium-server-insiders': 'VSCodium - Insiders',
  '.cursor-server': 'Cursor',
  '.windsurf-server': 'Windsurf',
  '.kiro-server': 'Kiro',
  '.trae-server': 'Trae',
  '.trae-cn-server': 'Trae CN',
  '.positron-server': 'Positron',
  '.antigravity-server': 'Antigravity',
  '.antigravity-ide-server': 'Antigravity',
};

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const folders = FOLDERS.map(esc).join('|');
// Linux and Flatpak keep their case; macOS and Windows homes are case-insensitive.
const PLACES: { re: RegExp; remote: boolean }[] = [
  { re: new RegExp(`^(?:\\.config|\\.var/app/[^/]+/config)/(${folders})(?=/|$)`), remote: false },
  { re: new RegExp(`^(?:Library/Application Support|AppData/Roaming)/(${folders})(?=/|$)`, 'i'), remote: false },
  { re: new RegExp(`^(${SERVERS.map(esc).join('|')})/data(?=/|$)`), remote: true },
];

/** Where a path sits in an editor's data folder. */
export interface Location {
  /** The editor's display name (`Visual Studio Code`, `Cursor`, ...). */
  editor: string;
  /** A remote server's data folder (`.vscode-server/data`). */
  remote: boolean;
  /** The path below <D> (`User/...`, `logs/...`). */
  dataRest: string;
  /** The path below <U> (`User/` or `User/profiles/<id>/`), when it is in it. */
  rest?: string;
  /** <D>/User/... up to and including the profile folder, when in <U>. */
  userDir?: string;
}

const USER = /^User(?:\/profiles\/[^/]+)?(?=\/)/i;

/** The editor data folder a home-relative path is in, or undefined. */
export function locate(rel: string): Location | undefined {
  for (const p of PLACES) {
    const m = p.re.exec(rel);
    if (!m) continue;
    const name = m[1];
    const canon = FOLDERS.find((f) => f.toLowerCase() === name.toLowerCase()) ?? SERVERS.find((s) => s === name) ?? name;
    const dataRest = rel.slice(m[0].length + 1);
    const loc: Location = { editor: NAMES[canon] ?? canon, remote: p.remote, dataRest };
    const u = USER.exec(dataRest);
    if (u) {
      loc.rest = dataRest.slice(u[0].length + 1);
      loc.userDir = rel.slice(0, m[0].length + 1 + u[0].length);
    }
    return loc;
  }
  return undefined;
}

/** Regex sources matched against {@link Location.rest} (below <U>), by parser. */
export const USER_PATTERNS = {
  session: [String.raw`^workspaceStorage/[^/]+/chatSessions/[^/]+\.jsonl?$`, String.raw`^globalStorage/emptyWindowChatSessions/[^/]+\.jsonl?$`, String.raw`^globalStorage/transferredChatSessions/[^/]+\.json$`],
  state: [String.raw`^(?:workspaceStorage/[^/]+|globalStorage)/state\.vscdb(?:\.backup)?$`],
  editing: [String.raw`^workspaceStorage/[^/]+/chatEditingSessions/[^/]+/state\.json$`],
  transcript: [String.raw`^workspaceStorage/[^/]+/github\.copilot-chat/transcripts/[^/]+\.jsonl$`],
  debugLog: [String.raw`^workspaceStorage/[^/]+/github\.copilot-chat/debug-logs/[^/]+/[^/]+\.jsonl$`, String.raw`^workspaceStorage/[^/]+/github\.copilot-chat/debug-logs/[^/]+\.jsonl$`],
  store: [String.raw`^globalStorage/github\.copilot-chat/session-store\.db$`],
  cloud: [String.raw`^globalStorage/github\.copilot-chat/cloudSessions\.json$`],
  settings: [String.raw`^settings\.json$`],
  mcp: [String.raw`^mcp\.json$`],
} as const satisfies Record<string, readonly string[]>;

/** Regex sources matched against {@link Location.dataRest} (below <D>). */
export const DATA_PATTERNS = {
  // Local windows write window<n>/exthost/, a remote server exthost<n>/ directly under the launch.
  log: [String.raw`^logs/[^/]+/(?:window\d+/)?exthost\d*/github\.copilot-chat/GitHub Copilot Chat(?:\.\d+)?\.log$`],
} as const satisfies Record<string, readonly string[]>;

/** Project-relative paths (a project root's `.vscode/mcp.json`). */
export const PROJECT_PATTERNS = { mcp: [String.raw`^\.vscode/mcp\.json$`] } as const;

/** The human-readable forms `aitrail parsers` lists. */
export function describe(patterns: readonly string[], base: '<U>' | '<D>' | ''): string[] {
  const glob = (p: string) =>
    p
      .replace(/^\^|\$$/g, '')
      .replace(/\[\^\/\]\+/g, '*')
      .replace(/\\d\+/g, 'N')
      .replace(/\\d\*/g, '*')
      .replace(/\(\?:([^()]*)\)\?/g, '{,$1}')
      .replace(/\(\?:([^()]*)\)/g, (_m, alt: string) => `{${alt.split('|').join(',')}}`)
      .replace(/l\?/g, '{,l}')
      .replace(/\\\./g, '.');
  return patterns.map((p) => `${base}${base ? '/' : ''}${glob(p)}`);
}

/**
 * A `wants()` over patterns below <U>, <D> or a project root. The extension's folder keeps its id's
 * case in workspace storage (`GitHub.copilot-chat`) and is lower-cased in global storage, so it is
 * compared ignoring case; the rest as the home's file system spells it.
 */
export function matcher(spec: { user?: readonly string[]; data?: readonly string[]; project?: readonly string[] }): (rel: string) => boolean {
  const ci = (p: string) => new RegExp(p.replace(/github\\\.copilot-chat/g, '[Gg]it[Hh]ub\\.copilot-chat'));
  const user = (spec.user ?? []).map(ci);
  const data = (spec.data ?? []).map(ci);
  const project = (spec.project ?? []).map((p) => new RegExp(p));
  return (rel) => {
    if (project.some((re) => re.test(rel))) return true;
    const loc = locate(rel);
    if (!loc) return false;
    if (data.some((re) => re.test(loc.dataRest))) return true;
    return loc.rest !== undefined && user.some((re) => re.test(loc.rest!));
  };
}

/** The last path segment without its extension (`<id>.jsonl` → `<id>`). */
export function stem(rel: string): string {
  const base = rel.slice(rel.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}

/** `workspaceStorage/<id>/` of a path below <U>, or '' (global storage, logs). */
export function workspaceId(rel: string): string {
  return /\/workspaceStorage\/([^/]+)\//.exec(rel)?.[1] ?? '';
}
