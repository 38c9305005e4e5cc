import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERATED, generate, REPO, runCli, stackTraceLines, tempDir } from './test-helpers/hostile-harness.js';
import { sharedCollect } from './test-helpers/shared-run.js';

// The analysis runs in a child process with a capped heap (analysis-host.ts), its parse on worker
// threads under the same cap: a run that needs more than the cap must stop with a message saying
// what happened and what to do, not a V8 dump.

// The 64 MB line parsed whole at the default cap: hostile-parsers.test.ts (same shared collection).

const T = tempDir('heap-cap');
let zip = '';
// The long line beside the seed's home: several members, so the parse runs on worker threads.
let zip2 = '';

beforeAll(async () => {
  generate('homes');
  mkdirSync(join(T, 'tmp'));
  const c = await sharedCollect([join(GENERATED, 'homes/long-line')], ['--agent', 'copilot-cli']);
  expect(c.run.code, c.run.stderr.slice(-1500)).toBe(0);
  zip = c.zip;
  const c2 = await sharedCollect([join(GENERATED, 'homes/long-line'), join(REPO, 'fixtures/homes/seed-copilot')], ['--agent', 'copilot-cli']);
  expect(c2.run.code, c2.run.stderr.slice(-1500)).toBe(0);
  zip2 = c2.zip;
}, 300_000);
afterAll(() => rmSync(T, { recursive: true, force: true }));

describe('the analysis heap cap', () => {
  it('a 64 MB line under AITRAIL_MAX_HEAP_MB=64: exit 1, a clear message naming the cap, no stack, no partial output, temp removed', async () => {
    const out = join(T, 'out');
    const r = await runCli(['analyze', zip, '--out', out], { env: { AITRAIL_MAX_HEAP_MB: '64', TMPDIR: join(T, 'tmp') }, timeoutMs: 120_000 });
    expect(r.code, r.stderr.slice(-1500)).toBe(1);
    const flat = r.stderr.replace(/\s*›\s*/g, ' ');
    expect(flat).toContain('ran out of memory: the analysis heap is capped at 64 MB');
    expect(flat).toContain('AITRAIL_MAX_HEAP_MB=128');
    expect(r.stderr).not.toContain('FATAL ERROR');
    expect(stackTraceLines(r.stderr)).toEqual([]);
    expect(existsSync(out) ? readdirSync(out) : []).toEqual([]);
    expect(readdirSync(join(T, 'tmp'))).toEqual([]);
  }, 180_000);

  it('the same on parse worker threads (--jobs 2): exit 1, the message naming the cap, no partial output, temp removed', async () => {
    const out = join(T, 'out-jobs');
    mkdirSync(join(T, 'tmp2'));
    const r = await runCli(['analyze', zip2, '--out', out, '--jobs', '2'], { env: { AITRAIL_MAX_HEAP_MB: '64', TMPDIR: join(T, 'tmp2') }, timeoutMs: 120_000 });
    expect(r.code, r.stderr.slice(-1500)).toBe(1);
    const flat = r.stderr.replace(/\s*›\s*/g, ' ');
    expect(flat).toContain('ran out of memory: the analysis heap is capped at 64 MB');
    expect(r.stderr).not.toContain('FATAL ERROR');
    expect(stackTraceLines(r.stderr)).toEqual([]);
    expect(existsSync(out) ? readdirSync(out) : []).toEqual([]);
    expect(readdirSync(join(T, 'tmp2'))).toEqual([]);
  }, 180_000);

  it('SIGTERM in the middle of the analysis: exit 143, its private temp folder removed, no output left', async () => {
    const out = join(T, 'killed');
    const tmp = join(T, 'tmp-killed');
    mkdirSync(tmp);
    let pid = 0;
    const started = runCli(['analyze', zip, '--out', out], { env: { TMPDIR: tmp }, timeoutMs: 120_000, onSpawn: (p) => (pid = p) });
    // The analysis has begun once its private temp folder exists (SQLite copies, spilled runs).
    for (let i = 0; i < 600 && readdirSync(tmp).length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(readdirSync(tmp).length, 'the analysis never created its temp folder').toBeGreaterThan(0);
    process.kill(pid, 'SIGTERM');
    const r = await started;
    expect(r.timedOut).toBe(false);
    expect(r.code, r.stderr.slice(-1500)).toBe(143);
    expect(stackTraceLines(r.stderr)).toEqual([]);
    expect(readdirSync(tmp)).toEqual([]);
    expect(existsSync(out) ? readdirSync(out) : []).toEqual([]);
  }, 150_000);

  it('a cap that is not a number is a usage error (exit 2)', async () => {
    const r = await runCli(['analyze', zip, '--out', join(T, 'out2')], { env: { AITRAIL_MAX_HEAP_MB: 'lots' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('expected AITRAIL_MAX_HEAP_MB to be a whole number of megabytes');
  });
});
