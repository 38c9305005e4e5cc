import { posix } from 'node:path';
import { editorOf } from '../../sdk/editors.js';

/** The kinds of Cursor file the parsers read, by path alone. */
export type CursorFile =
  | 'global-db'
  | 'global-db-backup'
  | 'workspace-db'
  | 'workspace-db-backup'
  | 'workspace-json'
  | 'cli-store'
  | 'transcript'
  | 'prompt-history'
  | 'ai-tracking'
  | 'cli-config'
  | 'permissions'
  | 'mcp-config'
  | 'mcp-approvals'
  | 'workspace-trusted'
  | 'mcp-cache'
  | 'mcp-descriptor'
  | 'hooks'
  | 'terminal';

// ~/.cursor (CURSOR_CONFIG_DIR is archived as it) and ~/.config/cursor, where some builds of the
// CLI keep its chats and settings on Linux. Case-insensitive: Windows and macOS homes fold case.
const H = String.raw`(?:\.cursor|\.config/cursor)`;
const re = (body: string) => new RegExp(`^${H}/${body}$`, 'i');

// Files under the home's Cursor folders; the editor's data folder is matched through editorOf.
const HOME_FILES: readonly [CursorFile, RegExp][] = [
  ['cli-store', re(String.raw`chats/[0-9a-f]{32}/[^/]+/store\.db`)],
  // <id>.txt|.jsonl|.json (flat), <id>/<id>.jsonl (IDE, nested), <id>/subagents/<sub>.jsonl.
  ['transcript', re(String.raw`projects/[^/]+/agent-transcripts/(?:[^/]+\.(?:txt|jsonl|json)|[^/]+/[^/]+\.jsonl|[^/]+/subagents/[^/]+\.jsonl)`)],
  ['prompt-history', re(String.raw`prompt_history\.json`)],
  ['ai-tracking', re(String.raw`ai-tracking/ai-code-tracking\.db`)],
  ['cli-config', re(String.raw`cli-config\.json`)],
  ['permissions', re(String.raw`permissions\.json`)],
  ['mcp-config', re(String.raw`mcp\.json`)],
  ['mcp-approvals', re(String.raw`projects/[^/]+/mcp-approvals\.json`)],
  ['workspace-trusted', re(String.raw`projects/[^/]+/\.workspace-trusted`)],
  ['mcp-cache', re(String.raw`projects/[^/]+/mcp-cache\.json`)],
  ['mcp-descriptor', re(String.raw`projects/[^/]+/mcps/[^/]+/(?:SERVER_METADATA\.json|tools/[^/]+\.json)`)],
  ['hooks', re(String.raw`hooks\.json`)],
  ['terminal', re(String.raw`projects/[^/]+/terminals/[^/]+\.txt`)],
];

// Paths below Cursor's user folder (<CU>): the global and per-workspace state databases.
const USER_FILES: readonly [CursorFile, RegExp][] = [
  ['global-db', /^globalStorage\/state\.vscdb$/i],
  ['global-db-backup', /^globalStorage\/state\.vscdb\.backup$/i],
  ['workspace-db', /^workspaceStorage\/[^/]+\/state\.vscdb$/i],
  ['workspace-db-backup', /^workspaceStorage\/[^/]+\/state\.vscdb\.backup$/i],
  ['workspace-json', /^workspaceStorage\/[^/]+\/workspace\.json$/i],
];

/** System-wide hooks: `/etc/cursor`, `/Library/Application Support/Cursor`, `C:/ProgramData/Cursor` (system-scope rels). */
export const SYSTEM_HOOKS_RE = /^(?:[A-Za-z]:\/)?(?:etc\/cursor|Library\/Application Support\/Cursor|ProgramData\/Cursor)\/hooks\.json$/i;

/** What a Cursor file is, from its rel alone; undefined for a file no parser reads. */
export function cursorFileOf(rel: string): CursorFile | undefined {
  // Before the editor table: `Library/Application Support/Cursor/hooks.json` is also how a macOS
  // system file's rel reads, and it is the system's hooks file, not a file of a data folder.
  if (SYSTEM_HOOKS_RE.test(rel)) return 'hooks';
  const ed = editorOf(rel);
  if (ed) {
    if (ed.id !== 'cursor' || ed.rest === undefined) return undefined;
    return USER_FILES.find(([, r]) => r.test(ed.rest!))?.[0];
  }
  return HOME_FILES.find(([, r]) => r.test(rel))?.[0];
}

/** The workspace folder name of a workspaceStorage path (`workspaceStorage/<id>/...`), or ''. */
export function workspaceIdOf(rel: string): string {
  return /(?:^|\/)workspaceStorage\/([^/]+)\//i.exec(rel)?.[1] ?? '';
}

/** The `projects/<slug>` folder name of a path under ~/.cursor, or ''. */
export function projectSlugOf(rel: string): string {
  return new RegExp(`^${H}/projects/([^/]+)/`, 'i').exec(rel)?.[1] ?? '';
}

/**
 * Cursor's slug of a workspace path: the leading separator dropped and every character other than
 * a letter or digit replaced by `-` (`/srv/proj` → `srv-proj`). Lossy: used only to check that a
 * path read elsewhere belongs to a folder, never to guess a path from a slug.
 */
export function slugOf(path: string): string {
  return path.replace(/^[/\\]+/, '').replace(/[^A-Za-z0-9]/g, '-');
}

/**
 * The session a transcript belongs to and, for a subagent's file, its own id and its parent:
 * `<id>.txt` → id; `<id>/<id>.jsonl` → id; `<id>/subagents/<sub>.jsonl` → sub, parent id.
 */
export function transcriptIds(rel: string): { session: string; parent: string } {
  const parts = rel.split('/');
  const base = posix.basename(rel).replace(/\.(?:txt|jsonl|json)$/i, '');
  const i = parts.findIndex((p) => p.toLowerCase() === 'agent-transcripts');
  const below = parts.slice(i + 1);
  if (below.length === 3 && below[1].toLowerCase() === 'subagents') return { session: base, parent: below[0] };
  if (below.length === 2) return { session: below[0], parent: '' };
  return { session: base, parent: '' };
}

/** The transcript's format by extension. */
export function transcriptFormat(rel: string): 'txt' | 'jsonl' | 'json' {
  const ext = posix.extname(rel).toLowerCase();
  return ext === '.txt' ? 'txt' : ext === '.json' ? 'json' : 'jsonl';
}

/** The CLI store's chat folder (md5 of the cwd) and agent id: `chats/<md5>/<agent id>/store.db`. */
export function cliStoreIds(rel: string): { cwdHash: string; agentId: string } {
  const parts = rel.split('/');
  return { cwdHash: parts[parts.length - 3] ?? '', agentId: parts[parts.length - 2] ?? '' };
}
