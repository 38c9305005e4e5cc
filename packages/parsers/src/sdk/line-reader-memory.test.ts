import { describe, expect, it } from 'vitest';
import { readJsonLines } from './line-reader.js';

const GiB = 1024 * 1024 * 1024;
const MiB = 1024 * 1024;

// One block of ~1 KB JSONL lines, yielded over and over as two chunks cut mid-line, so the
// reader joins line pieces across chunk boundaries all the way through.
function block(lines: number): Buffer {
  const pad = 'x'.repeat(900);
  const text = Array.from({ length: lines }, (_, i) => JSON.stringify({ type: 'assistant.message', i, data: { content: pad } })).join('\n');
  return Buffer.from(`${text}\n`);
}

async function* generated(total: number, b: Buffer): AsyncGenerator<Buffer> {
  const cut = Math.floor(b.length / 2) + 17;
  for (let sent = 0; sent < total; sent += b.length) {
    yield b.subarray(0, cut);
    yield b.subarray(cut);
  }
}

describe('readJsonLines memory', () => {
  it('streams 1 GB of JSONL with RSS growth under 100 MB', async () => {
    const b = block(4096);
    const linesPerBlock = 4096;
    const blocks = Math.ceil(GiB / b.length);
    // Warm up first so the baseline includes the JIT and the heap's working size.
    for await (const _ of readJsonLines(generated(32 * MiB, b))) {
      // drain
    }
    globalThis.gc?.();
    const base = process.memoryUsage().rss;
    let peak = base;
    let n = 0;
    let good = 0;
    for await (const l of readJsonLines(generated(blocks * b.length, b))) {
      n += 1;
      if (l.value) good += 1;
      if ((n & 0x3fff) === 0) peak = Math.max(peak, process.memoryUsage().rss);
    }
    peak = Math.max(peak, process.memoryUsage().rss);
    expect(n).toBe(blocks * linesPerBlock);
    expect(good).toBe(n);
    expect(blocks * b.length).toBeGreaterThanOrEqual(GiB);
    if (process.env.AITRAIL_REPORT) console.log(`rss growth ${((peak - base) / MiB).toFixed(1)} MiB over ${n} lines`);
    expect((peak - base) / MiB).toBeLessThan(100);
  });
});
