// Wall time and peak RSS of a child process (and its descendants), without /usr/bin/time:
// node processes report their own maxRSS on exit through a preload; every process of the tree
// is also polled for VmHWM in /proc (zip, sha256sum, and anything a node child spawns).
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const preload = pathToFileURL(join(dirname(fileURLToPath(import.meta.url)), 'rss-preload.mjs')).href;
const POLL_MS = 20;

function vmHwm(pid) {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Bytes of every file under `dir` (0 when it is gone). */
function treeBytes(dir) {
  let n = 0;
  try {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) n += treeBytes(p);
      else if (e.isFile()) n += statSync(p, { throwIfNoEntry: false })?.size ?? 0;
    }
  } catch {
    // Removed while walking: what was counted stands.
  }
  return n;
}

function children(pid) {
  const out = [];
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const text = readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').trim();
      if (text) out.push(...text.split(/\s+/).map(Number));
    }
  } catch {
    // The process is gone, or the kernel has no children file: the preload still reports node.
  }
  return out;
}

/**
 * Run `cmd args` and measure it. Returns {ms, cpuMs, rss, code, stdout, stderr}: `rss` is the
 * largest peak resident set of any single process of the tree, in bytes; `cpuMs` the CPU time
 * (user + system) of the node processes of the tree, or, for `opts.shell`, of the shell's
 * children (read from the shell's `times`), a figure that other load on the machine barely moves;
 * `faults` the minor page faults of the node processes.
 * With `opts.shell`, `cmd` is a shell script and `args` is ignored. With `opts.watchDir`, the
 * largest total size of the files under it (polled every 250 ms) is `tmpPeak`.
 */
export function measure(cmd, args, opts = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'aitrail-bench-rss-'));
  const rssFile = join(dir, 'rss');
  // biome-ignore lint/suspicious/noUndeclaredEnvVars: passes the caller's node options through to the child
  const env = { ...process.env, ...opts.env, BENCH_RSS_FILE: rssFile, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${preload}`.trim() };
  return new Promise((resolve) => {
    const t0 = process.hrtime.bigint();
    const child = opts.shell ? spawn('sh', ['-c', `${cmd}\ns=$?; times >&2; exit $s`], { cwd: opts.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] }) : spawn(cmd, args, { cwd: opts.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      if (stdout.length < 1_000_000) stdout += d;
    });
    child.stderr.on('data', (d) => {
      if (stderr.length < 100_000) stderr += d;
    });
    let peak = 0;
    const poll = () => {
      const stack = [child.pid];
      while (stack.length) {
        const pid = stack.pop();
        peak = Math.max(peak, vmHwm(pid));
        stack.push(...children(pid));
      }
    };
    const timer = setInterval(poll, POLL_MS);
    let tmpPeak = 0;
    const watch = opts.watchDir ? setInterval(() => (tmpPeak = Math.max(tmpPeak, treeBytes(opts.watchDir))), 250) : null;
    child.on('error', (e) => {
      clearInterval(timer);
      if (watch) clearInterval(watch);
      rmSync(dir, { recursive: true, force: true });
      resolve({ ms: 0, rss: 0, code: -1, stdout, stderr: String(e) });
    });
    child.on('close', (code, signal) => {
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      clearInterval(timer);
      if (watch) clearInterval(watch);
      let reported = 0;
      let cpuMs = 0;
      let faults = 0;
      try {
        for (const line of readFileSync(rssFile, 'utf8').split('\n')) {
          if (!line) continue;
          const r = JSON.parse(line);
          reported = Math.max(reported, r.rss);
          cpuMs += r.cpuMs;
          faults += r.faults ?? 0;
        }
      } catch {
        // Not a node process (or it was killed): the polled figure stands.
      }
      if (opts.shell) cpuMs = childTimes(stderr);
      rmSync(dir, { recursive: true, force: true });
      resolve({ ms, cpuMs, faults, rss: Math.max(peak, reported), tmpPeak, code: code ?? (signal ? 128 : -1), stdout, stderr });
    });
  });
}

// `times` prints two lines, the shell's own user/system time and then its children's: `0m1.23s 0m0.04s`.
function childTimes(stderr) {
  const lines = stderr.trim().split('\n');
  const m = /(\d+)m([\d.]+)s\s+(\d+)m([\d.]+)s/.exec(lines.at(-1) ?? '');
  return m ? (Number(m[1]) * 60 + Number(m[2]) + Number(m[3]) * 60 + Number(m[4])) * 1000 : 0;
}

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** {median, min, max} of a list of numbers. */
export function summary(xs) {
  return { median: median(xs), min: Math.min(...xs), max: Math.max(...xs), runs: xs.length };
}

export const MiB = 1024 * 1024;
export const fmtMs = (ms) => (ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(0)} ms`);
export const fmtMiB = (b) => `${(b / MiB).toFixed(0)} MiB`;
export const fmtRange = (s, f) => `${f(s.median)} (${f(s.min)}–${f(s.max)})`;
