import { Readable } from 'node:stream';
import { type ArchiveReader, readCollection } from '../archive-reader.js';
import type { Layout } from '../homes.js';
import type { CollectionInfo, ManifestRow } from '../types.js';
import type { Recorded } from './types.js';

/*
 * An aitrail zip whose end is cut or damaged after its last member (a cut inside the central
 * directory, a directory that does not read) still holds collection.json and manifest.jsonl
 * whole: the host, the layout, every file's path on the target, its hashes and times. A cut
 * inside collection.json, written after the manifest, leaves the manifest alone. Read as
 * `readCollection` reads them, every field checked, they make the import lose nothing the
 * collector recorded of the files it archived.
 */

/** The two metadata members, held when whole: collection.json up to 16 MiB, manifest.jsonl up to this. */
export const MAX_SURVIVING_MANIFEST = 64 * 1024 * 1024;
const MAX_INFO = 16 * 1024 * 1024;

/** What collection.json and manifest.jsonl of a damaged collection say, as the import uses it. */
export interface Survivors {
  /** Whether collection.json survived too (it comes after manifest.jsonl: a cut can fall between them). */
  info: boolean;
  host?: string;
  layout?: Layout;
  started?: string;
  ended?: string;
  /** The manifest's rows of archived files, by member name. */
  rows: Map<string, ManifestRow>;
  /** Rows of files the collector did not archive (unreadable, skipped, links): not carried over. */
  unarchived: number;
  /** What the checks found wrong in them. */
  problems: string[];
}

/** The metadata members' bytes, as the scan found them whole, read through readCollection's checks; undefined when neither is usable. */
export async function readSurvivors(bytes: ReadonlyMap<string, Buffer>): Promise<Survivors | undefined> {
  if ((bytes.get('collection.json')?.length ?? 0) > MAX_INFO) return undefined;
  const members = new Map([...bytes].map(([name, b]) => [name, { size: b.length, compressedSize: b.length }]));
  const reader: ArchiveReader = {
    path: 'the damaged archive',
    members: members as ArchiveReader['members'],
    problems: [],
    overlaps: new Set(),
    openMember: async (name) => Readable.from([bytes.get(name) ?? Buffer.alloc(0)]),
    readText: async (name, max) => {
      const b = bytes.get(name) ?? Buffer.alloc(0);
      if (b.length > max) throw new Error(`${name}: ${b.length} bytes, above ${max}`);
      return b.toString('utf8');
    },
    close: () => {},
  };
  const { info: c, manifest, problems } = await readCollection(reader);
  const info = (c as Partial<CollectionInfo>).format === 'aitrail-collection' && typeof c.host === 'string';
  if (!info && manifest.length === 0) return undefined;
  const rows = new Map<string, ManifestRow>();
  let unarchived = 0;
  for (const r of manifest) {
    if (r.status === 'collected' && r.archive_path) rows.set(r.archive_path, r);
    else unarchived++;
  }
  if (!info) return { info, rows, unarchived, problems: problems.filter((p) => !/^collection\.json/.test(p)) };
  const layout = c.layout === 'linux' || c.layout === 'darwin' || c.layout === 'win32' ? c.layout : undefined;
  return { info, host: c.host, layout, started: c.started_utc || undefined, ended: c.ended_utc || undefined, rows, unarchived, problems };
}

/** What the manifest recorded of one archived file, for the import to check and keep. */
export function recordedOf(row: ManifestRow | undefined): Recorded {
  if (!row) return {};
  const r: Recorded = { from: ['manifest.jsonl of the damaged archive'], path: row.source_path };
  if (row.home) r.home = row.home;
  if (row.sha256) r.sha256 = row.sha256;
  if (typeof row.size === 'number') r.size = row.size;
  for (const k of ['mtime', 'atime', 'ctime', 'birthtime', 'mode'] as const) if (row[k]) r[k] = row[k];
  return r;
}
