import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJsonl, REPO, runCli, stackTraceLines } from './test-helpers/hostile-harness.js';
import { sharedAnalyze, sharedCollect } from './test-helpers/shared-run.js';

// `aitrail import` of the seed home laid out as a KAPE target folder and as an unpacked
// Velociraptor collection (escaped names, %2E for the leading dot), then `aitrail analyze`:
// the timeline is the one `aitrail collect` of the home itself gives. The encodings and the
// recorded hashes of each collector are tested in packages/collector/src/foreign/import.test.ts.

const HOME = join(REPO, 'fixtures/homes/seed-copilot');
type R = Record<string, unknown>;

function files(dir: string, rel = ''): string[] {
  return readdirSync(join(dir, rel), { withFileTypes: true }).flatMap((e) => {
    const r = rel ? `${rel}/${e.name}` : e.name;
    return e.isDirectory() ? files(dir, r) : r === 'README.md' ? [] : [r];
  });
}

function place(top: string, segs: string[], rel: string): void {
  const dst = join(top, ...segs);
  mkdirSync(join(dst, '..'), { recursive: true });
  copyFileSync(join(HOME, rel), dst);
}

// Rows compared without what names the run itself (its host, the collection's own paths).
const strip = (rows: R[]) => rows.map(({ host: _h, collection: _c, ...r }) => JSON.stringify(r)).sort();

let T: string;
let expected: string[];
beforeAll(async () => {
  T = mkdtempSync(join(tmpdir(), 'aitrail-e2e-import-'));
  const c = await sharedCollect([HOME]);
  expect(c.run.code, c.run.stderr).toBe(0);
  const { run, out } = await sharedAnalyze(c.zip, ['--json']);
  expect(run.code, run.stderr).toBe(0);
  expected = strip(readJsonl<R>(join(out, 'timeline.jsonl')));
  expect(expected.length).toBeGreaterThan(20);
  const kape = join(T, 'kape', 'SEEDHOST');
  const velo = join(T, 'velo');
  // Each collector's record of the file's times: rows dated by their file's mtime keep that date.
  const copyLog = ['CopiedTimestamp,SourceFile,DestinationFile,FileSize,SourceFileSha1,DeferredCopy,CreatedOnUtc,ModifiedOnUtc,LastAccessedOnUtc,CopyDuration'];
  const results: string[] = [];
  for (const rel of files(HOME)) {
    place(kape, ['C', 'Users', 'seed-copilot', ...rel.split('/')], rel);
    place(velo, ['uploads', 'auto', 'C%3A', 'Users', 'seed-copilot', ...rel.split('/').map((s) => s.replace(/^\./, '%2E'))], rel);
    const st = statSync(join(HOME, rel));
    const bytes = readFileSync(join(HOME, rel));
    const win = `C:\\Users\\seed-copilot\\${rel.replace(/\//g, '\\')}`;
    // The tools write the full precision they read (KAPE 100 ns ticks, Velociraptor nanoseconds);
    // Node's Date of a stat rounds to the millisecond, which would put a time in the next one.
    const ns = statSync(join(HOME, rel), { bigint: true });
    const at = (t: bigint, digits: number) => `${new Date(Number(t / 1_000_000_000n) * 1000).toISOString().slice(0, 19)}.${String(t % 1_000_000_000n).padStart(9, '0').slice(0, digits)}`;
    const kt = (t: bigint) => at(t, 7).replace('T', ' ');
    copyLog.push([kt(BigInt(Date.now()) * 1_000_000n), win, `D:\\tout\\${win.slice(3)}`, st.size, createHash('sha1').update(bytes).digest('hex'), 'False', kt(ns.birthtimeNs), kt(ns.mtimeNs), kt(ns.atimeNs), '0.001'].join(','));
    results.push(JSON.stringify({ SourceFile: win, Size: st.size, Modified: `${at(ns.mtimeNs, 9)}Z`, Upload: { sha256: createHash('sha256').update(bytes).digest('hex') } }));
  }
  writeFileSync(join(kape, '2026-12-01T043000_CopyLog.csv'), `${copyLog.join('\r\n')}\r\n`);
  mkdirSync(join(velo, 'results'));
  writeFileSync(join(velo, 'results', 'Windows.KapeFiles.Targets%2FAll File Metadata.json'), `${results.join('\n')}\n`);
  writeFileSync(join(velo, 'client_info.json'), JSON.stringify({ Hostname: 'SEEDHOST', OS: 'windows' }));
}, 240_000);
afterAll(() => rmSync(T, { recursive: true, force: true }));

describe.each(['kape/SEEDHOST', 'velo'])('aitrail import %s, then analyze', (input) => {
  let tl: R[];
  beforeAll(async () => {
    const zip = join(T, `${input.replace('/', '-')}.zip`);
    const imp = await runCli(['import', join(T, input), '--out', zip]);
    expect(imp.code, imp.stderr).toBe(0);
    expect(stackTraceLines(imp.stderr)).toEqual([]);
    expect(imp.stdout).toMatch(/^imported: a (kape|velociraptor) collection/);
    const v = await runCli(['verify', zip]);
    expect(v.code, v.stdout + v.stderr).toBe(0);
    const an = await runCli(['analyze', zip, '--out', join(T, `${input.replace('/', '-')}-out`), '--json']);
    expect(an.code, an.stderr).toBe(0);
    tl = readJsonl<R>(join(T, `${input.replace('/', '-')}-out`, 'timeline.jsonl'));
  }, 240_000);

  it('gives the timeline rows of aitrail collect of the same home', () => {
    expect(strip(tl)).toEqual(expected);
  });

  it('names the imported host', () => {
    expect(new Set(tl.map((r) => r.host))).toEqual(new Set(['SEEDHOST']));
  });
});

describe('aitrail import of something else', () => {
  it('exits 2 with what it expected', async () => {
    const r = await runCli(['import', HOME, '--out', join(T, 'no.zip')]);
    expect(r.code).toBe(2);
    expect(r.stderr.replace(/\s*\n\s*›?\s*/g, ' ')).toMatch(/not a collection aitrail can import/);
    expect(stackTraceLines(r.stderr)).toEqual([]);
  });
});
