import { open } from 'node:fs/promises';
import { join } from 'node:path';
import type { Row } from '@aitrail/parsers';
import { AtomicFile } from './atomic.js';
import { WriteBehind } from './write-behind.js';

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

// A run line is a JSON array in this field order: smaller and faster to parse than objects.
const FIELDS = ['timestamp_utc', 'host', 'user', 'agent', 'session_id', 'project_path', 'git_branch', 'model', 'turn_type', 'tool_name', 'tool_use_id', 'text', 'source_file', 'source_line', 'ord', 'tag', 'sec'] as const;

function encode(r: TimelineRow): string {
  return JSON.stringify([r.timestamp_utc, r.host, r.user, r.agent, r.session_id, r.project_path, r.git_branch, r.model, r.turn_type, r.tool_name, r.tool_use_id, r.text, r.source_file, r.source_line, r.ord, r.tag ?? null, r.sec ? 1 : 0]);
}

function decode(line: string): TimelineRow {
  const a = JSON.parse(line) as unknown[];
  const r = {} as Record<string, unknown>;
  for (let i = 0; i < 15; i++) r[FIELDS[i]] = a[i];
  if (a[15] !== null) r.tag = a[15];
  if (a[16]) r.sec = true;
  return r as unknown as TimelineRow;
}

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

  /** Add a row; returns true when the run is full and {@link spill} must be awaited. */
  add(row: TimelineRow): boolean {
    this.buf.push(row);
    this.rows++;
    this.bytes += row.text.length * 2 + row.project_path.length + 256;
    return this.buf.length >= this.limits.maxRows || this.bytes >= this.limits.maxBytes;
  }

  /** Write what is buffered as one sorted run. */
  async spill(): Promise<void> {
    if (this.buf.length === 0) return;
    const rows = this.buf;
    this.buf = [];
    this.bytes = 0;
    rows.sort(compareRows);
    const path = join(this.dir, `run-${String(this.runs.length).padStart(6, '0')}.jsonl`);
    await writeRun(path, [rows]);
    this.runs.push(path);
  }
}

async function writeRun(path: string, batches: Iterable<TimelineRow[]> | AsyncIterable<TimelineRow[]>): Promise<void> {
  const f = new AtomicFile(path);
  const out = new WriteBehind(f);
  try {
    let chunk = '';
    for await (const batch of batches) {
      for (const r of batch) {
        chunk += encode(r) + '\n';
        if (chunk.length > 1 << 20) {
          await out.write(chunk);
          chunk = '';
        }
      }
    }
    await out.write(chunk);
    await out.flush();
    await f.commit();
  } catch (e) {
    await out.flush().catch(() => {});
    await f.abort();
    throw e;
  }
}

/**
 * Bytes read from a run at a time. Kept small: every open run holds one chunk's rows decoded
 * (about four times the bytes in heap), and up to {@link FAN_IN} runs are open at once.
 */
const CHUNK = 128 * 1024;

/** Reads a run in {@link CHUNK} pieces, decoding whole lines; `fill()` is the only await. */
class RunReader {
  rows: TimelineRow[] = [];
  i = 0;
  private pieces: string[] = [];
  private eof = false;
  private fh: Awaited<ReturnType<typeof open>> | null = null;
  private readonly buf = Buffer.alloc(CHUNK);
  private readonly decoder = new TextDecoder('utf-8');

  constructor(private readonly path: string) {}

  /** Load the next rows; false at the end of the run. */
  async fill(): Promise<boolean> {
    this.rows = [];
    this.i = 0;
    this.fh ??= await open(this.path, 'r');
    while (this.rows.length === 0 && !this.eof) {
      const { bytesRead } = await this.fh.read(this.buf, 0, this.buf.length, null);
      if (bytesRead === 0) {
        this.eof = true;
        this.pieces.push(this.decoder.decode());
        const last = this.pieces.join('');
        this.pieces = [];
        if (last !== '') this.rows.push(decode(last));
        await this.fh.close();
        break;
      }
      const text = this.decoder.decode(this.buf.subarray(0, bytesRead), { stream: true });
      // A long line spans many chunks: keep its pieces apart until its end is read, so it is
      // joined once (re-splitting a growing prefix per chunk is quadratic in time and garbage).
      if (!text.includes('\n')) {
        this.pieces.push(text);
        continue;
      }
      this.pieces.push(text);
      const lines = this.pieces.join('').split('\n');
      this.pieces = [lines.pop() ?? ''];
      for (const l of lines) if (l !== '') this.rows.push(decode(l));
    }
    return this.rows.length > 0;
  }
}

/** Most runs merged at once (open files); more are merged in passes. */
const FAN_IN = 64;
/** Rows handed to the consumer at a time. */
const BATCH = 4096;

/** K-way merge of sorted runs (a binary heap), in timeline order, in batches of rows. */
export async function* mergeRuns(paths: string[], tmpDir: string): AsyncGenerator<TimelineRow[]> {
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

async function* mergeFew(paths: string[]): AsyncGenerator<TimelineRow[]> {
  const heap: RunReader[] = [];
  const head = (r: RunReader) => r.rows[r.i];
  const less = (i: number, j: number) => compareRows(head(heap[i]), head(heap[j])) < 0;
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
  for (const p of paths) {
    const r = new RunReader(p);
    if (await r.fill()) {
      heap.push(r);
      up(heap.length - 1);
    }
  }
  let out: TimelineRow[] = [];
  while (heap.length > 0) {
    const top = heap[0];
    out.push(top.rows[top.i++]);
    if (top.i >= top.rows.length && !(await top.fill())) {
      const last = heap.pop()!;
      if (heap.length > 0) {
        heap[0] = last;
        down(0);
      }
    } else down(0);
    if (out.length >= BATCH) {
      yield out;
      out = [];
    }
  }
  if (out.length > 0) yield out;
}
