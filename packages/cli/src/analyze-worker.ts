// The analysis as a child process: the host (analysis-host.ts) starts it with a capped heap, so
// a run holds the memory it needs and V8 does not grow the heap lazily towards its 4 GB default.
// A process, not a worker thread: a worker that fails one large allocation at its cap takes the
// whole process down with a V8 dump, while the host of a child can still say what happened.
import { AnalyzeError, type AnalyzeOptions, analyze } from '@aitrail/analyzer';
import { importPlugin } from './plugins.js';

/** What the host sends: the analysis options that can be cloned, plus plugins by module file. */
export interface WorkerInput {
  options: Omit<AnalyzeOptions, 'plugins' | 'pluginFiles' | 'signal'>;
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

/** Least time between two progress ticks sent to the host. */
const TICK_MS = 100;

/**
 * Progress ticks at most every {@link TICK_MS}: a tick per parse job was an IPC message per member,
 * 0.8 s of the analysis's main thread for 20,000 members, for a bar redrawn a few times a second.
 * A held tick goes out before any other message, so the host sees counts in order and the last one.
 */
function tickThrottle(post: (m: WorkerMessage) => Promise<void>) {
  let last = 0;
  let held: number | undefined;
  const flush = (): void => {
    if (held === undefined) return;
    const done = held;
    held = undefined;
    void post({ type: 'tick', done });
  };
  return {
    tick(done: number): void {
      held = done;
      const now = Date.now();
      if (now - last < TICK_MS) return;
      last = now;
      flush();
    },
    flush,
    /** Any other message, after the held tick. */
    post(m: WorkerMessage): Promise<void> {
      flush();
      return post(m);
    },
  };
}

async function main(input: WorkerInput): Promise<void> {
  const post = (m: WorkerMessage) => new Promise<void>((res) => process.send?.(m, undefined, undefined, () => res()) ?? res());
  const ac = new AbortController();
  const stop = (reason: string) => ac.abort(new Error(reason));
  // Ctrl-C reaches the whole process group; the host also forwards its signals as an abort and
  // a lost host is one too. Either way the analysis removes its temp files and stops.
  process.on('SIGINT', () => stop('by SIGINT'));
  process.on('SIGTERM', () => stop('by SIGTERM'));
  process.on('disconnect', () => stop('the host went away'));
  process.on('message', (m: { type: string; reason?: string }) => {
    if (m.type === 'abort') stop(m.reason ?? 'interrupted');
  });
  try {
    const plugins = [];
    for (const p of input.plugins) plugins.push(await importPlugin(p.spec, p.file));
    const ticks = tickThrottle(post);
    const result = await analyze(
      { ...input.options, plugins, pluginFiles: input.plugins.map((p) => p.file), signal: ac.signal },
      {
        phase: (name, total) => ticks.post({ type: 'phase', name, total }),
        tick: ticks.tick,
        rows: (count) => ticks.post({ type: 'rows', count }),
        warn: (message) => ticks.post({ type: 'warn', message }),
      },
    );
    ticks.flush();
    await post({ type: 'done', result });
  } catch (e) {
    await post({ type: 'error', usage: e instanceof AnalyzeError, message: (e as Error)?.message ?? String(e) });
  } finally {
    process.removeAllListeners('message');
    process.removeAllListeners('disconnect');
    process.disconnect?.();
  }
}

process.once('message', (m: { type: string; input?: WorkerInput }) => {
  if (m.type === 'start' && m.input) void main(m.input);
});
