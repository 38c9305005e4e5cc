import { describe, expect, it } from 'vitest';
import { ChunkPool } from './chunk-pool.js';

describe('ChunkPool', () => {
  it('lends a buffer again only once it is given back, by itself or by a view of it', () => {
    const pool = new ChunkPool(1024);
    const a = pool.take();
    const b = pool.take();
    expect(a.buffer).not.toBe(b.buffer);
    expect(pool.out).toBe(2);
    pool.give(a.subarray(0, 10));
    expect(pool.out).toBe(1);
    const c = pool.take();
    expect(c.buffer).toBe(a.buffer);
    expect(c.length).toBe(1024);
    expect(pool.take().buffer).not.toBe(b.buffer);
  });

  it('ignores what it did not lend, and a buffer given back twice', () => {
    const pool = new ChunkPool(1024, 4);
    pool.give(Buffer.alloc(1024));
    expect(pool.idle).toBe(0);
    const a = pool.take();
    pool.give(a);
    pool.give(a);
    expect(pool.idle).toBe(1);
    expect(pool.out).toBe(0);
    // Twice given back must not make it lent twice at once.
    const x = pool.take();
    const y = pool.take();
    expect(x.buffer).not.toBe(y.buffer);
  });

  it('keeps at most `keep` buffers for reuse', () => {
    const pool = new ChunkPool(16, 2);
    const lent = [pool.take(), pool.take(), pool.take()];
    for (const b of lent) pool.give(b);
    expect(pool.idle).toBe(2);
    expect(pool.out).toBe(0);
  });
});
