import { createReadStream, createWriteStream } from 'node:fs';
import { lstat, readdir, readFile, realpath } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { type CollectionInfo, checkCollectionInfo, type ManifestRow, type SidecarCheck } from '@aitrail/collector/archive';
import { readManifestStream } from './manifest-reader.js';
import { safeJoin } from './safe-path.js';

/** A member of a collection: a file under `homes/`, `projects/` or `system/`. */
export interface MemberInfo {
  name: string;
  size: number;
  /** Set when the member is not a regular file (a link in an unpacked directory): never read. */
  problem?: string;
}

/** Reading members of a collection, without its metadata: what a parse job needs. */
export interface MemberAccess {
  /** The bytes of one member. */
  openMember(archivePath: string): AsyncIterable<Buffer>;
  /** Copy members into `dir`, each under its base name (SQLite files with their sidecars). */
  materialize(archivePaths: string[], dir: string): Promise<void>;
  close(): Promise<void>;
}

/** One input of `analyze`: an archive or an unpacked collection directory. */
export interface CollectionSource extends MemberAccess {
  /** The input as the user named it. */
  label: string;
  info: CollectionInfo;
  manifest: ManifestRow[];
  /** Problems found reading collection.json or manifest.jsonl (bad lines...). */
  problems: string[];
  /** Every member present besides collection.json and manifest.jsonl. */
  members(): MemberInfo[];
  /** A zip's own SHA-256 and its sidecar's word, hashed while the analysis runs (none for a folder). */
  archive?: Promise<ArchiveCheck>;
}

/** What inventory.json says of an input zip: its SHA-256 and what `<zip>.sha256` says of it, or why it could not be read. */
export type ArchiveCheck = { sha256: string; sidecar: SidecarCheck['status']; sidecar_sha256?: string } | { error: string };

/** Names of the two metadata members every collection has. */
export const METADATA_MEMBERS = new Set(['collection.json', 'manifest.jsonl']);

/**
 * Parse collection.json text; a file that is not an aitrail collection is an error saying so. A
 * field of a type collection.json never has is left out, and named in `problems`.
 */
export function parseCollectionInfo(label: string, infoText: string): { info: CollectionInfo; problems: string[] } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(infoText);
  } catch (e) {
    throw new Error(`${label}: expected collection.json to be JSON, found a parse error (${(e as Error).message}); is this an aitrail collection?`);
  }
  const { info, problems } = checkCollectionInfo(parsed);
  if (info.format !== 'aitrail-collection') {
    throw new Error(`${label}: expected collection.json with format "aitrail-collection", found ${JSON.stringify(info.format)}; is this an aitrail collection?`);
  }
  return { info, problems };
}

async function walk(root: string, dir: string, out: MemberInfo[]): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    const full = join(dir, e.name);
    const name = full.slice(root.length + 1).split(sep).join('/');
    if (e.isDirectory()) await walk(root, full, out);
    else if (e.isFile()) out.push({ name, size: (await lstat(full)).size });
    else out.push({ name, size: 0, problem: 'not a regular file (a link or special file in the unpacked collection); not read' });
  }
}

/** An unpacked collection directory: collection.json, manifest.jsonl and the member files. */
export async function openDirectorySource(dir: string): Promise<CollectionSource> {
  const root = await realpath(dir);
  const missing = (name: string) => new Error(`${dir}: expected an aitrail collection (a .zip, or a folder with collection.json and manifest.jsonl), found no ${name}; point analyze at the archive or the unpacked folder`);
  const infoPath = join(root, 'collection.json');
  const manifestPath = join(root, 'manifest.jsonl');
  const infoStat = await lstat(infoPath).catch(() => null);
  if (!infoStat?.isFile()) throw missing('collection.json');
  if (infoStat.size > 16 * 1024 * 1024) throw new Error(`${dir}: expected a small collection.json, found ${infoStat.size} bytes; is this an aitrail collection?`);
  if (!(await lstat(manifestPath).catch(() => null))?.isFile()) throw missing('manifest.jsonl');
  const { info, problems: infoProblems } = parseCollectionInfo(dir, await readFile(infoPath, 'utf8'));
  const { manifest, problems } = await readManifestStream(createReadStream(manifestPath));
  problems.unshift(...infoProblems);
  const all: MemberInfo[] = [];
  await walk(root, root, all);
  const members = all.filter((m) => !METADATA_MEMBERS.has(m.name));
  return { label: dir, info, manifest, problems, members: () => members, ...directoryMembers(root) };
}

/**
 * Member access in an unpacked collection whose real path is `root`. A member is only ever
 * opened through this guard: the name must stay inside the folder, and so must its real path
 * (a link planted in the unpacked tree is refused).
 */
export function directoryMembers(root: string): MemberAccess {
  const resolveMember = async (name: string) => {
    const full = safeJoin(root, name);
    const real = await realpath(full);
    if (!real.startsWith(root + sep)) throw new Error(`${name}: expected a file inside ${root}, found a path resolving to ${real}; not read`);
    const st = await lstat(real);
    if (!st.isFile()) throw new Error(`${name}: expected a regular file, found another kind; not read`);
    return real;
  };
  return {
    async *openMember(name: string) {
      const path = await resolveMember(name);
      for await (const chunk of createReadStream(path, { highWaterMark: 256 * 1024 })) yield chunk as Buffer;
    },
    async materialize(names: string[], to: string) {
      for (const name of names) {
        const path = await resolveMember(name);
        await pipeline(createReadStream(path), createWriteStream(join(to, name.split('/').pop()!), { mode: 0o600 }));
      }
    },
    close: async () => {},
  };
}
