/**
 * Records a SQLite file still holds outside its live tables, read from its bytes (the file
 * format: sqlite.org/fileformat2.html), never through SQLite:
 * - `file-old`: a page of the main file that a committed WAL frame replaces, i.e. the page as it
 *   was at the last checkpoint (a row deleted since is still whole there);
 * - `wal-old`: a WAL frame that is not its page's live version: an earlier frame of the same
 *   page, a frame after the last commit, or a frame of an earlier WAL generation left behind;
 * - `freelist`: a freed page of the live database that is still a whole table leaf (a table
 *   emptied by `DELETE FROM t` or dropped frees its pages without touching their cells).
 * A cell deleted from a page still in use has its first bytes overwritten (a freeblock header),
 * so it is not carved here. Every record is checked against the format (its header's serial
 * types must add up to its payload), so damage and noise give nothing rather than garbage, and
 * every loop is bounded: the bytes read and kept have limits of their own, so a hostile file that
 * names one long overflow chain from many cells costs a few passes over its size, not their product.
 */
import { walFrames } from './sqlite-wal.js';

/** A value of a carved record, as SQLite stores it. */
export type CarvedValue = null | number | bigint | string | Buffer;

/** Where a carved record was found. */
export type CarvedSource = 'file-old' | 'wal-old' | 'freelist';

/** One record of a table leaf page that is not the live version. */
export interface CarvedRecord {
  source: CarvedSource;
  /** The page number the record's page had. */
  page: number;
  rowid: number;
  values: CarvedValue[];
}

/** Limits of {@link carveSqlite}. */
export interface CarveOptions {
  /** Records returned at most (default 10,000). */
  maxRecords?: number;
  /** A record whose payload is larger is skipped (default 64 MiB). */
  maxPayload?: number;
  /**
   * Bytes of payload read in all, overflow chains included (default four times the input plus
   * 64 MiB): many cells of a hostile file can name one long chain, and each would be read again.
   */
  maxWork?: number;
  /** Bytes of the records kept, in all (default 256 MiB): their values are held in memory. */
  maxKept?: number;
  /** Whether a page version is carved at all (default every one): a caller that knows which table owns each live page keeps to its own. */
  accept?: (page: number, source: CarvedSource) => boolean;
  /** Whether a record is kept (default every one): a caller that wants only some keeps the others out of memory and out of `maxKept`. */
  filter?: (record: CarvedRecord) => boolean;
}

/** What {@link carveSqlite} found, and what it could not read (for a warning). */
export interface CarveResult {
  records: CarvedRecord[];
  notes: string[];
}

const MAGIC = 'SQLite format 3\0';
const LEAF_TABLE = 0x0d;

/** A varint at `at` (1-9 bytes, big-endian 7-bit groups, the ninth byte whole): [value, bytes], or null past `end`. */
function varint(b: Buffer, at: number, end: number): [number, number] | null {
  let v = 0;
  for (let i = 0; i < 9; i++) {
    if (at + i >= end) return null;
    const c = b[at + i];
    if (i === 8) return [v * 256 + c, 9];
    v = v * 128 + (c & 0x7f);
    if (c < 0x80) return [v, i + 1];
  }
  return null;
}

/** The bytes of a record's payload, following its overflow chain through `pageOf`; null if the chain is broken. */
function payloadOf(page: Buffer, at: number, total: number, usable: number, pageOf: (n: number) => Buffer | undefined): Buffer | null {
  const x = usable - 35;
  let local = total;
  if (total > x) {
    const m = Math.floor(((usable - 12) * 32) / 255) - 23;
    const k = m + ((total - m) % (usable - 4));
    local = k <= x ? k : m;
  }
  if (at + local + (local < total ? 4 : 0) > usable) return null;
  if (local === total) return page.subarray(at, at + total);
  const out = Buffer.allocUnsafe(total);
  page.copy(out, 0, at, at + local);
  let got = local;
  let next = page.readUInt32BE(at + local);
  const seen = new Set<number>();
  while (got < total) {
    const p = next === 0 || seen.has(next) ? undefined : pageOf(next);
    if (!p) return null;
    seen.add(next);
    const n = Math.min(usable - 4, total - got);
    p.copy(out, got, 4, 4 + n);
    got += n;
    next = p.readUInt32BE(0);
  }
  return out;
}

/** Bytes of the value of serial types 0-9 (NULL, the six integer sizes, a float, the constants 0 and 1). */
const SERIAL_BYTES = [0, 1, 2, 3, 4, 6, 8, 8, 0, 0];

/** A record's values, or null when its header does not describe its body exactly. */
export function decodeRecord(p: Buffer, text: (b: Buffer) => string): CarvedValue[] | null {
  const h = varint(p, 0, p.length);
  if (!h || h[0] < h[1] || h[0] > p.length) return null;
  const types: number[] = [];
  let body = 0;
  for (let at = h[1]; at < h[0]; ) {
    const t = varint(p, at, h[0]);
    if (!t || t[0] === 10 || t[0] === 11) return null;
    types.push(t[0]);
    body += t[0] >= 12 ? Math.floor((t[0] - 12) / 2) : SERIAL_BYTES[t[0]];
    at += t[1];
  }
  if (h[0] + body !== p.length) return null;
  const out: CarvedValue[] = [];
  let at = h[0];
  for (const t of types) {
    if (t === 0) out.push(null);
    else if (t === 8 || t === 9) out.push(t - 8);
    else if (t === 7) out.push(p.readDoubleBE(at));
    else if (t <= 6) {
      const n = SERIAL_BYTES[t];
      const v = n === 8 ? p.readBigInt64BE(at) : BigInt(p.readIntBE(at, n));
      out.push(v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v);
      at += n;
      continue;
    } else {
      const n = Math.floor((t - 12) / 2);
      const raw = p.subarray(at, at + n);
      out.push(t % 2 === 0 ? Buffer.from(raw) : text(raw));
      at += n;
      continue;
    }
    at += t === 7 ? 8 : 0;
  }
  return out;
}

/** The records carved from a database file and its WAL (either may be cut short or damaged; nothing throws). */
export function carveSqlite(file: Buffer, wal: Buffer | null, opts: CarveOptions = {}): CarveResult {
  const maxRecords = opts.maxRecords ?? 10_000;
  const maxPayload = opts.maxPayload ?? 64 * 1024 * 1024;
  const maxWork = opts.maxWork ?? 4 * (file.length + (wal?.length ?? 0)) + 64 * 1024 * 1024;
  const maxKept = opts.maxKept ?? 256 * 1024 * 1024;
  let work = 0;
  let kept = 0;
  let stopped = '';
  const notes: string[] = [];
  const records: CarvedRecord[] = [];
  if (file.length < 100 || file.toString('latin1', 0, 16) !== MAGIC) return { records, notes: ['not a SQLite database (no header)'] };
  const raw = file.readUInt16BE(16);
  const pageSize = raw === 1 ? 65536 : raw;
  if (pageSize < 512 || (pageSize & (pageSize - 1)) !== 0) return { records, notes: [`page size ${raw} is not one SQLite writes`] };
  const usable = pageSize - file[20];
  if (usable < 480) return { records, notes: [`usable page size ${usable} is below SQLite's minimum`] };
  const enc = file.readUInt32BE(56);
  // swap16 throws on an odd length, which only damage gives: its last byte is dropped.
  const text = (b: Buffer) => (enc === 2 ? b.toString('utf16le') : enc === 3 ? Buffer.from(b.subarray(0, b.length & ~1)).swap16().toString('utf16le') : b.toString('utf8'));
  const filePages = Math.floor(file.length / pageSize);
  const filePage = (n: number) => (n >= 1 && n <= filePages ? file.subarray((n - 1) * pageSize, n * pageSize) : undefined);
  const frames = wal ? walFrames(wal, pageSize) : { frames: [], live: new Map<number, number>(), notes: [] };
  for (const n of frames.notes) notes.push(n);
  const livePage = (n: number) => {
    const f = frames.live.get(n);
    return f === undefined ? filePage(n) : frames.frames[f].data;
  };
  // A page as of a WAL frame's transaction: the latest frame of that page up to the transaction's end, else the main file's.
  const pageAsOf = (limit: number) => (n: number) => {
    for (let i = Math.min(limit, frames.frames.length - 1); i >= 0; i--) if (frames.frames[i].page === n) return frames.frames[i].data;
    return filePage(n);
  };
  const seen = new Set<string>();
  const carvePage = (source: CarvedSource, page: number, data: Buffer, pageOf: (n: number) => Buffer | undefined) => {
    if (opts.accept && !opts.accept(page, source)) return;
    const hdr = page === 1 ? 100 : 0;
    if (data.length < hdr + 8 || data[hdr] !== LEAF_TABLE) return;
    const cells = data.readUInt16BE(hdr + 3);
    if (hdr + 8 + cells * 2 > usable) return;
    for (let i = 0; i < cells && records.length < maxRecords && stopped === ''; i++) {
      const at = data.readUInt16BE(hdr + 8 + i * 2);
      if (at < hdr + 8 + cells * 2 || at >= usable) continue;
      const len = varint(data, at, usable);
      const rid = len && varint(data, at + len[1], usable);
      if (!len || !rid || len[0] > maxPayload) continue;
      if (work + len[0] > maxWork) {
        stopped = `stopped after reading ${work} bytes of records (the limit is ${maxWork}): the file names the same bytes again and again`;
        return;
      }
      work += len[0];
      const payload = payloadOf(data, at + len[1] + rid[1], len[0], usable, pageOf);
      const values = payload && decodeRecord(payload, text);
      if (!values) continue;
      // The same cell is on many versions of a page: one record per rowid and payload.
      const key = `${rid[0]}\0${payload.length}\0${payload.subarray(0, 64).toString('hex')}\0${payload.subarray(-64).toString('hex')}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const record: CarvedRecord = { source, page, rowid: rid[0], values };
      if (opts.filter && !opts.filter(record)) continue;
      if (kept + payload.length > maxKept) {
        stopped = `stopped after keeping ${kept} bytes of records (the limit is ${maxKept})`;
        return;
      }
      kept += payload.length;
      records.push(record);
    }
  };
  // The main file's pages the WAL replaces, as they were at the last checkpoint.
  for (const n of [...frames.live.keys()].sort((a, b) => a - b)) {
    const old = filePage(n);
    if (old) carvePage('file-old', n, old, filePage);
  }
  // WAL frames that are not their page's live version, each with the pages of its own time.
  const liveFrames = new Set(frames.live.values());
  for (let i = 0; i < frames.frames.length; i++) {
    if (!liveFrames.has(i)) carvePage('wal-old', frames.frames[i].page, frames.frames[i].data, pageAsOf(frames.frames[i].txEnd));
  }
  // The live freelist: its trunk pages list the freed leaves.
  const p1 = livePage(1);
  if (p1) {
    const total = p1.readUInt32BE(36);
    const visited = new Set<number>();
    for (let trunk = p1.readUInt32BE(32); trunk !== 0 && !visited.has(trunk) && visited.size <= total; ) {
      visited.add(trunk);
      const t = livePage(trunk);
      if (!t) break;
      const count = Math.min(t.readUInt32BE(4), (usable - 8) / 4);
      for (let i = 0; i < count; i++) {
        const leaf = t.readUInt32BE(8 + i * 4);
        const data = leaf === 1 ? undefined : livePage(leaf);
        if (data) carvePage('freelist', leaf, data, livePage);
      }
      trunk = t.readUInt32BE(0);
    }
  }
  if (records.length >= maxRecords) notes.push(`more than ${maxRecords} records carved; the rest were not read`);
  if (stopped !== '') notes.push(stopped);
  return { records, notes };
}
