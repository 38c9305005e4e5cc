import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openArchive, readCollection } from '../archive-reader.js';
import { loadCatalogs } from '../catalog.js';
import { collect } from '../collect.js';
import type { ManifestRow } from '../types.js';
import { verifyArchive } from '../verify.js';
import { importForeign } from './import.js';
import { kapeFolder, uacTarGz, velociraptorLinuxFolder, velociraptorZip } from './test-helpers/layouts.js';

// The seed fixture home laid out as each foreign collection, imported: the catalog claims the
// same files with the same bytes as `collect --home` of the home itself.

const REPO = fileURLToPath(new URL('../../../../', import.meta.url));
const HOME = path.join(REPO, 'fixtures/homes/seed-copilot');
const USER = 'seed-copilot';
const catalogs = loadCatalogs();
let T: string;

async function manifest(zip: string): Promise<{ rows: ManifestRow[]; info: Record<string, unknown> }> {
  const reader = await openArchive(zip);
  try {
    const c = await readCollection(reader);
    return { rows: c.manifest as ManifestRow[], info: c.info as unknown as Record<string, unknown> };
  } finally {
    reader.close();
  }
}

const key = (r: ManifestRow) => `${r.agent} ${r.scope} ${r.rel} ${r.status} ${r.sha256}`;
let reference: ManifestRow[];

async function run(input: string, name: string) {
  const out = path.join(T, `${name}.zip`);
  const s = await importForeign({ input, out, full: false, secrets: 'collect', catalogs, tmpDir: T });
  return { summary: s, out, ...(await manifest(out)) };
}

beforeAll(async () => {
  T = mkdtempSync(path.join(tmpdir(), 'aitrail-import-'));
  const ref = path.join(T, 'reference.zip');
  await collect({ homes: [HOME], out: ref, full: false, secrets: 'collect', dryRun: false, catalogs });
  reference = (await manifest(ref)).rows.filter((r) => r.scope === 'home');
  expect(reference.length).toBeGreaterThan(10);
}, 60_000);
afterAll(() => rmSync(T, { recursive: true, force: true }));

describe('a Velociraptor zip (accessor auto, C%3A, %2Ecopilot)', () => {
  let r: Awaited<ReturnType<typeof run>>;
  beforeAll(async () => {
    await velociraptorZip(HOME, USER, path.join(T, 'Collection-SEEDHOST-2026-12-01T04_30_00Z.zip'));
    r = await run(path.join(T, 'Collection-SEEDHOST-2026-12-01T04_30_00Z.zip'), 'velo');
  }, 60_000);

  it('claims the files collect claims, with the same bytes, at their Windows paths', () => {
    expect(r.rows.filter((x) => x.scope === 'home').map(key).sort()).toEqual(reference.map(key).sort());
    const ev = r.rows.find((x) => x.rel.endsWith('events.jsonl'))!;
    expect(ev.source_path).toBe(`C:\\Users\\${USER}\\.copilot\\session-state\\5e55a0a1-0000-4000-8000-000000000001\\events.jsonl`);
    expect(ev.home).toBe(`C:\\Users\\${USER}`);
    expect(ev.imported).toMatchObject({ collector: 'velociraptor', member: expect.stringMatching(/^uploads\/auto\/C%3A\/Users\/seed-copilot\/%2Ecopilot\//) });
    expect(ev.imported!.hashes.sha256).toEqual({ recorded: ev.sha256, computed: ev.sha256, check: 'match' });
    expect(ev.imported!.hashes.md5.check).toBe('match');
    expect(ev.mtime).toBe(ev.imported!.recorded.mtime);
    expect(ev.birthtime).toBe(ev.imported!.recorded.birthtime);
    expect(ev.imported!.from.some((f) => f.startsWith('results/'))).toBe(true);
    expect(ev.imported!.from.some((f) => f.startsWith('uploads.json line'))).toBe(true);
  });

  it('records the host, layout and source in collection.json, and verifies', async () => {
    expect(r.info).toMatchObject({ host: 'SEEDHOST', layout: 'win32', imported_from: { collector: 'velociraptor', client_id: 'C.1234567890abcdef', flow_id: 'F.CT9SEEDFLOW' } });
    expect(r.info.root).toBeUndefined();
    // The homes are the target's, never the private staging folder the import collected.
    expect(r.info.homes).toEqual([{ user: USER, home: `C:\\Users\\${USER}` }]);
    expect((await verifyArchive(r.out)).ok).toBe(true);
  });
});

describe('a Velociraptor collection under \\\\.\\C: (ntfs accessor) with a member that fails its recorded sha256', () => {
  let r: Awaited<ReturnType<typeof run>>;
  const TAMPERED = '.copilot/command-history-state.json';
  beforeAll(async () => {
    await velociraptorZip(HOME, USER, path.join(T, 'ntfs.zip'), { accessor: 'ntfs', tamper: TAMPERED });
    r = await run(path.join(T, 'ntfs.zip'), 'ntfs-import');
  }, 60_000);

  it('reports the member as an error row naming both hashes, archives and parses nothing of it', () => {
    const bad = r.rows.find((x) => x.rel === TAMPERED)!;
    expect(bad).toMatchObject({ status: 'error', archive_path: '', agent: 'copilot-cli' });
    expect(bad.reason).toMatch(/^velociraptor recorded sha256 [0-9a-f]{64} for this file, but uploads\/ntfs\/%5C%5C.%5CC%3A\/.* holds [0-9a-f]{64}: not the bytes it collected; not parsed$/);
    expect(r.summary.mismatched).toBe(1);
  });

  it('imports the others as from the auto accessor', () => {
    const others = r.rows.filter((x) => x.scope === 'home' && x.rel !== TAMPERED);
    expect(others.map(key).sort()).toEqual(reference.filter((x) => x.rel !== TAMPERED).map(key).sort());
  });
});

describe('a Velociraptor folder of a Linux client (accessor file)', () => {
  it('claims the files collect claims at /home paths, with no recorded times', async () => {
    const dir = path.join(T, 'velo-linux');
    velociraptorLinuxFolder(HOME, USER, dir);
    const r = await run(dir, 'velo-linux');
    expect(r.info).toMatchObject({ host: 'seedlinux', layout: 'linux', homes: [{ user: USER, home: `/home/${USER}` }] });
    expect(r.rows.filter((x) => x.scope === 'home').map(key).sort()).toEqual(reference.map(key).sort());
    const ev = r.rows.find((x) => x.rel.endsWith('events.jsonl'))!;
    expect(ev.source_path).toBe(`/home/${USER}/.copilot/session-state/5e55a0a1-0000-4000-8000-000000000001/events.jsonl`);
    // uploads.json records no times: the staged copy's would be the import's, so none is given.
    expect([ev.mtime, ev.atime, ev.ctime, ev.birthtime]).toEqual(['', '', '', '']);
  }, 60_000);
});

describe('a Velociraptor folder whose metadata is hostile', () => {
  // Times past what a Date holds (toISOString threw) and values nested 100,000 deep (String and
  // JSON.stringify overflowed the stack): each ended the import before any file was read.
  const DEEP = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
  const cases: [string, string, string, Record<string, unknown>][] = [
    ['times of 1e30 and 1e300 microseconds', '{"Hostname":"seedlinux","OS":"linux"}', '{"start_time":1e30,"active_time":1e300}', { host: 'seedlinux' }],
    ['a host name nested 100,000 deep', `{"Hostname":${DEEP},"OS":"linux"}`, '{}', { host: 'velo-hostile-1' }],
    // String() of an object whose toString is not a function throws ("Cannot convert object to primitive value").
    ['a host name and OS that are objects with a toString key', '{"Hostname":{"toString":1},"OS":{"toString":1}}', '{"start_time":{"valueOf":1},"session_id":{"toString":1}}', { host: 'velo-hostile-2' }],
    ['a flow id and artifact list nested 100,000 deep', '{"Hostname":"seedlinux"}', `{"start_time":1796099400000000,"session_id":${DEEP},"artifacts_with_results":${DEEP}}`, { host: 'seedlinux', imported_from: { collector: 'velociraptor', flow_id: null, artifacts: null } }],
  ];
  for (const [i, [what, info, context, expected]] of cases.entries()) {
    it(`imports the files of one with ${what}`, async () => {
      const dir = path.join(T, `velo-hostile-${i}`);
      velociraptorLinuxFolder(HOME, USER, dir);
      writeFileSync(path.join(dir, 'client_info.json'), info);
      writeFileSync(path.join(dir, 'collection_context.json'), context);
      const r = await run(dir, `velo-hostile-${i}`);
      expect(r.info).toMatchObject(expected);
      expect(r.rows.filter((x) => x.scope === 'home').map(key).sort()).toEqual(reference.map(key).sort());
    }, 60_000);
  }
});

describe('a Velociraptor folder of an older Linux offline collector (no accessor folder)', () => {
  it('claims the files collect claims at /home paths', async () => {
    const dir = path.join(T, 'velo-linux-old');
    velociraptorLinuxFolder(HOME, USER, dir, { old: true });
    const r = await run(dir, 'velo-linux-old');
    expect(r.rows.filter((x) => x.scope === 'home').map(key).sort()).toEqual(reference.map(key).sort());
    expect(r.rows.find((x) => x.rel.endsWith('events.jsonl'))!.imported!.member).toMatch(/^uploads\/home\/seed-copilot\/%2Ecopilot\//);
  }, 60_000);
});

describe('a KAPE target folder with its CopyLog', () => {
  let r: Awaited<ReturnType<typeof run>>;
  const TAMPERED = '.copilot/settings.json';
  beforeAll(async () => {
    const dir = path.join(T, 'kape', 'SEEDHOST');
    mkdirSync(dir, { recursive: true });
    kapeFolder(HOME, USER, dir, { tamper: TAMPERED });
    r = await run(dir, 'kape');
  }, 60_000);

  it('claims the files collect claims with the CopyLog SHA-1 and UTC times', () => {
    const rows = r.rows.filter((x) => x.scope === 'home' && x.rel !== TAMPERED);
    expect(rows.map(key).sort()).toEqual(reference.filter((x) => x.rel !== TAMPERED).map(key).sort());
    const ev = rows.find((x) => x.rel.endsWith('events.jsonl'))!;
    expect(ev.imported!.hashes.sha1.check).toBe('match');
    expect(ev.imported!.from[0]).toMatch(/^2026-12-01T043000_CopyLog\.csv line \d+$/);
    expect(ev.mtime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Date.parse(ev.birthtime)).toBe(Date.parse(ev.mtime) - 60_000);
    expect(r.info).toMatchObject({ host: 'SEEDHOST', layout: 'win32' });
  });

  it('refuses the file whose bytes are not the SHA-1 KAPE logged', () => {
    const bad = r.rows.find((x) => x.rel === TAMPERED)!;
    expect(bad).toMatchObject({ status: 'error', archive_path: '' });
    expect(bad.reason).toMatch(/^kape recorded sha1 [0-9a-f]{40} for this file, but C\/Users\/seed-copilot\/\.copilot\/settings\.json holds [0-9a-f]{40}/);
  });
});

describe.skipIf(process.platform === 'win32')('a UAC .tar.gz with its acquisition log', () => {
  it('claims the files collect claims, with tar mtimes and bodyfile times, the archive MD5 checked', async () => {
    const dir = path.join(T, 'uac');
    mkdirSync(dir);
    const r = await run(uacTarGz(HOME, USER, dir), 'uac');
    expect(r.info).toMatchObject({ host: 'seedhost', layout: 'linux', imported_from: { collector: 'uac', os: 'linux' } });
    expect(r.rows.filter((x) => x.scope === 'home').map(key).sort()).toEqual(reference.map(key).sort());
    const ev = r.rows.find((x) => x.rel.endsWith('events.jsonl'))!;
    expect(ev.source_path).toBe(`/home/${USER}/.copilot/session-state/5e55a0a1-0000-4000-8000-000000000001/events.jsonl`);
    expect(ev.mtime).not.toBe('');
    expect(ev.atime).not.toBe('');
    expect(ev.imported!.from).toEqual(expect.arrayContaining([expect.stringMatching(/^tar header at byte \d+$/), 'bodyfile/bodyfile.txt']));
    expect((r.info.imported_from as { archive_checked: { md5: string } }).archive_checked.md5).toMatch(/^[0-9a-f]{32}$/);
  }, 60_000);

  it('refuses every member when the archive fails the MD5 its acquisition log records', async () => {
    const dir = path.join(T, 'uac-bad');
    mkdirSync(dir);
    const r = await run(uacTarGz(HOME, USER, dir, { corrupt: true }), 'uac-bad');
    const home = r.rows.filter((x) => x.scope === 'home' && x.kind === 'file');
    expect(home.length).toBe(reference.filter((x) => x.kind === 'file').length);
    for (const x of home) {
      expect(x.status).toBe('error');
      expect(x.reason).toMatch(/its acquisition log records 0{32}: the archive changed after UAC wrote it; not parsed$/);
    }
  }, 60_000);
});

describe.skipIf(process.platform === 'win32')('a damaged UAC archive', () => {
  it('imports the members before a cut, and says where the archive ended', async () => {
    const dir = path.join(T, 'uac-cut');
    mkdirSync(dir);
    const whole = readFileSync(uacTarGz(HOME, USER, dir));
    const cut = path.join(dir, 'uac-seedhost-linux-20261201043001.tar');
    // The tar itself (gunzipped), cut in the middle of its members.
    writeFileSync(cut, gunzipSync(whole).subarray(0, 9000));
    const r = await run(cut, 'uac-cut');
    const notes = r.summary.source_notes.join('\n');
    expect(notes).toMatch(/uac: the collection could not be read to its end \(tar stream cut at byte \d+/);
    const home = r.rows.filter((x) => x.scope === 'home');
    expect(home.length).toBeGreaterThan(0);
    expect(home.length).toBeLessThan(reference.length);
  }, 60_000);

  it('refuses a file that is not a tar.gz with a message, and writes nothing', async () => {
    const bad = path.join(T, 'uac-garbage-linux-20261201043000.tar.gz');
    writeFileSync(bad, 'this is not gzip');
    const out = path.join(T, 'garbage.zip');
    await expect(importForeign({ input: bad, out, full: false, secrets: 'collect', catalogs, tmpDir: T })).rejects.toThrow(/expected a uac collection, but it cannot be read \(.*\); check that the file is whole/);
    expect(existsSync(out)).toBe(false);
  });
});

describe('what is not a foreign collection', () => {
  it('gets a message saying what was expected', async () => {
    await expect(importForeign({ input: HOME, out: path.join(T, 'x.zip'), full: false, secrets: 'collect', catalogs })).rejects.toThrow(/not a collection aitrail can import: expected a Velociraptor collection/);
    await expect(importForeign({ input: path.join(T, 'nope'), out: path.join(T, 'x.zip'), full: false, secrets: 'collect', catalogs })).rejects.toThrow(/no such file or folder/);
  });
});
