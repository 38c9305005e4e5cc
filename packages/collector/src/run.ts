import { type BigIntStats, lstatSync } from 'node:fs';
import type { Catalog } from './catalog.js';
import {
  compileCollectIf,
  compileDirFilter,
  compileExcludedDirs,
  compileGlobs,
  compilePrunedDirs,
  PROJECT_PRUNED_DIRS,
  walkRoots,
} from './globs.js';
import type { CollectEvents, CollectOptions, SummaryGroup } from './options.js';
import { decodeName } from './names.js';
import { readRegularFile } from './read-file.js';
import { resolvePrefix } from './run-prefix.js';
import { totalsOf } from './run-totals.js';
import { type HintFile, HintMatchers, type PendingHints } from './run-hints.js';

export type { HintFile } from './run-hints.js';
import type { ManifestRow } from './types.js';
import { baseRow, type Found, memberName, PROJECT_WALK_LIMIT, type TreeScope, type WalkHost, walkTree } from './walk.js';
import type { ZipWriter } from './zip-writer.js';

/** The state of one collect run: rows, counts, the archive, and the files already read. */
export class Run implements WalkHost {
  readonly rows: ManifestRow[] = [];
  readonly hintFiles: HintFile[] = [];
  readonly notes: string[] = [];
  readonly full: boolean;
  readonly signal?: AbortSignal;
  private readonly seen = new Map<string, ManifestRow>();
  private readonly hints: HintMatchers;
  private readonly compiled = new Map<string, Pick<TreeScope, 'collect' | 'secret' | 'excludedDir' | 'excludedFile' | 'descend' | 'pruned' | 'collectIf'>>();
  private readonly noted = new Set<string>();
  private batch?: Batch;
  private files = 0;
  private bytes = 0;

  constructor(
    readonly opts: CollectOptions,
    readonly events: CollectEvents,
    readonly writer: ZipWriter | undefined,
    readonly sep: string,
    targetHome: (home: string) => string = (home) => home,
  ) {
    this.full = opts.full;
    this.signal = opts.signal;
    this.hints = new HintMatchers(opts.catalogs, targetHome);
  }

  /** The scope of one catalog over one home (or project root, or the system). */
  scope(
    catalog: Catalog,
    base: Omit<TreeScope, 'agent' | 'collect' | 'secret' | 'excludedDir' | 'excludedFile' | 'descend' | 'sep' | 'nocase'>,
    nocase: boolean,
  ): TreeScope {
    const project = base.scope === 'project';
    const system = base.scope === 'system';
    const extra: Partial<TreeScope> = {};
    if (project) extra.limit = { ...PROJECT_WALK_LIMIT, ...this.opts.projectWalkLimit, entries: 0 };
    // Compiled once per catalog, scope kind and case rule: an anchor makes dozens of globs, and
    // every project root of a catalog shares them.
    const key = `${catalog.agent}\0${base.scope}\0${nocase}`;
    let c = this.compiled.get(key);
    if (!c) {
      const collectGlobs = system ? catalog.system : project ? catalog.project.collect : catalog.collect;
      const secretGlobs = system ? [] : project ? catalog.project.secrets : catalog.secrets;
      const exclude = system ? [] : project ? catalog.project.exclude : catalog.exclude;
      c = {
        collect: compileGlobs(collectGlobs, nocase),
        secret: compileGlobs(secretGlobs, nocase),
        excludedDir: compileExcludedDirs(exclude, nocase),
        excludedFile: compileGlobs(exclude, nocase),
        descend: compileDirFilter([...collectGlobs, ...secretGlobs], nocase),
        ...(project ? { pruned: compilePrunedDirs(PROJECT_PRUNED_DIRS, [...collectGlobs, ...secretGlobs], nocase) } : {}),
        ...(!project && !system ? { collectIf: compileCollectIf(catalog.collect_if, nocase) } : {}),
      };
      this.compiled.set(key, c);
    }
    return { ...extra, ...c, ...base, agent: catalog.agent, sep: this.sep, nocase };
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
      for (const resolved of resolvePrefix(this, scope, start, segs, nocase)) {
        await walkTree(this, scope, resolved.fsPath, resolved.rel, false, depth);
      }
    }
  }

  /**
   * Start gathering what the walks find, so that a file (or skipped entry) several catalogs
   * claim at the same place becomes one row naming every claimant (`agents`) before anything
   * is read: the secret flag of any claimant then decides how it is read.
   */
  beginBatch(): void {
    this.batch = { entries: [], files: new Map(), rows: new Map() };
  }

  /** Read the batch's files and record its rows, in the order the walks first found them. */
  async endBatch(): Promise<void> {
    const b = this.batch;
    this.batch = undefined;
    if (!b) return;
    let turn = performance.now();
    for (const e of b.entries) {
      // Small files are read with synchronous calls (read-file.ts readSmallFile), so a run of them may never
      // wait on the event loop: it gets a turn now and then, for Ctrl-C, the progress line and
      // the deflates that finished meanwhile.
      if (performance.now() - turn > TURN_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        turn = performance.now();
      }
      if ('row' in e) {
        this.emit(e.row);
        continue;
      }
      // The walks of every catalog came between this file's listing and now: the same file's
      // metadata is taken again right before the read, as an unbatched walk would have it (a
      // file replaced meanwhile keeps its listing, so the read says it was replaced).
      const st = lstatNow(e.found.fsPath);
      const fresh = st?.isFile() && st.dev === e.found.st.dev && st.ino === e.found.st.ino ? st : e.found.st;
      await this.readFile({ ...e.found, st: fresh }, e.claims);
    }
  }

  /** Record a row (and tell the listener); in a batch, merged with another catalog's row for the same entry. */
  row(row: ManifestRow): void {
    const b = this.batch;
    if (!b) {
      this.emit(row);
      return;
    }
    const key = `${row.source_path}\0${row.scope}\0${row.project_root ?? ''}\0${row.rel}\0${row.status}`;
    const prior = b.rows.get(key);
    if (prior && prior.agent !== row.agent) {
      addAgent(prior, row.agent);
      prior.secret ||= row.secret;
      return;
    }
    b.rows.set(key, row);
    b.entries.push({ row });
  }

  private emit(row: ManifestRow): void {
    this.opts.imported?.row(row);
    this.rows.push(row);
    this.events.row?.(row);
    // The path and the reason only: never anything read from the file.
    if (row.status === 'error') this.events.log?.(`error: ${row.source_path}: ${row.reason}`);
  }

  /** A note for collection.json and the operator (each distinct note once). */
  note(line: string): void {
    if (this.noted.has(line)) return;
    this.noted.add(line);
    this.notes.push(line);
    this.events.log?.(`note: ${line}`);
  }

  /** A regular file the walk found: read now, or, in a batch, once every catalog has had its walk. */
  async file(f: Found): Promise<void> {
    // The archive being written may sit inside a walked folder (run from ~/.copilot): never read it.
    if (this.writer && `${f.st.dev}:${f.st.ino}` === this.writer.identity) return;
    const claim = { agent: f.scope.agent, secret: f.scope.secret(f.scope.globPath(f.rel)) };
    const b = this.batch;
    if (!b) return this.readFile(f, [claim]);
    const key = `${f.fsPath.toString('latin1')}\0${f.scope.scope}\0${f.scope.projectRoot ?? ''}\0${f.rel}`;
    const prior = b.files.get(key);
    if (prior) {
      if (!prior.claims.some((c) => c.agent === claim.agent)) prior.claims.push(claim);
      return;
    }
    const entry = { found: f, claims: [claim] };
    b.files.set(key, entry);
    b.entries.push(entry);
  }

  /** Read (or plan) one regular file, claimed by one or more catalogs. */
  private async readFile(f: Found, claims: { agent: string; secret: boolean }[]): Promise<void> {
    const { scope, fsPath, rel, escaped, st } = f;
    const row = baseRow(scope, rel, fsPath, escaped, st);
    row.secret = claims.some((c) => c.secret);
    for (const c of claims.slice(1)) addAgent(row, c.agent);
    const key = fsPath.toString('latin1');
    const prior = this.seen.get(key);
    if (prior) {
      // The same file at another place (an overlapping project root): its own row, read once.
      Object.assign(row, { status: prior.status, archive_path: prior.archive_path, sha256: prior.sha256, bytes_read: prior.bytes_read });
      row.reason = `same file as the ${prior.agent} ${prior.scope} row ${prior.rel}; archived once`;
      this.emit(row);
      return;
    }
    this.progress(scope, rel);
    const refused = this.opts.imported?.refuse(decodeName(fsPath).text);
    if (refused) {
      row.status = 'error';
      row.reason = joinReason(refused, row.reason);
      this.seen.set(key, row);
      this.emit(row);
      return;
    }
    const mode = this.opts.secrets;
    let hints: PendingHints | undefined;
    let clean = false;
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
      // A home file that names project roots is scanned for them in this same read.
      hints = scope.scope === 'home' ? this.hints.begin(row.agents ?? [row.agent], row.rel, scope.nocase, { fsPath, user: scope.user, home: scope.home }) : undefined;
      const res = await readRegularFile(
        fsPath,
        st,
        archive ? (tap) => this.writer!.addStream(tap, name, Number(st.mtimeMs), Number(st.mode)) : undefined,
        hints?.observe,
      );
      clean = !res.error && !res.warning;
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
    if (scope.scope === 'home' && row.status !== 'error') {
      hints ??= this.hints.begin(row.agents ?? [row.agent], row.rel, scope.nocase, { fsPath, user: scope.user, home: scope.home });
      // Scanned only when the whole file was read unchanged; else projects.ts reads it itself.
      if (hints) this.hintFiles.push(...hints.files(clean));
    }
    this.emit(row);
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
    return totalsOf(this.rows);
  }
}

/** Add a claiming agent to a row: `agents` lists every claimant, the row's `agent` first. */
function addAgent(row: ManifestRow, agent: string): void {
  if (agent === row.agent || row.agents?.includes(agent)) return;
  row.agents = [...(row.agents ?? [row.agent]), agent];
}

/** What a batch holds until every catalog has walked: rows and files in the order first found. */
interface Batch {
  entries: ({ row: ManifestRow } | { found: Found; claims: { agent: string; secret: boolean }[] })[];
  files: Map<string, { found: Found; claims: { agent: string; secret: boolean }[] }>;
  rows: Map<string, ManifestRow>;
}

function joinReason(a: string, b: string): string {
  return b ? `${a}; ${b}` : a;
}

/** The longest the batch's reads go on without giving the event loop a turn. */
const TURN_MS = 25;

/** lstat now, synchronously (an await on libuv's pool for each file cost more than the call); undefined when it fails. */
function lstatNow(fsPath: Buffer): BigIntStats | undefined {
  try {
    return lstatSync(fsPath, { bigint: true });
  } catch {
    return undefined;
  }
}
