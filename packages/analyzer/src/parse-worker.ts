// A parse worker thread: runs parse jobs (job.ts) sent by the pool (pool.ts) and sends back
// record chunks (transferred, not copied) and each job's outcome. It holds at most a few chunks
// the main thread has not taken yet: it waits for an acknowledgement beyond that.
import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';
import { type AgentPlugin, builtInPlugins } from '@aitrail/parsers';
import { type Job, JobEnv, type JobSetup, runJob, type SecondaryKeys } from './job.js';
import { openMembers } from './zip-source.js';

/** Chunks in flight to the main thread before the worker waits. */
const MAX_IN_FLIGHT = 4;

/** Messages from the pool to a worker. */
export type ToWorker = { type: 'job'; job: Job } | { type: 'keys'; keys: SecondaryKeys } | { type: 'ack' } | { type: 'close' };

/** Messages from a worker to the pool. */
export type FromWorker =
  | { type: 'ready' }
  | { type: 'rows'; chunk: ArrayBuffer; length: number; records: number }
  | { type: 'done'; outcome: import('./job.js').JobOutcome }
  | { type: 'error'; message: string; stack?: string };

const port = parentPort!;
const setup = workerData as JobSetup;
const plugins: AgentPlugin[] = [...builtInPlugins];
for (const f of setup.pluginFiles) plugins.push(((await import(pathToFileURL(f).href)) as { default: AgentPlugin }).default);
const env = new JobEnv(setup, plugins.flatMap((p) => p.parsers), openMembers);

let credits = MAX_IN_FLIGHT;
let wake: (() => void) | null = null;
const post = (m: FromWorker, transfer?: ArrayBuffer[]) => port.postMessage(m, transfer);
/** The jobs sent and not yet done, run in turn. */
let queue: Promise<void> = Promise.resolve();

async function sink(chunk: Buffer, records: number): Promise<void> {
  while (credits === 0) await new Promise<void>((res) => (wake = res));
  credits--;
  // The chunk is a view at the start of its own ArrayBuffer (RecordWriter): hand the whole over.
  const ab = chunk.buffer as ArrayBuffer;
  post({ type: 'rows', chunk: ab, length: chunk.length, records }, [ab]);
}

port.on('message', (m: ToWorker) => {
  if (m.type === 'ack') {
    credits++;
    const w = wake;
    wake = null;
    w?.();
  } else if (m.type === 'keys') {
    env.setKeys(m.keys);
  } else if (m.type === 'job') {
    // One job after the other, in the order sent: the pool sends the next before this one ends.
    const job = m.job;
    queue = queue.then(() => runJob(job, env, sink)).then(
      (outcome) => {
        try {
          post({ type: 'done', outcome });
        } catch {
          // A parser reported something that cannot be cloned (a function in a fact): send its JSON form.
          post({ type: 'done', outcome: JSON.parse(JSON.stringify(outcome)) });
        }
      },
      (e: Error) => post({ type: 'error', message: e?.message ?? String(e), stack: e?.stack }),
    );
  } else if (m.type === 'close') {
    void env.close().finally(() => port.close());
  }
});
post({ type: 'ready' });
