import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { ByteWriter } from './byte-writer.js';

/** A sink that takes a while per write and checks the bytes only once the write is "done", as a disk would read them. */
function slowSink() {
  const written: Buffer[] = [];
  const buffers = new Set<ArrayBufferLike>();
  const write = async (b: Buffer) => {
    buffers.add(b.buffer);
    await sleep(1);
    written.push(Buffer.from(b));
  };
  return { written, buffers, write };
}

describe('ByteWriter', () => {
  it('with reuse, fills a buffer again only after its write is done: every byte arrives, in a few buffers in all', async () => {
    const sink = slowSink();
    const w = new ByteWriter(sink.write, { size: 64, reuse: true });
    const want: Buffer[] = [];
    for (let i = 0; i < 500; i++) {
      const piece = Buffer.from(`row ${i} ✓ ${'x'.repeat(i % 50)}\n`);
      want.push(piece);
      await w.put(piece, 0, piece.length);
    }
    // A piece larger than the buffer is written from the caller's own bytes.
    const big = Buffer.from('B'.repeat(300));
    want.push(big);
    await w.put(big, 0, big.length);
    await w.flush();
    expect(Buffer.concat(sink.written).equals(Buffer.concat(want))).toBe(true);
    // 500 rows of ~10-60 bytes make hundreds of 64-byte writes, from three buffers (and the big piece's own).
    expect(sink.written.length).toBeGreaterThan(200);
    expect(sink.buffers.size).toBeLessThanOrEqual(4);
  });

  it('with reuse, a piece larger than the buffer is written from the caller\'s bytes, done when put resolves', async () => {
    const sink = slowSink();
    const w = new ByteWriter(sink.write, { size: 64, reuse: true });
    await w.putString('head\n');
    const big = Buffer.alloc(1000, 'a');
    await w.put(big, 100, 900);
    // The caller may fill its buffer again once put resolved: what was written is what it held.
    big.fill('z');
    await w.putString('tail\n');
    await w.flush();
    expect(Buffer.concat(sink.written).toString()).toBe(`head\n${'a'.repeat(800)}tail\n`);
    expect(sink.buffers.has(big.buffer)).toBe(true);
  });

  it('without reuse, never writes into a buffer it handed over', async () => {
    const handed: Buffer[] = [];
    const copies: Buffer[] = [];
    const w = new ByteWriter(async (b) => {
      handed.push(b);
      copies.push(Buffer.from(b));
    }, { size: 16 });
    for (let i = 0; i < 20; i++) await w.putString(`${String(i).padStart(4, '0')}-`);
    await w.flush();
    expect(Buffer.concat(handed).toString()).toBe(Array.from({ length: 20 }, (_, i) => `${String(i).padStart(4, '0')}-`).join(''));
    // Each handed buffer still holds what it held when handed.
    expect(handed.map((b) => b.toString())).toEqual(copies.map((b) => b.toString()));
  });

  it('putString writes the UTF-8 Buffer.from gives, lone surrogates included, whether it fits or not', async () => {
    const texts = ['plain', 'ünï ✓ 😀', 'lone \ud800 and \udc00 halves', 'x'.repeat(40)];
    const out: Buffer[] = [];
    const w = new ByteWriter(async (b) => {
      out.push(Buffer.from(b));
    }, { size: 32, reuse: true });
    for (const t of texts) await w.putString(t);
    await w.flush();
    expect(Buffer.concat(out).equals(Buffer.concat(texts.map((t) => Buffer.from(t, 'utf8'))))).toBe(true);
  });
});
