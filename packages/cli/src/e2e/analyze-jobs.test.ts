import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { openArchive } from '@aitrail/collector';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error the bench generator is plain JavaScript without declarations
import { generate } from '../../../../bench/generate.mjs';
import { readJsonl, REPO, runCli, stackTraceLines } from './test-helpers/hostile-harness.js';
import { sharedCollect } from './test-helpers/shared-run.js';

// The outputs do not depend on how the parse is run: on one thread or four, with the rows held
// in memory or spilled to runs after every chunk (AITRAIL_ROW_MEMORY_MB=0), the same inputs give
// the same bytes. Inputs: every fixture home in one collection, a generated two-home corpus
// (thousands of rows, secondary stores, dedup), and a tampered unpacked collection (a member
// whose hash fails, seen by another parser as a sibling: the parse is redone knowing it).

const OUTPUTS = ['timeline.csv', 'timeline.jsonl', 'sessions.jsonl', 'inventory.json', 'duplicates.jsonl'];
const SID = '5e55a0a1-0000-4000-8000-000000000001';
let T: string;
const inputs: Record<string, string> = {};

function flipByte(file: string, at: number): void {
  const b = readFileSync(file);
  b[at] ^= 0x01;
  writeFileSync(file, b);
}

beforeAll(async () => {
  T = mkdtempSync(join(tmpdir(), 'aitrail-e2e-jobs-'));
  // Every fixture home, collected once for this file and findings.test.ts (the same call there).
  const homes = readdirSync(join(REPO, 'fixtures/homes'), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => join(REPO, 'fixtures/homes', d.name));
  const c = await sharedCollect(homes);
  expect(c.run.code, c.run.stderr).toBe(0);
  inputs.homes = c.zip;
  generate({ out: join(T, 'gen'), size: 6 * 1024 * 1024, seed: 5, homes: 2 });
  const g = await runCli(['collect', '--home', join(T, 'gen/alice'), '--home', join(T, 'gen/bob'), '--out', join(T, 'gen.zip')], { timeoutMs: 120_000 });
  expect(g.code, g.stderr).toBe(0);
  inputs.generated = join(T, 'gen.zip');
  // The seed's collection (shared with analyze-seed, reports...) unpacked, the way a responder may hand it over.
  const s = await sharedCollect([join(REPO, 'fixtures/homes/seed-copilot')]);
  expect(s.run.code, s.run.stderr).toBe(0);
  const dir = join(T, 'tampered');
  const zip = await openArchive(s.zip);
  for (const name of zip.members.keys()) {
    const chunks: Buffer[] = [];
    for await (const ch of await zip.openMember(name)) chunks.push(ch as Buffer);
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), Buffer.concat(chunks));
  }
  zip.close();
  // Same size, other bytes: the hash fails after the parse has read them.
  flipByte(join(dir, `homes/seed-copilot/.copilot/session-state/${SID}/events.jsonl`), 100);
  flipByte(join(dir, 'homes/seed-copilot/.copilot/session-store.db-wal'), 5000);
  inputs.tampered = dir;
}, 300_000);
afterAll(() => rmSync(T, { recursive: true, force: true }));

async function analyzeWith(input: string, label: string, args: string[], env: Record<string, string> = {}): Promise<Record<string, Buffer>> {
  const out = join(T, `out-${label}`);
  // The report outputs are built from these same rows after the pass; they are not compared here
  // (reports.test.ts checks them), so they are not written: this file analyzes everything four times.
  const r = await runCli(['analyze', input, '--out', out, '--no-reports', ...args], { env, timeoutMs: 240_000 });
  expect(r.code, r.stderr.slice(-2000)).toBe(0);
  expect(stackTraceLines(r.stderr)).toEqual([]);
  return Object.fromEntries(OUTPUTS.map((f) => [f, readFileSync(join(out, f))]));
}

describe.each(['homes', 'generated', 'tampered'])('the %s input', (name) => {
  let ref: Record<string, Buffer>;
  beforeAll(async () => {
    ref = await analyzeWith(inputs[name], `${name}-1`, ['--jobs', '1']);
  }, 300_000);

  it.each([
    ['4 jobs', ['--jobs', '4'], {}],
    ['2 jobs, every chunk spilled to a run', ['--jobs', '2'], { AITRAIL_ROW_MEMORY_MB: '0' }],
    ['1 job, every chunk spilled to a run', ['--jobs', '1'], { AITRAIL_ROW_MEMORY_MB: '0' }],
  ])('gives the same bytes with %s as with 1 job', async (label, args, env) => {
    const got = await analyzeWith(inputs[name], `${name}-${label.replace(/\W+/g, '-')}`, args as string[], env as Record<string, string>);
    for (const f of OUTPUTS) expect(got[f].equals(ref[f]), `${f} differs`).toBe(true);
  }, 300_000);

  it('has rows, and leaves out what failed its check', () => {
    const tl = readJsonl<Record<string, unknown>>(join(T, `out-${name}-1`, 'timeline.jsonl'));
    expect(tl.length).toBeGreaterThan(name === 'generated' ? 1000 : 10);
    if (name !== 'tampered') return;
    const inv = JSON.parse(ref['inventory.json'].toString('utf8'));
    expect(inv.collections[0].integrity.mismatched.map((p: { archive_path: string }) => p.archive_path).sort()).toEqual([`homes/seed-copilot/.copilot/session-state/${SID}/events.jsonl`, 'homes/seed-copilot/.copilot/session-store.db-wal']);
    expect(tl.filter((r) => String(r.source_file).endsWith('events.jsonl'))).toEqual([]);
  });
});
