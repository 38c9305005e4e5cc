import { readSync } from 'node:fs';

/** Where the zip lies inside a file that holds more than the zip: bytes before it, and its end. */
export interface ZipBounds {
  /** Bytes before the zip's first byte (a stub, or a carved file's leading bytes). */
  base: number;
  /** The offset just past the end record and its comment; bytes after it are not the zip's. */
  end: number;
}

const EOCD = 0x06054b50;
const LOCATOR = 0x07064b50;
const EOCD64 = 0x06064b50;
const CENTRAL = 0x02014b50;
const U16 = 0xffff;
const U32 = 0xffffffff;
/** The end record's fixed part, and the Zip64 end record as writers make it (no extensible data). */
const EOCD_BYTES = 22;
const EOCD64_BYTES = 56;
const LOCATOR_BYTES = 20;
/**
 * Bytes searched from the end of the file for the end record: its comment (at most 64 KiB) and
 * up to 1 MiB of bytes appended after it (a padded copy, a file carved with slack). unzip and
 * Python's zipfile search only the comment's reach.
 */
export const SEARCH_BYTES = EOCD_BYTES + U16 + 1024 * 1024;

/**
 * Find the zip in an open file the way unzip does when the file holds more than the zip: the last
 * end record whose central directory sits where its sizes say, before the record. Bytes found
 * after the record and its comment, or before the zip (the directory's recorded offset is less
 * than where it is), are left out: the offsets inside the zip are then read from `base`. Undefined
 * when no end record holds together; the caller's strict reader then says why.
 */
export function findZipBounds(fd: number, size: number): ZipBounds | undefined {
  const from = Math.max(0, size - SEARCH_BYTES);
  const tail = Buffer.alloc(size - from);
  let got = 0;
  while (got < tail.length) {
    const n = readSync(fd, tail, got, tail.length - got, from + got);
    if (n === 0) break;
    got += n;
  }
  for (let i = got - EOCD_BYTES; i >= 0; i--) {
    if (tail.readUInt32LE(i) !== EOCD) continue;
    const at = from + i;
    const end = at + EOCD_BYTES + tail.readUInt16LE(i + 20);
    if (end > size) continue;
    const base = directoryBase(fd, tail, i, at);
    if (base !== undefined) return { base, end };
  }
  return undefined;
}

/** The bytes before the zip of the end record at `tail[i]` (file offset `at`), if its directory is where it says. */
function directoryBase(fd: number, tail: Buffer, i: number, at: number): number | undefined {
  const entries = tail.readUInt16LE(i + 10);
  let cdSize = tail.readUInt32LE(i + 12);
  let cdOffset = tail.readUInt32LE(i + 16);
  let recordStart = at;
  if (entries === U16 || cdSize === U32 || cdOffset === U32) {
    // Zip64: the locator sits just before the end record, the Zip64 end record before the locator.
    const loc = readAt(fd, at - LOCATOR_BYTES, LOCATOR_BYTES);
    if (!loc || loc.readUInt32LE(0) !== LOCATOR) return undefined;
    recordStart = at - LOCATOR_BYTES - EOCD64_BYTES;
    const rec = readAt(fd, recordStart, EOCD64_BYTES);
    if (!rec || rec.readUInt32LE(0) !== EOCD64) return undefined;
    const recorded = Number(loc.readBigUInt64LE(8));
    cdSize = Number(rec.readBigUInt64LE(40));
    cdOffset = Number(rec.readBigUInt64LE(48));
    if (recordStart - recorded !== recordStart - cdSize - cdOffset) return undefined;
  }
  const cdStart = recordStart - cdSize;
  const base = cdStart - cdOffset;
  if (cdStart < 0 || base < 0) return undefined;
  if (cdSize === 0) return entries === 0 ? base : undefined;
  const sig = readAt(fd, cdStart, 4);
  return sig && sig.readUInt32LE(0) === CENTRAL ? base : undefined;
}

function readAt(fd: number, pos: number, len: number): Buffer | undefined {
  if (pos < 0) return undefined;
  const b = Buffer.alloc(len);
  return readSync(fd, b, 0, len, pos) === len ? b : undefined;
}
