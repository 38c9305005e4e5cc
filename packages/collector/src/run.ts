import { lstat, readdir } from 'node:fs/promises';
import type { Catalog, ProjectHint } from './catalog.js';
import {
  compileCollectIf,
  compileDirFilter,
  compileExcludedDirs,
  compileGlobs,
  compilePrunedDirs,
  type Matcher,
  PROJECT_PRUNED_DIRS,
  walkRoots,
} from './globs.js';
import type { CollectEvents, CollectOptions, SummaryGroup } from './options.js';
import { readRegularFile } from './read-file.js';
import type { ManifestRow } from './types.js';
import { baseRow, type Found, memberName, PROJECT_WALK_LIMIT, type TreeScope, type WalkHost, walkTree } from './walk.js';
import type { ZipWriter } from './zip-writer.js';

/** A collected file that names project roots (a catalog `project_hints` entry matched it). */
export interface HintFile {
  hint: ProjectHint;
  fsPath: Buffer;
  user: string;
  home: string;
  catalog: Catalog;
}

/** The state of one collect run: rows, counts, the archive, and the files already read. */
export class Run implements WalkHost {
  readonly rows: ManifestRow[] = [];
  readonly hintFiles: HintFile[] = [];
  readonly notes: string[] = [];
  readonly full: boolean;
  readonly signal?: AbortSignal;
  private readonly seen = new Map<string, ManifestRow>();
  private readonly hintMatchers = new Map<string, { hint: ProjectHint; match: Matcher }[]>();
  private files = 0;
  private bytes = 0;

  constructor(
    readonly opts: CollectOptions,
    readonly events: CollectEvents,
    readonly writer: ZipWriter | undefined,
    readonly sep: string,
  ) {
    this.full = opts.full;
    this.signal = opts.signal;
  }

  /** The scope of one catalog over one home (or project root, or the system). */
  scope(
    catalog: Catalog,
    base: Omit<TreeScope, 'agent' | 'collect' | 'secret' | 'excludedDir' | 'excludedFile' | 'descend' | 'sep' | 'nocase'>,
    nocase: boolean,
  ): TreeScope {
    const project = base.scope === 'project';
    const system = base.scope === 'system';
    const collectGlobs = system ? catalog.system : project ? catalog.project.collect : catalog.collect;
    const secretGlobs = system ? [] : project ? catalog.project.secrets : catalog.secrets;
    const exclude = system ? [] : project ? catalog.project.exclude : catalog.exclude;
    const extra: Partial<TreeScope> = {};
    if (project) {
      extra.pruned = compilePrunedDirs(PROJECT_PRUNED_DIRS, [...collectGlobs, ...secretGlobs], nocase);
      extra.limit = { ...PROJECT_WALK_LIMIT, ...this.opts.projectWalkLimit, entries: 0 };
    } else if (!system) {
      extra.collectIf = compileCollectIf(catalog.collect_if, nocase);
    }
    return {
      ...extra,
      ...base,
      agent: catalog.agent,
      collect: compileGlobs(collectGlobs, nocase),
      secret: compileGlobs(secretGlobs, nocase),
      excludedDir: compileExcludedDirs(exclude, nocase),
      excludedFile: compileGlobs(exclude, nocase),
      descend: compileDirFilter([...collectGlobs, ...secretGlobs], nocase),
      sep: this.sep,
      nocase,
    };
  }

  /** Walk the fixed prefixes of a set of globs under `baseFs` (which stands for rel ''). */
  async walkGlobs(scope: TreeScope, baseFs: string, globs: string[], nocase: boolean, absolute = false): Promise<void> {
    for (const { prefix, depth } of walkRoots(globs)) {
      let segs = (absolute ? prefix.replace(/^\/+/, '') : prefix).split('/').filter(Boolean);
      let start = { fs: baseFs, rel: [] as string[] };
      // A Windows system glob (C:/Program Files/...): the drive is the first rel segment, and
      // under --root the image stands for the drive.
      if (absolute && /^[A-Za-z]:$/.test(segs[0] ?? '')) {
        start = { fs: baseFs === '' ? segs[0] : baseFs, rel: [segs[0]] };
        segs = segs.slice(1);
      }
      for (const resolved of await this.resolvePrefix(scope, start, segs, nocase)) {
        await walkTree(this, scope, resolved.fsPath, resolved.rel, false, depth);
      }
    }
  }

  /**
   * Resolve a prefix segment by segment: case-insensitively on Windows/macOS layouts (an image
   * mounted on Linux keeps its case, and may even hold two spellings: both are walked), and
   * never through a link on the way.
   */
  private async resolvePrefix(
    scope: TreeScope,
    start: { fs: string; rel: string[] },
    segs: string[],
    nocase: boolean,
  ): Promise<{ fsPath: Buffer; rel: string }[]> {
    // '' is this machine's root and 'C:' a bare drive: both are listed with a separator added.
    const dirOf = (fs: string) => (fs === '' || /^[A-Za-z]:$/.test(fs) ? fs + this.sep : fs);
    let level: { fs: string; rel: string[] }[] = [start];
    for (let i = 0; i < segs.length; i += 1) {
      const next: { fs: string; rel: string[] }[] = [];
      for (const cur of level) {
        let names: string[];
        if (nocase) {
          const listed = await readdir(dirOf(cur.fs)).catch(() => [] as string[]);
          names = listed.filter((n) => n.toLowerCase() === segs[i].toLowerCase()).sort();
        } else {
          names = (await lstat(cur.fs + this.sep + segs[i]).catch(() => undefined)) ? [segs[i]] : [];
        }
        for (const name of names) {
          const fs = cur.fs + this.sep + name;
          const rel = [...cur.rel, name];
          if (i < segs.length - 1) {
            const st = await lstat(fs, { bigint: true }).catch(() => undefined);
            if (st?.isSymbolicLink()) {
              const row = baseRow(scope, rel.join('/'), Buffer.from(fs), false, st);
              row.status = 'skipped_special';
              row.reason = `symbolic link on the way to ${segs.join('/')}: not followed`;
              this.row(row);
              continue;
            }
            if (!st?.isDirectory()) continue;
          }
          next.push({ fs, rel });
        }
      }
      level = next;
    }
    return level.map((l) => ({ fsPath: Buffer.from(/^[A-Za-z]:$/.test(l.fs) ? dirOf(l.fs) : l.fs), rel: l.rel.join('/') }));
  }

  /** Record a row (and tell the listener). */
  row(row: ManifestRow): void {
    this.rows.push(row);
    this.events.row?.(row);
    // The path and the reason only: never anything read from the file.
    if (row.status === 'error') this.events.log?.(`error: ${row.source_path}: ${row.reason}`);
  }

  /** A note for collection.json and the operator. */
  note(line: string): void {
    this.notes.push(line);
    this.events.log?.(`note: ${line}`);
  }

  /** Read (or plan) one regular file the walk found. */
  async file(f: Found): Promise<void> {
    const { scope, fsPath, rel, escaped, st } = f;
    // The archive being written may sit inside a walked folder (run from ~/.copilot): never read it.
    if (this.writer && `${st.dev}:${st.ino}` === this.writer.identity) return;
    const row = baseRow(scope, rel, fsPath, escaped, st);
    row.secret = scope.secret(scope.globPath(rel));
    const key = fsPath.toString('latin1');
    const prior = this.seen.get(key);
    if (prior) {
      Object.assign(row, { status: prior.status, archive_path: prior.archive_path, sha256: prior.sha256, bytes_read: prior.bytes_read });
      row.reason = `same file as the ${prior.agent} ${prior.scope} row ${prior.rel}; archived once`;
      this.row(row);
      return;
    }
    this.progress(scope, rel);
    const mode = this.opts.secrets;
    if (this.opts.dryRun) {
      row.status = row.secret && mode !== 'collect' ? 'skipped_secret' : 'collected';
      if (row.status === 'collected') row.archive_path = memberName(scope, rel, escaped);
      row.reason = joinReason('dry run: not read', row.reason);
    } else if (row.secret && mode === 'skip') {
      row.status = 'skipped_secret';
      row.reason = joinReason('secret: metadata only, not read (--secrets skip)', row.reason);
    } else {
      const archive = !(row.secret && mode === 'hash');
      const wantName = memberName(scope, rel, escaped);
      const name = archive ? this.writer!.uniqueName(wantName) : '';
      if (archive && name !== wantName) row.reason = joinReason(`${wantName} was taken by another file with this rel; archived as ${name}`, row.reason);
      const res = await readRegularFile(
        fsPath,
        st,
        archive ? (tap) => this.writer!.addStream(tap, name, Number(st.mtimeMs), Number(st.mode)) : undefined,
      );
      if (res.error) {
        row.status = 'error';
        row.reason = joinReason(res.error, row.reason);
      } else {
        row.status = archive ? 'collected' : 'skipped_secret';
        row.archive_path = name;
        row.sha256 = res.sha256;
        row.bytes_read = res.bytesRead;
        if (!archive) row.reason = joinReason('secret: hashed, not archived (--secrets hash)', row.reason);
        if (res.warning) row.reason = joinReason(res.warning, row.reason);
        this.files += 1;
        this.bytes += res.bytesRead;
      }
    }
    this.seen.set(key, row);
    if (scope.scope === 'home' && row.status !== 'error') this.noteHint(scope, row, fsPath);
    this.row(row);
  }

  private noteHint(scope: TreeScope, row: ManifestRow, fsPath: Buffer): void {
    const catalog = this.opts.catalogs.find((c) => c.agent === scope.agent);
    if (!catalog || catalog.project_hints.length === 0) return;
    const nocase = scope.nocase;
    const k = `${catalog.agent}|${nocase}`;
    let ms = this.hintMatchers.get(k);
    if (!ms) {
      ms = catalog.project_hints.map((hint) => ({ hint, match: compileGlobs([hint.file], nocase) }));
      this.hintMatchers.set(k, ms);
    }
    for (const { hint, match } of ms) {
      if (match(row.rel)) this.hintFiles.push({ hint, fsPath, user: scope.user, home: scope.home, catalog });
    }
  }

  private progress(scope: TreeScope, rel: string): void {
    this.events.progress?.({
      phase: scope.scope === 'home' ? 'homes' : scope.scope === 'project' ? 'projects' : 'system',
      user: scope.user,
      agent: scope.agent,
      files: this.files,
      bytes: this.bytes,
      current: rel,
    });
  }

  /** Counts per status and totals per user and agent. */
  totals(): { counts: Record<string, number>; groups: SummaryGroup[] } {
    const counts: Record<string, number> = {};
    const groups = new Map<string, SummaryGroup>();
    for (const r of this.rows) {
      counts[r.status] = (counts[r.status] ?? 0) + 1;
      const k = `${r.user}\0${r.agent}\0${r.scope}`;
      let g = groups.get(k);
      if (!g) {
        g = { user: r.user, agent: r.agent, scope: r.scope, files: 0, bytes: 0, secrets: 0, skipped: 0, errors: 0 };
        groups.set(k, g);
      }
      if (r.status === 'collected') {
        g.files += 1;
        g.bytes += r.bytes_read ?? r.size ?? 0;
      } else if (r.status === 'error') g.errors += 1;
      else g.skipped += 1;
      if (r.secret) g.secrets += 1;
    }
    return { counts, groups: [...groups.values()] };
  }
}

function joinReason(a: string, b: string): string {
  return b ? `${a}; ${b}` : a;
}
