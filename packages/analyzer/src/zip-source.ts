import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { type ArchiveReader, archiveDigest, openArchive, startsAsCollection } from '@aitrail/collector/archive';
import { realpath, stat } from 'node:fs/promises';
import { readManifestStream } from './manifest-reader.js';
import { checkArchivePath } from './safe-path.js';
import { type ArchiveCheck, type CollectionSource, directoryMembers, type MemberAccess, METADATA_MEMBERS, type MemberInfo, parseCollectionInfo } from './source.js';

/**
 * A collection zip through the collector's reader: unsafe member names are refused there, and a
 * member inflating past its declared size (a zip bomb) errors instead of filling the disk.
 */
export async function openZipSource(path: string): Promise<CollectionSource> {
  const reader = await openArchive(path);
  try {
    if (!reader.members.has('collection.json') || !reader.members.has('manifest.jsonl')) {
      throw new Error(`${path}: expected an aitrail collection zip holding collection.json and manifest.jsonl, found ${reader.members.has('collection.json') ? 'no manifest.jsonl' : 'no collection.json'}; is this an aitrail collection?`);
    }
    // collection.json is small; manifest.jsonl is streamed with a cap on the line length, so a
    // hostile manifest (one 700 MB line) costs linear time and bounded memory.
    let infoText: string;
    try {
      infoText = await reader.readText('collection.json', 16 * 1024 * 1024);
    } catch (e) {
      // Listed but not where its directory says: the directory (or its offset) is damaged, the members may not be.
      if (startsAsCollection(path)) throw new Error(`${path}: expected a readable collection.json, found ${(e as Error).message}. It starts as an aitrail collection whose central directory is damaged: \`aitrail import ${path} --out <new.zip>\` recovers its members from their local headers into a new archive`);
      throw new Error(`${path}: expected a readable collection.json, found ${(e as Error).message}; is this an aitrail collection?`);
    }
    const { info, problems: infoProblems } = parseCollectionInfo(path, infoText);
    const { manifest, problems } = await readManifestStream(await reader.openMember('manifest.jsonl'));
    problems.unshift(...reader.problems, ...infoProblems);
    const overlaps = reader.overlaps;
    const members: MemberInfo[] = [];
    for (const [name, m] of reader.members) {
      if (METADATA_MEMBERS.has(name)) continue;
      members.push(overlaps.has(name) ? { name, size: m.size, problem: 'shares its compressed data with another member (an overlapping-entry zip bomb); not read' } : { name, size: m.size });
    }
    members.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return { label: path, info, manifest, problems, members: () => members, archive: checkArchive(path), ...zipMembers(path, reader, overlaps) };
  } catch (e) {
    reader.close();
    throw e;
  }
}

/**
 * The zip's SHA-256 against its sidecar, as `aitrail verify` checks it: the members are checked
 * against the manifest, but only this says the manifest and collection.json are the ones collected.
 * Started when the zip is opened, it reads the file beside the parse; it never rejects.
 */
function checkArchive(path: string): Promise<ArchiveCheck> {
  return archiveDigest(path).then(
    ({ sha256, sidecar }) => (sidecar.expected && sidecar.expected !== sha256 ? { sha256, sidecar: sidecar.status, sidecar_sha256: sidecar.expected } : { sha256, sidecar: sidecar.status }),
    (e: Error) => ({ error: `could not hash the archive (${e.message})` }),
  );
}

/** Member access in an opened collection zip; `overlaps` names the members never to read. */
export function zipMembers(path: string, reader: ArchiveReader, overlaps: ReadonlySet<string>): MemberAccess {
  const open = async (name: string) => {
    checkArchivePath(name);
    if (overlaps.has(name)) throw new Error(`${name}: shares its compressed data with another member (an overlapping-entry zip bomb); not read`);
    if (!reader.members.has(name)) throw new Error(`${name}: expected a member of ${path}, found none`);
    return reader.openMember(name);
  };
  return {
    async *openMember(name: string) {
      for await (const c of await open(name)) yield c as Buffer;
    },
    async materialize(names: string[], dir: string) {
      for (const name of names) await pipeline(await open(name), createWriteStream(join(dir, name.split('/').pop()!), { mode: 0o600 }));
    },
    close: async () => reader.close(),
  };
}

/** Member access to a collection (zip or unpacked folder) opened again by path, in a parse job. */
export async function openMembers(path: string): Promise<MemberAccess> {
  if ((await stat(path)).isDirectory()) return directoryMembers(await realpath(path));
  const reader = await openArchive(path);
  return zipMembers(path, reader, reader.overlaps);
}
