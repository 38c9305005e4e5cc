import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifestOf, readJsonl, REPO, runCli } from './test-helpers/hostile-harness.js';
import { sharedAnalyze, sharedCollect } from './test-helpers/shared-run.js';

// The one-file collector the build writes, copied alone into an empty folder and run there with
// plain node (no node_modules anywhere above it): its archive verifies and analyzes like the
// one `aitrail collect` makes of the same home.

const run = promisify(execFile);
const BUNDLE = join(REPO, 'packages/collector/dist/aitrail-collect.cjs');
const HOME = join(REPO, 'fixtures/homes/seed-copilot');
type R = Record<string, unknown>;

let T: string;
let copy: string;
let zip: string;
let refZip: string;
beforeAll(async () => {
  T = mkdtempSync(join(tmpdir(), 'aitrail-one-file-'));
  copy = join(T, 'aitrail-collect.cjs');
  copyFileSync(BUNDLE, copy);
  expect(readdirSync(T)).toEqual(['aitrail-collect.cjs']);
  zip = join(T, 'seed.zip');
  const r = await run(process.execPath, [copy, '--home', HOME, '--out', zip], { cwd: T, env: { PATH: process.env.PATH ?? '' } });
  expect(JSON.parse(r.stdout)).toMatchObject({ out: zip, counts: { collected: expect.any(Number) } });
  const c = await sharedCollect([HOME]);
  expect(c.run.code, c.run.stderr).toBe(0);
  refZip = c.zip;
}, 240_000);
afterAll(() => rmSync(T, { recursive: true, force: true }));

describe('aitrail-collect.cjs alone in a folder', () => {
  it('prints its version and its own SHA-256', async () => {
    const r = await run(process.execPath, [copy, '--version'], { cwd: T });
    const sha = createHash('sha256').update(readFileSync(copy)).digest('hex');
    expect(r.stdout).toBe(`aitrail-collect 0.1.0 node ${process.version}\nsha256 ${sha}  aitrail-collect.cjs\n`);
  });

  it('writes an archive aitrail verify accepts', async () => {
    const v = await runCli(['verify', zip]);
    expect(v.code, v.stdout + v.stderr).toBe(0);
    expect(v.stdout).toMatch(/sidecar: ok/);
  });

  it('collects the rows aitrail collect does, with the same bytes', async () => {
    const key = (r: R) => `${r.agent} ${r.scope} ${r.rel} ${r.status} ${r.sha256} ${r.archive_path}`;
    expect((await manifestOf(zip)).rows.map((r) => key(r as unknown as R)).sort()).toEqual((await manifestOf(refZip)).rows.map((r) => key(r as unknown as R)).sort());
  });

  it('analyzes into the timeline of the ordinary collection', async () => {
    const out = join(T, 'out');
    const a = await runCli(['analyze', zip, '--out', out]);
    expect(a.code, a.stderr).toBe(0);
    const ref = await sharedAnalyze(refZip, ['--json']);
    const strip = (rows: R[]) => rows.map(({ host: _h, ...r }) => JSON.stringify(r)).sort();
    expect(strip(readJsonl<R>(join(out, 'timeline.jsonl')))).toEqual(strip(readJsonl<R>(join(ref.out, 'timeline.jsonl'))));
  });

  it('says what it expected for a bad option, with no stack trace', async () => {
    const r = await run(process.execPath, [copy, '--secrets', 'maybe'], { cwd: T }).catch((e) => e as { code: number; stderr: string });
    expect(r).toMatchObject({ code: 2 });
    expect((r as { stderr: string }).stderr).toBe('aitrail-collect: --secrets maybe: expected collect, hash or skip\n');
  });
});
