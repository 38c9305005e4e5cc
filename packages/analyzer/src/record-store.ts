import { type FileHandle, open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { compareRecords, recordLength } from './record.js';

/** How many record bytes are held in memory before they are sorted and spilled to a run. */
export interface RunLimits {
  memoryBytes: number;
  /** Most runs merged at once (open files); more are merged in passes. */
  fanIn?: number;
  /** Bytes of records a parse job sends at a time (default 1 MB; tests make it small). */
  chunkBytes?: number;
}

/** Default: 32 MB of records in memory (a collection whose rows fit is never spilled). */
export const DEFAULT_RUN_LIMITS: RunLimits = { memoryBytes: 32 * 1024 * 1024, fanIn: 128 };

/** Where each record of a set of chunks is, with its sort key, sorted. */
interface Sorted {
  chunks: Buffer[];
  chunk: Uint32Array;
  off: Uint32Array;
  /** Record order after sorting. */
  order: Uint32Array;
}

function sortChunks(chunks: Buffer[], count: number): Sorted {
  const chunk = new Uint32Array(count);
  const off = new Uint32Array(count);
  const hi = new Float64Array(count);
  const lo = new Float64Array(count);
  const ord = new Float64Array(count);
  let n = 0;
  for (let c = 0; c < chunks.length; c++) {
    const b = chunks[c];
    for (let o = 0; o < b.length; o += recordLength(b, o)) {
      chunk[n] = c;
      off[n] = o;
      hi[n] = b.readDoubleLE(o + 4);
      lo[n] = b.readDoubleLE(o + 12);
      ord[n] = b.readDoubleLE(o + 20);
      n++;
    }
  }
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((a, b) => {
    if (hi[a] !== hi[b]) return hi[a] < hi[b] ? -1 : 1;
    if (hi[a] === Number.NEGATIVE_INFINITY) return compareRecords(chunks[chunk[a]], off[a], chunks[chunk[b]], off[b]);
    if (lo[a] !== lo[b]) return lo[a] < lo[b] ? -1 : 1;
    return ord[a] - ord[b];
  });
  return { chunks, chunk: chunk.subarray(0, n), off: off.subarray(0, n), order };
}

/** Buffers bytes into large writes to a file, one write in flight while the next fills. */
export class ByteWriter {
  private buf: Buffer;
  private pos = 0;
  private inFlight: Promise<unknown> | null = null;

  constructor(
    private readonly write: (b: Buffer) => Promise<unknown>,
    private readonly size = 1 << 20,
  ) {
    this.buf = Buffer.allocUnsafe(size);
  }

  /** Append `b[start, end)`; the promise resolves when the bytes are buffered or handed over. */
  put(b: Buffer, start: number, end: number): Promise<void> | undefined {
    const n = end - start;
    if (this.pos + n <= this.buf.length) {
      b.copy(this.buf, this.pos, start, end);
      this.pos += n;
      return undefined;
    }
    return this.putSlow(b, start, end);
  }

  /** Append text as UTF-8. */
  putText(s: string): Promise<void> | undefined {
    const b = Buffer.from(s, 'utf8');
    return this.put(b, 0, b.length);
  }

  private async putSlow(b: Buffer, start: number, end: number): Promise<void> {
    await this.flush(false);
    if (end - start > this.buf.length) await this.hand(Buffer.from(b.subarray(start, end)));
    else {
      b.copy(this.buf, 0, start, end);
      this.pos = end - start;
    }
  }

  private async hand(b: Buffer): Promise<void> {
    if (this.inFlight) await this.inFlight;
    const p = this.write(b);
    p.catch(() => {});
    this.inFlight = p;
  }

  /** Hand over what is buffered; `wait`: and wait until every write is done. */
  async flush(wait = true): Promise<void> {
    if (this.pos > 0) {
      const full = this.buf.subarray(0, this.pos);
      this.buf = Buffer.allocUnsafe(this.size);
      this.pos = 0;
      await this.hand(full);
    }
    if (wait && this.inFlight) {
      const p = this.inFlight;
      this.inFlight = null;
      await p;
    }
  }
}

/** Write records to a new run file in the given order. */
async function writeRun(path: string, each: (put: (b: Buffer, off: number) => Promise<void> | undefined) => Promise<void>): Promise<void> {
  const fh = await open(path, 'w', 0o600);
  try {
    const w = new ByteWriter((b) => fh.write(b, 0, b.length));
    await each((b, off) => w.put(b, off, off + recordLength(b, off)));
    await w.flush();
  } finally {
    await fh.close();
  }
}

/** A place in a sorted sequence of records: the head record and its key. */
interface Cursor {
  buf: Buffer;
  off: number;
  hi: number;
  lo: number;
  ord: number;
  /** Move to the next record; false at the end. */
  next(): boolean | Promise<boolean>;
}

function setKey(c: Cursor): void {
  c.hi = c.buf.readDoubleLE(c.off + 4);
  c.lo = c.buf.readDoubleLE(c.off + 12);
  c.ord = c.buf.readDoubleLE(c.off + 20);
}

function less(a: Cursor, b: Cursor): boolean {
  if (a.hi !== b.hi) return a.hi < b.hi;
  if (a.hi === Number.NEGATIVE_INFINITY) return compareRecords(a.buf, a.off, b.buf, b.off) < 0;
  if (a.lo !== b.lo) return a.lo < b.lo;
  return a.ord < b.ord;
}

/** Records held in memory, sorted, as a cursor. */
function memoryCursor(s: Sorted): Cursor | null {
  if (s.order.length === 0) return null;
  let i = 0;
  const c: Cursor = {
    buf: s.chunks[s.chunk[s.order[0]]],
    off: s.off[s.order[0]],
    hi: 0,
    lo: 0,
    ord: 0,
    next() {
      if (++i >= s.order.length) return false;
      c.buf = s.chunks[s.chunk[s.order[i]]];
      c.off = s.off[s.order[i]];
      setKey(c);
      return true;
    },
  };
  setKey(c);
  return c;
}

/** A run file read in blocks; a record longer than a block is read whole. */
async function runCursor(path: string, block: number): Promise<Cursor | null> {
  const fh: FileHandle = await open(path, 'r');
  let buf = Buffer.alloc(0);
  let off = 0;
  let eof = false;
  // Make sure the record at `off` is whole in `buf`; false at the end of the run.
  const fill = async (): Promise<boolean> => {
    for (;;) {
      const have = buf.length - off;
      if (have >= 4 && have >= recordLength(buf, off)) return true;
      if (eof) {
        if (have > 0) throw new Error(`${path}: a run ends inside a record`);
        await fh.close();
        return false;
      }
      const want = Math.max(block, have >= 4 ? recordLength(buf, off) - have : 0);
      const next = Buffer.allocUnsafe(have + want);
      buf.copy(next, 0, off);
      const { bytesRead } = await fh.read(next, have, want, null);
      if (bytesRead === 0) eof = true;
      buf = next.subarray(0, have + bytesRead);
      off = 0;
    }
  };
  if (!(await fill())) return null;
  const c: Cursor = {
    buf,
    off,
    hi: 0,
    lo: 0,
    ord: 0,
    next() {
      off += recordLength(buf, off);
      if (buf.length - off >= 4 && buf.length - off >= recordLength(buf, off)) {
        c.off = off;
        setKey(c);
        return true;
      }
      return fill().then((ok) => {
        c.buf = buf;
        c.off = off;
        if (ok) setKey(c);
        return ok;
      });
    },
  };
  setKey(c);
  return c;
}

/** K-way merge of cursors (a binary heap), calling `each` for every record in timeline order. */
async function mergeCursors(cursors: Cursor[], each: (b: Buffer, off: number) => Promise<void> | undefined): Promise<void> {
  const heap = cursors;
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && less(heap[l], heap[m])) m = l;
      if (r < heap.length && less(heap[r], heap[m])) m = r;
      if (m === i) return;
      const t = heap[i];
      heap[i] = heap[m];
      heap[m] = t;
      i = m;
    }
  };
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);
  while (heap.length > 0) {
    const top = heap[0];
    const p = each(top.buf, top.off);
    if (p) await p;
    let more = top.next();
    if (typeof more !== 'boolean') more = await more;
    if (!more) {
      const last = heap.pop()!;
      if (heap.length === 0) break;
      heap[0] = last;
    }
    down(0);
  }
}

/**
 * The rows of an analysis as record chunks: held in memory up to the limit, then sorted and
 * spilled to run files in the private temp folder; {@link merge} hands them over in timeline order.
 */
export class RecordStore {
  private chunks: Buffer[] = [];
  private bytes = 0;
  private count = 0;
  private readonly runs: string[] = [];
  /** Rows added. */
  rows = 0;

  constructor(
    private readonly dir: string,
    private readonly limits: RunLimits = DEFAULT_RUN_LIMITS,
  ) {}

  /** Take a chunk of whole records; spills when the memory limit is reached. */
  async add(chunk: Buffer, records: number): Promise<void> {
    this.chunks.push(chunk);
    this.bytes += chunk.length;
    this.count += records;
    this.rows += records;
    if (this.bytes >= this.limits.memoryBytes) await this.spill();
  }

  /** Runs written so far. */
  get runCount(): number {
    return this.runs.length;
  }

  private async spill(): Promise<void> {
    if (this.count === 0) return;
    const s = sortChunks(this.chunks, this.count);
    this.chunks = [];
    this.bytes = 0;
    this.count = 0;
    const path = join(this.dir, `run-${String(this.runs.length).padStart(6, '0')}.bin`);
    const fh = await open(path, 'w', 0o600);
    try {
      const w = new ByteWriter((b) => fh.write(b, 0, b.length));
      // Records that follow each other in a chunk (a log's rows come in time order) are copied
      // as one range.
      let from: Buffer | null = null;
      let a = 0;
      let z = 0;
      for (let i = 0; i < s.order.length; i++) {
        const k = s.order[i];
        const b = s.chunks[s.chunk[k]];
        const off = s.off[k];
        if (b === from && off === z) {
          z += recordLength(b, off);
          continue;
        }
        if (from) {
          const p = w.put(from, a, z);
          if (p) await p;
        }
        from = b;
        a = off;
        z = off + recordLength(b, off);
      }
      if (from) await w.put(from, a, z);
      await w.flush();
    } finally {
      await fh.close();
    }
    this.runs.push(path);
  }

  /** Drop every row (memory and runs): a parse done again starts from nothing. */
  async discard(): Promise<void> {
    this.chunks = [];
    this.bytes = 0;
    this.count = 0;
    this.rows = 0;
    await Promise.all(this.runs.map((p) => rm(p, { force: true })));
    this.runs.length = 0;
  }

  /** Every record in timeline order (the rows in memory merged with the runs). */
  async merge(each: (b: Buffer, off: number) => Promise<void> | undefined): Promise<void> {
    const fanIn = Math.max(2, this.limits.fanIn ?? 128);
    let level = this.runs.slice();
    let pass = 0;
    // Keep room for the records in memory as one more cursor in the last merge.
    while (level.length > fanIn - 1) {
      const next: string[] = [];
      for (let i = 0; i < level.length; i += fanIn) {
        const group = level.slice(i, i + fanIn);
        const out = join(this.dir, `merge-${pass}-${String(i).padStart(6, '0')}.bin`);
        const cursors = (await Promise.all(group.map((p) => runCursor(p, blockFor(group.length))))).filter((c): c is Cursor => c !== null);
        await writeRun(out, (put) => mergeCursors(cursors, put));
        next.push(out);
      }
      level = next;
      pass++;
    }
    const cursors = (await Promise.all(level.map((p) => runCursor(p, blockFor(level.length + 1))))).filter((c): c is Cursor => c !== null);
    const mem = memoryCursor(sortChunks(this.chunks, this.count));
    if (mem) cursors.push(mem);
    await mergeCursors(cursors, each);
  }
}

/** Read block per run: 16 MB of read buffers in all, 64 KB to 1 MB each. */
function blockFor(runs: number): number {
  return Math.max(64 * 1024, Math.min(1 << 20, Math.floor((16 << 20) / Math.max(1, runs))));
}
