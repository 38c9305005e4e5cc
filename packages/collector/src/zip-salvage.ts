import { closeSync, openSync, readSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { createInflateRaw } from 'node:zlib';
import { SAFE_OPEN_FLAGS } from './read-file.js';
import { crc32 } from './zip-format.js';

/*
 * The whole members of a zip cut short (no central directory: a copy stopped, a collection killed
 * before it finished), found as the zip's own writer laid them out: one local header after the
 * other from the first byte. A member's end is in its header, or, when a data descriptor follows
 * its data (a streamed member), where its deflate stream ends or (stored) where a descriptor
 * agrees with the bytes before it. Each member's CRC-32 and size are checked as it is read.
 */

const LOCAL = 0x04034b50;
const CENTRAL = 0x02014b50;
const DESCRIPTOR_SIG = 0x08074b50;
const DESCRIPTOR_FLAG = 1 << 3;
const U32 = 0xffffffff;
const READ_BYTES = 256 * 1024;

/** One member found by its local header. */
export interface LocalMember {
  /** Its name as stored (UTF-8, or CP437 read as Latin-1 when the UTF-8 flag is off). */
  name: string;
  /** Offset of its local header. */
  offset: number;
  method: number;
  /** Its DOS date and time (the writer's local time, 2-second steps). */
  dosDate: number;
  dosTime: number;
  /** Sizes from the header; null when a data descriptor follows the data. */
  size: number | null;
  /** Its mtime in whole seconds since the epoch, from the header's Info-ZIP "UT" field; absent without one. */
  mtime?: number;
}

/** How the scan ended: every member before the central directory, or where it stopped and why. */
export interface ScanEnd {
  /** True when the scan reached the central directory (no member was cut). */
  whole: boolean;
  /** Byte offset where the scan stopped. */
  at: number;
  why: string;
}

/** A member in the scan: its bytes are readable once, while the scan is at it. */
export interface ScannedMember {
  member: LocalMember;
  /** Its uncompressed bytes, CRC-32 and size checked at the end (an error names what differs). */
  read(): AsyncIterable<Buffer>;
}

/** The scan of one file: its members in order, then how it ended (set once the members are done). */
export interface LocalScan {
  members(): AsyncGenerator<ScannedMember>;
  end(): ScanEnd | undefined;
  close(): Promise<void>;
}

/** Where an aitrail collection's members are: the first one's name starts with one of these. */
const COLLECTION_TOPS = ['homes/', 'system/', 'projects/'];

/**
 * Whether `path` starts as an aitrail collection zip does (a member's local header, the member
 * under homes/, system/ or projects/): a file that does and has no readable central directory is
 * one cut short, whose whole members `aitrail import` recovers.
 */
export function startsAsCollection(path: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(path, SAFE_OPEN_FLAGS);
    const b = Buffer.alloc(30 + 64);
    const n = readSync(fd, b, 0, b.length, 0);
    if (n < 30 || b.readUInt32LE(0) !== LOCAL) return false;
    const name = b.subarray(30, Math.min(n, 30 + b.readUInt16LE(26))).toString('utf8');
    return COLLECTION_TOPS.some((t) => name.startsWith(t));
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Open `path` (read-only, no link followed) and scan its local headers. */
export async function scanLocalHeaders(path: string): Promise<LocalScan> {
  const fh = await open(path, SAFE_OPEN_FLAGS);
  const size = (await fh.stat()).size;
  let ended: ScanEnd | undefined;
  const stop = (at: number, why: string, whole = false) => {
    ended = { whole, at, why };
  };
  async function* members(): AsyncGenerator<ScannedMember> {
    let pos = 0;
    for (;;) {
      const head = await readAt(fh, pos, 30);
      if (head.length < 4) return stop(pos, `the file ends at byte ${pos}, with no central directory after the last whole member`);
      const sig = head.readUInt32LE(0);
      if (sig === CENTRAL) return stop(pos, `the central directory starts at byte ${pos}`, true);
      if (sig !== LOCAL) return stop(pos, `expected a member's local header at byte ${pos}, found other bytes`);
      if (head.length < 30) return stop(pos, `the member header at byte ${pos} is cut short`);
      const flags = head.readUInt16LE(6);
      const method = head.readUInt16LE(8);
      const nameLen = head.readUInt16LE(26);
      const extraLen = head.readUInt16LE(28);
      const nameBytes = await readAt(fh, pos + 30, nameLen);
      if (nameBytes.length < nameLen) return stop(pos, `the member header at byte ${pos} is cut short`);
      const name = nameBytes.toString(flags & (1 << 11) ? 'utf8' : 'latin1');
      const dataStart = pos + 30 + nameLen + extraLen;
      const streamed = (flags & DESCRIPTOR_FLAG) !== 0;
      let csize = head.readUInt32LE(18);
      let usize = head.readUInt32LE(22);
      const extra = extraLen > 0 ? await readAt(fh, pos + 30 + nameLen, extraLen) : Buffer.alloc(0);
      if (!streamed && (csize === U32 || usize === U32)) {
        const z = zip64Sizes(extra);
        if (!z) return stop(pos, `member ${JSON.stringify(name)} at byte ${pos}: Zip64 sizes without their extra field`);
        [usize, csize] = z;
      }
      if (method !== 0 && method !== 8) return stop(pos, `member ${JSON.stringify(name)} at byte ${pos}: compression method ${method}, which aitrail does not read`);
      const member: LocalMember = { name, offset: pos, method, dosDate: head.readUInt16LE(12), dosTime: head.readUInt16LE(10), size: streamed ? null : usize };
      const mtime = utMtime(extra);
      if (mtime !== undefined) member.mtime = mtime;
      const want = streamed ? undefined : { crc: head.readUInt32LE(14), csize, usize };
      if (want && dataStart + csize > size) return stop(pos, `member ${JSON.stringify(name)} at byte ${pos} is cut short (${csize} bytes of data declared, ${Math.max(0, size - dataStart)} in the file)`);
      // A member whose sizes are in its header ends where they say, read or not, whole or not.
      let next: number | undefined = want ? dataStart + csize : undefined;
      let failed: string | undefined;
      const body = async function* (): AsyncGenerator<Buffer> {
        try {
          if (want) {
            yield* checked(method === 8 ? inflated(rawRange(fh, dataStart, dataStart + csize)).out : rawRange(fh, dataStart, dataStart + csize), name, want.crc, want.usize);
          } else if (method === 8) {
            const inf = inflated(rawRange(fh, dataStart, size));
            let crc = 0;
            let n = 0;
            for await (const c of inf.out) {
              crc = crc32(c, crc);
              n += c.length;
              yield c;
            }
            const at = dataStart + inf.consumed();
            const d = await descriptorAt(fh, at, dataStart);
            if (!d || d.crc !== crc || d.usize !== n || d.csize !== at - dataStart) throw new Error(`member ${name}: its data descriptor at byte ${at} ${d ? 'does not match its bytes' : 'is missing'}`);
            next = at + d.length;
          } else {
            // Read twice, to find the end and then to hand out the bytes: only a stored member past one chunk comes here.
            const found = await storedEnd(fh, dataStart, size);
            if (!found) throw new Error(`member ${name}: no data descriptor agrees with its bytes before the end of the file (cut short)`);
            yield* rawRange(fh, dataStart, found.end);
            next = found.end + found.length;
          }
        } catch (err) {
          failed = (err as Error).message;
          throw err;
        }
      };
      let started = false;
      yield {
        member,
        read: () => {
          started = true;
          return body();
        },
      };
      // A streamed member nobody read is read here, to find where it ends (in its data).
      if (!started && next === undefined) {
        try {
          for await (const _ of body()) {
            // discarded
          }
        } catch {}
      }
      if (next === undefined) return stop(pos, failed ?? `member ${JSON.stringify(name)} at byte ${pos} was not read to its end`);
      pos = next;
    }
  }
  return { members, end: () => ended, close: () => fh.close() };
}

async function readAt(fh: FileHandle, pos: number, len: number): Promise<Buffer> {
  const b = Buffer.alloc(len);
  let got = 0;
  while (got < len) {
    const { bytesRead } = await fh.read(b, got, len - got, pos + got);
    if (bytesRead === 0) break;
    got += bytesRead;
  }
  return got < len ? b.subarray(0, got) : b;
}

async function* rawRange(fh: FileHandle, start: number, end: number): AsyncGenerator<Buffer> {
  for (let p = start; p < end; ) {
    const b = await readAt(fh, p, Math.min(READ_BYTES, end - p));
    if (b.length === 0) return;
    p += b.length;
    yield b;
  }
}

/** Inflate `raw` until its deflate stream ends; `consumed()` is then the compressed bytes it took. */
function inflated(raw: AsyncIterable<Buffer>): { out: AsyncIterable<Buffer>; consumed(): number } {
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

async function* checked(data: AsyncIterable<Buffer>, name: string, crc: number, size: number): AsyncGenerator<Buffer> {
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
async function descriptorAt(fh: FileHandle, at: number, start: number): Promise<{ crc: number; csize: number; usize: number; length: number } | undefined> {
  const b = await readAt(fh, at, 24);
  if (b.length < 16 || b.readUInt32LE(0) !== DESCRIPTOR_SIG) return undefined;
  if (b.readUInt32LE(8) === at - start) return { crc: b.readUInt32LE(4), csize: b.readUInt32LE(8), usize: b.readUInt32LE(12), length: 16 };
  if (b.length < 24) return undefined;
  return { crc: b.readUInt32LE(4), csize: Number(b.readBigUInt64LE(8)), usize: Number(b.readBigUInt64LE(16)), length: 24 };
}

/** A stored streamed member's end: the first descriptor whose sizes are the bytes before it and whose CRC-32 is theirs. */
async function storedEnd(fh: FileHandle, start: number, size: number): Promise<{ end: number; length: number } | undefined> {
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

/** Zip64 sizes [uncompressed, compressed] from a local header's extra field. */
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

function zip64Sizes(extra: Buffer): [number, number] | undefined {
  for (let i = 0; i + 4 <= extra.length; ) {
    const id = extra.readUInt16LE(i);
    const len = extra.readUInt16LE(i + 2);
    if (id === 1 && len >= 16 && i + 4 + len <= extra.length) return [Number(extra.readBigUInt64LE(i + 4)), Number(extra.readBigUInt64LE(i + 12))];
    i += 4 + len;
  }
  return undefined;
}
