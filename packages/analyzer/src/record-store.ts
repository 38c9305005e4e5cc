import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { compareRecords, recordLength } from './record.js';
import { type Cursor, keyOf, maxOverlap, mergeSources, type RunInfo, RunWriter, runCursor, type Source, setHead } from './runs.js';

/** How many record bytes are held in memory before they are sorted and spilled to a run. */
export interface RunLimits {
  memoryBytes: number;
  /** Most runs merged at once (open files); more are merged in passes. */
  fanIn?: number;
  /** Bytes of records a parse job sends at a time (default 1 MB; tests make it small). */
  chunkBytes?: number;
  /** Bytes spilled as they are before runs are deflated (default: 4 times the input, at least 512 MB). */
  rawSpillBytes?: number;
}

/** Default: 32 MB of records in memory (a collection whose rows fit is never spilled). */
export const DEFAULT_RUN_LIMITS: RunLimits = { memoryBytes: 32 * 1024 * 1024, fanIn: 256 };

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

/** The records in memory, sorted, as a merge source. */
function memorySource(s: Sorted): Source | null {
  const n = s.order.length;
  if (n === 0) return null;
  const at = (i: number) => [s.chunks[s.chunk[s.order[i]]], s.off[s.order[i]]] as const;
  return {
    first: keyOf(at(0)[0].subarray(at(0)[1])),
    open: async () => {
      let i = 0;
      const c = { next: () => false } as unknown as Cursor;
      setHead(c, ...at(0));
      c.next = () => {
        if (++i >= n) return false;
        setHead(c, ...at(i));
        return true;
      };
      return c;
    },
  };
}

/**
 * Read block per open run: 16 MB of blocks in all, 64 KB to 1 MB each (twice that in memory with
 * the block read ahead). At 1 GiB (about 50 runs) 32 MB made 64 MB of
 * buffers held through the last pass; 16 MB took 38 MB off its peak RSS, in no more time.
 */
function blockFor(runs: number): number {
  return Math.max(64 * 1024, Math.min(1 << 20, Math.floor((16 << 20) / Math.max(1, runs))));
}

/**
 * The rows of an analysis as record chunks: held in memory up to the limit, then sorted and
 * spilled to runs in the private temp folder (runs.ts); {@link merge} hands them over in
 * timeline order.
 */
export class RecordStore {
  private chunks: Buffer[] = [];
  private bytes = 0;
  private count = 0;
  private readonly runs: RunInfo[] = [];
  private spilled = 0;
  private files = 0;
  /** Rows added. */
  rows = 0;

  /** `inputBytes`: the collected bytes analyzed, which bounds the runs kept as they are. */
  constructor(
    private readonly dir: string,
    private readonly limits: RunLimits = DEFAULT_RUN_LIMITS,
    private readonly inputBytes = 0,
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

  /** Past the budget of bytes spilled as they are, runs are deflated. */
  private deflating(): boolean {
    return this.spilled > (this.limits.rawSpillBytes ?? Math.max(512 * 1024 * 1024, 4 * this.inputBytes));
  }

  private nextPath(kind: string): string {
    return join(this.dir, `${kind}-${String(this.files++).padStart(6, '0')}.bin`);
  }

  private async spill(): Promise<void> {
    if (this.count === 0) return;
    const s = sortChunks(this.chunks, this.count);
    const spilledNow = this.bytes;
    this.chunks = [];
    this.bytes = 0;
    this.count = 0;
    const w = await RunWriter.create(this.nextPath('run'), this.deflating());
    try {
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
    } catch (e) {
      await w.abort();
      throw e;
    }
    const rec = (i: number) => {
      const b = s.chunks[s.chunk[s.order[i]]];
      const off = s.off[s.order[i]];
      return b.subarray(off, off + recordLength(b, off));
    };
    this.runs.push(await w.close(rec(0), rec(s.order.length - 1)));
    this.spilled += spilledNow;
  }

  /** Drop every row (memory and runs): a parse done again starts from nothing. */
  async discard(): Promise<void> {
    this.chunks = [];
    this.bytes = 0;
    this.count = 0;
    this.rows = 0;
    await Promise.all(this.runs.map((r) => rm(r.path, { force: true })));
    this.runs.length = 0;
  }

  /** Every record in timeline order (the rows in memory merged with the runs). */
  async merge(each: (b: Buffer, off: number) => Promise<void> | undefined): Promise<void> {
    const fanIn = Math.max(2, this.limits.fanIn ?? 256);
    let level = this.runs.slice();
    // Runs that overlap more than the fan-in are merged in passes (keeping room for the rows in
    // memory); runs that follow each other are read one after the other, never merged ahead.
    while (level.length > 1 && maxOverlap(level) > fanIn - 1) {
      level.sort((x, y) => compareRecords(x.first, 0, y.first, 0));
      const next: RunInfo[] = [];
      for (let i = 0; i < level.length; i += fanIn) next.push(await this.mergeToRun(level.slice(i, i + fanIn)));
      level = next;
    }
    const sources: Source[] = level.map((r) => ({ first: keyOf(r.first), open: () => runCursor(r, blockFor(Math.min(level.length, fanIn))) }));
    const mem = memorySource(sortChunks(this.chunks, this.count));
    if (mem) sources.push(mem);
    await mergeSources(sources, each);
  }

  private async mergeToRun(group: RunInfo[]): Promise<RunInfo> {
    const w = await RunWriter.create(this.nextPath('merge'), group.some((r) => r.deflated));
    let first: Buffer | null = null;
    let last: Buffer = Buffer.alloc(0);
    try {
      await mergeSources(
        group.map((r) => ({ first: keyOf(r.first), open: () => runCursor(r, blockFor(group.length)) })),
        (b, off) => {
          const end = off + recordLength(b, off);
          first ??= Buffer.from(b.subarray(off, end));
          last = b.subarray(off, end);
          return w.put(b, off, end);
        },
      );
    } catch (e) {
      await w.abort();
      throw e;
    }
    const info = await w.close(first!, last);
    await Promise.all(group.map((r) => rm(r.path, { force: true })));
    return info;
  }
}
