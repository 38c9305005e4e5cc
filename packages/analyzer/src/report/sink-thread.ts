// A sink thread: runs a group of row sinks (sink-specs.ts) off the analysis's main thread. It is
// fed the bytes of timeline.jsonl as the last pass writes them (whole lines or not), or for the
// SQLite group the records of csv-feed.ts, parses each into the row the sink would have been
// given in-process, and answers each chunk with an acknowledgement, so the main thread keeps at
// most a few chunks in flight.
import { parentPort, workerData } from 'node:worker_threads';
import { loadRules } from '../findings/load.js';
import type { TimelineRow } from '../row.js';
import { CSV_FEED_END, readCsvFeedRecord } from './csv-feed.js';
import { buildSinks, feedKind, type SinkSpec } from './sink-specs.js';
import type { SinkEnd } from './sink.js';

/** Messages from the main thread to a sink thread. */
export type ToSinkThread =
  | { type: 'chunk'; buf: ArrayBuffer | SharedArrayBuffer; offset: number; length: number }
  | { type: 'rowsDone' }
  | { type: 'end'; info: SinkEnd }
  | { type: 'abort' };

/** Messages from a sink thread to the main thread. */
export type FromSinkThread =
  | { type: 'ack' }
  | { type: 'ended'; findings?: [string, number][] }
  | { type: 'aborted' }
  | { type: 'error'; message: string; stack?: string };

const port = parentPort!;
const specs = (workerData as { specs: SinkSpec[] }).specs;
const post = (m: FromSinkThread) => port.postMessage(m);

let built: ReturnType<typeof buildSinks> | undefined;
let failed = false;
/** The start of a line a chunk cut: copies (a shared chunk is filled again once acknowledged), joined once its end comes. */
let carry: Buffer[] = [];

async function setUp(): Promise<void> {
  const f = specs.find((s) => s.kind === 'findings');
  // The rules were loaded and checked on the main thread already; they load the same here.
  built = buildSinks(specs, f ? await loadRules(f.ruleDirs) : []);
}

/** The feed's record end: a newline for timeline.jsonl lines, the SQLite feed's end byte. */
const kind = feedKind(specs);
const END = kind === 'csv' ? CSV_FEED_END : 10;

/** Every whole record of `chunk` (with what the last chunk left) to the sinks; keep the cut end. */
async function take(chunk: Buffer): Promise<void> {
  const lastInChunk = chunk.lastIndexOf(END);
  if (lastInChunk < 0) {
    // Inside a long record: kept, not joined, so a 64 MB line is copied once rather than once a chunk.
    carry.push(Buffer.from(chunk));
    return;
  }
  const b = carry.length > 0 ? Buffer.concat([...carry, chunk]) : chunk;
  const last = lastInChunk + (b.length - chunk.length);
  carry = last + 1 < b.length ? [Buffer.from(b.subarray(last + 1))] : [];
  if (kind === 'csv') takeValues(b, last);
  else await takeLines(b, last);
}

/** The SQLite feed's records of `b` up to its end byte at `last`. */
function takeValues(b: Buffer, last: number): void {
  const sinks = built!.sinks;
  let at = 0;
  while (at <= last) {
    const end = b.indexOf(CSV_FEED_END, at);
    const v = readCsvFeedRecord(b, at, end);
    for (const s of sinks) s.values?.(v);
    at = end + 1;
  }
}

/** The timeline.jsonl lines of `b` up to the newline at `last`. */
async function takeLines(b: Buffer, last: number): Promise<void> {
  const sinks = built!.sinks;
  // Each line decoded on its own rather than the chunk at once: one character outside Latin-1
  // made the whole chunk's string two bytes a character, and every line sliced from it, which
  // JSON.parse reads more slowly (a fifth more time over the bench corpus's timeline). `b[last]`
  // is a newline, so every search from `at <= last` finds one at `last` at the latest.
  let at = 0;
  while (at <= last) {
    const end = b.indexOf(10, at);
    const line = b.toString('utf8', at, end);
    const r = JSON.parse(line) as TimelineRow;
    // As the in-process pass gives it (outputs.ts sinkRow): no tag rather than an empty one.
    if (r.tag === '') delete r.tag;
    const bytes = b.subarray(at, end);
    for (const s of sinks) {
      const p = s.row(r, line, bytes);
      if (p) await p;
    }
    at = end + 1;
  }
}

async function handle(m: ToSinkThread): Promise<void> {
  if (m.type === 'abort') {
    await Promise.allSettled((built?.sinks ?? []).map((s) => s.abort()));
    post({ type: 'aborted' });
    return;
  }
  if (failed) return;
  try {
    if (m.type === 'chunk') {
      await take(Buffer.from(m.buf, m.offset, m.length));
      post({ type: 'ack' });
    } else if (m.type === 'rowsDone') {
      for (const s of built!.sinks) await s.rowsDone?.();
    } else {
      for (const s of built!.sinks) await s.end(m.info);
      post({ type: 'ended', findings: built!.findings ? [...built!.findings.counts] : undefined });
    }
  } catch (e) {
    failed = true;
    post({ type: 'error', message: (e as Error)?.message ?? String(e), stack: (e as Error)?.stack });
  }
}

let queue: Promise<void> = setUp().catch((e: Error) => {
  failed = true;
  post({ type: 'error', message: e?.message ?? String(e), stack: e?.stack });
});
port.on('message', (m: ToSinkThread) => {
  queue = queue.then(() => handle(m));
});
