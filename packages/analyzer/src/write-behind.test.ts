import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AtomicFile, publishOutputs } from './atomic.js';
import { WriteBehind } from './write-behind.js';

describe('WriteBehind', () => {
  it('writes every chunk in order', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wb-'));
    try {
      const f = new AtomicFile(join(dir, 'out.txt'));
      const w = new WriteBehind(f);
      const parts = Array.from({ length: 50 }, (_, i) => `${i}:${'x'.repeat(100_000)}\n`);
      for (const p of parts) await w.write(p);
      await w.flush();
      await f.close();
      await publishOutputs(dir, ['out.txt']);
      expect(readFileSync(join(dir, 'out.txt'), 'utf8')).toBe(parts.join(''));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
