import { createHash } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, runCli, unwrapOclif } from './test-helpers/hostile-harness.js';
import { sharedAnalyze, sharedCollect } from './test-helpers/shared-run.js';

// The members are checked against the manifest, but only the archive's own hash against the
// sidecar collect wrote beside it says the manifest and collection.json are the ones collected.
// analyze records the zip's SHA-256 in inventory.json and checks the sidecar, as verify does.

const HOME = join(REPO, 'fixtures/homes/seed-copilot');

let T: string;
let ZIP: string;
beforeAll(async () => {
  T = mkdtempSync(join(tmpdir(), 'aitrail-e2e-archive-hash-'));
  const c = await sharedCollect([HOME]);
  expect(c.run.code, c.run.stderr).toBe(0);
  ZIP = c.zip;
}, 120_000);
afterAll(() => rmSync(T, { recursive: true, force: true }));

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const collection = (out: string) => JSON.parse(readFileSync(join(out, 'inventory.json'), 'utf8')).collections[0];

describe('aitrail analyze and the archive sidecar', () => {
  it('records the zip SHA-256 and a matching sidecar, integrity ok', async () => {
    const { run, out } = await sharedAnalyze(ZIP, ['--json']);
    expect(run.code, run.stderr).toBe(0);
    const c = collection(out);
    expect(c.archive).toEqual({ sha256: sha256(ZIP), sidecar: 'ok' });
    expect(c.integrity.ok).toBe(true);
  });

  it('a zip whose sidecar names another hash: every member parsed, integrity FAILED, the two hashes said', async () => {
    const zip = join(T, 'copy.zip');
    copyFileSync(ZIP, zip);
    const other = 'ab'.repeat(32);
    writeFileSync(`${zip}.sha256`, `${other}  copy.zip\n`);
    const out = join(T, 'out-mismatch');
    const run = await runCli(['analyze', zip, '--out', out]);
    expect(run.code, run.stderr).toBe(0);
    const c = collection(out);
    expect(c.archive).toEqual({ sha256: sha256(zip), sidecar: 'mismatch', sidecar_sha256: other });
    expect(c.integrity).toMatchObject({ ok: false, mismatched: [], missing: [], extra: [], unreadable: [] });
    expect(run.stderr).toContain(`expected the SHA-256 its sidecar ${zip}.sha256 names (${other}), found ${sha256(zip)}`);
    expect(run.stderr).toContain('though every member matched its manifest and was parsed');
    expect(run.stdout).toContain('integrity FAILED (inventory.json)');
    // The rows are those of the intact archive.
    const want = readFileSync(join((await sharedAnalyze(ZIP, ['--json'])).out, 'timeline.csv'));
    expect(readFileSync(join(out, 'timeline.csv')).equals(want)).toBe(true);
    const strict = await runCli(['analyze', zip, '--out', join(T, 'out-strict'), '--strict']);
    expect(strict.code).not.toBe(0);
    expect(unwrapOclif(strict.stderr)).toContain('every archive its sidecar, found 1 problem');
  });

  it('a zip without a sidecar: its hash recorded, the sidecar missing, integrity ok', async () => {
    const zip = join(T, 'alone.zip');
    copyFileSync(ZIP, zip);
    const out = join(T, 'out-alone');
    const run = await runCli(['analyze', zip, '--out', out]);
    expect(run.code, run.stderr).toBe(0);
    expect(collection(out).archive).toEqual({ sha256: sha256(zip), sidecar: 'missing' });
    expect(collection(out).integrity.ok).toBe(true);
    expect(run.stderr).not.toContain('warning: the integrity check failed');
  });
});
