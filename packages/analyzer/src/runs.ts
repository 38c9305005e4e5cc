import { type FileHandle, open } from 'node:fs/promises';
import { promisify } from 'node:util';
import { deflateRaw, inflateRaw } from 'node:zlib';
import { ByteWriter } from './byte-writer.js';
import { compareRecords, recordLength } from './record.js';

/*
 * Sorted runs of records on disk and their k-way merge. A run is the records themselves, or,
 * once the rows have spilled several times the size of the input (a flood of tiny rows: ten
 * million bad lines), deflated frames of them ([u32 raw bytes][u32 deflated bytes][data]), which
 * such rows shrink a hundredfold. The merge opens a run only when the merge reaches its first
 * record, so runs that follow each other (a log in time order) are read one after the other.
 */

const deflate = promisify(deflateRaw);
const inflate = promisify(inflateRaw);

/** A run on disk: its file, whether deflated, and copies of its first and last records. */
export interface RunInfo {
  path: string;
  deflated: boolean;
  first: Buffer;
  last: Buffer;
}

/** A place in a sorted sequence of records: the head record and its key. */
export interface Cursor {
  buf: Buffer;
  off: number;
  hi: number;
  lo: number;
  ord: number;
  /** Move to the next record; false at the end. */
  next(): boolean | Promise<boolean>;
}

/** Point `c` at the record `b[off]`. */
export function setHead(c: Cursor, b: Buffer, off: number): void {
  c.buf = b;
  c.off = off;
  c.hi = b.readDoubleLE(off + 4);
  c.lo = b.readDoubleLE(off + 12);
  c.ord = b.readDoubleLE(off + 20);
}

/** Timeline order of two heads (the sort key; a timestamp outside the format by its text). */
export function less(a: Cursor, b: Cursor): boolean {
  if (a.hi !== b.hi) return a.hi < b.hi;
  if (a.hi === Number.NEGATIVE_INFINITY) return compareRecords(a.buf, a.off, b.buf, b.off) < 0;
  if (a.lo !== b.lo) return a.lo < b.lo;
  return a.ord < b.ord;
}

/** A cursor standing still on one record (a run's first or last), to compare with. */
export function keyOf(record: Buffer): Cursor {
  const c = { next: () => false } as unknown as Cursor;
  setHead(c, record, 0);
  return c;
}

/** Writes records to a new run file; `put` whole records (or ranges of them) in order. */
export class RunWriter {
  private constructor(
    private readonly fh: FileHandle,
    private readonly w: ByteWriter,
    readonly path: string,
    readonly deflated: boolean,
  ) {}

  static async create(path: string, deflated: boolean): Promise<RunWriter> {
    const fh = await open(path, 'w', 0o600);
    const write = deflated
      ? async (b: Buffer) => {
          const z = await deflate(b, { level: 1 });
          const head = Buffer.alloc(8);
          head.writeUInt32LE(b.length, 0);
          head.writeUInt32LE(z.length, 4);
          await fh.writev([head, z]);
        }
      : (b: Buffer) => fh.write(b, 0, b.length);
    // Either write is done when its promise resolves: the buffer can be filled again.
    return new RunWriter(fh, new ByteWriter(write, { reuse: true }), path, deflated);
  }

  put(b: Buffer, start: number, end: number): Promise<void> | undefined {
    return this.w.put(b, start, end);
  }

  /** Finish the file; `first` and `last` are the run's first and last records. */
  async close(first: Buffer, last: Buffer): Promise<RunInfo> {
    try {
      await this.w.flush();
    } finally {
      await this.fh.close();
    }
    return { path: this.path, deflated: this.deflated, first: Buffer.from(first), last: Buffer.from(last) };
  }

  async abort(): Promise<void> {
    await this.w.flush().catch(() => {});
    await this.fh.close().catch(() => {});
  }
}

/**
 * Bytes kept free before each block read from a plain run (an eighth of the block, at most 64 KB):
 * the record its predecessor's end cut is copied there, just before the rest of it, and the
 * cursor goes on without joining the two. At 160 MiB the joins copied and allocated as many
 * bytes again as the reads, and their external memory set off most of the merge's collections.
 */
export function blockRoom(block: number): number {
  return Math.min(64 * 1024, block >> 3);
}

/** A block of a run: its bytes are `buf[start, end)`, and `buf[0, start)` is free room. */
interface Block {
  buf: Buffer;
  start: number;
  end: number;
}

/** Successive blocks of a run's bytes, the next one read (and inflated) ahead; null at the end. */
function blocks(fh: FileHandle, deflated: boolean, size: number): () => Promise<Block | null> {
  const room = blockRoom(size);
  const read = async (): Promise<Block | null> => {
    if (!deflated) {
      const b = Buffer.allocUnsafe(room + size);
      const { bytesRead } = await fh.read(b, room, size, null);
      return bytesRead === 0 ? null : { buf: b, start: room, end: room + bytesRead };
    }
    const head = Buffer.alloc(8);
    if ((await fh.read(head, 0, 8, null)).bytesRead === 0) return null;
    const z = Buffer.allocUnsafe(head.readUInt32LE(4));
    if ((await fh.read(z, 0, z.length, null)).bytesRead !== z.length) throw new Error('a deflated run ends inside a frame');
    const b = await inflate(z);
    return { buf: b, start: 0, end: b.length };
  };
  let ahead: Promise<Block | null> = read();
  return () => {
    const got = ahead;
    ahead = got.then((b) => (b === null ? null : read()));
    return got;
  };
}

/** A cursor over a run file, opened now; null when the run is empty. */
export async function runCursor(run: RunInfo, block: number): Promise<Cursor | null> {
  const fh = await open(run.path, 'r');
  const nextBlock = blocks(fh, run.deflated, block);
  let buf: Buffer = Buffer.alloc(0);
  let off = 0;
  let eof = false;
  const atEof = async (got: number): Promise<false> => {
    eof = true;
    await fh.close().catch(() => {});
    if (got > 0) throw new Error(`${run.path}: a run ends inside a record`);
    return false;
  };
  // Make sure the record at `off` is whole in `buf`; false at the end of the run. Bytes already
  // handed out are never written over: rows of the current millisecond keep views of them.
  const fill = async (): Promise<boolean> => {
    for (;;) {
      const have = buf.length - off;
      if (have >= 4 && have >= recordLength(buf, off)) return true;
      const need = have >= 4 ? recordLength(buf, off) : 0;
      const more = eof ? null : await nextBlock();
      if (more === null) return atEof(have);
      if (have <= more.start) {
        buf.copy(more.buf, more.start - have, off);
        buf = more.buf.subarray(more.start - have, more.end);
        off = 0;
        continue;
      }
      // A record longer than the room: its blocks are gathered and joined once (a join per
      // block copies a 100 MB record hundreds of times).
      const parts = [buf.subarray(off), more.buf.subarray(more.start, more.end)];
      let got = have + more.end - more.start;
      while (got < need) {
        const m = eof ? null : await nextBlock();
        if (m === null) return atEof(got);
        parts.push(m.buf.subarray(m.start, m.end));
        got += m.end - m.start;
      }
      buf = Buffer.concat(parts, got);
      off = 0;
    }
  };
  if (!(await fill())) return null;
  const c = { next: () => false } as unknown as Cursor;
  setHead(c, buf, off);
  c.next = () => {
    off += recordLength(buf, off);
    if (buf.length - off >= 4 && buf.length - off >= recordLength(buf, off)) {
      setHead(c, buf, off);
      return true;
    }
    return fill().then((ok) => {
      if (ok) setHead(c, buf, off);
      return ok;
    });
  };
  return c;
}

/** A source the merge opens when its first record comes up. */
export interface Source {
  first: Cursor;
  open(): Promise<Cursor | null>;
}

/**
 * K-way merge (a binary heap) calling `each` for every record in timeline order. Sources are
 * opened lazily, when the merge reaches their first record.
 */
export async function mergeSources(sources: Source[], each: (b: Buffer, off: number) => Promise<void> | undefined): Promise<void> {
  const pending = sources.slice().sort((a, b) => (less(a.first, b.first) ? -1 : less(b.first, a.first) ? 1 : 0));
  let next = 0;
  const heap: Cursor[] = [];
  const up = (i: number) => {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!less(heap[i], heap[p])) return;
      [heap[i], heap[p]] = [heap[p], heap[i]];
      i = p;
    }
  };
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && less(heap[l], heap[m])) m = l;
      if (r < heap.length && less(heap[r], heap[m])) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m], heap[i]];
      i = m;
    }
  };
  for (;;) {
    // Open every source whose first record is due before the current head.
    while (next < pending.length && (heap.length === 0 || !less(heap[0], pending[next].first))) {
      const c = await pending[next++].open();
      if (c) {
        heap.push(c);
        up(heap.length - 1);
      }
    }
    if (heap.length === 0) return;
    const top = heap[0];
    const p = each(top.buf, top.off);
    if (p) await p;
    let more = top.next();
    if (typeof more !== 'boolean') more = await more;
    if (!more) {
      const last = heap.pop()!;
      if (heap.length === 0) continue;
      heap[0] = last;
    }
    down(0);
  }
}

/** How many of the runs' key ranges overlap at most (the cursors the merge holds open at once). */
export function maxOverlap(runs: RunInfo[]): number {
  const events: [Cursor, number][] = [];
  for (const r of runs) events.push([keyOf(r.first), 1], [keyOf(r.last), -1]);
  // At equal keys an opening counts before a closing: both runs hold that key.
  events.sort((a, b) => (less(a[0], b[0]) ? -1 : less(b[0], a[0]) ? 1 : b[1] - a[1]));
  let open = 0;
  let most = 0;
  for (const [, d] of events) {
    open += d;
    most = Math.max(most, open);
  }
  return most;
}
