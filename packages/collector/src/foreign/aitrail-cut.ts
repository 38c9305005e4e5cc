import path from 'node:path';
import type { Layout } from '../homes.js';
import { decodeRoot } from '../names.js';
import { type LocalScan, type ScanEnd, scanLocalHeaders } from '../zip-salvage.js';
import { MAX_SURVIVING_MANIFEST, readSurvivors, recordedOf, type Survivors } from './aitrail-survivors.js';

import { targetPath } from './paths.js';
import type { ForeignFile, ForeignSource } from './types.js';

/*
 * An aitrail collection zip cut short (a copy stopped, a collection killed): no central directory,
 * and no collection.json or manifest.jsonl, which the collector writes last. Its whole members are
 * found by their local headers (zip-salvage.ts) and imported as a foreign collection, so what
 * survived is analyzed, and the new archive says what was lost.
 */

/** The host an archive's default name gives (`aitrail-<host>-<YYYYMMDDTHHMMSSZ>.zip`, or `.zip.partial`), if it has one. */
function hostOfName(file: string): { host: string; started?: string } | undefined {
  // `.partial`: the name the collector writes to until the archive is complete.
  const m = /^aitrail-(.+)-(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z\.zip(?:\.partial)?$/i.exec(path.basename(file));
  return m ? { host: m[1], started: `${m[2]}-${m[3]}-${m[4]}T${m[5]}:${m[6]}:${m[7]}.000Z` } : undefined;
}

/**
 * The first read of the members: the layout their paths point to (a home with AppData is
 * Windows', one with Library macOS'), how many there are and carry a time, and the bytes of
 * collection.json and manifest.jsonl when they are whole (the damage lies after them).
 */
async function survey(file: string): Promise<{ layout: Layout; count: number; timed: number; cut: ScanEnd | undefined; meta: Map<string, Buffer> }> {
  const scan = await scanLocalHeaders(file);
  let layout: Layout = 'linux';
  let count = 0;
  let timed = 0;
  const meta = new Map<string, Buffer>();
  try {
    for await (const m of scan.members()) {
      count++;
      if (m.member.mtime !== undefined) timed++;
      if (m.member.name === 'collection.json' || m.member.name === 'manifest.jsonl') {
        const bytes = await wholeUpTo(m.read(), MAX_SURVIVING_MANIFEST);
        if (bytes) meta.set(m.member.name, bytes);
      } else if (/^homes\/[^/]+\/AppData\//i.test(m.member.name)) layout = 'win32';
      else if (layout === 'linux' && /^homes\/[^/]+\/Library\//.test(m.member.name)) layout = 'darwin';
    }
  } finally {
    await scan.close();
  }
  return { layout, count, timed, cut: scan.end(), meta };
}

/** All of `data` when it is whole (read without error) and at most `max` bytes; else undefined, read to its end all the same. */
async function wholeUpTo(data: AsyncIterable<Buffer>, max: number): Promise<Buffer | undefined> {
  const parts: Buffer[] = [];
  let n = 0;
  try {
    for await (const c of data) {
      n += c.length;
      if (n <= max) parts.push(c);
    }
  } catch {
    return undefined;
  }
  return n <= max ? Buffer.concat(parts) : undefined;
}

/** Where a member was on the target, as far as its name says (the collection.json that said more is lost). */
export function cutTarget(name: string, layout: Layout): string | undefined {
  const segs = name.split('/');
  if (segs[0] === 'homes' && segs.length > 2 && segs[1] !== '') {
    const [user, ...rel] = segs.slice(1);
    const home = layout === 'win32' ? `C:/Users/${user}` : layout === 'darwin' ? (user === 'root' ? '/var/root' : `/Users/${user}`) : user === 'root' ? '/root' : `/home/${user}`;
    return `${home}/${rel.join('/')}`;
  }
  if (segs[0] === 'system' && segs.length > 1) return targetPath(layout === 'win32' ? segs.slice(1).join('/') : `/${segs.slice(1).join('/')}`);
  if (segs[0] === 'projects' && segs.length > 2) {
    let root: string;
    try {
      root = decodeRoot(segs[1]);
    } catch {
      return undefined;
    }
    const t = targetPath(root);
    return t ? `${t.replace(/\/$/, '')}/${segs.slice(2).join('/')}` : undefined;
  }
  return undefined;
}

/** Open a cut aitrail collection zip as a foreign collection of its whole members. */
export async function openCutAitrail(file: string): Promise<ForeignSource> {
  const surveyed = await survey(file);
  const { count, timed, cut } = surveyed;
  const kept = await readSurvivors(surveyed.meta);
  if (kept) return survivorSource(file, surveyed, kept);
  const named = hostOfName(file);
  const layout = surveyed.layout;
  // Collections written before the collector put the mtime in its local headers have none.
  const times =
    timed === 0
      ? 'the file times are unknown'
      : `the modification times are the members' own, in whole seconds, from their local headers${timed < count ? ` (${count - timed} members have none)` : ''}, and the other file times are unknown`;
  const notes = [
    `aitrail: ${file} is an aitrail collection cut short: ${cut?.why ?? 'it ends early'}; ${count} members found by their local headers, each checked against its own CRC-32 and size`,
    `aitrail: collection.json and manifest.jsonl, written last, are lost: the hashes and times the collector recorded cannot be checked or kept, ${times}, and the homes are taken as ` +
      (layout === 'win32' ? 'C:\\Users\\<user>' : layout === 'darwin' ? '/Users/<user>' : '/home/<user>') +
      ` (the ${layout} layout the member paths point to)`,
  ];
  if (!named) notes.push(`aitrail: the host is not known (collection.json is lost, and the file name is not aitrail's default); recorded as "unknown", or give --host`);
  let scan: LocalScan | undefined;
  const skipped: string[] = [];
  return {
    collector: 'aitrail',
    label: file,
    host: named?.host ?? 'unknown',
    layout,
    hashes: [],
    started: named?.started,
    notes,
    details: { cut_at_byte: cut?.at ?? null, members_found: count },
    async *files(): AsyncIterable<ForeignFile> {
      scan = await scanLocalHeaders(file);
      for await (const m of scan.members()) {
        const target = cutTarget(m.member.name, layout);
        if (!target) {
          if (m.member.name !== 'collection.json' && m.member.name !== 'manifest.jsonl') skipped.push(m.member.name);
          continue;
        }
        const t = m.member.mtime;
        const recorded = t === undefined ? {} : { mtime: new Date(t * 1000).toISOString(), from: [`local header at byte ${m.member.offset} (Info-ZIP timestamp, whole seconds)`] };
        yield { target, member: m.member.name, kind: 'file', size: m.member.size ?? 0, recorded, open: () => m.read() };
      }
      const end = scan.end();
      if (end && !end.whole && end.at < (cut?.at ?? Number.POSITIVE_INFINITY)) notes.push(`aitrail: the second read stopped earlier than the first (${end.why})`);
      if (skipped.length > 0) notes.push(`aitrail: ${skipped.length} members outside homes/, system/ and projects/ were not imported (first: ${skipped[0]})`);
    },
    recordedFor: () => ({}),
    untrusted: () => undefined,
    close: async () => {
      await scan?.close();
    },
  };
}

/**
 * A damaged aitrail zip whose manifest.jsonl is whole, and mostly its collection.json too: the
 * host, layout and times are theirs (else the file name's and the paths'), each file keeps the path, hashes and times the collector recorded, and each
 * member is checked against its recorded SHA-256 (a mismatch is refused, as for any import).
 */
function survivorSource(file: string, surveyed: Awaited<ReturnType<typeof survey>>, kept: Survivors): ForeignSource {
  const layout = kept.layout ?? surveyed.layout;
  const named = hostOfName(file);
  const notes = [
    `aitrail: ${file} is an aitrail collection whose end is cut or damaged: ${surveyed.cut?.why ?? 'its central directory does not read'}; ${surveyed.count} members found by their local headers, each checked against its own CRC-32 and size`,
    kept.info
      ? `aitrail: its collection.json and manifest.jsonl are whole: the host, the homes and each file's path, hashes and times are the ones the collector recorded, and each member is checked against its recorded SHA-256`
      : `aitrail: its manifest.jsonl is whole, its collection.json (written after it) is not: each file's path, home, hashes and times are the ones the collector recorded, each member checked against its recorded SHA-256; the host is ${named ? "the default file name's" : 'not known ("unknown", or give --host)'} and the layout the member paths' (${layout})`,
    ...kept.problems.map((p) => `aitrail: ${p}`),
  ];
  if (kept.unarchived > 0) notes.push(`aitrail: ${kept.unarchived} manifest rows of files the collector did not archive (unreadable, skipped, links) are not carried over; the damaged archive's manifest.jsonl still holds them`);
  const homes = new Map<string, string>();
  for (const r of kept.rows.values()) if (r.scope === 'home' && r.user && r.home && !homes.has(r.user)) homes.set(r.user, r.home);
  let scan: LocalScan | undefined;
  return {
    collector: 'aitrail',
    label: file,
    host: kept.host ?? named?.host ?? 'unknown',
    layout,
    hashes: [],
    started: kept.started ?? named?.started,
    ended: kept.ended,
    notes,
    details: { cut_at_byte: surveyed.cut?.at ?? null, members_found: surveyed.count, metadata: kept.info ? 'whole' : 'manifest' },
    async *files(): AsyncIterable<ForeignFile> {
      scan = await scanLocalHeaders(file);
      for await (const m of scan.members()) {
        const target = cutTarget(m.member.name, layout);
        if (!target) continue;
        yield { target, member: m.member.name, kind: 'file', size: m.member.size ?? 0, recorded: {}, open: () => m.read() };
      }
    },
    recordedFor: (f) => recordedOf(kept.rows.get(f.member)),
    untrusted: () => undefined,
    homeOf: (user) => homes.get(user),
    close: async () => {
      await scan?.close();
    },
  };
}
