// The zip records the collector writes (PKWARE APPNOTE 6.3): local headers, data descriptors,
// the central directory with Info-ZIP timestamps and Zip64 fields, and the end records.
import zlib from 'node:zlib';

/** What the central directory needs to know of one written member. */
export interface ZipEntry {
  name: Buffer;
  method: 0 | 8;
  /** Sizes and CRC were in the local header (no data descriptor). */
  known: boolean;
  crc: number;
  csize: number;
  usize: number;
  offset: number;
  dosTime: number;
  dosDate: number;
  unixSeconds: number;
  /** `st_mode`-style file type and permissions. */
  mode: number;
}

const UTF8 = 1 << 11;
const DESCRIPTOR = 1 << 3;
const MADE_BY = (3 << 8) | 63; // Unix, spec 6.3
const NEEDS = 20;
const NEEDS_ZIP64 = 45;
const U32 = 0xffffffff;

/** Whether an entry needs Zip64 fields (a size or offset past 32 bits). */
export function needsZip64(e: Pick<ZipEntry, 'csize' | 'usize' | 'offset'>): boolean {
  return e.csize >= U32 || e.usize >= U32 || e.offset >= U32;
}

/** A member name the way readers expect it: relative, `/`-separated, no `..`; else an error. */
export function checkedName(name: string): Buffer {
  if (name === '' || name.includes('\\') || name.startsWith('/') || /^[A-Za-z]:/.test(name) || name.split('/').includes('..')) {
    throw new Error(`invalid zip member name ${JSON.stringify(name)}: expected a relative /-separated path without ..`);
  }
  // Memory of its own: a name is kept until the central directory is written, and a slice of
  // Node's shared 8 KiB pool would keep its whole pool block alive with it (80 MB over 10,000
  // small members).
  const b = Buffer.allocUnsafeSlow(Buffer.byteLength(name, 'utf8'));
  b.write(name, 0, 'utf8');
  return b;
}

/** DOS date and time fields (local time, as Info-ZIP and yazl write them) of a clamped date. */
export function dosDateTime(d: Date): { dosDate: number; dosTime: number } {
  const dosDate = (((d.getFullYear() - 1980) & 0x7f) << 9) | ((d.getMonth() + 1) << 5) | d.getDate();
  const dosTime = (d.getHours() << 11) | (d.getMinutes() << 5) | Math.floor(d.getSeconds() / 2);
  return { dosDate, dosTime };
}

/** Bytes of the Info-ZIP "UT" extra field as written in both headers: the mtime alone. */
const UT_BYTES = 9;

/**
 * The Info-ZIP "UT" extra field (id 0x5455): flags 1, the mtime in whole seconds since the
 * epoch (clamped to 32 bits). In the local header too, so an archive cut short, whose central
 * directory is lost, still says when each of its whole members was modified (zip-salvage.ts).
 */
function utField(e: ZipEntry): Buffer {
  const ut = Buffer.alloc(UT_BYTES);
  ut.writeUInt16LE(0x5455, 0);
  ut.writeUInt16LE(5, 2);
  ut.writeUInt8(1, 4);
  ut.writeInt32LE(Math.max(-0x80000000, Math.min(0x7fffffff, e.unixSeconds)), 5);
  return ut;
}

/** The local file header with its UT field; sizes and CRC are zero when a data descriptor follows the data. */
export function localHeader(e: ZipEntry): Buffer {
  const b = Buffer.alloc(30);
  b.writeUInt32LE(0x04034b50, 0);
  b.writeUInt16LE(NEEDS, 4);
  b.writeUInt16LE(UTF8 | (e.known ? 0 : DESCRIPTOR), 6);
  b.writeUInt16LE(e.method, 8);
  b.writeUInt16LE(e.dosTime, 10);
  b.writeUInt16LE(e.dosDate, 12);
  if (e.known) {
    b.writeUInt32LE(e.crc, 14);
    b.writeUInt32LE(e.csize, 18);
    b.writeUInt32LE(e.usize, 22);
  }
  b.writeUInt16LE(e.name.length, 26);
  b.writeUInt16LE(UT_BYTES, 28);
  return Buffer.concat([b, e.name, utField(e)]);
}

/** The data descriptor after a streamed member (8-byte sizes past 4 GiB, read from the central directory). */
export function dataDescriptor(e: ZipEntry): Buffer {
  if (e.csize < U32 && e.usize < U32) {
    const b = Buffer.alloc(16);
    b.writeUInt32LE(0x08074b50, 0);
    b.writeUInt32LE(e.crc, 4);
    b.writeUInt32LE(e.csize, 8);
    b.writeUInt32LE(e.usize, 12);
    return b;
  }
  const b = Buffer.alloc(24);
  b.writeUInt32LE(0x08074b50, 0);
  b.writeUInt32LE(e.crc, 4);
  b.writeBigUInt64LE(BigInt(e.csize), 8);
  b.writeBigUInt64LE(BigInt(e.usize), 16);
  return b;
}

/** One central directory record, with the Info-ZIP "UT" mtime and, when needed, the Zip64 field. */
export function centralRecord(e: ZipEntry): Buffer {
  const zip64 = needsZip64(e);
  // The same field as the local header's: its flags say which times the local copy holds.
  const ut = utField(e);
  let z = Buffer.alloc(0);
  if (zip64) {
    z = Buffer.alloc(28);
    z.writeUInt16LE(0x0001, 0);
    z.writeUInt16LE(24, 2);
    z.writeBigUInt64LE(BigInt(e.usize), 4);
    z.writeBigUInt64LE(BigInt(e.csize), 12);
    z.writeBigUInt64LE(BigInt(e.offset), 20);
  }
  const b = Buffer.alloc(46);
  b.writeUInt32LE(0x02014b50, 0);
  b.writeUInt16LE(MADE_BY, 4);
  b.writeUInt16LE(zip64 ? NEEDS_ZIP64 : NEEDS, 6);
  b.writeUInt16LE(UTF8 | (e.known ? 0 : DESCRIPTOR), 8);
  b.writeUInt16LE(e.method, 10);
  b.writeUInt16LE(e.dosTime, 12);
  b.writeUInt16LE(e.dosDate, 14);
  b.writeUInt32LE(e.crc, 16);
  b.writeUInt32LE(zip64 ? U32 : e.csize, 20);
  b.writeUInt32LE(zip64 ? U32 : e.usize, 24);
  b.writeUInt16LE(e.name.length, 28);
  b.writeUInt16LE(ut.length + z.length, 30);
  b.writeUInt32LE(((e.mode & 0xffff) << 16) >>> 0, 38);
  b.writeUInt32LE(zip64 ? U32 : e.offset, 42);
  return Buffer.concat([b, e.name, ut, z]);
}

/** The end records: Zip64 ones first when the entry count, size or offset of the directory needs them. */
export function endRecords(count: number, cdOffset: number, cdSize: number): Buffer {
  const zip64 = count >= 0xffff || cdOffset >= U32 || cdSize >= U32;
  const parts: Buffer[] = [];
  if (zip64) {
    const r = Buffer.alloc(56);
    r.writeUInt32LE(0x06064b50, 0);
    r.writeBigUInt64LE(44n, 4);
    r.writeUInt16LE(MADE_BY, 12);
    r.writeUInt16LE(NEEDS_ZIP64, 14);
    r.writeBigUInt64LE(BigInt(count), 24);
    r.writeBigUInt64LE(BigInt(count), 32);
    r.writeBigUInt64LE(BigInt(cdSize), 40);
    r.writeBigUInt64LE(BigInt(cdOffset), 48);
    const l = Buffer.alloc(20);
    l.writeUInt32LE(0x07064b50, 0);
    l.writeBigUInt64LE(BigInt(cdOffset + cdSize), 8);
    l.writeUInt32LE(1, 16);
    parts.push(r, l);
  }
  const e = Buffer.alloc(22);
  e.writeUInt32LE(0x06054b50, 0);
  e.writeUInt16LE(zip64 ? 0xffff : count, 8);
  e.writeUInt16LE(zip64 ? 0xffff : count, 10);
  e.writeUInt32LE(zip64 ? U32 : cdSize, 12);
  e.writeUInt32LE(zip64 ? U32 : cdOffset, 16);
  parts.push(e);
  return Buffer.concat(parts);
}

let table: Uint32Array | undefined;

/** CRC-32 (zip's): zlib's native one where node has it (20.15+), else a table-driven fallback. */
export function crc32(data: Buffer, prev = 0): number {
  if (typeof zlib.crc32 === 'function') return zlib.crc32(data, prev);
  if (!table) {
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n += 1) {
      let c = n;
      for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
  }
  let c = (prev ^ 0xffffffff) >>> 0;
  for (let i = 0; i < data.length; i += 1) c = table[(c ^ data[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
