import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { AnalyzeEvents, AnalyzeOptions, AnalyzeResult } from '@aitrail/analyzer';
import type { WorkerInput, WorkerMessage } from './analyze-worker.js';
import type { LoadedPlugin } from './plugins.js';

/**
 * Default heap cap of the analysis, in MB. The data it keeps is bounded (one run, the dedup
 * records, per-session counters); 256 holds a 1 GB collection under 512 MB of RSS and still
 * parses a 64 MB single line (docs/performance.md has the measurements).
 */
export const DEFAULT_HEAP_MB = 256;

/** The heap cap was reached, or the cap asked for is not a number: the message says what to do. */
export class HeapCapError extends Error {}

/** An error the analysis reported as the user's (an {@link AnalyzeError} inside the worker). */
export class WorkerUsageError extends Error {}

/** `--max-old-space-size` from node's own arguments or NODE_OPTIONS, if the user set one. */
function nodeHeapFlag(execArgv: readonly string[], nodeOptions: string): number | undefined {
  let found: number | undefined;
  for (const a of [...execArgv, ...nodeOptions.split(/\s+/)]) {
    const m = /^--max[-_]old[-_]space[-_]size=(\d+)$/.exec(a);
    if (m) found = Number(m[1]);
  }
  return found;
}

/** The analysis heap cap: AITRAIL_MAX_HEAP_MB, else node's --max-old-space-size, else {@link DEFAULT_HEAP_MB}. */
export function heapCapMb(env: NodeJS.ProcessEnv = process.env, execArgv: readonly string[] = process.execArgv): number {
  const v = env.AITRAIL_MAX_HEAP_MB?.trim();
  if (v) {
    if (!/^\d+$/.test(v) || Number(v) < 64) throw new HeapCapError(`expected AITRAIL_MAX_HEAP_MB to be a whole number of megabytes, at least 64, found ${JSON.stringify(v)}; unset it for the default (${DEFAULT_HEAP_MB})`);
    return Number(v);
  }
  return nodeHeapFlag(execArgv, env.NODE_OPTIONS ?? '') ?? DEFAULT_HEAP_MB;
}

const OUTPUT_NAMES = ['timeline.csv', 'timeline.jsonl', 'sessions.jsonl', 'inventory.json', 'duplicates.jsonl'];

/** A worker killed at its heap cap runs no finally block: remove its partial outputs here. */
async function removePartials(out: string): Promise<void> {
  const mine = new Set(OUTPUT_NAMES.map((n) => `.${n}.${process.pid}.partial`));
  const names = await readdir(out).catch(() => [] as string[]);
  await Promise.all(names.filter((n) => mine.has(n)).map((n) => rm(join(out, n), { force: true })));
}

/**
 * Run {@link analyze} in a worker thread whose old generation is capped at `heapMb`. Plugins are
 * imported again inside the worker from their module files. `signal` aborts the run (Ctrl-C).
 */
export async function analyzeInWorker(options: Omit<AnalyzeOptions, 'plugins' | 'signal' | 'tmpRoot'>, plugins: LoadedPlugin[], ev: AnalyzeEvents, signal: AbortSignal, heapMb: number): Promise<AnalyzeResult> {
  // The worker's temp folder lives in one of ours, so it goes even when the worker is killed.
  const tmpRoot = await mkdtemp(join(tmpdir(), 'aitrail-analyze-'));
  const workerData: WorkerInput = { options: { ...options, tmpRoot }, plugins: plugins.map((p) => ({ spec: p.spec, file: p.file })) };
  const worker = new Worker(new URL('./analyze-worker.js', import.meta.url), { workerData, resourceLimits: { maxOldGenerationSizeMb: heapMb } });
  const onAbort = () => worker.postMessage({ type: 'abort', reason: String((signal.reason as Error)?.message ?? signal.reason) });
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    return await new Promise<AnalyzeResult>((res, rej) => {
      let settled = false;
      const settle = (f: () => void) => {
        if (!settled) {
          settled = true;
          f();
        }
      };
      worker.on('message', (m: WorkerMessage) => {
        if (m.type === 'phase') ev.phase?.(m.name, m.total);
        else if (m.type === 'tick') ev.tick?.(m.done);
        else if (m.type === 'rows') ev.rows?.(m.count);
        else if (m.type === 'warn') ev.warn?.(m.message);
        else if (m.type === 'done') settle(() => res(m.result));
        else if (m.type === 'error') settle(() => rej(m.usage ? new WorkerUsageError(m.message) : new Error(m.message)));
      });
      worker.on('error', (e: Error & { code?: string }) => {
        if (e.code === 'ERR_WORKER_OUT_OF_MEMORY') {
          settle(() => rej(new HeapCapError(`ran out of memory: the analysis heap is capped at ${heapMb} MB and this input needed more. Outputs already in ${resolve(options.out)} were left as they were; temporary files removed. Raise the cap and rerun, e.g. AITRAIL_MAX_HEAP_MB=${heapMb * 2} (see docs/formats.md, "Temporary files and memory")`)));
        } else settle(() => rej(e));
      });
      worker.on('exit', (code) => settle(() => rej(new Error(`the analysis worker stopped (exit code ${code}) before it finished`))));
    });
  } catch (e) {
    if (e instanceof HeapCapError) await removePartials(resolve(options.out));
    throw e;
  } finally {
    signal.removeEventListener('abort', onAbort);
    await worker.terminate();
    await rm(tmpRoot, { recursive: true, force: true });
  }
}
