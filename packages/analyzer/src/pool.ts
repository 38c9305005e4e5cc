import { Worker } from 'node:worker_threads';
import { type ChunkSink, type Job, type JobEnv, type JobOutcome, type JobSetup, jobBytes, runJob, type SecondaryKeys } from './job.js';
import type { FromWorker, ToWorker } from './parse-worker.js';

/** Runs parse jobs, on worker threads or inline; chunks and outcomes are handed over in order per job. */
export interface ParsePool {
  /** The secondary rows' dedup keys, shapes and prefixes, for the jobs run after this. */
  setKeys(keys: SecondaryKeys): void;
  /** Run every job; `onDone` sees a job's outcome after all its chunks went to `onChunk`. */
  run(jobs: Job[], onChunk: ChunkSink, onDone: (o: JobOutcome) => void): Promise<void>;
  close(): Promise<void>;
}

/** Jobs on the calling thread, one after the other (`--jobs 1`). */
export class InlinePool implements ParsePool {
  constructor(private readonly env: JobEnv) {}

  setKeys(keys: SecondaryKeys): void {
    this.env.setKeys(keys);
  }

  async run(jobs: Job[], onChunk: ChunkSink, onDone: (o: JobOutcome) => void): Promise<void> {
    for (const job of jobs) onDone(await runJob(job, this.env, onChunk));
  }

  close(): Promise<void> {
    return this.env.close();
  }
}

/** Jobs a worker holds at most: the one it runs and the next. */
const JOBS_AHEAD = 2;
/** A job this small (its member's bytes) may wait behind another on a worker. */
const AHEAD_JOB_BYTES = 1024 * 1024;

/** Jobs on `n` worker threads (parse-worker.ts), each taking the next job when done with one. */
export class WorkerPool implements ParsePool {
  private constructor(
    private readonly workers: Worker[],
    private readonly check: () => void,
    private readonly signal: AbortSignal | undefined,
  ) {}

  /** Start `n` workers and wait until each has loaded its parsers. */
  static async start(n: number, setup: JobSetup, check: () => void, signal?: AbortSignal): Promise<WorkerPool> {
    const workers: Worker[] = [];
    try {
      for (let i = 0; i < n; i++) workers.push(new Worker(new URL('./parse-worker.js', import.meta.url), { workerData: setup }));
      await Promise.all(
        workers.map(
          (w) =>
            new Promise<void>((res, rej) => {
              const onMsg = (m: FromWorker) => {
                if (m.type !== 'ready') return;
                w.off('message', onMsg);
                w.off('error', rej);
                res();
              };
              w.on('message', onMsg);
              w.once('error', rej);
            }),
        ),
      );
    } catch (e) {
      await Promise.all(workers.map((w) => w.terminate()));
      throw new Error(`could not start the parse workers (${(e as Error).message})`);
    }
    return new WorkerPool(workers, check, signal);
  }

  setKeys(keys: SecondaryKeys): void {
    for (const w of this.workers) w.postMessage({ type: 'keys', keys } satisfies ToWorker);
  }

  run(jobs: Job[], onChunk: ChunkSink, onDone: (o: JobOutcome) => void): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let next = 0;
      let failed = false;
      // Chunks and outcomes are taken one at a time, in arrival order: a spill in progress
      // holds the queue, and the workers wait for their acknowledgements meanwhile.
      let chain = Promise.resolve();
      const cleanups: (() => void)[] = [];
      const finish = (e?: unknown) => {
        if (failed) return;
        if (e !== undefined) failed = true;
        for (const c of cleanups) c();
        if (e !== undefined) reject(e);
        else resolve();
      };
      const then = (fn: () => void | Promise<void>) => {
        chain = chain.then(() => {
          if (!failed) return fn();
        });
        chain.catch(finish);
      };
      // Jobs each worker holds: the one it runs, and the next while that is a small one.
      const held = new Map<Worker, number>(this.workers.map((w) => [w, 0]));
      const send = (w: Worker) => {
        held.set(w, held.get(w)! + 1);
        w.postMessage({ type: 'job', job: jobs[next++] } satisfies ToWorker);
      };
      const dispatch = (w: Worker) => {
        if (next < jobs.length && held.get(w) === 0) send(w);
        // A worker that waited for the main thread's answer between jobs sat idle a third of the
        // time over 10,000 small files. Only a small job waits behind another: a large one
        // queued behind a larger one could have run on a free worker meanwhile.
        while (next < jobs.length && held.get(w)! < JOBS_AHEAD && jobBytes(jobs[next]) <= AHEAD_JOB_BYTES) send(w);
        if (next >= jobs.length && [...held.values()].every((n) => n === 0)) finish();
      };
      const onAbort = () => {
        try {
          this.check();
        } catch (e) {
          finish(e);
        }
      };
      this.signal?.addEventListener('abort', onAbort, { once: true });
      cleanups.push(() => this.signal?.removeEventListener('abort', onAbort));
      for (const w of this.workers) {
        const onMessage = (m: FromWorker) => {
          if (m.type === 'rows') {
            then(async () => {
              this.check();
              await onChunk(Buffer.from(m.chunk, 0, m.length), m.records);
              w.postMessage({ type: 'ack' } satisfies ToWorker);
            });
          } else if (m.type === 'done') {
            then(() => {
              onDone(m.outcome);
              held.set(w, held.get(w)! - 1);
              dispatch(w);
            });
          } else if (m.type === 'error') {
            finish(new Error(`a parse job failed: ${m.message}`));
          }
        };
        const onError = (e: Error) => finish(new Error(`a parse worker stopped: ${e.message}`));
        const onExit = (code: number) => finish(new Error(`a parse worker exited (code ${code}) before its jobs were done`));
        w.on('message', onMessage);
        w.on('error', onError);
        w.on('exit', onExit);
        cleanups.push(() => {
          w.off('message', onMessage);
          w.off('error', onError);
          w.off('exit', onExit);
        });
      }
      if (jobs.length === 0) return finish();
      for (const w of this.workers) dispatch(w);
    });
  }

  async close(): Promise<void> {
    await Promise.all(
      this.workers.map(
        (w) =>
          new Promise<void>((res) => {
            const t = setTimeout(() => void w.terminate().then(() => res()), 5000);
            w.once('exit', () => {
              clearTimeout(t);
              res();
            });
            w.postMessage({ type: 'close' } satisfies ToWorker);
          }),
      ),
    );
  }

  /** Stop every worker now (an interrupt or a failure). */
  async terminate(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
