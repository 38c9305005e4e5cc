import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type AgentPlugin, builtInPlugins, type ParseContext, type Parser, type Row } from '@aitrail/parsers';
import { givenUpStores, type Input, makeArtifact, parseableRows, planUnits, type Unit } from './artifacts.js';
import { type DedupRecord, dedupRows } from './dedup.js';
import { FactStore, sessionKey } from './facts.js';
import { PrefixIndex } from './prefix-keys.js';
import { checkIntegrity, credentialNotice, type IntegrityResult } from './integrity.js';
import { type CollectionEntry, InventoryBuilder } from './inventory.js';
import { writeOutputs, type OutputPaths } from './outputs.js';
import { DEFAULT_RUN_LIMITS, type RunLimits, RunSpiller, type TimelineRow } from './runs.js';
import { openDirectorySource, type CollectionSource } from './source.js';
import { buildSummary, type SummaryEntry } from './summary.js';
import { openZipSource } from './zip-source.js';

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
  runLimits?: RunLimits;
  /** Parent of the private temp folder (default os.tmpdir(), which honours TMPDIR). */
  tmpRoot?: string;
  /** Abort (Ctrl-C): the run stops, partial outputs and the temp folder are removed. */
  signal?: AbortSignal;
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
  rows: number;
  duplicates: number;
  sessions: number;
  warnings: number;
}

/** A user mistake or a refused input: the CLI prints the message, without a stack trace. */
export class AnalyzeError extends Error {}

/** Rows per artifact in the global order key (ord = artifact index * this + row index). */
const ORD_STRIDE = 1e9;
const TS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const TURN_TYPES = new Set<Row['turn_type']>(['system', 'user', 'assistant', 'thinking', 'tool_use', 'tool_result']);

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
    }

    // 2. Integrity: every member once, against the manifest.
    const integrity: IntegrityResult[] = [];
    for (const input of inputs) {
      ev.phase?.(`verifying ${input.src.label}`, input.src.manifest.length);
      const r = await checkIntegrity(input.src, (d) => {
        check();
        ev.tick?.(d);
      });
      // A manifest that could not be read whole cannot vouch for every member.
      if (input.src.problems.length > 0) r.ok = false;
      integrity.push(r);
      // Each line names its member, so the list --strict points at says which files failed.
      for (const p of [...r.mismatched, ...r.missing, ...r.unreadable]) ev.warn?.(`${input.src.label}: ${p.problem} ${p.archive_path}: ${p.detail}; not parsed`);
      for (const p of r.extra) ev.warn?.(`${input.src.label}: extra: ${p.detail}`);
      const notice = credentialNotice(r.credentials);
      if (notice) ev.warn?.(`${input.src.label}: ${notice}`);
    }
    const intact = integrity.every((r) => r.ok);
    if (opts.strict && !intact) {
      const bad = integrity.reduce((n, r) => n + r.mismatched.length + r.missing.length + r.extra.length + r.unreadable.length, 0) + inputs.reduce((n, i) => n + i.src.problems.length, 0);
      throw new AnalyzeError(`--strict: expected every member to match the manifest, found ${bad} ${bad === 1 ? 'problem' : 'problems'} (listed above, each with its member); no output was written. Re-collect, or run without --strict to analyze what is intact`);
    }

    // 3. Plan (artifact, parser) units; secondary ones run first so their keys are known.
    const inv = new InventoryBuilder();
    const roots = (agent: string) => opts.catalogRoots?.get(agent);
    const offered = inputs.map((input, i) => {
      inv.addManifest(input.host, input.src.manifest, roots);
      inv.addCredentialFindings(input.host, integrity[i].credentials);
      const { rows, refused } = parseableRows(input.src, integrity[i].failed);
      for (const { row, reason } of refused) inv.agent(input.host, row.user, row.agent).not_parsed.push({ file: row.archive_path, reason });
      for (const g of givenUpStores(input.src, parsers)) inv.agent(input.host, g.row.user, g.agent).not_parsed.push({ file: g.row.source_path, reason: g.reason });
      return { input, rows };
    });
    const units = planUnits(offered, parsers);
    // Siblings are looked up among the non-secret members only; a database's own sidecars among all.
    const indexes = offered.map(({ rows }) => new Map(rows.filter((r) => !r.secret).map((r) => [r.archive_path, r])));
    const allPaths = offered.map(({ rows }) => new Set(rows.map((r) => r.archive_path)));
    const facts = new FactStore();
    const spiller = new RunSpiller(tmp, opts.runLimits ?? DEFAULT_RUN_LIMITS);
    const records: DedupRecord[] = [];
    const secondaryKeys = new Set<string>();
    const secondaryShapes = new Set<string>();
    const prefixes = new PrefixIndex();
    const dedupOn = opts.dedup !== false;
    const parsedArtifacts = new Set<string>();
    const ordered = [...units.filter((u) => u.secondary), ...units.filter((u) => !u.secondary)];
    ev.phase?.('parsing', ordered.length);
    let done = 0;
    for (const u of ordered) {
      const key = `${u.input.index}\0${u.agent}\0${u.row.archive_path}`;
      if (!parsedArtifacts.has(key)) {
        parsedArtifacts.add(key);
        inv.agent(u.input.host, u.row.user, u.agent).parsed_artifacts++;
      }
      check();
      await runUnit(u, indexes[u.input.index], allPaths[u.input.index], tmp, opts, facts, inv, (row) => {
        check();
        const full = spiller.add(row);
        if (spiller.rows % 50_000 === 0) ev.rows?.(spiller.rows);
        if (dedupOn) {
          const rec = (key: string): DedupRecord => ({ ord: row.ord, key, session: row.session_id, time: row.timestamp_utc === '' ? null : Date.parse(row.timestamp_utc), file: `${u.input.index}\0${row.source_file}`, secondary: u.secondary, toleranceSeconds: u.tolerance, ...(u.secondary && row.tag === 'repeat' ? { repeat: true } : {}) });
          // A cut copy (tag truncated) is keyed by the text before its marker; a primary row that
          // begins with such a prefix gets that key too (docs/formats.md, the prefix rule).
          const cutKey = u.secondary && row.tag === 'truncated' ? prefixes.add(row.host, row.user, row.agent, row.turn_type, row.text) : undefined;
          if (cutKey !== undefined) {
            records.push(rec(cutKey));
            return full ? spiller.spill() : undefined;
          }
          if (!u.secondary) for (const k of prefixes.match(row.host, row.user, row.agent, row.turn_type, row.text)) records.push(rec(k));
          // Hash a primary row's key only when a secondary row has the same turn type and length.
          const shape = `${row.turn_type}\0${row.text.length}`;
          if (u.secondary || secondaryShapes.has(shape)) {
            const k = createHash('sha1').update(JSON.stringify([row.host, row.user, row.agent, row.turn_type, row.text])).digest('base64');
            if (u.secondary) {
              secondaryKeys.add(k);
              secondaryShapes.add(shape);
            }
            if (u.secondary || secondaryKeys.has(k)) records.push(rec(k));
          }
        }
        return full ? spiller.spill() : undefined;
      });

      ev.tick?.(++done);
    }
    await spiller.spill();

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
      integrity: { ok: integrity[i].ok, checked: integrity[i].checked, mismatched: integrity[i].mismatched, missing: integrity[i].missing, extra: integrity[i].extra, unreadable: integrity[i].unreadable },
    }));
    ev.phase?.('writing', spiller.rows);
    const written = await writeOutputs({ out, tmp, runs: spiller.runs, drops, facts, inv, collections, syncAgents, options: { include_thinking: !!opts.includeThinking, dedup: dedupOn, strict: !!opts.strict, plugins: (opts.plugins ?? []).map((p) => p.agent) }, onRow: (n) => ev.tick?.(n), check });
    return { out, files: written.files, summary: buildSummary(written.sessions, written.kept), integrityOk: intact, rows: written.rows, duplicates: written.duplicates, sessions: written.sessions.length, warnings: written.warnings };
  } finally {
    for (const s of sources) await s.close().catch(() => {});
    await rm(tmp, { recursive: true, force: true });
  }
}

/** Run one parser over one artifact; a parser that throws becomes a warning and a system row. */
async function runUnit(u: Unit, index: Map<string, import('@aitrail/collector').ManifestRow>, sidecars: Set<string>, tmp: string, opts: AnalyzeOptions, facts: FactStore, inv: InventoryBuilder, emit: (r: TimelineRow) => Promise<void> | undefined): Promise<void> {
  const { host } = u.input;
  const { user, archive_path: file } = u.row;
  // A file two agents claim is read by each; its rows are the claiming agent's.
  const agent = u.agent;
  const parserName = `${u.parser.agent}/${u.parser.name}`;
  const ctx: ParseContext = {
    options: { includeThinking: !!opts.includeThinking },
    fact: (f) => facts.report(sessionKey(host, user, agent, f.session_id), f),
    warn: (message, line) => inv.warn(host, user, agent, { file, line: line ?? null, parser: parserName, message: String(message) }),
    unknown: (kind, line) => inv.unknown(host, user, agent, parserName, file, String(kind), typeof line === 'number' ? line : null),
    mcp: (server) => {
      if (server && typeof server === 'object') inv.mcp(host, user, agent, file, server);
    },
  };
  let i = 0;
  const base = u.index * ORD_STRIDE;
  const enrich = (r: Row): TimelineRow => {
    let ts = typeof r.timestamp_utc === 'string' ? r.timestamp_utc : '';
    if (ts !== '' && !TS.test(ts)) {
      const t = Date.parse(ts);
      if (Number.isFinite(t)) ts = new Date(t).toISOString();
      else {
        ctx.warn(`timestamp ${JSON.stringify(ts)} is not a date; the row is kept undated`, r.source_line ?? undefined);
        ts = '';
      }
    }
    let turn = r.turn_type;
    if (!TURN_TYPES.has(turn)) {
      ctx.warn(`turn_type ${JSON.stringify(turn)} is not one of ${[...TURN_TYPES].join(', ')}; the row is kept as system`, r.source_line ?? undefined);
      turn = 'system';
    }
    const row: TimelineRow = {
      timestamp_utc: ts,
      host,
      user,
      agent,
      session_id: str(r.session_id),
      project_path: str(r.project_path),
      git_branch: str(r.git_branch),
      model: str(r.model),
      turn_type: turn,
      tool_name: str(r.tool_name),
      tool_use_id: str(r.tool_use_id),
      text: str(r.text),
      source_file: file,
      source_line: typeof r.source_line === 'number' ? r.source_line : null,
      ord: base + i++,
    };
    if (r.tag) row.tag = r.tag;
    if (u.secondary) row.sec = true;
    return row;
  };
  try {
    const artifact = makeArtifact(u.input, u.row, index, tmp, sidecars);
    for await (const r of u.parser.parse(artifact, ctx)) {
      const p = emit(enrich(r));
      if (p) await p;
    }
  } catch (e) {
    if (e instanceof AnalyzeError) throw e; // an interrupt, not the parser's fault
    // A parser bug, not bad data: say so, keep going.
    const msg = `parser ${parserName} failed on ${file}: ${(e as Error)?.message ?? String(e)}`;
    ctx.warn(msg);
    const p = emit(enrich({ timestamp_utc: '', session_id: '', project_path: '', git_branch: '', model: '', turn_type: 'system', tool_name: '', tool_use_id: '', text: msg, source_line: null, tag: 'parser_error' }));
    if (p) await p;
  }
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v);
}
