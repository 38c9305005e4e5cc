import { type BigIntStats, lstatSync } from 'node:fs';
import { readlink } from 'node:fs/promises';
import type { Matcher } from './globs.js';
import { decodeName, kindOf, memberRel, statColumns } from './names.js';
import { AHEAD, type Early, early, type Listed, listDir, plan } from './walk-listing.js';
import type { ManifestRow } from './types.js';

/** What one walk is collecting: whose files, for which agent, matched by which globs. */
export interface TreeScope {
  user: string;
  home: string;
  agent: string;
  scope: ManifestRow['scope'];
  projectRoot?: string;
  /** Member name prefix: `homes/<user>/`, `projects/<encoded root>/` or `system/`. */
  memberPrefix: string;
  /** Maps a rel to the string the globs see (`/`-prefixed for system scope). */
  globPath: (rel: string) => string;
  collect: Matcher;
  secret: Matcher;
  excludedDir: Matcher;
  excludedFile: Matcher;
  /** Whether a directory can hold anything the globs match (prunes the walk). */
  descend: Matcher;
  /** Directories never entered, no row (project scope: node_modules, .git, ...). */
  pruned?: Matcher;
  /** For a directory matched by a catalog `collect_if`: the names it must hold one of. */
  collectIf?: (globPath: string) => string[] | undefined;
  /** Bounds of a project walk (shared by all its globs); undefined elsewhere. */
  limit?: WalkLimit;
  /** Native path separator of this machine. */
  sep: string;
  /** Globs and names compared case-insensitively (Windows and macOS). */
  nocase: boolean;
}

/** Bounds on one project root's walk: how deep, and how many directory entries are listed. */
export interface WalkLimit {
  /** Directories more than this many levels below the root are not entered. */
  maxDepth: number;
  /** The walk stops once this many directory entries have been listed. */
  maxEntries: number;
  entries: number;
  /** Set when maxEntries was reached: the row already given. */
  stopped?: ManifestRow;
  /** The first directory too deep to enter, and how many there were. */
  tooDeep?: { row: ManifestRow; count: number };
}

/** Default bounds of a project walk (docs/catalog.md, "Project walks"). */
export const PROJECT_WALK_LIMIT = { maxDepth: 32, maxEntries: 200_000 } as const;

/** One entry found by the walk, with the lstat taken before any read. */
export interface Found {
  scope: TreeScope;
  fsPath: Buffer;
  rel: string;
  escaped: boolean;
  st: BigIntStats;
}

/** Receives what the walk finds; the collector decides what to read. */
export interface WalkHost {
  full: boolean;
  signal?: AbortSignal;
  row(row: ManifestRow): void;
  file(found: Found): Promise<void>;
}

/** A manifest row with the metadata columns filled from lstat (or empty ones). */
export function baseRow(scope: TreeScope, rel: string, fsPath: Buffer, escaped: boolean, st?: BigIntStats): ManifestRow {
  const cols = st
    ? statColumns(st)
    : { size: null, mtime: '', atime: '', ctime: '', birthtime: '', mode: '' };
  return {
    user: scope.user,
    home: scope.home,
    agent: scope.agent,
    scope: scope.scope,
    rel,
    source_path: decodeName(fsPath).text,
    archive_path: '',
    status: 'collected',
    reason: escaped ? 'file name is not valid UTF-8: invalid bytes written \\xNN in rel' : '',
    secret: false,
    kind: st ? kindOf(st) : 'unknown',
    bytes_read: null,
    sha256: '',
    ...cols,
    ...(scope.projectRoot !== undefined ? { project_root: scope.projectRoot } : {}),
  };
}

/** Member name for a rel in this scope. */
export function memberName(scope: TreeScope, rel: string, escaped: boolean): string {
  const r = memberRel(rel, escaped);
  // A Windows system rel starts with its drive (C:/Program Files/...): no ':' in member names.
  return scope.memberPrefix + (scope.scope === 'system' ? r.replace(/^([A-Za-z]):/, '$1%3A') : r);
}

function join(a: Buffer, sep: string, b: Buffer): Buffer {
  return Buffer.concat([a, Buffer.from(sep), b]);
}

function withReason(row: ManifestRow, reason: string): ManifestRow {
  row.reason = row.reason ? `${reason}; ${row.reason}` : reason;
  return row;
}

/** The one row for directories a project walk found too deep to enter (after the walk). */
export function tooDeepRow(limit: WalkLimit): ManifestRow | undefined {
  if (!limit.tooDeep) return undefined;
  const { row, count } = limit.tooDeep;
  row.status = 'skipped_too_large';
  row.size = null;
  const more = count > 1 ? `; ${count - 1} more directories at that depth were not entered either` : '';
  return withReason(row, `deeper than ${limit.maxDepth} levels below the project root: not entered (the bound on project globs)${more}`);
}

/** Count files and bytes below a directory by lstat alone: nothing is opened, no link followed. */
export async function countTree(dir: Buffer, sep: string, signal?: AbortSignal): Promise<{ files: number; bytes: number; unreadable: number }> {
  const acc = { files: 0, bytes: 0, unreadable: 0 };
  const stack = [dir];
  while (stack.length > 0) {
    if (signal?.aborted) throw signal.reason ?? new Error('aborted');
    const d = stack.pop()!;
    let listed: Listed[];
    try {
      listed = await listDir(d);
    } catch {
      acc.unreadable += 1;
      continue;
    }
    for (const { name, type } of listed) {
      const p = join(d, sep, name);
      if (type === 'dir') stack.push(p);
      else if (type === 'file') {
        acc.files += 1;
        // Synchronously: an excluded worktree holds a whole checkout, and an await on libuv's
        // pool for each file cost several times the call.
        try {
          acc.bytes += Number(lstatSync(p, { bigint: true }).size);
        } catch {
          acc.unreadable += 1;
        }
      }
    }
  }
  return acc;
}

/**
 * Walk one tree from `fsPath` (which stands for `rel`) without following links, at most
 * `depth` levels below; rows for what is skipped, `host.file` for each regular file to read.
 */
export async function walkTree(
  host: WalkHost,
  scope: TreeScope,
  fsPath: Buffer,
  rel: string,
  escaped: boolean,
  depth: number,
  pre?: Early,
): Promise<void> {
  if (host.signal?.aborted) throw host.signal.reason ?? new Error('aborted');
  if (scope.limit?.stopped) return;
  let st: BigIntStats;
  try {
    // What the lstat says decides, whether asked for ahead (the listing is then unused) or now:
    // synchronously, as an await on libuv's pool costs several times the call.
    st = pre ? await pre.st : lstatSync(fsPath, { bigint: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return;
    const row = baseRow(scope, rel, fsPath, escaped);
    row.status = 'error';
    host.row(withReason(row, `cannot lstat (${code ?? (err as Error).message})`));
    return;
  }
  const g = scope.globPath(rel);
  if (st.isDirectory()) {
    if (!host.full && rel !== '' && scope.excludedDir(g)) {
      const row = baseRow(scope, rel, fsPath, escaped, st);
      const c = await countTree(fsPath, scope.sep, host.signal);
      row.status = 'skipped_excluded';
      row.size = null;
      row.files = c.files;
      row.bytes = c.bytes;
      const more = c.unreadable > 0 ? ` (${c.unreadable} entries could not be listed)` : '';
      host.row(withReason(row, `excluded directory: not read; counted by lstat only${more}; --full collects it`));
      return;
    }
    if (depth <= 0 || (rel !== '' && !scope.descend(g))) return;
    if (rel !== '' && scope.pruned?.(g)) return;
    const limit = scope.limit;
    if (limit && rel.split('/').length > limit.maxDepth) {
      if (limit.tooDeep) limit.tooDeep.count += 1;
      else limit.tooDeep = { row: baseRow(scope, rel, fsPath, escaped, st), count: 1 };
      return;
    }
    let listed: Listed[];
    try {
      listed = await (pre?.list ?? listDir(fsPath));
    } catch (err) {
      const row = baseRow(scope, rel, fsPath, escaped, st);
      row.status = 'error';
      host.row(withReason(row, `cannot list directory (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`));
      return;
    }
    if (limit) {
      limit.entries += listed.length;
      if (limit.entries > limit.maxEntries) {
        const row = baseRow(scope, rel, fsPath, escaped, st);
        row.status = 'skipped_too_large';
        row.size = null;
        limit.stopped = withReason(
          row,
          `project walk stopped: more than ${limit.maxEntries} directory entries listed under the project root ` +
            `(the bound on project globs); this directory and everything the walk had not reached yet were not walked, files found before are kept`,
        );
        host.row(row);
        return;
      }
    }
    const need = !host.full && rel !== '' ? scope.collectIf?.(g) : undefined;
    if (need && !listed.some(({ name: n }) => need.some((w) => (scope.nocase ? w.toLowerCase() === n.toString('utf8').toLowerCase() : w === n.toString('utf8'))))) {
      const row = baseRow(scope, rel, fsPath, escaped, st);
      const c = await countTree(fsPath, scope.sep, host.signal);
      Object.assign(row, { status: 'skipped_excluded', size: null, files: c.files, bytes: c.bytes });
      host.row(withReason(row, `collect_if: holds none of ${need.join(', ')}; not read, counted by lstat only; --full collects it`));
      return;
    }
    const kids: { fsPath: Buffer; rel: string; escaped: boolean; list: boolean; pre?: Early }[] = [];
    for (const { name, type } of listed) {
      const d = decodeName(name);
      const childRel = rel === '' ? d.text : `${rel}/${d.text}`;
      const next = plan(host, scope, childRel, type, depth - 1);
      if (next !== 'skip') kids.push({ fsPath: join(fsPath, scope.sep, name), rel: childRel, escaped: escaped || d.escaped, list: next === 'list' });
    }
    for (let i = 0; i < kids.length; i++) {
      for (let j = i; j < Math.min(kids.length, i + AHEAD); j++) if (kids[j].list) kids[j].pre ??= early(kids[j].fsPath);
      const k = kids[i];
      await walkTree(host, scope, k.fsPath, k.rel, k.escaped, depth - 1, k.pre);
      k.pre = undefined;
    }
    return;
  }
  // A link where the globs would have walked on (a linked folder) is recorded too, never entered.
  const wanted = scope.collect(g) || scope.secret(g) || (st.isSymbolicLink() && scope.descend(g) && !scope.pruned?.(g));
  if (!wanted) return;
  if (st.isFile()) {
    if (!host.full && scope.excludedFile(g)) {
      const row = baseRow(scope, rel, fsPath, escaped, st);
      row.status = 'skipped_excluded';
      host.row(withReason(row, 'excluded file: not read; --full collects it'));
      return;
    }
    await host.file({ scope, fsPath, rel, escaped, st });
    return;
  }
  const row = baseRow(scope, rel, fsPath, escaped, st);
  row.status = 'skipped_special';
  row.secret = scope.secret(g);
  if (st.isSymbolicLink()) {
    try {
      row.link_target = decodeName((await readlink(fsPath, { encoding: 'buffer' })) as Buffer).text;
    } catch (err) {
      row.link_target = '';
      withReason(row, `readlink failed (${(err as NodeJS.ErrnoException).code})`);
    }
    host.row(withReason(row, 'symbolic link: recorded, never followed'));
  } else {
    host.row(withReason(row, `${row.kind}: recorded, never opened`));
  }
}
