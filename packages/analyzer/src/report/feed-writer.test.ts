import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { feedWriter } from './feed-writer.js';
import type { LineFeed } from './sink.js';

/** A feed that reads each chunk some time after it is given (as a thread would), then releases it. */
function lateFeed(delayMs: number) {
  const got: Buffer[] = [];
  const shared = new Set<ArrayBufferLike>();
  const feed: LineFeed = {
    kind: 'jsonl',
    write(b, release) {
      if (b.buffer instanceof SharedArrayBuffer) shared.add(b.buffer);
      // Waits as a sink thread does once its chunks in flight are taken: here, at one.
      return sleep(delayMs).then(() => {
        got.push(Buffer.from(b));
        release?.();
      });
    },
    rowsDone() {},
    end: async () => {},
    abort: async () => {},
  };
  return { feed, got, shared };
}

describe('feedWriter', () => {
  it('shares each chunk with every feed and fills it again only once all of them are done with it', async () => {
    const a = lateFeed(1);
    const b = lateFeed(5);
    const w = feedWriter([a.feed, b.feed], 64);
    const want: Buffer[] = [];
    for (let i = 0; i < 300; i++) {
      const line = Buffer.from(`{"row":${i},"text":"✓ ${'x'.repeat(i % 40)}"}\n`);
      want.push(line);
      await w.put(line, 0, line.length);
      if (i % 50 === 0) await sleep(2);
    }
    // Larger than a chunk: a copy of its own, one per feed (each is given away).
    const big = Buffer.from(`{"big":"${'B'.repeat(200)}"}\n`);
    want.push(big);
    await w.put(big, 0, big.length);
    await w.flush();
    await sleep(30);
    const all = Buffer.concat(want);
    expect(Buffer.concat(a.got).equals(all)).toBe(true);
    expect(Buffer.concat(b.got).equals(all)).toBe(true);
    // Both feeds saw the same shared buffers, and far fewer of them than chunks.
    expect([...a.shared]).toEqual([...b.shared]);
    expect(a.shared.size).toBeLessThan(a.got.length / 4);
  });
});
