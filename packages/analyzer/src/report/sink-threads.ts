import { Worker } from 'node:worker_threads';
import type { LineFeed, SinkEnd } from './sink.js';
import { feedKind, type SinkSpec } from './sink-specs.js';
import type { FromSinkThread, ToSinkThread } from './sink-thread.js';

/** Chunks of timeline.jsonl (1 MB each) a sink thread may have queued before the pass waits for it. */
const MAX_IN_FLIGHT = 3;

/**
 * Young generation of a sink thread: its rows die young. Measured at 160 MiB, 8 to 48 MB made no
 * difference in time; the smaller bound keeps the two threads' share of peak RSS down.
 */
const YOUNG_MB = 16;

/** Smaller buffers may share Node's buffer pool: they are copied rather than transferred. */
const TRANSFER_MIN = 64 * 1024;

/**
 * A group of row sinks on a worker thread (sink-thread.ts), fed the timeline.jsonl bytes of the
 * kept rows: the SQLite inserts, the rules and the Timesketch lines use the second core while the
 * last pass merges and writes. Whatever fails in the thread fails the next call here.
 */
export class SinkThread implements LineFeed {
  /** Findings per rule id, once a group with the findings engine has ended. */
  findings: Map<string, number> | undefined;
  /** What the group is fed (sink-specs.ts feedKind). */
  readonly kind: 'jsonl' | 'csv';
  private readonly worker: Worker;
  private inFlight = 0;
  /** What to call as each chunk in flight is acknowledged, in order (the thread takes them in turn). */
  private readonly releases: ((() => void) | undefined)[] = [];
  private failure: Error | null = null;
  private finished = false;
  private waiting: { resolve: () => void; reject: (e: Error) => void; until: FromSinkThread['type'] } | null = null;
  private aborted: (() => void) | null = null;
  private readonly exited: Promise<void>;

  constructor(specs: SinkSpec[]) {
    this.kind = feedKind(specs);
    this.worker = new Worker(new URL('./sink-thread.js', import.meta.url), { workerData: { specs }, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_MB } });
    this.worker.on('message', (m: FromSinkThread) => this.onMessage(m));
    this.worker.on('error', (e) => this.fail(e));
    this.exited = new Promise((resolve) => {
      this.worker.on('exit', (code) => {
        if (!this.finished) this.fail(new Error(`the report thread stopped before the end (exit code ${code})`));
        resolve();
      });
    });
  }

  private onMessage(m: FromSinkThread): void {
    if (m.type === 'error') {
      const e = new Error(m.message);
      if (m.stack) e.stack = m.stack;
      this.fail(e);
      return;
    }
    if (m.type === 'aborted') this.aborted?.();
    if (m.type === 'ack') {
      this.inFlight--;
      this.releases.shift()?.();
    }
    if (m.type === 'ended' && m.findings) this.findings = new Map(m.findings);
    const w = this.waiting;
    if (w && (w.until === m.type || (w.until === 'ack' && this.inFlight < MAX_IN_FLIGHT))) {
      this.waiting = null;
      w.resolve();
    }
  }

  private fail(e: Error): void {
    this.failure ??= e;
    const w = this.waiting;
    this.waiting = null;
    w?.reject(this.failure);
  }

  private wait(until: FromSinkThread['type']): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject, until };
    });
  }

  private send(m: ToSinkThread, transfer?: ArrayBuffer[]): void {
    this.worker.postMessage(m, transfer);
  }

  /**
   * Hand over a chunk of timeline.jsonl: on a SharedArrayBuffer it is shared (`release` once the
   * thread has taken it in); any other buffer is transferred (do not use `b` after).
   */
  write(b: Buffer, release?: () => void): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    if (b.buffer instanceof SharedArrayBuffer) this.send({ type: 'chunk', buf: b.buffer, offset: b.byteOffset, length: b.length });
    else {
      const own = b.buffer.byteLength >= TRANSFER_MIN ? b : Buffer.from(b);
      const ab = own.buffer as ArrayBuffer;
      this.send({ type: 'chunk', buf: ab, offset: own.byteOffset, length: own.length }, [ab]);
    }
    this.releases.push(release);
    this.inFlight++;
    return this.inFlight < MAX_IN_FLIGHT ? Promise.resolve() : this.wait('ack');
  }

  /** Every row has been written: the thread may start what needs them all (the FTS5 build). */
  rowsDone(): void {
    if (!this.failure) this.send({ type: 'rowsDone' });
  }

  /** End the group's sinks in order, then stop the thread (on failure, {@link abort} stops it). */
  async end(info: SinkEnd): Promise<void> {
    const done = this.wait('ended');
    if (!this.failure) this.send({ type: 'end', info });
    await done;
    this.finished = true;
    await this.worker.terminate();
  }

  /** Abort the group's sinks (they remove their partial files) once the thread is through its queue, then stop it. */
  async abort(): Promise<void> {
    if (this.finished) return;
    this.fail(new Error('the run was aborted'));
    const done = Promise.race([new Promise<void>((resolve) => (this.aborted = resolve)), this.exited]);
    this.send({ type: 'abort' });
    await done;
    this.finished = true;
    await this.worker.terminate();
  }
}
