import type { BigIntStats } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import type { TreeScope, WalkHost } from './walk.js';

/** Folders whose lstat and listing are asked for ahead of their turn. */
export const AHEAD = 8;

/** A folder's lstat and listing, asked for before walkTree reaches it. */
export interface Early {
  st: Promise<BigIntStats>;
  list: Promise<Listed[]>;
}

/** A directory entry as its listing gives it: `other` for a link, a special file, or no type given (then lstat decides). */
export interface Listed {
  name: Buffer;
  type: 'file' | 'dir' | 'other';
}

/** A directory's entries with the types its listing gives, in byte order. */
export async function listDir(fsPath: Buffer): Promise<Listed[]> {
  // One scandir on libuv's pool, where opendir took three round trips (open, read, close).
  const ents = await readdir(fsPath, { encoding: 'buffer', withFileTypes: true });
  const listed: Listed[] = ents.map((ent) => ({ name: ent.name, type: ent.isFile() ? 'file' : ent.isDirectory() ? 'dir' : 'other' }));
  return listed.sort((a, b) => Buffer.compare(a.name, b.name));
}

/**
 * Ask for a folder's lstat and listing now. The walk is a chain of waits on libuv's pool, one
 * folder after the other: the next folders' answers are gathered while this one's subtree is
 * walked, and used in the walk's own order, so what it finds and records is the same.
 */
export function early(fsPath: Buffer): Early {
  const e = { st: lstat(fsPath, { bigint: true }), list: listDir(fsPath) };
  e.st.catch(() => {});
  e.list.catch(() => {});
  return e;
}

/**
 * What the walk does with a listed entry, decided from the path and the listing's type alone:
 * `skip` when walkTree would pass it over without a row or a read (then it is not lstat'ed at
 * all: a project walk lists tens of thousands of source files no glob wants, and an lstat each,
 * an await on libuv's pool, was most of its time); `list` for a folder walkTree will list (asked
 * for {@link early}); `walk` otherwise. Mirrors walkTree's own checks.
 */
export function plan(host: WalkHost, scope: TreeScope, rel: string, type: Listed['type'], depth: number): 'skip' | 'list' | 'walk' {
  if (type === 'other') return 'walk';
  const g = scope.globPath(rel);
  if (type === 'file') return scope.collect(g) || scope.secret(g) ? 'walk' : 'skip';
  if (!host.full && scope.excludedDir(g)) return 'walk';
  if (depth <= 0 || !scope.descend(g) || scope.pruned?.(g)) return 'skip';
  const limit = scope.limit;
  return limit && rel.split('/').length > limit.maxDepth ? 'walk' : 'list';
}
