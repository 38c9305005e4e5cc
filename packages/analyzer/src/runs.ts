import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Row } from '@aitrail/parsers';
import { AtomicFile } from './atomic.js';

/** A row as the analyzer carries it: the parser's row plus where it came from and its order. */
export interface TimelineRow extends Row {
  host: string;
  user: string;
  agent: string;
  source_file: string;
  /** Global order: artifact (by input, archive path, parser) then row within it. */
  ord: number;
  /** From a secondary artifact. */
  sec?: boolean;
}

/** Timeline order: dated rows before undated, then time, then the global order. */
export function compareRows(a: TimelineRow, b: TimelineRow): number {
  const ad = a.timestamp_utc === '';
  const bd = b.timestamp_utc === '';
  if (ad !== bd) return ad ? 1 : -1;
  if (a.timestamp_utc !== b.timestamp_utc) return a.timestamp_utc < b.timestamp_utc ? -1 : 1;
  return a.ord - b.ord;
}

/** Limits of one sorted run in memory. */
export interface RunLimits {
  maxRows: number;
  maxBytes: number;
}

/** Default run size: 25,000 rows or about 32 MB of row text, whichever comes first. */
export const DEFAULT_RUN_LIMITS: RunLimits = { maxRows: 25_000, maxBytes: 32 * 1024 * 1024 };

/** Buffers rows and spills them to sorted JSONL runs in a private temp folder. */
export class RunSpiller {
  private buf: TimelineRow[] = [];
  private bytes = 0;
  readonly runs: string[] = [];
  rows = 0;

  constructor(
    private readonly dir: string,
    private readonly limits: RunLimits = DEFAULT_RUN_LIMITS,
  ) {}

  /** Add a row; spills when the run is full. */
  async add(row: TimelineRow): Promise<void> {
    this.buf.push(row);
    this.rows++;
    this.bytes += row.text.length * 2 + row.project_path.length + 256;
    if (this.buf.length >= this.limits.maxRows || this.bytes >= this.limits.maxBytes) await this.spill();
  }

  /** Write what is buffered as one sorted run. */
  async spill(): Promise<void> {
    if (this.buf.length === 0) return;
    const rows = this.buf;
    this.buf = [];
    this.bytes = 0;
    rows.sort(compareRows);
    const path = join(this.dir, `run-${String(this.runs.length).padStart(6, '0')}.jsonl`);
    await writeRun(path, rows);
    this.runs.push(path);
  }
}

async function writeRun(path: string, rows: Iterable<TimelineRow> | AsyncIterable<TimelineRow>): Promise<void> {
  const f = new AtomicFile(path);
  let chunk = '';
  for await (const r of rows) {
    chunk += JSON.stringify(r) + '\n';
    if (chunk.length > 1 << 20) {
      await f.write(chunk);
      chunk = '';
    }
  }
  await f.write(chunk);
  await f.commit();
}

async function* readRun(path: string): AsyncGenerator<TimelineRow> {
  const rl = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Number.POSITIVE_INFINITY });
  for await (const line of rl) if (line !== '') yield JSON.parse(line) as TimelineRow;
}

/** Most runs merged at once (open files); more are merged in passes. */
const FAN_IN = 64;

/** K-way merge of sorted runs (a binary heap), in timeline order. */
export async function* mergeRuns(paths: string[], tmpDir: string): AsyncGenerator<TimelineRow> {
  let level = paths;
  let pass = 0;
  while (level.length > FAN_IN) {
    const next: string[] = [];
    for (let i = 0; i < level.length; i += FAN_IN) {
      const out = join(tmpDir, `merge-${pass}-${i}.jsonl`);
      await writeRun(out, mergeFew(level.slice(i, i + FAN_IN)));
      next.push(out);
    }
    level = next;
    pass++;
  }
  yield* mergeFew(level);
}

async function* mergeFew(paths: string[]): AsyncGenerator<TimelineRow> {
  const its = paths.map((p) => readRun(p));
  const heap: { row: TimelineRow; src: number }[] = [];
  const less = (i: number, j: number) => compareRows(heap[i].row, heap[j].row) < 0;
  const swap = (i: number, j: number) => {
    const t = heap[i];
    heap[i] = heap[j];
    heap[j] = t;
  };
  const up = (i: number) => {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!less(i, p)) break;
      swap(i, p);
      i = p;
    }
  };
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && less(l, m)) m = l;
      if (r < heap.length && less(r, m)) m = r;
      if (m === i) break;
      swap(i, m);
      i = m;
    }
  };
  for (let s = 0; s < its.length; s++) {
    const n = await its[s].next();
    if (!n.done) {
      heap.push({ row: n.value, src: s });
      up(heap.length - 1);
    }
  }
  while (heap.length > 0) {
    const top = heap[0];
    yield top.row;
    const n = await its[top.src].next();
    if (n.done) {
      const last = heap.pop()!;
      if (heap.length > 0) {
        heap[0] = last;
        down(0);
      }
    } else {
      heap[0] = { row: n.value, src: top.src };
      down(0);
    }
  }
}
