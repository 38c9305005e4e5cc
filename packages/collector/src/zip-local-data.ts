import type { FileHandle } from 'node:fs/promises';
import { createInflateRaw } from 'node:zlib';
import { crc32 } from './zip-format.js';

// The reads under zip-salvage.ts's scan: byte ranges, a deflate stream to its end, a member's
// data checked against its header, data descriptors found by what they say, and extra fields.

const DESCRIPTOR_SIG = 0x08074b50;
const READ_BYTES = 256 * 1024;

/** Up to `len` bytes at `pos`: fewer only where the file ends. */
export async function readAt(fh: FileHandle, pos: number, len: number): Promise<Buffer> {
  const b = Buffer.alloc(len);
  let got = 0;
  while (got < len) {
    const { bytesRead } = await fh.read(b, got, len - got, pos + got);
    if (bytesRead === 0) break;
    got += bytesRead;
  }
  return got < len ? b.subarray(0, got) : b;
}

/** The bytes of `[start, end)`, {@link READ_BYTES} at a time, until the file ends. */
export async function* rawRange(fh: FileHandle, start: number, end: number): AsyncGenerator<Buffer> {
  for (let p = start; p < end; ) {
    const b = await readAt(fh, p, Math.min(READ_BYTES, end - p));
    if (b.length === 0) return;
    p += b.length;
    yield b;
  }
}

/** Inflate `raw` until its deflate stream ends; `consumed()` is then the compressed bytes it took. */
export function inflated(raw: AsyncIterable<Buffer>): { out: AsyncIterable<Buffer>; consumed(): number } {
  const inf = createInflateRaw();
  let done = false;
  inf.once('end', () => {
    done = true;
  });
  (async () => {
    try {
      for await (const c of raw) {
        if (done || inf.destroyed) return;
        if (!inf.write(c)) await drained(inf);
      }
      if (!done) inf.end();
    } catch (err) {
      inf.destroy(err as Error);
    }
  })();
  return { out: inf, consumed: () => inf.bytesWritten };
}

/** The stream drained, or closed (an error, or its end): listeners removed either way. */
function drained(s: NodeJS.EventEmitter): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      s.off('drain', done);
      s.off('close', done);
      resolve();
    };
    s.on('drain', done);
    s.on('close', done);
  });
}

/** `data` as it comes, then an error unless its size and CRC-32 are the header's. */
export async function* checked(data: AsyncIterable<Buffer>, name: string, crc: number, size: number): AsyncGenerator<Buffer> {
  let c = 0;
  let n = 0;
  for await (const b of data) {
    c = crc32(b, c);
    n += b.length;
    if (n > size) throw new Error(`member ${name}: more than the ${size} bytes its header declares`);
    yield b;
  }
  if (n !== size) throw new Error(`member ${name}: ${n} bytes, its header declares ${size} (cut short)`);
  if (c !== crc) throw new Error(`member ${name}: its CRC-32 differs from its header's`);
}

/** The data descriptor at `at` of a member whose data began at `start`: 4-byte sizes, or 8-byte ones past 4 GiB. */
export async function descriptorAt(fh: FileHandle, at: number, start: number): Promise<{ crc: number; csize: number; usize: number; length: number } | undefined> {
  const b = await readAt(fh, at, 24);
  if (b.length < 16 || b.readUInt32LE(0) !== DESCRIPTOR_SIG) return undefined;
  if (b.readUInt32LE(8) === at - start) return { crc: b.readUInt32LE(4), csize: b.readUInt32LE(8), usize: b.readUInt32LE(12), length: 16 };
  if (b.length < 24) return undefined;
  return { crc: b.readUInt32LE(4), csize: Number(b.readBigUInt64LE(8)), usize: Number(b.readBigUInt64LE(16)), length: 24 };
}

/** A stored streamed member's end: the first descriptor whose sizes are the bytes before it and whose CRC-32 is theirs. */
export async function storedEnd(fh: FileHandle, start: number, size: number): Promise<{ end: number; length: number } | undefined> {
  let crc = 0;
  let p = start;
  let carry = Buffer.alloc(0);
  while (p < size) {
    const b = Buffer.concat([carry, await readAt(fh, p, Math.min(READ_BYTES, size - p))]);
    const base = p - carry.length;
    for (let i = b.indexOf(0x50); i >= 0 && i + 16 <= b.length; i = b.indexOf(0x50, i + 1)) {
      if (b.readUInt32LE(i) !== DESCRIPTOR_SIG) continue;
      const end = base + i;
      if (b.readUInt32LE(i + 8) !== end - start || b.readUInt32LE(i + 12) !== end - start) continue;
      if (crc32(b.subarray(0, i), crc) === b.readUInt32LE(i + 4)) return { end, length: 16 };
    }
    // Keep the last 15 bytes for a descriptor cut by this block's end; the CRC runs over the rest.
    const keep = Math.min(15, b.length);
    crc = crc32(b.subarray(0, b.length - keep), crc);
    carry = Buffer.from(b.subarray(b.length - keep));
    p = base + b.length;
  }
  return undefined;
}

/**
 * The mtime of an Info-ZIP "UT" field (id 0x5455, flags bit 0, then a signed 32-bit count of
 * seconds), unless it is one of the bounds the writer clamps to, which would be a wrong time.
 */
export function utMtime(extra: Buffer): number | undefined {
  for (let i = 0; i + 4 <= extra.length; ) {
    const id = extra.readUInt16LE(i);
    const len = extra.readUInt16LE(i + 2);
    if (id === 0x5455 && len >= 5 && i + 4 + len <= extra.length && (extra[i + 4] & 1) !== 0) {
      const t = extra.readInt32LE(i + 5);
      return t === 0x7fffffff || t === -0x80000000 ? undefined : t;
    }
    i += 4 + len;
  }
  return undefined;
}

/**
 * Where the data of a stored streamed member cut short ends: the end of the file, or a data
 * descriptor's signature in its last 16 bytes (the cut fell inside the descriptor).
 */
export async function storedCut(fh: FileHandle, start: number, size: number): Promise<number> {
  const from = Math.max(start, size - 15);
  const tail = await readAt(fh, from, size - from);
  const i = tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x07, 0x08]));
  return i >= 0 ? from + i : size;
}

/** Zip64 sizes [uncompressed, compressed] from a local header's extra field. */
export function zip64Sizes(extra: Buffer): [number, number] | undefined {
  for (let i = 0; i + 4 <= extra.length; ) {
    const id = extra.readUInt16LE(i);
    const len = extra.readUInt16LE(i + 2);
    if (id === 1 && len >= 16 && i + 4 + len <= extra.length) return [Number(extra.readBigUInt64LE(i + 4)), Number(extra.readBigUInt64LE(i + 12))];
    i += 4 + len;
  }
  return undefined;
}
