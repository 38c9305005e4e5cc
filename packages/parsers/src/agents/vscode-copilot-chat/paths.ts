/**
 * Where VS Code's chat and the Copilot Chat extension keep their files, as home-relative paths
 * (spec vscode-copilot-chat.md, Parser plan). Every path sits in an editor's data folder <D>
 * (`.config/Code`, `Library/Application Support/Code - Insiders`, `.vscode-server/data`, ...) and
 * most in its user folder <U> = <D>/User (or a profile below it); {@link locate} finds both, and the
 * patterns below match what follows them.
 */

import { editorOf } from '../../sdk/editors.js';

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

const PROFILE = /^profiles\/[^/]+\//;

/** The editor data folder a home-relative path is in (the SDK's editor table), or undefined. */
export function locate(rel: string): Location | undefined {
  const e = editorOf(rel);
  if (!e) return undefined;
  const loc: Location = { editor: e.name, remote: e.place === 'server', dataRest: e.dataRest };
  if (e.rest !== undefined && e.userDir !== undefined) {
    const p = PROFILE.exec(e.rest);
    loc.rest = p ? e.rest.slice(p[0].length) : e.rest;
    loc.userDir = p ? `${e.userDir}/${p[0].slice(0, -1)}` : e.userDir;
  }
  return loc;
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
