import { readdirSync } from 'node:fs';
import { access, lstat, mkdir, realpath, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { type Catalog, envHomePrefix } from './catalog.js';
import { isDriveGlob } from './globs.js';
import { detectLayout, discoverHomes, type Home, type Layout, type ListDir, layoutIgnoresCase, uniqueUsers } from './homes.js';
import { COLLECTOR_VERSION } from './version.js';
import { envHomeRoots, outIgnoresCase, refuseOutInside } from './out-guard.js';
import { collectProjects, targetHome } from './projects.js';
import { type CollectEvents, type CollectOptions, type CollectSummary, CollectUsageError } from './options.js';
import { Run } from './run.js';
import { walkTree } from './walk.js';
import type { CollectionInfo } from './types.js';
import { ZipWriter } from './zip-writer.js';

/** Lists a directory on this machine by lstat-type (a link is not a directory). */
export const listDir: ListDir = (dir) => {
  try {
    return readdirSync(dir, { withFileTypes: true }).map((d) => ({ name: d.name, isDir: d.isDirectory() }));
  } catch {
    return undefined;
  }
};

/** Layout of the live system for a platform. */
export function layoutOf(platform: NodeJS.Platform): Layout {
  return platform === 'win32' ? 'win32' : platform === 'darwin' ? 'darwin' : 'linux';
}

/** Default archive name: `aitrail-<host>-<UTC YYYYMMDDTHHMMSSZ>.zip`. */
export function defaultOutName(host: string, when: Date): string {
  const ts = when.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  return `aitrail-${host.replace(/[^A-Za-z0-9._-]/g, '_')}-${ts}.zip`;
}

async function exists(p: string): Promise<boolean> {
  return access(p).then(
    () => true,
    () => false,
  );
}

async function resolveHomes(opts: CollectOptions, platform: NodeJS.Platform): Promise<{ layout: Layout; homes: Home[] }> {
  if (opts.root && opts.homes?.length) throw new CollectUsageError('give either --root or --home, not both');
  if (opts.root) {
    const root = path.resolve(opts.root);
    const st = await stat(root).catch(() => undefined);
    if (!st?.isDirectory()) throw new CollectUsageError(`--root ${opts.root}: expected a directory (a mounted image), found none; check the path`);
    const layout = opts.imported?.layout ?? detectLayout(root, path, listDir);
    if (!layout) {
      throw new CollectUsageError(
        `--root ${opts.root}: found neither Users/ (Windows, macOS) nor home/ (Linux) in it; point --root at the image's top folder`,
      );
    }
    return { layout, homes: uniqueUsers(discoverHomes(layout, path, listDir, { root }), path) };
  }
  const layout = layoutOf(platform);
  if (opts.homes?.length) {
    const homes: string[] = [];
    for (const h of opts.homes) {
      const abs = path.resolve(h);
      const st = await stat(abs).catch(() => undefined);
      if (!st?.isDirectory()) throw new CollectUsageError(`--home ${h}: expected a directory, found none; check the path`);
      homes.push(abs);
    }
    return { layout, homes: uniqueUsers(homes, path) };
  }
  const p = platform === 'win32' ? path.win32 : path.posix;
  return { layout, homes: uniqueUsers(discoverHomes(layout, p, listDir, { env: opts.env ?? process.env }), p) };
}

/** Run a whole collection: homes, catalogs, projects, system paths, then the archive. */
export async function collect(opts: CollectOptions, events: CollectEvents = {}): Promise<CollectSummary> {
  const started = new Date();
  const platform = opts.platform ?? process.platform;
  const env = opts.env ?? process.env;
  const host = opts.host ?? os.hostname();
  let catalogs: Catalog[] = opts.catalogs;
  if (opts.agents?.length) {
    const unknown = opts.agents.filter((a) => !catalogs.some((c) => c.agent === a));
    if (unknown.length > 0) {
      throw new CollectUsageError(
        `unknown --agent ${unknown.join(', ')}; known agents: ${catalogs.map((c) => c.agent).join(', ')} (see aitrail catalog)`,
      );
    }
    catalogs = catalogs.filter((c) => opts.agents!.includes(c.agent));
  }
  const { layout, homes } = await resolveHomes(opts, platform);
  const nocase = layoutIgnoresCase(layout);
  let writer: ZipWriter | undefined;
  if (!opts.dryRun) {
    // Before anything is created: even mkdir of the out folder would write into a home.
    const roots = homes.map((h) => ({ label: `home ${h.home}`, path: h.home }));
    // Env homes are walked only with the running user's home, as below.
    const current = path.resolve(opts.currentHome ?? os.homedir());
    if (!opts.root && homes.some((h) => path.resolve(h.home) === current)) roots.push(...envHomeRoots(catalogs, env, layout));
    await refuseOutInside(opts.out, roots, outIgnoresCase(platform));
    for (const p of [opts.out, `${opts.out}.sha256`, `${opts.out}.partial`]) {
      if (await exists(p)) throw new CollectUsageError(`${p} already exists; choose another --out or move the old file away`);
    }
    try {
      await mkdir(path.dirname(path.resolve(opts.out)), { recursive: true });
      writer = await ZipWriter.create(opts.out, opts.compression ?? 'fast');
    } catch (err) {
      throw new CollectUsageError(`cannot create ${opts.out}.partial (${(err as Error).message}); check --out`);
    }
  }
  const root = opts.root ? path.resolve(opts.root) : undefined;
  const run = new Run({ ...opts, catalogs }, events, writer, path.sep, (home) => targetHome(home, layout, root));
  // Stop in the middle of a large file too, not only between files.
  const onAbort = () => {
    const reason = opts.signal?.reason instanceof Error ? opts.signal.reason : new Error('aborted');
    writer?.fail(Object.assign(reason, { name: 'AbortError' }));
  };
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    if (homes.length === 0) run.note('no user home found');
    const currentHome = path.resolve(opts.currentHome ?? os.homedir());
    for (const h of homes) {
      const running = !opts.root && path.resolve(h.home) === currentHome;
      // One batch per home: a file two catalogs claim becomes one row (Run.beginBatch).
      run.beginBatch();
      for (const catalog of catalogs) {
        const base = { user: h.user, home: h.home, scope: 'home' as const, memberPrefix: `homes/${h.user}/`, globPath: (r: string) => r };
        const scope = run.scope(catalog, base, nocase);
        if (running) await walkEnvHomes(run, scope, catalog, h.home, env, layout);
        await run.walkGlobs(scope, h.home, [...catalog.collect, ...catalog.secrets], nocase);
      }
      await run.endBatch();
    }
    const takeSystem = !opts.homes?.length || Boolean(opts.root) || opts.system === true;
    const withSystem = catalogs.filter((c) => systemGlobs(c.system, layout).length > 0);
    if (!takeSystem && withSystem.length > 0) {
      run.note(`system paths of ${withSystem.map((c) => c.agent).join(', ')} not collected: --home names the homes to collect; add --system to collect this host's system paths too`);
    }
    run.beginBatch();
    for (const catalog of takeSystem ? withSystem : []) {
      const globs = systemGlobs(catalog.system, layout);
      const win = layout === 'win32';
      const base = {
        user: '',
        home: '',
        scope: 'system' as const,
        memberPrefix: 'system/',
        // Windows rels start with their drive (C:/...), the others lost their leading '/'.
        globPath: (r: string) => (win ? r : `/${r}`),
      };
      const scope = run.scope(catalog, base, nocase);
      await run.walkGlobs(scope, opts.root ? path.resolve(opts.root) : '', globs, win, true);
    }
    await run.endBatch();
    const projects = opts.dryRun ? [] : await collectProjects(run, layout, nocase, opts.root ? path.resolve(opts.root) : undefined);
    if (opts.dryRun) run.note('dry run: project roots are found by reading collected files, so none are listed');
    const ended = new Date();
    const { counts, groups } = run.totals();
    const summary: CollectSummary = {
      out: null,
      sha256: '',
      archive_bytes: 0,
      dry_run: opts.dryRun,
      layout,
      started_utc: started.toISOString(),
      ended_utc: ended.toISOString(),
      homes: homes.map((h) => ({ user: h.user, home: opts.imported ? opts.imported.home(h.home, h.user) : h.home })),
      counts,
      groups,
      projects,
      notes: run.notes,
    };
    if (!writer) return { ...summary, rows: run.rows };
    events.progress?.({ phase: 'archive', user: '', agent: '', files: run.rows.length, bytes: 0, current: 'manifest.jsonl' });
    // Streamed line by line: a million rows must not become one giant string.
    const lines = Readable.from((function* () {
      for (const r of run.rows) yield Buffer.from(`${JSON.stringify(r)}\n`, 'utf8');
    })());
    await writer.addStream(lines, 'manifest.jsonl', ended.getTime(), 0o644);
    const info: CollectionInfo = {
      format: 'aitrail-collection',
      format_version: 1,
      host,
      os: opts.root ? { platform: layout, release: '', arch: '' } : { platform, release: os.release(), arch: os.arch() },
      tool: { name: 'aitrail', version: opts.toolVersion ?? COLLECTOR_VERSION },
      catalog: catalogs.map((c) => ({ agent: c.agent, version: c.version, sha256: c.sha256 })),
      arguments: opts.arguments ?? [],
      started_utc: summary.started_utc,
      ended_utc: summary.ended_utc,
      counts,
      complete: true,
      layout,
      homes: summary.homes,
      notes: run.notes,
      compression: await writer.compressionInfo(),
      system_paths: takeSystem,
      ...(opts.root && !opts.imported ? { root: path.resolve(opts.root), collector_os: { platform, release: os.release(), arch: os.arch() } } : {}),
      ...(opts.imported ? { imported_from: opts.imported.info, collector_os: { platform, release: os.release(), arch: os.arch() } } : {}),
    };
    writer.addBuffer(Buffer.from(`${JSON.stringify(info, null, 2)}\n`, 'utf8'), 'collection.json', ended.getTime());
    const done = await writer.finish();
    return { ...summary, out: done.path, sha256: done.sha256, archive_bytes: done.bytes };
  } catch (err) {
    await writer?.abort();
    throw err;
  } finally {
    opts.signal?.removeEventListener('abort', onAbort);
  }
}

/**
 * env_homes (COPILOT_HOME, XDG_CONFIG_HOME, ...): the running user's moved folders, each walked
 * as the home-relative folder it stands for (only the catalog's globs below it are taken).
 */
async function walkEnvHomes(
  run: Run,
  scope: ReturnType<Run['scope']>,
  catalog: Catalog,
  home: string,
  env: Record<string, string | undefined>,
  layout: Layout,
): Promise<void> {
  const walked = new Set<string>();
  const homeReal = await realpath(home).catch(() => path.resolve(home));
  for (const eh of catalog.env_homes) {
    const raw = env[eh.var];
    if (!raw || (eh.layouts && !eh.layouts.includes(layout))) continue;
    const rel = envHomePrefix(eh);
    // The default place counts as walked only when the home walk reaches it, i.e. no link on the way.
    const defaultReal = await realpath(path.join(home, ...rel.split('/'))).catch(() => undefined);
    const reachable = defaultReal !== undefined && defaultReal === path.join(homeReal, ...rel.split('/'));
    // A list variable (CLAUDE_CONFIG_DIR=a,b): each directory is a config home of its own.
    const values = eh.separator ? raw.split(eh.separator).map((v) => v.trim()).filter(Boolean) : [raw];
    for (const value of values) {
      const shown = values.length > 1 ? `${eh.var} entry ${value}` : `${eh.var}=${value}`;
      // The XDG base directory spec: a relative value is invalid and ignored; the others are
      // resolved by the agent against a working directory nobody recorded.
      if (!path.isAbsolute(value)) {
        run.note(`${shown} is not an absolute path; not collected (the program resolves it against its working directory, unknown here)`);
        continue;
      }
      const real = await realpath(value).catch(() => undefined);
      const st = real ? await lstat(real).catch(() => undefined) : undefined;
      if (!real || !st?.isDirectory()) {
        run.note(`${shown} is set but is not a directory; nothing collected from it`);
        continue;
      }
      if ((reachable && defaultReal === real) || walked.has(`${rel}\0${real}`)) continue;
      walked.add(`${rel}\0${real}`);
      run.note(`${shown}: collected as ${rel === '' ? 'the home' : rel} of ${scope.user} (source_path keeps the real path)`);
      await walkTree(run, scope, Buffer.from(real), rel, false, Number.POSITIVE_INFINITY);
    }
  }
}

/**
 * The system globs of a layout: drive-letter globs (`C:/...`) on Windows, `/`-rooted ones elsewhere.
 * macOS keeps /etc, /var and /tmp as links into /private, which a walk never follows: use the real place.
 */
export function systemGlobs(globs: string[], layout: Layout): string[] {
  if (layout === 'win32') return globs.filter(isDriveGlob);
  const posix = globs.filter((g) => !isDriveGlob(g));
  return layout === 'darwin' ? posix.map((g) => g.replace(/^\/(etc|var|tmp)(\/|$)/, '/private/$1$2')) : posix;
}
