// The analysis as a worker thread: the host (analysis-host.ts) caps this isolate's heap, so a
// run holds the memory it needs and V8 does not grow the heap lazily towards its 4 GB default.
import { parentPort, workerData } from 'node:worker_threads';
import { AnalyzeError, type AnalyzeOptions, analyze } from '@aitrail/analyzer';
import { importPlugin } from './plugins.js';

/** What the host sends: the analysis options that can be cloned, plus plugins by module file. */
export interface WorkerInput {
  options: Omit<AnalyzeOptions, 'plugins' | 'signal'>;
  plugins: { spec: string; file: string }[];
}

/** Messages from the worker to the host. */
export type WorkerMessage =
  | { type: 'phase'; name: string; total: number }
  | { type: 'tick'; done: number }
  | { type: 'rows'; count: number }
  | { type: 'warn'; message: string }
  | { type: 'done'; result: Awaited<ReturnType<typeof analyze>> }
  | { type: 'error'; usage: boolean; message: string };

async function main(): Promise<void> {
  const port = parentPort!;
  const input = workerData as WorkerInput;
  const post = (m: WorkerMessage) => port.postMessage(m);
  const ac = new AbortController();
  // The host forwards SIGINT/SIGTERM as an abort; the analysis removes its temp files and stops.
  port.on('message', (m: { type: string; reason?: string }) => {
    if (m.type === 'abort') ac.abort(new Error(m.reason ?? 'interrupted'));
  });
  try {
    const plugins = [];
    for (const p of input.plugins) plugins.push(await importPlugin(p.spec, p.file));
    const result = await analyze(
      { ...input.options, plugins, signal: ac.signal },
      {
        phase: (name, total) => post({ type: 'phase', name, total }),
        tick: (done) => post({ type: 'tick', done }),
        rows: (count) => post({ type: 'rows', count }),
        warn: (message) => post({ type: 'warn', message }),
      },
    );
    post({ type: 'done', result });
  } catch (e) {
    post({ type: 'error', usage: e instanceof AnalyzeError, message: (e as Error)?.message ?? String(e) });
  } finally {
    port.removeAllListeners('message');
  }
}

await main();
