import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, stackTraceLines } from './test-helpers/hostile-harness.js';

// `aitrail analyze` starts its analysis child before the command line is parsed (bin/run.js,
// analysis-host.ts preforkAnalysis). A run that never uses it must leave no process behind and
// must not wait for it (every other analyze test runs through it). The child inherits the CLI's
// environment, so a marker in it finds the child among /proc's processes (Linux only).

/** Processes whose environment holds `mark`. */
function withMark(mark: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(join('/proc', name, 'environ'), 'latin1').includes(mark)) found.push(Number(name));
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

const linux = process.platform === 'linux';

describe('the analysis child started ahead', () => {
  it.runIf(linux).each([
    ['an unknown flag', ['analyze', '--bogus', 'x.zip'], 2],
    ['an input that is not there', ['analyze', '/nonexistent/aitrail.zip', '--out', '/nonexistent/out'], 2],
    ['help', ['analyze', '--help'], 0],
  ])('is gone once the CLI exits on %s', async (_what, args, code) => {
    const mark = `AITRAIL_PREFORK_MARK=${process.pid}-${Math.random().toString(36).slice(2)}`;
    const r = await runCli(args as string[], { env: { AITRAIL_PREFORK_MARK: mark.split('=')[1] }, timeoutMs: 60_000 });
    expect(r.code, r.stderr).toBe(code);
    expect(stackTraceLines(r.stderr)).toEqual([]);
    // The child is killed on exit; give the kernel a moment to reap it.
    let left = withMark(mark);
    for (let i = 0; i < 20 && left.length > 0; i++) {
      await new Promise((res) => setTimeout(res, 50));
      left = withMark(mark);
    }
    expect(left).toEqual([]);
  });
});
