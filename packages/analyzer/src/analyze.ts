import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type AgentPlugin, builtInPlugins, type ParseContext, type Parser } from '@aitrail/parsers';
import { givenUpStores, type Input, parseableRows, type Unit } from './artifacts.js';
import { type DedupRecord, dedupRows } from './dedup.js';
import { AnalyzeError } from './errors.js';
import { FactStore, sessionKey } from './facts.js';
import { assembleIntegrity, type CredentialScanLimits, credentialLimits, credentialNotice, type MemberRead } from './integrity.js';
import { type CollectionEntry, InventoryBuilder } from './inventory.js';
import { type JobOutcome, JobEnv, type JobSetup, type UnitOutcome } from './job.js';
import { writeOutputs, type OutputPaths } from './outputs.js';
import { type ParsePlan, planParse, unitIdentity } from './plan.js';
import { InlinePool, type ParsePool, WorkerPool } from './pool.js';
import { DEFAULT_RUN_LIMITS, RecordStore, type RunLimits } from './record-store.js';
import { secondaryKeys } from './secondary-keys.js';
import { type CollectionSource, type MemberAccess, openDirectorySource } from './source.js';
import { loadRules, type Rule, RuleError } from './findings/index.js';
import { buildSinks, sinkGroups } from './report/sink-specs.js';
import { SinkThread } from './report/sink-threads.js';
import { type SessionFileGlobs, sessionFileMatcher } from './session-files.js';
import { buildSummary, type SummaryEntry, type UnparsedEntry } from './summary.js';
import { openZipSource } from './zip-source.js';
import { OUTPUT_FILES, REPORT_FILES, removeStale } from './report/sinks.js';
import { discardStaged, publishOutputs } from './atomic.js';

export { AnalyzeError };

/** `jobs: 'auto'` starts a thread per this many bytes of input: starting one costs about as much as parsing this. */
const AUTO_BYTES_PER_THREAD = 16 * 1024 * 1024;

/**
 * Rows from which the sinks run on threads even when the parse did not: at about 20 µs of sink
 * work a row in-process, 20,000 rows outweigh starting two threads and loading their modules.
 */
const SINK_THREAD_ROWS = 20_000;

/** Threads `--jobs` allows at most: the core count for `auto`. */
const maxThreads = (jobs: AnalyzeOptions['jobs']): number => (jobs === 'auto' ? availableParallelism() : (jobs ?? 1));

/** Options of {@link analyze}. */
export interface AnalyzeOptions {
  /** Archives (.zip) or unpacked collection directories. */
  inputs: string[];
  /** Output directory (created). */
  out: string;
  includeThinking?: boolean;
  /** Plugins beside the built-in agents. */
  plugins?: readonly AgentPlugin[];
  /** false: keep every row (`--no-dedup`). */
  dedup?: boolean;
  /** Stop before writing outputs when any member fails the integrity check. */
  strict?: boolean;
  /** Home-relative catalog roots per agent (for scratch directories); guessed from paths when absent. */
  catalogRoots?: ReadonlyMap<string, string[]>;
  /** Each agent's `session_files` globs (expanded), counted into inventory.json `session_files`. */
  sessionFiles?: ReadonlyMap<string, SessionFileGlobs>;
  /** Memory for rows before they are spilled to sorted runs on disk (default 32 MB). */
  runLimits?: RunLimits;
  /**
   * Parse on this many worker threads (default 1: on the calling thread); `auto`: one per core,
   * fewer for a small input (a thread per 16 MB), none under 16 MB. The outputs do not depend on it.
   */
  jobs?: number | 'auto';
  /** Module files of `plugins` (default export: the plugin), so worker threads can load them; without, plugins parse inline. */
  pluginFiles?: readonly string[];
  /** Parent of the private temp folder (default os.tmpdir(), which honours TMPDIR). */
  tmpRoot?: string;
  /** Abort (Ctrl-C): the run stops, partial outputs and the temp folder are removed. */
  signal?: AbortSignal;
  /** false: no timeline.sqlite, report.html or timeline.timesketch.jsonl (`--no-reports`). */
  reports?: boolean;
  /** Folders of the user's own rules beside the built-in ones (`--rules`). */
  rules?: string[];
  /** false: no findings.jsonl (`--no-findings`). */
  findings?: boolean;
}

/** Progress and problems as the analysis runs; the CLI prints them on stderr. */
export interface AnalyzeEvents {
  phase?(name: string, total: number): void;
  tick?(done: number): void;
  /** Rows parsed so far (every 50,000 rows while parsing). */
  rows?(count: number): void;
  warn?(message: string): void;
}

/** What {@link analyze} returns. */
export interface AnalyzeResult {
  out: string;
  files: OutputPaths;
  summary: SummaryEntry[];
  integrityOk: boolean;
  /** Members not parsed because they failed the integrity check (or are not in their manifest). */
  failedMembers: number;
  rows: number;
  duplicates: number;
  sessions: number;
  warnings: number;
  /** Findings per rule id (findings.jsonl); empty when findings are off. */
  findings: Record<string, number>;
  /** Agents with collected files and no timeline row (catalog-only agents among them): inventory.json has their counts. */
  unparsed: UnparsedEntry[];
}


async function openInput(path: string): Promise<CollectionSource> {
  let st: Awaited<ReturnType<typeof stat>>;
  try {
    st = await stat(path);
  } catch {
    throw new AnalyzeError(`expected an aitrail collection (a .zip or an unpacked folder), found nothing at ${path}; check the path`);
  }
  try {
    return st.isDirectory() ? await openDirectorySource(path) : await openZipSource(path);
  } catch (e) {
    throw new AnalyzeError((e as Error).message);
  }
}

/** Analyze collections into timeline, sessions, inventory and duplicates files. */
export async function analyze(opts: AnalyzeOptions, ev: AnalyzeEvents = {}): Promise<AnalyzeResult> {
  if (opts.inputs.length === 0) throw new AnalyzeError('expected at least one input (a collection .zip or folder), found none; run `aitrail analyze collection.zip`');
  const out = resolve(opts.out);
  const outStat = await stat(out).catch(() => null);
  if (outStat && !outStat.isDirectory()) throw new AnalyzeError(`expected --out to be a directory (or a path to create), found a file at ${out}; choose another --out`);
  const check = () => {
    if (opts.signal?.aborted) throw new AnalyzeError(`interrupted (${String((opts.signal.reason as Error)?.message ?? opts.signal.reason)}); outputs already in ${out} were left as they were, temporary files removed`);
  };
  // Rules first: a rule that does not parse stops the run before any work.
  let rules: Rule[] = [];
  try {
    if (opts.findings !== false) rules = await loadRules(opts.rules ?? []);
  } catch (e) {
    if (e instanceof RuleError) throw new AnalyzeError(`expected rules that parse, found a problem: ${e.message}`);
    throw e;
  }
  const plugins = [...builtInPlugins, ...(opts.plugins ?? [])];
  const parsers: Parser[] = plugins.flatMap((p) => p.parsers);
  const syncAgents = new Set(parsers.filter((p) => p.recordsSync).map((p) => p.agent));
  const tmp = await mkdtemp(join(opts.tmpRoot ?? tmpdir(), 'aitrail-analyze-'));
  const sources: CollectionSource[] = [];
  try {
    // 1. Open every input; two inputs of one host are kept apart by a suffix.
    const inputs: Input[] = [];
    const used = new Set<string>();
    for (const path of opts.inputs) {
      const src = await openInput(path);
      sources.push(src);
      if (src.info.complete !== true) src.problems.push('collection.json does not say complete: true (the collection did not finish); what is there is analyzed');
      const recorded = String(src.info.host || 'unknown-host');
      let host = recorded;
      for (let n = 2; used.has(host); n++) host = `${recorded}#${n}`;
      used.add(host);
      if (host !== recorded) ev.warn?.(`${path}: host ${recorded} is also the host of an earlier input; its rows say host ${host} to keep the two apart`);
      inputs.push({ index: inputs.length, src, host });
      for (const p of src.problems) ev.warn?.(`${path}: ${p}`);
      // A salvaged collection is evidence with parts missing: said once here, the details in inventory.json.
      const from = src.info.imported_from as { collector?: unknown; metadata?: unknown } | undefined;
      // `metadata` is set when its collection.json or manifest.jsonl survived (aitrail-cut.ts).
      if (from?.collector === 'aitrail' && from.metadata) {
        ev.warn?.(`${path}: made by aitrail import from an aitrail collection damaged after its manifest: its files with the paths, hashes and times that manifest recorded, each hash checked (inventory.json collections[].imported_from.notes)`);
      } else if (from?.collector === 'aitrail') {
        ev.warn?.(`${path}: made by aitrail import from an aitrail collection cut short: only the members before the cut are here (the one it fell in, in part), without the hashes, times and home paths its lost collection.json and manifest held (inventory.json collections[].imported_from.notes)`);
      }
    }

    // 2. Parse every member, hashing it from the same read (plan.ts, job.ts). A unit that used
    // another member that then failed its check (a sibling, a SQLite sidecar) saw what it should
    // not have: the parse is done again knowing the failures, as if they had been known first.
    const limits = credentialLimits();
    const dedupOn = opts.dedup !== false;
    let parse = await parseAll(planParse(inputs, parsers, null, dedupOn), inputs, opts, tmp, limits, ev, check, 'run-1');
    const integrity = inputs.map((input) => {
      const r = assembleIntegrity(input.src, (n) => parse.reads.get(`${input.index}\0${n}`), limits);
      // A manifest that could not be read whole cannot vouch for every member.
      if (input.src.problems.length > 0) r.ok = false;
      return r;
    });
    for (const [i, input] of inputs.entries()) {
      const r = integrity[i];
      // Each line names its member, so the list --strict points at says which files failed.
      for (const p of [...r.mismatched, ...r.missing, ...r.unreadable]) ev.warn?.(`${input.src.label}: ${p.problem} ${p.archive_path}: ${p.detail}; not parsed`);
      for (const p of r.extra) ev.warn?.(`${input.src.label}: extra: ${p.detail}`);
      const notice = credentialNotice(r.credentials);
      if (notice) ev.warn?.(`${input.src.label}: ${notice}`);
    }
    // Each zip's own hash, read beside the parse. A sidecar that names another hash means the zip
    // changed since it was written: its members may still match a manifest that changed with them.
    const archives = await Promise.all(inputs.map((input) => input.src.archive));
    let badSidecars = 0;
    for (const [i, a] of archives.entries()) {
      if (!a) continue;
      const label = inputs[i].src.label;
      if ('error' in a) ev.warn?.(`${label}: ${a.error}`);
      else if (a.sidecar === 'mismatch' || a.sidecar === 'unreadable') {
        badSidecars++;
        integrity[i].ok = false;
        ev.warn?.(
          a.sidecar === 'mismatch'
            ? `${label}: expected the SHA-256 its sidecar ${label}.sha256 names (${a.sidecar_sha256}), found ${a.sha256}: the archive changed after it was collected, and its collection.json and manifest may have changed with it; compare with the hash recorded when it was collected`
            : `${label}: expected ${label}.sha256 to be a sha256sum line, found something else; the archive's SHA-256 is ${a.sha256}`,
        );
      }
    }
    const intact = integrity.every((r) => r.ok);
    if (opts.strict && !intact) {
      const bad = integrity.reduce((n, r) => n + r.mismatched.length + r.missing.length + r.extra.length + r.unreadable.length, 0) + inputs.reduce((n, i) => n + i.src.problems.length, 0) + badSidecars;
      throw new AnalyzeError(`--strict: expected every member to match the manifest and every archive its sidecar, found ${bad} ${bad === 1 ? 'problem' : 'problems'} (listed above, each with its member or archive); no output was written. Re-collect, or run without --strict to analyze what is intact`);
    }
    const failedMember = (input: number, name: string) => integrity[input].failed.has(name);
    const sawFailed = [...parse.outcomes.values()].some((o) => o.observed.some((n) => failedMember(parse.plan.units[o.index].input.index, n)));
    if (sawFailed) {
      await parse.store.discard();
      parse = await parseAll(planParse(inputs, parsers, integrity.map((r) => r.failed), dedupOn), inputs, opts, tmp, limits, ev, check, 'run-2');
    }
    const { plan, outcomes, store } = parse;

    // 3. What the parse told, applied in plan order whatever order the jobs ran in.
    const inv = new InventoryBuilder();
    const roots = (agent: string) => opts.catalogRoots?.get(agent);
    for (const [i, input] of inputs.entries()) {
      inv.addManifest(input.host, input.src.manifest, roots, sessionFileMatcher(opts.sessionFiles, input.src.info.layout ?? input.src.info.os?.platform));
      inv.addCredentialFindings(input.host, integrity[i].credentials);
      for (const { row, reason } of parseableRows(input.src, integrity[i].failed).refused) inv.agent(input.host, row.user, row.agent).not_parsed.push({ file: row.archive_path, reason });
      for (const g of givenUpStores(input.src, parsers)) inv.agent(input.host, g.row.user, g.agent).not_parsed.push({ file: g.row.source_path, reason: g.reason });
    }
    const facts = new FactStore();
    const records: DedupRecord[] = [];
    const skipped = new Set<number>();
    const parsedArtifacts = new Set<string>();
    for (const u of plan.ordered) {
      if (failedMember(u.input.index, u.row.archive_path)) {
        skipped.add(u.index);
        continue;
      }
      const key = `${u.input.index}\0${u.agent}\0${u.row.archive_path}`;
      if (!parsedArtifacts.has(key)) {
        parsedArtifacts.add(key);
        inv.agent(u.input.host, u.row.user, u.agent).parsed_artifacts++;
      }
      const o = outcomes.get(u.index)!;
      const ctx = unitContext(u, facts, inv, opts) as unknown as Record<string, (...a: unknown[]) => void>;
      for (const [method, args] of o.calls) ctx[method](...args);
      const file = `${u.input.index}\0${u.row.archive_path}`;
      for (const [ord, key, session, time, repeat] of o.records) {
        const rec: DedupRecord = { ord, key, session, time, file, secondary: u.secondary, toleranceSeconds: u.tolerance };
        if (repeat) rec.repeat = true;
        records.push(rec);
      }
    }
    outcomes.clear();

    // 4. Dedup over the secondary rows and the primaries sharing their keys.
    ev.phase?.('deduplicating', records.length);
    const drops = dedupRows(records, { enabled: dedupOn });
    records.length = 0;

    // 5. Merge, fill from facts, write.
    await mkdir(out, { recursive: true });
    const collections: CollectionEntry[] = inputs.map((input, i) => ({
      input: input.src.label,
      host: input.host,
      host_recorded: String(input.src.info.host ?? ''),
      os: input.src.info.os ?? null,
      started_utc: input.src.info.started_utc ?? '',
      ended_utc: input.src.info.ended_utc ?? '',
      tool_version: input.src.info.tool?.version ?? '',
      catalog: input.src.info.catalog ?? [],
      complete: input.src.info.complete === true,
      manifest_problems: input.src.problems,
      ...(input.src.info.imported_from ? { imported_from: input.src.info.imported_from } : {}),
      integrity: { ok: integrity[i].ok, checked: integrity[i].checked, mismatched: integrity[i].mismatched, missing: integrity[i].missing, extra: integrity[i].extra, unreadable: integrity[i].unreadable },
      ...(archives[i] ? { archive: archives[i] } : {}),
    }));
    ev.phase?.('writing', store.rows);
    const groups = sinkGroups({ out, tmp, findings: opts.findings !== false, ruleDirs: opts.rules ?? [], reports: opts.reports !== false });
    // Where the parse had threads, or the rows are many, the sinks get threads of their own
    // (report/sink-threads.ts): one event log of ten million rows parses on one thread but feeds
    // the sinks gigabytes. A small input runs them in-process, where starting threads would cost
    // more than they save; `--jobs 1` keeps everything on one thread.
    const sinkThreads = groups.length > 0 && (parse.threaded || (maxThreads(opts.jobs) > 1 && store.rows >= SINK_THREAD_ROWS));
    const feeds = sinkThreads ? groups.map((g) => new SinkThread(g)) : [];
    const inline = sinkThreads ? undefined : buildSinks(groups.flat(), rules);
    let written: Awaited<ReturnType<typeof writeOutputs>>;
    try {
      written = await writeOutputs({ out, store, identities: plan.identities, skipped, drops, facts, inv, collections, syncAgents, options: { include_thinking: !!opts.includeThinking, dedup: dedupOn, strict: !!opts.strict, plugins: (opts.plugins ?? []).map((p) => p.agent) }, onRow: (n) => ev.tick?.(n), check, sinks: inline?.sinks, feeds, tmp, heldChars: opts.runLimits?.memoryBytes === 0 ? 0 : undefined });
      // Only now, every output complete, are they put in place, together (atomic.ts).
      await publishOutputs(out, OUTPUT_FILES);
    } catch (e) {
      await discardStaged(out, OUTPUT_FILES);
      throw e;
    }
    if (opts.reports === false) await removeStale(out, REPORT_FILES);
    if (opts.findings === false) await removeStale(out, ['findings.jsonl']);
    const counts = inline ? inline.findings?.counts : feeds.find((f) => f.findings)?.findings;
    return { out, files: written.files, summary: buildSummary(written.sessions, written.kept), integrityOk: intact, failedMembers: integrity.reduce((n, r) => n + r.failed.size + r.extra.length, 0), rows: written.rows, duplicates: written.duplicates, sessions: written.sessions.length, warnings: written.warnings, findings: Object.fromEntries(counts ?? []), unparsed: written.unparsed };
  } finally {
    for (const s of sources) await s.close().catch(() => {});
    await rm(tmp, { recursive: true, force: true });
  }
}

/**
 * The ParseContext a unit's recorded calls are replayed on (job.ts RECORDED_CALLS): facts go to
 * the session's scope, warnings to inventory.json under the unit's home and agent.
 */
function unitContext(u: Unit, facts: FactStore, inv: InventoryBuilder, opts: AnalyzeOptions): ParseContext {
  const { host, user, agent, file } = unitIdentity(u);
  const parserName = `${u.parser.agent}/${u.parser.name}`;
  return {
    options: { includeThinking: !!opts.includeThinking },
    fact: (f) => facts.report(sessionKey(host, user, agent, f.session_id), f),
    // A third argument is the count the recorder folded into one call (job.ts callRecorder).
    warn: (message, line, times?: unknown) => inv.warn(host, user, agent, { file, line: line ?? null, parser: parserName, message: String(message) }, typeof times === 'number' ? times : 1),
    unknown: (kind, line, times?: unknown) => inv.unknown(host, user, agent, parserName, file, String(kind), typeof line === 'number' ? line : null, typeof times === 'number' ? times : 1),
    mcp: (server) => {
      if (server && typeof server === 'object') inv.mcp(host, user, agent, file, server);
    },
  };
}

/** One parse of every planned job: the rows in `store`, each unit's outcome, each member's read. */
interface ParseRun {
  plan: ParsePlan;
  store: RecordStore;
  outcomes: Map<number, UnitOutcome>;
  reads: Map<string, MemberRead>;
  /** The parse ran on worker threads (a large enough input and `--jobs` above 1). */
  threaded: boolean;
}

async function parseAll(plan: ParsePlan, inputs: Input[], opts: AnalyzeOptions, tmp: string, limits: CredentialScanLimits | null, ev: AnalyzeEvents, check: () => void, name: string): Promise<ParseRun> {
  const dir = join(tmp, name);
  await mkdir(dir);
  // The collected bytes parsed: runs stay as they are up to a few times this, then are deflated.
  const inputBytes = [...plan.first, ...plan.second].reduce((n, j) => n + (j.row.bytes_read ?? j.row.size ?? 0), 0);
  const store = new RecordStore(dir, opts.runLimits ?? DEFAULT_RUN_LIMITS, inputBytes);
  const outcomes = new Map<number, UnitOutcome>();
  const reads = new Map<string, MemberRead>();
  const setup: JobSetup = {
    inputs: plan.indexes.map((rows, i) => ({ index: i, path: opts.inputs[i], rows, sidecars: plan.sidecars[i] })),
    includeThinking: !!opts.includeThinking,
    dedup: opts.dedup !== false,
    tmp,
    maxFindings: limits?.maxPerFile ?? null,
    pluginFiles: [...(opts.pluginFiles ?? [])],
    chunkBytes: opts.runLimits?.chunkBytes,
  };
  const total = plan.first.length + plan.second.length;
  const wanted = opts.jobs === 'auto' ? Math.min(maxThreads('auto'), Math.ceil(inputBytes / AUTO_BYTES_PER_THREAD)) : maxThreads(opts.jobs);
  const workers = Math.min(total, Math.max(1, Math.floor(wanted)));
  // Plugins reach a worker thread by module file only; without their files they parse inline.
  const inline = workers <= 1 || (opts.plugins ?? []).length > (opts.pluginFiles ?? []).length;
  // Inline, the inputs already open are read (and closed by analyze, not by the pool).
  const opened = new Map(inputs.map((i) => [opts.inputs[i.index], i.src]));
  const access = async (path: string): Promise<MemberAccess> => {
    const src = opened.get(path)!;
    return { openMember: (n) => src.openMember(n), materialize: (n, d) => src.materialize(n, d), close: async () => {} };
  };
  const pool: ParsePool = inline ? new InlinePool(new JobEnv(setup, [...builtInPlugins, ...(opts.plugins ?? [])].flatMap((p) => p.parsers), access, check)) : await WorkerPool.start(workers, setup, check, opts.signal);
  ev.phase?.('parsing', total);
  let done = 0;
  let nextRows = 50_000;
  const onChunk = async (chunk: Buffer, n: number) => {
    await store.add(chunk, n);
    if (store.rows >= nextRows) {
      ev.rows?.(store.rows);
      nextRows = (Math.floor(store.rows / 50_000) + 1) * 50_000;
    }
  };
  const onDone = (o: JobOutcome) => {
    const job = jobsById.get(o.id)!;
    if (o.read) reads.set(`${job.input}\0${job.row.archive_path}`, o.read);
    for (const u of o.units) outcomes.set(u.index, u);
    ev.tick?.(++done);
  };
  const jobsById = new Map([...plan.first, ...plan.second].map((j) => [j.id, j]));
  try {
    await pool.run(plan.first, onChunk, onDone);
    const keys = secondaryKeys(plan, outcomes, reads);
    if (plan.second.length > 0) {
      pool.setKeys(keys);
      await pool.run(plan.second, onChunk, onDone);
    }
  } catch (e) {
    if (pool instanceof WorkerPool) await pool.terminate();
    throw e;
  } finally {
    await pool.close();
  }
  return { plan, store, outcomes, reads, threaded: !inline };
}

