import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openArchive, readCollection } from '../archive-reader.js';
import { loadCatalogs } from '../catalog.js';
import { collect } from '../collect.js';
import type { ManifestRow } from '../types.js';
import { ZipWriter } from '../zip-writer.js';
import { readSurvivors } from './aitrail-survivors.js';
import { importForeign } from './import.js';

// A real collection of the seed home whose end is cut or damaged after manifest.jsonl (inside
// the central directory, or a directory that does not read): its collection.json and manifest
// are whole, and the import keeps what they recorded of every file, checking each member's
// SHA-256 against its row.

const REPO = fileURLToPath(new URL('../../../../', import.meta.url));
const HOME = path.join(REPO, 'fixtures/homes/seed-copilot');
const catalogs = loadCatalogs();
let T: string;
let whole: Buffer;
let reference: Awaited<ReturnType<typeof contents>>;

async function contents(zip: string): Promise<{ rows: ManifestRow[]; info: Record<string, unknown>; members: Map<string, Buffer> }> {
  const reader = await openArchive(zip);
  try {
    const c = await readCollection(reader);
    const members = new Map<string, Buffer>();
    for (const name of reader.members.keys()) {
      const parts: Buffer[] = [];
      for await (const b of (await reader.openMember(name)) as AsyncIterable<Buffer>) parts.push(b);
      members.set(name, Buffer.concat(parts));
    }
    return { rows: c.manifest, info: c.info as unknown as Record<string, unknown>, members };
  } finally {
    reader.close();
  }
}

/** The central directory's offset, from the end record (no comment is written). */
const directoryAt = (zip: Buffer) => zip.readUInt32LE(zip.length - 22 + 16);

async function importOf(bytes: Buffer, name: string) {
  const input = path.join(T, `${name}.zip`);
  writeFileSync(input, bytes);
  const out = path.join(T, `${name}-new.zip`);
  const summary = await importForeign({ input, out, full: false, secrets: 'collect', catalogs, tmpDir: T });
  return { summary, ...(await contents(out)) };
}

const files = (rows: ManifestRow[]) => rows.filter((r) => r.status === 'collected');
const said = (r: ManifestRow) => JSON.stringify([r.user, r.home, r.source_path, r.archive_path, r.sha256, r.size, r.mtime, r.atime, r.ctime, r.birthtime, r.mode, r.agent, r.secret]);

beforeAll(async () => {
  T = mkdtempSync(path.join(tmpdir(), 'aitrail-survivors-'));
  const ref = path.join(T, 'reference.zip');
  await collect({ homes: [HOME], out: ref, full: false, secrets: 'collect', dryRun: false, catalogs });
  whole = readFileSync(ref);
  reference = await contents(ref);
  expect(files(reference.rows).length).toBeGreaterThan(10);
}, 60_000);
afterAll(() => rmSync(T, { recursive: true, force: true }));

describe('an aitrail zip damaged after its manifest', () => {
  it.each([
    ['cut inside its central directory', () => whole.subarray(0, directoryAt(whole) + 100)],
    [
      'whose central directory does not read (its first signature flipped)',
      () => {
        const b = Buffer.from(whole);
        b[directoryAt(whole) + 2] ^= 0xff;
        return b;
      },
    ],
    [
      "whose end record's directory offset is one off (its members do not read where the directory says)",
      () => {
        const b = Buffer.from(whole);
        b.writeUInt32LE(directoryAt(whole) - 1, b.length - 22 + 16);
        return b;
      },
    ],
  ])('%s: every file keeps the path, hashes and times the collector recorded; the host and homes are its own', async (what, damage) => {
    const r = await importOf(damage(), what.replace(/\W+/g, '-').slice(0, 40));
    expect(files(r.rows).map(said).sort()).toEqual(files(reference.rows).map(said).sort());
    for (const row of files(r.rows)) expect(row.imported?.hashes.sha256?.check, row.archive_path).toBe('match');
    expect(r.info.host).toBe(reference.info.host);
    expect(r.info.homes).toEqual([{ user: 'seed-copilot', home: HOME }]);
    expect(r.info.imported_from).toMatchObject({ collector: 'aitrail', metadata: 'whole', started_utc: reference.info.started_utc });
    expect(r.summary.source_notes.join('\n')).toMatch(/collection\.json and manifest\.jsonl are whole/);
    expect(r.summary.mismatched).toBe(0);
  });

  it('cut inside collection.json, written after the manifest: every file as the manifest recorded it, the host from the file name', async () => {
    const at = whole.indexOf(Buffer.from('collection.json')) - 30;
    expect(whole.readUInt32LE(at)).toBe(0x04034b50);
    const r = await importOf(whole.subarray(0, at + 60), 'aitrail-vm9-20261201T043000Z');
    expect(files(r.rows).map(said).sort()).toEqual(files(reference.rows).map(said).sort());
    expect(r.info.host).toBe('vm9');
    expect(r.info.homes).toEqual([{ user: 'seed-copilot', home: HOME }]);
    expect(r.info.imported_from).toMatchObject({ collector: 'aitrail', metadata: 'manifest', started_utc: '2026-12-01T04:30:00.000Z' });
    expect(r.summary.source_notes.join('\n')).toMatch(/its manifest\.jsonl is whole, its collection\.json \(written after it\) is not/);
  });

  it('a member whose bytes are not the ones its manifest row hashed is refused, named, and not archived', async () => {
    // The same collection rewritten with one row's recorded SHA-256 changed, then cut in its directory.
    const TAMPERED = 'homes/seed-copilot/.copilot/command-history-state.json';
    const out = path.join(T, 'tampered-whole.zip');
    const w = await ZipWriter.create(out, 'fast');
    for (const [name, data] of reference.members) {
      const bytes =
        name === 'manifest.jsonl'
          ? Buffer.from(
              data
                .toString('utf8')
                .split('\n')
                .map((l) => (l.includes(`"archive_path":"${TAMPERED}"`) ? l.replace(/"sha256":"[0-9a-f]{64}"/, `"sha256":"${'0'.repeat(64)}"`) : l))
                .join('\n'),
            )
          : data;
      await w.addStream(Readable.from([bytes]), name, Date.UTC(2026, 10, 1), 0o644);
    }
    await w.finish();
    const tampered = readFileSync(out);
    const r = await importOf(tampered.subarray(0, directoryAt(tampered) + 10), 'tampered');
    const bad = r.rows.find((x) => x.rel === '.copilot/command-history-state.json')!;
    expect(bad).toMatchObject({ status: 'error', archive_path: '' });
    expect(bad.reason).toMatch(new RegExp(`^aitrail recorded sha256 0{64} for this file, but ${TAMPERED} holds [0-9a-f]{64}: not the bytes it collected; not parsed$`));
    expect(r.summary.mismatched).toBe(1);
    expect(files(r.rows)).toHaveLength(files(reference.rows).length - 1);
  });
});

it('an aitrail zip that reads is not imported: the message says to analyze it as it is', async () => {
  await expect(importOf(whole, 'healthy')).rejects.toThrow(/already an aitrail collection, and it reads: analyze or verify it as it is/);
});

describe('readSurvivors', () => {
  it('takes nothing from a collection.json that is not an aitrail collection, or is missing, without a manifest', async () => {
    expect(await readSurvivors(new Map())).toBeUndefined();
    expect(await readSurvivors(new Map([['collection.json', Buffer.from('{"format":"something-else","host":"h"}')]]))).toBeUndefined();
    expect(await readSurvivors(new Map([['collection.json', Buffer.from('not json')]]))).toBeUndefined();
  });

  it('takes the manifest alone when collection.json is missing or not one', async () => {
    const manifest = Buffer.from(reference.rows.map((r) => JSON.stringify(r)).join('\n'));
    for (const info of [undefined, Buffer.from('{"format":"something-else","host":"h"}')]) {
      const s = (await readSurvivors(new Map([...(info ? [['collection.json', info] as const] : []), ['manifest.jsonl', manifest]])))!;
      expect(s.info).toBe(false);
      expect(s.host).toBeUndefined();
      expect(s.rows.size).toBe(files(reference.rows).length);
    }
  });

  it('keeps the checked rows of archived files and counts the others; a misfit row is a problem, not a row', async () => {
    const info = Buffer.from(JSON.stringify({ ...reference.info, layout: 'plan9' }));
    const rows = reference.rows.map((r) => JSON.stringify(r));
    const manifest = Buffer.from([...rows, '{"status":"collected","archive_path":"homes/x/y","size":"huge"}', '[1]'].join('\n'));
    const s = (await readSurvivors(new Map([['collection.json', info], ['manifest.jsonl', manifest]])))!;
    expect(s.host).toBe(reference.info.host);
    expect(s.layout).toBeUndefined();
    expect([...s.rows.keys()].sort()).toEqual(files(reference.rows).map((r) => r.archive_path).sort());
    expect(s.unarchived).toBe(reference.rows.length - files(reference.rows).length);
    expect(s.problems.filter((p) => /manifest\.jsonl line/.test(p))).toHaveLength(2);
  });
});
