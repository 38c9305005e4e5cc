import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openArchive, readCollection, type ManifestRow } from '@aitrail/collector';

/** The repository root. */
export const REPO = resolve(fileURLToPath(new URL('../../../../../', import.meta.url)));
/** The built CLI's entry point. */
export const BIN = join(REPO, 'packages/cli/bin/run.js');
/** Where fixtures/hostile/make-hostile.mjs writes. */
export const GENERATED = join(REPO, 'fixtures/hostile/generated');
/** The committed hostile homes. */
export const HOSTILE_HOMES = join(REPO, 'fixtures/hostile/homes');

/**
 * Make sure one part of the generated fixtures exists, running the generator only when it is
 * missing or the generator changed. Several test runs share this checkout (and may run at
 * once), so the generator runs under a lock and never deletes a tree another run is reading.
 */
export function generate(part: 'archives' | 'homes' | 'collector', light = false): void {
  const script = join(REPO, 'fixtures/hostile/make-hostile.mjs');
  const want = createHash('sha256').update(readFileSync(script)).digest('hex');
  const summary = join(GENERATED, `cases-${part}.json`);
  const fresh = () => {
    try {
      const s = JSON.parse(readFileSync(summary, 'utf8')) as { generator_sha256?: string; light?: boolean };
      return s.generator_sha256 === want && (light || s.light === false);
    } catch {
      return false;
    }
  };
  if (fresh()) return;
  mkdirSync(GENERATED, { recursive: true });
  const lock = join(GENERATED, `.lock-${part}`);
  const deadline = Date.now() + 300_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (fresh()) return;
      // A lock older than the deadline is left over from a killed run.
      if (Date.now() > deadline || Date.now() - statSync(lock, { throwIfNoEntry: false })!.mtimeMs > 300_000) {
        rmSync(lock, { recursive: true, force: true });
        continue;
      }
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
  try {
    if (fresh()) return;
    const r = spawnSync(process.execPath, [script, '--only', part, ...(light ? ['--light'] : [])], { encoding: 'utf8', maxBuffer: 64 << 20 });
    if (r.status !== 0) throw new Error(`make-hostile.mjs --only ${part} failed (${r.status}): ${r.stderr}`);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** What one CLI run gave. */
export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
  timedOut: boolean;
}

/** Options of {@link runCli}. */
export interface CliOptions {
  cwd?: string;
  env?: Record<string, string>;
  /** Kill the run after this long (a hang fails the test instead of stalling the suite). */
  timeoutMs?: number;
  /** V8 heap cap: a memory blow-up dies with a heap error instead of passing. Default 512 MB; 0 sets none (the CLI's own defaults apply). */
  maxOldSpaceMb?: number;
  uid?: number;
  gid?: number;
  /** Called with the child's pid once it runs (to signal that process, and only it). */
  onSpawn?: (pid: number) => void;
}

const KEEP = 4 << 20;

/** Run the built `aitrail` as a child process, as a user would. */
export function runCli(args: string[], o: CliOptions = {}): Promise<CliRun> {
  const started = Date.now();
  return new Promise((res, rej) => {
    const heap = o.maxOldSpaceMb === 0 ? [] : [`--max-old-space-size=${o.maxOldSpaceMb ?? 512}`];
    const child = spawn(process.execPath, [...heap, BIN, ...args], {
      cwd: o.cwd ?? REPO,
      env: { ...process.env, NO_COLOR: '1', OCLIF_SKIP_NEW_VERSION_CHECK: 'true', TURBO_TELEMETRY_DISABLED: '1', ...o.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(o.uid !== undefined ? { uid: o.uid, gid: o.gid ?? o.uid } : {}),
    });
    if (child.pid !== undefined) o.onSpawn?.(child.pid);
    let stdout = '';
    let stderr = '';
    // Keep the head and the tail of long outputs; enough to assert on, bounded in memory.
    const keep = (acc: string, s: string) => (acc.length > KEEP ? acc.slice(0, KEEP / 2) + acc.slice(-KEEP / 2) : acc) + s;
    child.stdout.on('data', (b: Buffer) => {
      stdout = keep(stdout, b.toString('utf8'));
    });
    child.stderr.on('data', (b: Buffer) => {
      stderr = keep(stderr, b.toString('utf8'));
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, o.timeoutMs ?? 120_000);
    child.on('error', rej);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      res({ code, signal, stdout, stderr, ms: Date.now() - started, timedOut });
    });
  });
}

/** Lines of stderr that look like a stack trace or an uncaught error. */
export function stackTraceLines(text: string): string[] {
  return text.split('\n').filter((l) => /^\s+at .+(:\d+:\d+\)?|\(native\)|\(<anonymous>\))$/.test(l) || /node:internal|Uncaught|FATAL ERROR|JavaScript heap out of memory|UnhandledPromiseRejection/.test(l));
}

/** A fresh temp folder for one case. */
export function tempDir(label: string): string {
  return mkdtempSync(join(tmpdir(), `aitrail-hostile-${label}-`));
}

/** Read an archive's manifest rows (through the collector's own reader). */
export async function manifestOf(zip: string): Promise<{ rows: ManifestRow[]; members: string[]; problems: string[]; read(name: string): Promise<Buffer> }> {
  const reader = await openArchive(zip);
  const { manifest, problems } = await readCollection(reader);
  const members = [...reader.members.keys()];
  return {
    rows: manifest,
    members,
    problems,
    async read(name: string) {
      const parts: Buffer[] = [];
      for await (const c of await reader.openMember(name)) parts.push(c as Buffer);
      return Buffer.concat(parts);
    },
  };
}

/** Every path below `root` (names as found), for before/after comparisons. */
export function listTree(root: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    let names: string[];
    try {
      names = readdirSync(d);
    } catch {
      return;
    }
    for (const n of names) {
      const p = join(d, n);
      out.push(p);
      try {
        if (lstatSync(p).isDirectory()) walk(p);
      } catch {
        // vanished or unreadable: listed, not descended
      }
    }
  };
  if (existsSync(root)) walk(root);
  return out.sort();
}

/** Size, mode and mtime/ctime of every entry below `root`: what a read-only pass must not change. */
export function snapshotTree(root: string): Map<string, string> {
  const m = new Map<string, string>();
  for (const p of listTree(root)) {
    try {
      const st = lstatSync(p, { bigint: true });
      m.set(p, `${st.mode} ${st.size} ${st.mtimeNs} ${st.ctimeNs}`);
    } catch {
      m.set(p, 'unlistable');
    }
  }
  return m;
}

/** Whether a command exists in the built CLI (`aitrail <cmd> --help` exits 0). */
export function hasCommand(cmd: string): boolean {
  if (!existsSync(join(REPO, 'packages/cli/dist/commands/index.js'))) return false;
  const r = spawnSync(process.execPath, [BIN, cmd, '--help'], { encoding: 'utf8', env: { ...process.env, OCLIF_SKIP_NEW_VERSION_CHECK: 'true' } });
  return r.status === 0;
}

/** The records of a JSONL output file (timeline.jsonl, sessions.jsonl, duplicates.jsonl...). */
export function readJsonl<T = Record<string, unknown>>(path: string): T[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as T);
}

/** stderr with oclif's error wrapping (` ›   ` continuation lines) undone, whitespace collapsed. */
export function unwrapOclif(s: string): string {
  return s.replace(/\n\s*›\s*/g, ' ').replace(/\s+/g, ' ');
}
