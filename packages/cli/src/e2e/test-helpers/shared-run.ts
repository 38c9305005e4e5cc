import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { type CliOptions, type CliRun, runCli } from './hostile-harness.js';

// End-to-end tests that only read what a collect or an analyze wrote share one run of it per
// `vitest run`: the first test file that asks builds it in a private folder and renames it into
// the cache (global-setup.ts provides the folder). It holds a lock folder while it builds, so a
// file in another worker that asks meanwhile waits for that run instead of repeating it (with
// two workers the slowest files start together and ask for the same collections); a lock left
// by a worker that died is taken over after LOCK_STALE_MS. Nothing is ever written into a cached
// folder after the rename, so readers never see half an output.

const memo = new Map<string, Promise<SharedRun>>();
/** A lock older than this is from a worker that died (the longest shared run takes about a minute). */
const LOCK_STALE_MS = 600_000;
let fallback: string | undefined;

/** A cached CLI run: its folder (outputs inside) and how the run went. */
export interface SharedRun {
  dir: string;
  run: CliRun;
}

function cacheRoot(): string {
  try {
    const dir = inject('aitrailSharedRuns');
    if (dir) return dir;
  } catch {
    // run outside the repository's vitest config: a cache for this process only
  }
  fallback ??= mkdtempSync(join(tmpdir(), 'aitrail-shared-runs-'));
  return fallback;
}

/**
 * Run `aitrail <args>` once per test run for a given key; `{dir}` in args stands for the folder
 * the run writes into. The run must succeed only if the caller checks it: its CliRun is kept.
 */
export function sharedRun(args: string[], opts: Omit<CliOptions, 'onSpawn'> = {}): Promise<SharedRun> {
  const key = createHash('sha256').update(JSON.stringify([args, opts])).digest('hex').slice(0, 24);
  let p = memo.get(key);
  if (!p) {
    p = build(key, args, opts);
    memo.set(key, p);
  }
  return p;
}

async function build(key: string, args: string[], opts: Omit<CliOptions, 'onSpawn'>): Promise<SharedRun> {
  const root = cacheRoot();
  const dir = join(root, key);
  const done = () => ({ dir, run: JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as CliRun });
  if (existsSync(join(dir, 'run.json'))) return done();
  mkdirSync(root, { recursive: true });
  const lock = join(root, `.${key}.lock`);
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    if (existsSync(join(dir, 'run.json'))) return done();
    const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
    if (age > LOCK_STALE_MS) {
      rmSync(lock, { recursive: true, force: true });
      continue;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  try {
    if (existsSync(join(dir, 'run.json'))) return done();
    return await buildLocked(dir, key, args, opts, done);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

async function buildLocked(dir: string, key: string, args: string[], opts: Omit<CliOptions, 'onSpawn'>, done: () => SharedRun): Promise<SharedRun> {
  const root = cacheRoot();
  const work = mkdtempSync(join(root, `.${key}-`));
  // Paths inside the output name the final folder, so the run writes into `work` under it.
  const run = await runCli(args.map((a) => a.split('{dir}').join(work)), opts);
  writeFileSync(join(work, 'run.json'), JSON.stringify(run));
  try {
    renameSync(work, dir);
  } catch (e) {
    // Another worker renamed its copy first: use that one.
    if (!['EEXIST', 'ENOTEMPTY'].includes((e as NodeJS.ErrnoException).code ?? '')) throw e;
    rmSync(work, { recursive: true, force: true });
  }
  return done();
}

/** `aitrail collect` of these homes (and flags), once per test run: the archive's path. */
export async function sharedCollect(homes: string[], flags: string[] = []): Promise<SharedRun & { zip: string }> {
  const r = await sharedRun(['collect', ...homes.flatMap((h) => ['--home', h]), ...flags, '--out', '{dir}/c.zip'], { timeoutMs: 300_000 });
  return { ...r, zip: join(r.dir, 'c.zip') };
}

/** `aitrail analyze` of an archive (and flags), once per test run: the output folder's path. */
export async function sharedAnalyze(input: string, flags: string[] = [], opts: Omit<CliOptions, 'onSpawn'> = {}): Promise<SharedRun & { out: string }> {
  const r = await sharedRun(['analyze', input, ...flags, '--out', '{dir}/out'], { timeoutMs: 300_000, ...opts });
  return { ...r, out: join(r.dir, 'out') };
}
