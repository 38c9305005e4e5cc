import { lstat, open, readdir, readlink } from 'node:fs/promises';
import path from 'node:path';
import { openArchive } from '../archive-reader.js';
import { SAFE_OPEN_FLAGS } from '../read-file.js';

/** One entry of a foreign collection's tree: a file of an unpacked folder or a zip member. */
export interface TreeEntry {
  /** `/`-separated, relative to the tree's top. */
  name: string;
  size: number;
  kind: 'file' | 'dir' | 'symlink' | 'other';
  /** Modification time in ms (folders only: a zip's DOS times are not kept). */
  mtimeMs?: number;
  linkTarget?: string;
}

/** A foreign collection read as a tree of named entries: an unpacked folder or a zip. */
export interface FileTree {
  label: string;
  /** Every entry, sorted by name. */
  entries: TreeEntry[];
  /** Entries refused or not listed (unsafe zip names, special files), in words. */
  problems: string[];
  open(name: string): AsyncIterable<Buffer>;
  /** A small member as text; refuses one over `max` bytes. */
  readText(name: string, max: number): Promise<string>;
  close(): void;
}

/** Entries listed in a folder before the listing stops (a runaway tree, not a collection). */
export const MAX_TREE_ENTRIES = 5_000_000;

/** A folder read as a tree: listed with lstat (no link followed), files opened read-only without following links. */
export async function openDirTree(dir: string): Promise<FileTree> {
  const top = path.resolve(dir);
  const entries: TreeEntry[] = [];
  const problems: string[] = [];
  const walk = async (abs: string, rel: string): Promise<void> => {
    let names: string[];
    try {
      names = await readdir(abs);
    } catch {
      return;
    }
    for (const n of names.sort()) {
      if (entries.length >= MAX_TREE_ENTRIES) throw new Error(`${dir}: more than ${MAX_TREE_ENTRIES} entries; is this a collection folder?`);
      const full = path.join(abs, n);
      const name = rel === '' ? n : `${rel}/${n}`;
      const st = await lstat(full).catch(() => undefined);
      if (!st) continue;
      if (st.isDirectory()) {
        entries.push({ name, size: 0, kind: 'dir', mtimeMs: st.mtimeMs });
        await walk(full, name);
      } else if (st.isFile()) entries.push({ name, size: st.size, kind: 'file', mtimeMs: st.mtimeMs });
      else if (st.isSymbolicLink()) entries.push({ name, size: 0, kind: 'symlink', linkTarget: await readlink(full).catch(() => ''), mtimeMs: st.mtimeMs });
      else {
        entries.push({ name, size: 0, kind: 'other' });
        problems.push(`${name}: not a regular file, folder or link (a FIFO, socket or device); not read`);
      }
    }
  };
  await walk(top, '');
  const local = (name: string) => {
    const segs = name.split('/');
    if (segs.some((s) => s === '' || s === '.' || s === '..')) throw new Error(`${name}: not a plain path inside ${dir}; not read`);
    return path.join(top, ...segs);
  };
  const openMember = async function* (name: string): AsyncIterable<Buffer> {
    const fh = await open(local(name), SAFE_OPEN_FLAGS);
    for await (const c of fh.createReadStream()) yield c as Buffer;
  };
  return {
    label: dir,
    entries,
    problems,
    open: openMember,
    async readText(name, max) {
      const st = await lstat(local(name));
      if (!st.isFile() || st.size > max) throw new Error(`${name}: expected a file of at most ${max} bytes, found ${st.isFile() ? `${st.size} bytes` : 'another kind'}`);
      const parts: Buffer[] = [];
      for await (const c of openMember(name)) parts.push(c);
      return Buffer.concat(parts).toString('utf8');
    },
    close() {},
  };
}

/** A zip read as a tree through the collector's reader (unsafe names refused, members capped at their declared size). */
export async function openZipTree(file: string): Promise<FileTree> {
  const reader = await openArchive(file);
  const entries: TreeEntry[] = [...reader.members].map(([name, m]) => ({ name, size: m.size, kind: 'file' as const }));
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return {
    label: file,
    entries,
    problems: [...reader.problems],
    async *open(name: string) {
      for await (const c of await reader.openMember(name)) yield c as Buffer;
    },
    readText: (name, max) => reader.readText(name, max),
    close: () => reader.close(),
  };
}
