import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type ChildProcess, fork } from 'node:child_process';
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

/** An error the analysis reported as the user's (an {@link AnalyzeError} inside the child). */
export class ChildUsageError extends Error {}

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
    if (!/^\d+$/.test(v) || Number(v) < 16) throw new HeapCapError(`expected AITRAIL_MAX_HEAP_MB to be a whole number of megabytes, at least 16, found ${JSON.stringify(v)}; unset it for the default (${DEFAULT_HEAP_MB})`);
    return Number(v);
  }
  return nodeHeapFlag(execArgv, env.NODE_OPTIONS ?? '') ?? DEFAULT_HEAP_MB;
}

/**
 * Memory for rows before they spill to sorted runs on disk: AITRAIL_ROW_MEMORY_MB (0 spills every
 * chunk, which tests use to exercise the runs), else the analyzer's default (32 MB).
 */
export function rowMemoryBytes(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const v = env.AITRAIL_ROW_MEMORY_MB?.trim();
  if (!v) return undefined;
  if (!/^\d+$/.test(v)) throw new HeapCapError(`expected AITRAIL_ROW_MEMORY_MB to be a whole number of megabytes, found ${JSON.stringify(v)}; unset it for the default (32)`);
  return Number(v) * 1024 * 1024;
}

/**
 * glibc's malloc settings the analysis child gets, each unless the user set it (by its variable or
 * in GLIBC_TUNABLES); other C libraries ignore them. See {@link analysisEnv}.
 */
export const MALLOC_SETTINGS: readonly { env: string; tunable: string; value: string }[] = [
  // Blocks under 2 MiB (the 1 MiB record chunks, run blocks and output buffers) come from the arenas.
  { env: 'MALLOC_MMAP_THRESHOLD_', tunable: 'glibc.malloc.mmap_threshold', value: String(2 * 1024 * 1024) },
  // An arena keeps up to 8 MiB free at its top rather than giving it back after each free.
  { env: 'MALLOC_TRIM_THRESHOLD_', tunable: 'glibc.malloc.trim_threshold', value: String(8 * 1024 * 1024) },
  // Two arenas for the five threads: fewer arenas each keeping its own free blocks.
  { env: 'MALLOC_ARENA_MAX', tunable: 'glibc.malloc.arena_max', value: '2' },
];

/**
 * The analysis child's environment: the caller's, without a heap size in NODE_OPTIONS (the cap is
 * ours to set), and with {@link MALLOC_SETTINGS}. The analysis allocates and frees 1 MiB buffers
 * all along; mapped on their own (an mmap threshold of 256 KiB, the setting before) each was
 * mapped, faulted in page by page and unmapped again: 2.8 million page faults and 40 s of system
 * time in a 1 GiB analyze on an AMD EPYC VM, where a fault is dear. Kept in two arenas: 1.5
 * million and 22-25 s, the run 73-76 s -> 59-61 s, for 420-434 MiB of peak RSS against 382-386
 * (docs/performance.md, "Page faults").
 */
export function analysisEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...env, NODE_OPTIONS: (env.NODE_OPTIONS ?? '').replace(/--max[-_]old[-_]space[-_]size=\d+/g, '').trim() };
  for (const m of MALLOC_SETTINGS) {
    if (env[m.env] === undefined && !(env.GLIBC_TUNABLES ?? '').includes(m.tunable)) out[m.env] = m.value;
  }
  return out;
}

/** A child killed at its heap cap runs no finally block: remove its partial outputs here. */
async function removePartials(out: string, pid: number | undefined): Promise<void> {
  if (pid === undefined) return;
  const { OUTPUT_FILES } = await import('@aitrail/analyzer/host');
  // With SQLite's rollback journal: a child killed mid-transaction leaves timeline.sqlite's.
  const mine = new Set(OUTPUT_FILES.flatMap((n) => [`.${n}.${pid}.partial`, `.${n}.${pid}.partial-journal`]));
  const names = await readdir(out).catch(() => [] as string[]);
  await Promise.all(names.filter((n) => mine.has(n)).map((n) => rm(join(out, n), { force: true })));
}

/** Where V8's out-of-memory report starts in the child's stderr: from there on it is not shown. */
const V8_DUMP = /<--- Last few GCs --->|FATAL ERROR: /;

/** Start the analysis child (analyze-worker.ts), which loads the analyzer and waits for its input. */
function startChild(heapMb: number): ChildProcess {
  // Other node flags are kept (minus a heap size of their own): the cap is ours to set.
  // Heap sizing, measured on the 160 MiB bench corpus: the old generation starts at a quarter of
  // the cap (64 MB at most) rather than V8's few MB (long texts are large objects allocated
  // there, and a small start set off a full collection every few MB of them: 15% less CPU, 10 MB
  // more RSS); a 16 MB semi-space halves the young collections (9% less CPU, no more RSS).
  const given = (flag: RegExp) => process.execArgv.some((a) => flag.test(a));
  const sizing = [
    ...(given(/^--initial[-_]old[-_]space[-_]size=/) ? [] : [`--initial-old-space-size=${Math.min(64, Math.floor(heapMb / 4))}`]),
    ...(given(/^--max[-_]semi[-_]space[-_]size=/) ? [] : ['--max-semi-space-size=16']),
  ];
  const execArgv = [...process.execArgv.filter((a) => !/^--max[-_]old[-_]space[-_]size=/.test(a)), `--max-old-space-size=${heapMb}`, ...sizing];
  return fork(new URL('./analyze-worker.js', import.meta.url), [], { execArgv, env: analysisEnv(), stdio: ['ignore', 'inherit', 'pipe', 'ipc'], serialization: 'advanced' });
}

/** A child started ahead by {@link preforkAnalysis}, with the heap cap it was given. */
let spare: { child: ChildProcess; heapMb: number } | undefined;

/**
 * Start the analysis child before oclif is loaded and the command line parsed (bin/run.js, for
 * `analyze`): loading the analyzer in the child (a quarter of a second) then runs beside the
 * CLI's own start on the other core, instead of after it. Unused (a usage error, `--help`), it
 * is killed on exit; it never keeps the CLI alive.
 */
export function preforkAnalysis(): void {
  let heapMb: number;
  try {
    heapMb = heapCapMb();
  } catch {
    // The command says what is wrong with the setting; nothing to start ahead.
    return;
  }
  const child = startChild(heapMb);
  child.unref();
  child.channel?.unref();
  child.on('error', () => {});
  spare = { child, heapMb };
  process.once('exit', () => {
    if (spare?.child === child) child.kill('SIGKILL');
  });
}

/** The child started ahead, if it has the cap asked for and is still there. */
function takePrefork(heapMb: number): ChildProcess | undefined {
  const s = spare;
  spare = undefined;
  if (!s) return undefined;
  if (s.heapMb !== heapMb || s.child.exitCode !== null || s.child.signalCode !== null || !s.child.connected) {
    s.child.kill('SIGKILL');
    return undefined;
  }
  s.child.ref();
  s.child.channel?.ref();
  return s.child;
}

/**
 * Run {@link analyze} in a child node process whose old generation is capped at `heapMb`. Plugins
 * are imported again inside it from their module files. `signal` aborts the run (Ctrl-C).
 */
export async function analyzeInChild(options: Omit<AnalyzeOptions, 'plugins' | 'pluginFiles' | 'signal' | 'tmpRoot'>, plugins: LoadedPlugin[], ev: AnalyzeEvents, signal: AbortSignal, heapMb: number): Promise<AnalyzeResult> {
  // The child's temp folder lives in one of ours, so it goes even when the child is killed.
  const tmpRoot = await mkdtemp(join(tmpdir(), 'aitrail-analyze-'));
  const input: WorkerInput = { options: { ...options, tmpRoot }, plugins: plugins.map((p) => ({ spec: p.spec, file: p.file })) };
  const child = takePrefork(heapMb) ?? startChild(heapMb);
  let stderr = '';
  let dumping = false;
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (text: string) => {
    stderr = (stderr + text).slice(-64 * 1024);
    if (dumping) return;
    const at = text.search(V8_DUMP);
    if (at >= 0) dumping = true;
    const shown = at >= 0 ? text.slice(0, at) : text;
    if (shown.trim() !== '') process.stderr.write(shown);
  });
  const onAbort = () => {
    if (child.connected) child.send({ type: 'abort', reason: String((signal.reason as Error)?.message ?? signal.reason) });
  };
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    return await new Promise<AnalyzeResult>((res, rej) => {
      let outcome: { ok: true; result: AnalyzeResult } | { ok: false; error: Error } | null = null;
      child.on('message', (m: WorkerMessage) => {
        if (m.type === 'phase') ev.phase?.(m.name, m.total);
        else if (m.type === 'tick') ev.tick?.(m.done);
        else if (m.type === 'rows') ev.rows?.(m.count);
        else if (m.type === 'warn') ev.warn?.(m.message);
        else if (m.type === 'done') outcome = { ok: true, result: m.result };
        else if (m.type === 'error') outcome = { ok: false, error: m.usage ? new ChildUsageError(m.message) : new Error(m.message) };
      });
      child.on('error', (e) => rej(new Error(`could not start the analysis process (${e.message})`)));
      // Settled on close, when stderr is read to the end and the temp folder is no longer in use.
      child.on('close', (code, sig) => {
        if (outcome?.ok && code === 0) return res(outcome.result);
        // A parse worker thread at its cap ends with an error the child reports, not a V8 dump.
        const oom = /heap out of memory|ERR_WORKER_OUT_OF_MEMORY|Reached heap limit|reaching memory limit/;
        if (outcome && !outcome.ok && !oom.test(outcome.error.message)) return rej(outcome.error);
        if (oom.test(stderr) || (outcome && !outcome.ok)) {
          return rej(new HeapCapError(`ran out of memory: the analysis heap is capped at ${heapMb} MB and this input needed more. Outputs already in ${resolve(options.out)} were left as they were; temporary files removed. Raise the cap and rerun, e.g. AITRAIL_MAX_HEAP_MB=${heapMb * 2} (see docs/formats.md, "Temporary files and memory")`));
        }
        rej(new Error(`the analysis process stopped (${sig ? `signal ${sig}` : `exit code ${code}`}) before it finished${stderr.trim() ? `: ${stderr.trim().split('\n').slice(-3).join(' ')}` : ''}`));
      });
      child.send({ type: 'start', input });
    });
  } catch (e) {
    await removePartials(resolve(options.out), child.pid);
    throw e;
  } finally {
    signal.removeEventListener('abort', onAbort);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await rm(tmpRoot, { recursive: true, force: true });
  }
}
