// The measured commands and their baselines, each one child process, so time and peak RSS are
// the program's own; a command that has not landed yet yields {unavailable: why}.
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { measure } from './measure.mjs';
import { CLI, ROOT } from './packages.mjs';

const WORKERS = join(ROOT, 'bench', 'workers');
export const OUT = join(ROOT, 'bench', '.work', 'out');

export function haveTool(name) {
  return spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).status === 0;
}

const probes = new Map();
/** Whether `aitrail <name>` exists in the built CLI (probed once with --help). */
export function cliHas(name) {
  if (!probes.has(name)) {
    if (!existsSync(join(ROOT, 'packages', 'cli', 'dist', 'commands', 'index.js'))) probes.set(name, 'packages/cli/dist is missing: run pnpm build');
    else {
      const r = spawnSync('node', [CLI, name, '--help'], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 60_000 });
      probes.set(name, r.status === 0 ? true : `aitrail ${name} is not available yet (${(r.stderr || r.stdout).trim().split('\n')[0] || `exit ${r.status}`})`);
    }
  }
  return probes.get(name);
}

function fail(what, r) {
  return { unavailable: `${what} failed (exit ${r.code}): ${(r.stderr || r.stdout).trim().split('\n').slice(-3).join(' | ').slice(0, 400)}` };
}

export function homeOf(corpus) {
  return join(corpus.dir, corpus.homes[0]);
}

export function archiveOf(corpus) {
  return join(OUT, `collect-${corpus.label}.zip`);
}

/** aitrail collect over the corpus's home into its archive (kept for analyze). */
export async function runCollect(corpus) {
  const has = cliHas('collect');
  if (has !== true) return { unavailable: has };
  mkdirSync(OUT, { recursive: true });
  const out = archiveOf(corpus);
  for (const f of [out, `${out}.sha256`, `${out}.partial`]) rmSync(f, { force: true });
  const r = await measure('node', [CLI, 'collect', '--home', homeOf(corpus), '--out', out]);
  if (r.code !== 0 || !existsSync(out)) return fail('aitrail collect', r);
  return { ms: r.ms, cpuMs: r.cpuMs, faults: r.faults, rss: r.rss, bytes: corpus.bytes, archiveBytes: statSync(out).size };
}

/** Baseline: zip -r -6 of the same .copilot tree. */
export async function runZip(corpus) {
  if (!haveTool('zip')) return { unavailable: 'zip is not installed (apt-get install -y zip)' };
  mkdirSync(OUT, { recursive: true });
  const out = join(OUT, `zip-${corpus.label}.zip`);
  rmSync(out, { force: true });
  const r = await measure(`zip -qr -6 '${out}' .copilot`, [], { cwd: homeOf(corpus), shell: true });
  const archiveBytes = existsSync(out) ? statSync(out).size : 0;
  rmSync(out, { force: true });
  if (r.code !== 0) return fail('zip', r);
  return { ms: r.ms, cpuMs: r.cpuMs, faults: r.faults, rss: r.rss, bytes: corpus.bytes, archiveBytes };
}

/** Baseline: sha256sum of every file of the same tree (collect hashes what it archives). */
export async function runSha(corpus) {
  if (!haveTool('sha256sum')) return { unavailable: 'sha256sum is not installed (coreutils)' };
  const r = await measure('find .copilot -type f -print0 | xargs -0 sha256sum > /dev/null', [], { cwd: homeOf(corpus), shell: true });
  if (r.code !== 0) return fail('sha256sum', r);
  return { ms: r.ms, cpuMs: r.cpuMs, faults: r.faults, rss: r.rss, bytes: corpus.bytes };
}

/** aitrail collect of the walk corpus's home (its project walk); `empty`: of an empty home, the fixed start-up. */
export async function runWalkCollect(corpus, empty = false) {
  const has = cliHas('collect');
  if (has !== true) return { unavailable: has };
  const home = empty ? join(corpus.dir, 'empty') : join(corpus.dir, 'sean');
  mkdirSync(home, { recursive: true });
  const out = join(OUT, `collect-${corpus.label}${empty ? '-empty' : ''}.zip`);
  for (const f of [out, `${out}.sha256`, `${out}.partial`]) rmSync(f, { force: true });
  const r = await measure('node', [CLI, 'collect', '--home', home, '--out', out]);
  if (r.code !== 0 || !existsSync(out)) return fail('aitrail collect', r);
  rmSync(out, { force: true });
  return { ms: r.ms, cpuMs: r.cpuMs, faults: r.faults, rss: r.rss, bytes: corpus.bytes };
}

/** aitrail collect of the small-files corpus's home (its archive kept for analyze). */
export async function runSmallCollect(corpus) {
  const has = cliHas('collect');
  if (has !== true) return { unavailable: has };
  mkdirSync(OUT, { recursive: true });
  const out = join(OUT, `collect-${corpus.label}.zip`);
  for (const f of [out, `${out}.sha256`, `${out}.partial`]) rmSync(f, { force: true });
  const r = await measure('node', [CLI, 'collect', '--home', join(corpus.dir, 'kim'), '--out', out]);
  if (r.code !== 0 || !existsSync(out)) return fail('aitrail collect', r);
  return { ms: r.ms, cpuMs: r.cpuMs, faults: r.faults, rss: r.rss, bytes: corpus.bytes, archiveBytes: statSync(out).size, archive: out };
}

/** Baseline: sha256sum of every file of the small-files home. */
export async function runSmallSha(corpus) {
  if (!haveTool('sha256sum')) return { unavailable: 'sha256sum is not installed (coreutils)' };
  const r = await measure('find .codex -type f -print0 | xargs -0 sha256sum > /dev/null', [], { cwd: join(corpus.dir, 'kim'), shell: true });
  if (r.code !== 0) return fail('sha256sum', r);
  return { ms: r.ms, cpuMs: r.cpuMs, faults: r.faults, rss: r.rss, bytes: corpus.bytes };
}

/** Baseline: find listing every entry of the project (the listings alone, no stat of a file). */
export async function runFind(corpus) {
  const r = await measure('find repo > /dev/null', [], { cwd: corpus.dir, shell: true });
  if (r.code !== 0) return fail('find', r);
  return { ms: r.ms, cpuMs: r.cpuMs, faults: r.faults, rss: r.rss, bytes: corpus.bytes };
}

/** The parse worker in `mode` (parser | lines | bare) over every events.jsonl of the corpus. */
export async function runParse(corpus, mode) {
  const r = await measure('node', [join(WORKERS, 'parse.mjs'), mode, corpus.dir]);
  if (r.code !== 0) return fail(`parse worker (${mode})`, r);
  const o = JSON.parse(r.stdout.trim().split('\n').pop());
  return { ms: r.ms, cpuMs: r.cpuMs, faults: r.faults, rss: r.rss, bytes: o.bytes, rows: o.rows, label: o.label };
}

/** The corpus's collect archive, made (untimed) when missing or older than the corpus. */
export async function archiveFor(corpus) {
  const archive = archiveOf(corpus);
  const stale = !existsSync(archive) || statSync(archive).mtimeMs < statSync(join(corpus.dir, 'corpus.json')).mtimeMs;
  if (stale && cliHas('collect') === true) {
    const r = await runCollect(corpus);
    if (r.unavailable) return r;
  }
  return existsSync(archive) ? archive : { unavailable: 'no collect archive (aitrail collect is not available)' };
}

/**
 * aitrail analyze of `inputs` (archives or home folders) into a fresh folder. `opts.tmp`: a
 * folder for TMPDIR whose peak size is measured (the runs spilled); `opts.args`: more flags.
 */
export async function runAnalyzeInputs(inputs, label, opts = {}) {
  const has = cliHas('analyze');
  if (has !== true) return { unavailable: has };
  const out = join(OUT, `analyze-${label}`);
  rmSync(out, { recursive: true, force: true });
  const env = {};
  if (opts.tmp) {
    rmSync(opts.tmp, { recursive: true, force: true });
    mkdirSync(opts.tmp, { recursive: true });
    env.TMPDIR = opts.tmp;
  }
  const r = await measure('node', [CLI, 'analyze', ...inputs, '--out', out, ...(opts.args ?? [])], { env, watchDir: opts.tmp });
  if (opts.tmp) rmSync(opts.tmp, { recursive: true, force: true });
  if (r.code !== 0) return fail(`aitrail analyze (${label})`, r);
  const rows = countLines(join(out, 'timeline.jsonl'));
  const outBytes = ['timeline.csv', 'timeline.jsonl'].reduce((n, f) => n + (existsSync(join(out, f)) ? statSync(join(out, f)).size : 0), 0);
  // Bytes of each output, for the reports section (what timeline.sqlite and report.html add).
  const outputs = Object.fromEntries(readdirSync(out).map((f) => [f, statSync(join(out, f)).size]));
  const findings = countLines(join(out, 'findings.jsonl'));
  rmSync(out, { recursive: true, force: true });
  return { ms: r.ms, cpuMs: r.cpuMs, faults: r.faults, rss: r.rss, tmpPeak: r.tmpPeak, rows, outBytes, outputs, findings };
}

/** aitrail analyze of the corpus's collect archive (or, without one, its home directory). */
export async function runAnalyze(corpus, opts = {}) {
  const archive = await archiveFor(corpus);
  const input = typeof archive === 'string' ? archive : homeOf(corpus);
  const r = await runAnalyzeInputs([input], corpus.label, opts);
  if (r.unavailable) return r;
  return { ...r, bytes: corpus.bytes, input: input === homeOf(corpus) ? 'home directory' : 'collect archive' };
}

function countLines(path) {
  if (!existsSync(path)) return null;
  // Read in chunks: a timeline can outgrow one Buffer at the larger sizes.
  const fd = openSync(path, 'r');
  const buf = Buffer.alloc(1 << 20);
  let n = 0;
  for (let got = readSync(fd, buf); got > 0; got = readSync(fd, buf)) {
    for (let i = buf.indexOf(10); i >= 0 && i < got; i = buf.indexOf(10, i + 1)) n += 1;
  }
  closeSync(fd);
  return n;
}

/** The dedup worker: dedupRows or the sort baseline over the same records. */
export async function runDedup(mode, rows, shared) {
  const r = await measure('node', ['--max-old-space-size=8192', join(WORKERS, 'dedup.mjs'), mode, String(rows), String(shared)]);
  if (r.code !== 0) return fail(`dedup worker (${mode})`, r);
  const o = JSON.parse(r.stdout.trim().split('\n').pop());
  if (o.unavailable) return o;
  return { ms: o.ms, rss: r.rss, rows: o.rows, shared: o.shared, dropped: o.dropped, from: o.from };
}

/**
 * The honest zip bomb of the hostile fixtures (a member that truly inflates to 10 GiB): analyze
 * must stream it through the integrity pass in bounded memory and report it. Moved here from
 * `npm test`, where it took over a minute: its time and peak RSS are what it measures.
 */
export async function runBombHonest() {
  const zip = join(ROOT, 'fixtures', 'hostile', 'generated', 'archives', 'bomb-honest.zip');
  if (!existsSync(zip)) {
    const g = spawnSync(process.execPath, [join(ROOT, 'fixtures', 'hostile', 'make-hostile.mjs'), '--only', 'archives'], { encoding: 'utf8' });
    if (g.status !== 0 || !existsSync(zip)) return { unavailable: `make-hostile.mjs --only archives failed: ${(g.stderr || '').slice(-300)}` };
  }
  const out = join(OUT, 'bomb-honest');
  rmSync(out, { recursive: true, force: true });
  const r = await measure('node', [CLI, 'analyze', zip, '--out', out]);
  if (r.code !== 0) return fail('aitrail analyze bomb-honest.zip', r);
  const inv = JSON.parse(readFileSync(join(out, 'inventory.json'), 'utf8'));
  const integrity = inv.collections[0].integrity;
  const reported = integrity.ok === false && JSON.stringify(integrity).includes('0b0c/events.jsonl');
  rmSync(out, { recursive: true, force: true });
  return { ms: r.ms, cpuMs: r.cpuMs, faults: r.faults, rss: r.rss, bytes: 10 * 1024 ** 3, reported };
}
