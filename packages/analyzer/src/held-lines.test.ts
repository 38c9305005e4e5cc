import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HeldLines } from './held-lines.js';

const T = mkdtempSync(join(tmpdir(), 'aitrail-held-lines-'));
afterAll(() => rmSync(T, { recursive: true, force: true }));

describe('HeldLines', () => {
  it('gives back every line, in memory up to its limit and from the spill file past it, replacements included', () => {
    const dir = mkdtempSync(join(T, 'spill-'));
    const h = new HeldLines(dir, 100);
    const want = new Map<number, string>();
    // Multi-byte text, a long line, and rows set twice (the second value wins).
    for (let i = 0; i < 3000; i++) {
      const line = `{"n":${i},"text":"ünï 😀 ${'x'.repeat(i % 7 === 0 ? 5000 : i % 50)}"}`;
      h.set(i % 2500, line);
      want.set(i % 2500, line);
    }
    for (const [ord, line] of want) expect(h.get(ord)).toBe(line);
    expect(h.get(999_999)).toBeUndefined();
    expect(statSync(join(dir, 'held-lines')).size).toBeGreaterThan(1 << 20);
    h.close();
  });

  it('keeps everything in memory without a folder', () => {
    const h = new HeldLines(undefined, 10);
    h.set(1, 'a much longer line than ten characters');
    expect(h.get(1)).toBe('a much longer line than ten characters');
    h.close();
    expect(existsSync(join(T, 'held-lines'))).toBe(false);
  });
});
