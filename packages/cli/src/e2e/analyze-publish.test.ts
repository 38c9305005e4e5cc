import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, runCli, stackTraceLines, tempDir } from './test-helpers/hostile-harness.js';
import { sharedCollect } from './test-helpers/shared-run.js';

// A run's outputs are put in place together at its very end (analyzer atomic.ts): a run that
// fails late, its last output included, leaves the folder as the previous run left it, never a
// mix of the two runs' files under one folder.

let T: string;
let copilot: string;
let claude: string;
beforeAll(async () => {
  T = tempDir('analyze-publish');
  const a = await sharedCollect([join(REPO, 'fixtures/homes/seed-copilot')]);
  const b = await sharedCollect([join(REPO, 'fixtures/homes/seed-claude')]);
  expect(a.run.code, a.run.stderr).toBe(0);
  expect(b.run.code, b.run.stderr).toBe(0);
  copilot = a.zip;
  claude = b.zip;
}, 300_000);
afterAll(() => rmSync(T, { recursive: true, force: true }));

/** Each entry of a folder: a file's SHA-256, or `dir` for a folder. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const n of readdirSync(dir).sort()) {
    const p = join(dir, n);
    out[n] = statSync(p).isDirectory() ? 'dir' : createHash('sha256').update(readFileSync(p)).digest('hex');
  }
  return out;
}

describe('the outputs of a run, put in place together', () => {
  it('a run that cannot put its last output in place changes nothing in the folder: exit 1, a message naming the obstacle, no stack, nothing staged left', async () => {
    const out = join(T, 'out');
    const first = await runCli(['analyze', copilot, '--out', out]);
    expect(first.code, first.stderr).toBe(0);
    // report.html is put in place after the timeline files: a folder by that name stops the run at its very end.
    rmSync(join(out, 'report.html'));
    mkdirSync(join(out, 'report.html'));
    const before = snapshot(out);
    expect(Object.keys(before)).toEqual(expect.arrayContaining(['timeline.csv', 'timeline.jsonl', 'timeline.sqlite', 'inventory.json', 'report.html']));
    const second = await runCli(['analyze', claude, '--out', out]);
    expect(second.code, second.stderr).toBe(1);
    const flat = second.stderr.replace(/\s*›\s*/g, ' ');
    expect(flat).toMatch(/cannot put \S*report\.html in place: expected a file or nothing there, found a directory; move it away and run again/);
    expect(flat).toContain('were left as they were');
    expect(stackTraceLines(second.stderr)).toEqual([]);
    expect(snapshot(out)).toEqual(before);

    // The obstacle moved away, the same run puts every output of its own in place.
    rmSync(join(out, 'report.html'), { recursive: true });
    const third = await runCli(['analyze', claude, '--out', out]);
    expect(third.code, third.stderr).toBe(0);
    const after = snapshot(out);
    expect(Object.keys(after)).toEqual(Object.keys(before));
    expect(readdirSync(out).filter((n) => n.endsWith('.partial'))).toEqual([]);
    for (const f of ['timeline.csv', 'timeline.jsonl', 'timeline.sqlite', 'inventory.json', 'report.html']) expect(after[f], f).not.toBe(before[f]);
    expect(readFileSync(join(out, 'timeline.jsonl'), 'utf8')).toContain('"agent":"claude-code"');
    expect(readFileSync(join(out, 'timeline.jsonl'), 'utf8')).not.toContain('"agent":"copilot-cli"');
  }, 180_000);
});
