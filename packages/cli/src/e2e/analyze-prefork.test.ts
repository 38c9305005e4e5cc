import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
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

// A preload that wraps child_process.fork and says, at the fork, whether oclif is loaded yet
// (CommonJS, so it sits in require.cache however it was imported).
const work = mkdtempSync(join(tmpdir(), 'aitrail-prefork-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const preload = join(work, 'fork-spy.cjs');
writeFileSync(
  preload,
  `const cp = require('node:child_process');
const fork = cp.fork;
cp.fork = function (...a) {
  const oclif = Object.keys(require.cache).some((k) => k.includes('@oclif'));
  require('node:fs').writeSync(2, 'FORK-SPY oclif loaded: ' + oclif + '\\n');
  return fork.apply(this, a);
};
require('node:module').syncBuiltinESMExports();
`,
);

describe('the analysis child started before oclif loads', () => {
  it('is forked before @oclif/core is imported (its 0.1-0.15 s of loading no longer delays the child)', async () => {
    const r = await runCli(['analyze', '/nonexistent/aitrail.zip', '--out', '/nonexistent/out'], { env: { NODE_OPTIONS: `--require ${JSON.stringify(preload)}` }, timeoutMs: 60_000 });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.match(/FORK-SPY oclif loaded: \w+/g)).toEqual(['FORK-SPY oclif loaded: false']);
  });
});
