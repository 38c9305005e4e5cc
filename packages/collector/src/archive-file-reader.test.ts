import { fstatSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ArchiveFileReader, MEMBER_READ_BYTES } from './archive-file-reader.js';

const dir = mkdtempSync(join(tmpdir(), 'aitrail-afr-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const bytes = Buffer.from(Array.from({ length: 3 * MEMBER_READ_BYTES + 123 }, (_, i) => (i * 7) & 0xff));
const file = join(dir, 'data.bin');
writeFileSync(file, bytes);

const readAt = (r: ArchiveFileReader, length: number, position: number) =>
  new Promise<{ err: Error | null; got?: number; buf: Buffer }>((resolve) => {
    const buf = Buffer.alloc(length);
    (r.read as unknown as (b: Buffer, o: number, l: number, p: number, cb: (e: Error | null, n?: number) => void) => void).call(r, buf, 0, length, position, (err, got) => resolve({ err, got, buf }));
  });

async function range(r: ArchiveFileReader, start: number, end: number, stopAfter = Number.POSITIVE_INFINITY): Promise<Buffer[]> {
  const pieces: Buffer[] = [];
  const s = r._readStreamForRange(start, end);
  for await (const c of s) {
    pieces.push(c as Buffer);
    if (pieces.length >= stopAfter) break;
  }
  return pieces;
}

describe('the archive file reader', () => {
  it('reads a range in pieces of at most MEMBER_READ_BYTES, exactly its bytes', async () => {
    const r = new ArchiveFileReader(openSync(file, 'r'));
    const pieces = await range(r, 100, bytes.length - 7);
    expect(pieces.every((p) => p.length <= MEMBER_READ_BYTES)).toBe(true);
    expect(pieces.length).toBe(4);
    expect(Buffer.concat(pieces).equals(bytes.subarray(100, bytes.length - 7))).toBe(true);
    await new Promise((res) => r.close(res));
  });

  it('a stream given up halfway leaves the file open for the next member', async () => {
    const fd = openSync(file, 'r');
    const r = new ArchiveFileReader(fd);
    expect(await range(r, 0, bytes.length, 1)).toHaveLength(1);
    const again = await range(r, 10, 20);
    expect(Buffer.concat(again).equals(bytes.subarray(10, 20))).toBe(true);
    expect(fstatSync(fd).size).toBe(bytes.length);
    await new Promise((res) => r.close(res));
    expect(() => fstatSync(fd)).toThrow(/EBADF/);
  });

  it('read fills the buffer and says how many bytes it read, fewer at the end of the file', async () => {
    const r = new ArchiveFileReader(openSync(file, 'r'));
    const whole = await readAt(r, 1000, 5);
    expect(whole.err).toBeNull();
    expect(whole.got).toBe(1000);
    expect(whole.buf.equals(bytes.subarray(5, 1005))).toBe(true);
    const short = await readAt(r, 50, bytes.length - 20);
    expect(short).toMatchObject({ err: null, got: 20 });
    await new Promise((res) => r.close(res));
  });
});
