import { closeSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { SAFE_OPEN_FLAGS } from './read-file.js';
import { crc32 } from './zip-format.js';
import { checked, descriptorAt, inflated, rawRange, readAt, storedCut, storedEnd, utMtime, zip64Sizes } from './zip-local-data.js';

/*
 * The whole members of a zip cut short (no central directory: a copy stopped, a collection killed
 * before it finished), found as the zip's own writer laid them out: one local header after the
 * other from the first byte. A member's end is in its header, or, when a data descriptor follows
 * its data (a streamed member), where its deflate stream ends or (stored) where a descriptor
 * agrees with the bytes before it. Each member's CRC-32 and size are checked as it is read.
 */

const LOCAL = 0x04034b50;
const CENTRAL = 0x02014b50;
const DESCRIPTOR_FLAG = 1 << 3;
const U32 = 0xffffffff;

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

/**
 * A member whose data the file ends inside: its read handed out the `bytes` before the cut (all
 * that inflates, for a deflated one), then threw this. Nothing checks those bytes.
 */
export class CutMemberError extends Error {
  constructor(
    readonly member: string,
    readonly bytes: number,
    message: string,
  ) {
    super(message);
  }
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
      if (dataStart > size) return stop(pos, `the member header at byte ${pos} is cut short`);
      // The file ends inside the data of a member whose sizes are in its header.
      const cutKnown = want !== undefined && dataStart + csize > size ? `${csize} bytes of data declared, ${size - dataStart} in the file` : undefined;
      // A member whose sizes are in its header ends where they say, read or not, whole or not.
      let next: number | undefined = want && !cutKnown ? dataStart + csize : undefined;
      let failed: string | undefined;
      /** The bytes of `data` up to the cut, then the error that says so. */
      const upToCut = async function* (data: AsyncIterable<Buffer> | Iterable<Buffer>, why: string, handedOut = 0): AsyncGenerator<Buffer> {
        let n = handedOut;
        let stopped = '';
        try {
          for await (const c of data) {
            n += c.length;
            yield c;
          }
        } catch (err) {
          // The inflater refuses a stream cut short ("unexpected end of file") after handing out all it decoded.
          if (!/unexpected end of file/i.test((err as Error).message)) stopped = ` (the data stopped decoding there: ${(err as Error).message})`;
        }
        throw new CutMemberError(name, n, `member ${name} is cut short: ${why}; its first ${n} bytes are recovered${stopped}, its end and its CRC-32 are lost`);
      };
      const body = async function* (): AsyncGenerator<Buffer> {
        try {
          if (want && cutKnown) {
            yield* upToCut(method === 8 ? inflated(rawRange(fh, dataStart, size)).out : rawRange(fh, dataStart, size), cutKnown);
          } else if (want) {
            yield* checked(method === 8 ? inflated(rawRange(fh, dataStart, dataStart + csize)).out : rawRange(fh, dataStart, dataStart + csize), name, want.crc, want.usize);
          } else if (method === 8) {
            const inf = inflated(rawRange(fh, dataStart, size));
            let crc = 0;
            let n = 0;
            try {
              for await (const c of inf.out) {
                crc = crc32(c, crc);
                n += c.length;
                yield c;
              }
            } catch (err) {
              if (dataStart + inf.consumed() < size) throw err;
              yield* upToCut([], 'its deflate stream runs to the end of the file', n);
            }
            const at = dataStart + inf.consumed();
            const d = await descriptorAt(fh, at, dataStart);
            // Cut inside the descriptor: the deflate stream ended, but the CRC-32 to check it by is lost.
            if (!d && at + 16 > size) throw new CutMemberError(name, n, `member ${name} is cut short inside its data descriptor: its ${n} bytes are recovered (its deflate stream ended), its CRC-32 is lost`);
            if (!d || d.crc !== crc || d.usize !== n || d.csize !== at - dataStart) throw new Error(`member ${name}: its data descriptor at byte ${at} ${d ? 'does not match its bytes' : 'is missing'}`);
            next = at + d.length;
          } else {
            // Read twice, to find the end and then to hand out the bytes: only a stored member past one chunk comes here.
            const found = await storedEnd(fh, dataStart, size);
            if (!found) {
              yield* upToCut(rawRange(fh, dataStart, await storedCut(fh, dataStart, size)), 'no data descriptor follows its bytes before the end of the file');
              return;
            }
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
      if (!started && cutKnown) failed = `member ${name} is cut short: ${cutKnown}`;
      // A streamed member nobody read is read here, to find where it ends (in its data).
      else if (!started && next === undefined) {
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
