import { createHash } from 'node:crypto';
import type { ManifestRow } from '@aitrail/collector';
import type { ParseContext, Parser, Row } from '@aitrail/parsers';
import { makeArtifact } from './artifacts.js';
import { AnalyzeError } from './errors.js';
import { MemberDigest, type MemberRead } from './integrity.js';
import { PrefixIndex, type PrefixState, prefixKey, truncatedPrefix } from './prefix-keys.js';
import { RecordWriter, unitText } from './record.js';
import type { TimelineRow } from './row.js';
import type { MemberAccess } from './source.js';

/*
 * A parse job: one member of one input, read once. The read feeds the integrity digest
 * (SHA-256, size, credential scan) and the first of the member's parsers that streams it; every
 * row is checked, keyed for dedup and serialized into records here, where it was parsed. The
 * job runs on a worker thread (parse-worker.ts) or inline, the same code either way: what it
 * tells the analyzer (ParseContext calls, dedup records) comes back with its outcome and is
 * applied in a fixed order whatever thread or order the jobs ran in.
 */

/** Rows per artifact in the global order key (ord = unit index * this + row index). */
export const ORD_STRIDE = 1e9;
const TS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const TURN_TYPES = new Set<Row['turn_type']>(['system', 'user', 'assistant', 'thinking', 'tool_use', 'tool_result']);

/**
 * The ParseContext methods a job records and the analyzer replays, in order, on its own
 * {@link ParseContext} (analyze.ts `unitContext`). A method added to the SDK's ParseContext is
 * added here and there.
 */
export const RECORDED_CALLS = ['fact', 'warn', 'unknown', 'mcp'] as const;

/** One recorded ParseContext call: the method and its arguments. */
export type RecordedCall = [(typeof RECORDED_CALLS)[number], unknown[]];

/** What every job of a run shares (sent once to each worker thread). */
export interface JobSetup {
  /** Per input: its path, the members parsers may see as siblings, every parseable member (SQLite sidecars). */
  inputs: { index: number; path: string; rows: ManifestRow[]; sidecars: string[] }[];
  includeThinking: boolean;
  dedup: boolean;
  /** The private temp folder (SQLite files are materialized under it). */
  tmp: string;
  /** Findings kept per member by the credential scan (null: no scan). */
  maxFindings: number | null;
  /** Plugin module files whose default export adds parsers after the built-in ones. */
  pluginFiles: string[];
  /** Bytes of records per chunk sent (default record.ts CHUNK_BYTES). */
  chunkBytes?: number;
}

/** One (artifact, parser) pair of a job. */
export interface JobUnit {
  /** Index in the analysis's unit plan: the artifact part of the global order. */
  index: number;
  /** Index of the parser in (built-in parsers, then plugins' parsers) order. */
  parser: number;
  secondary: boolean;
  tolerance: number;
  /** Who the rows belong to, as the timeline says it. */
  host: string;
  user: string;
  agent: string;
}

/** One member of one input: hashed (when `hash`) and parsed by `units`, in order. */
export interface Job {
  id: number;
  input: number;
  row: ManifestRow;
  hash: boolean;
  /** Feed the credential scan (a collected file that is not secret). */
  scan: boolean;
  units: JobUnit[];
}

/** The bytes of a job's member (as read, else as listed): what orders jobs, largest first. */
export const jobBytes = (j: Job): number => j.row.bytes_read ?? j.row.size ?? 0;

/** A dedup record as a job sends it: [ord, key, session, time, repeat]. */
export type WireRecord = [number, string, string, number | null, 0 | 1];

/**
 * A secondary row tagged `truncated` with a prefix (prefix-keys.ts): its record, at `record` in
 * the unit's records, carries the prefix key. Whether that key is taken depends on the rows of
 * every secondary unit before it ({@link PrefixIndex.accept}), so the analyzer decides, in plan
 * order; when it is not, the record takes the row's exact key and its shape instead.
 */
export type WireCut = [record: number, turn: string, length: number, exactKey: string, shape: string];

/** What the secondary phase tells the primary one: exact keys, their (turn type, text length) shapes, the prefix index. */
export interface SecondaryKeys {
  keys: string[];
  shapes: string[];
  prefixes: PrefixState;
}

/** What one unit left for the analyzer. */
export interface UnitOutcome {
  index: number;
  rows: number;
  calls: RecordedCall[];
  records: WireRecord[];
  /** A secondary unit's dedup keys and (turn type, text length) shapes (its cut rows' aside). */
  keys: string[];
  shapes: string[];
  /** A secondary unit's truncated rows, in row order. */
  cuts: WireCut[];
  /** Other members the parser used (siblings, SQLite sidecars): their integrity matters too. */
  observed: string[];
}

/** What a job returns. */
export interface JobOutcome {
  id: number;
  /** The member's digest, when the job hashed it. */
  read?: MemberRead;
  units: UnitOutcome[];
}

/** Where a job's record chunks go; the promise is the back pressure. */
export type ChunkSink = (chunk: Buffer, records: number) => Promise<void> | void;

/** A parse environment: the setup opened (parsers loaded, inputs opened on demand). */
export class JobEnv {
  private readonly access = new Map<number, Promise<MemberAccess>>();
  private readonly indexes = new Map<number, Map<string, ManifestRow>>();
  private readonly sidecarSets = new Map<number, Set<string>>();
  /** Keys, shapes and prefixes of the secondary rows, for the primary phase. */
  keys = new Set<string>();
  shapes = new Set<string>();
  prefixes = new PrefixIndex();

  /** Take what the secondary phase found. */
  setKeys(k: SecondaryKeys): void {
    this.keys = new Set(k.keys);
    this.shapes = new Set(k.shapes);
    this.prefixes = PrefixIndex.from(k.prefixes);
  }

  constructor(
    readonly setup: JobSetup,
    readonly parsers: readonly Parser[],
    private readonly open: (path: string) => Promise<MemberAccess>,
    /** Throws to stop (an interrupt), called on every row. */
    readonly check: () => void = () => {},
  ) {}

  /** Member access of an input, opened once. */
  accessOf(input: number): Promise<MemberAccess> {
    let a = this.access.get(input);
    if (!a) {
      a = this.open(this.setup.inputs[input].path);
      this.access.set(input, a);
    }
    return a;
  }

  /** The input's parseable members by archive path (siblings are looked up there). */
  indexOf(input: number): Map<string, ManifestRow> {
    let m = this.indexes.get(input);
    if (!m) {
      m = new Map(this.setup.inputs[input].rows.map((r) => [r.archive_path, r]));
      this.indexes.set(input, m);
    }
    return m;
  }

  /** Every parseable member of the input, secret ones too: a database's own sidecars. */
  sidecarsOf(input: number): Set<string> {
    let m = this.sidecarSets.get(input);
    if (!m) {
      m = new Set(this.setup.inputs[input].sidecars);
      this.sidecarSets.set(input, m);
    }
    return m;
  }

  async close(): Promise<void> {
    for (const a of this.access.values()) await (await a.catch(() => null))?.close().catch(() => {});
    this.access.clear();
  }
}

/**
 * The first read of a member, shared: the first parser that streams it reads through the tap,
 * which feeds the digest; whatever it leaves unread is drained into the digest at the end.
 */
class Tap {
  started = false;
  private it: AsyncIterator<Buffer> | null = null;
  private done = false;

  constructor(
    private readonly open: () => AsyncIterable<Buffer>,
    private readonly digest: MemberDigest,
  ) {}

  async *stream(): AsyncGenerator<Buffer> {
    this.started = true;
    this.it = this.open()[Symbol.asyncIterator]();
    for (;;) {
      let r: IteratorResult<Buffer>;
      try {
        r = await this.it.next();
      } catch (e) {
        this.digest.fail(e);
        this.done = true;
        throw e;
      }
      if (r.done) {
        this.done = true;
        return;
      }
      this.digest.take(r.value);
      yield r.value;
    }
  }

  async finish(): Promise<MemberRead> {
    if (!this.done) {
      this.it ??= this.open()[Symbol.asyncIterator]();
      try {
        for (let r = await this.it.next(); !r.done; r = await this.it.next()) this.digest.take(r.value);
      } catch (e) {
        this.digest.fail(e);
      }
    }
    return this.digest.finish();
  }
}

/** Warnings of one unit kept call by call; past this many only their count (inventory.json keeps fewer per agent). */
export const MAX_RECORDED_WARNINGS = 1000;

/**
 * Records a unit's ParseContext calls for the replay, bounded for a file of millions of records:
 * an unknown kind is one call with its first line and a count (args[2]), and warnings past
 * {@link MAX_RECORDED_WARNINGS} one call counting the rest. The replay gives the same inventory.
 */
export function callRecorder(calls: RecordedCall[]): (m: RecordedCall[0], args: unknown[]) => void {
  const unknownKinds = new Map<string, unknown[]>();
  let warns = 0;
  let moreWarnings: unknown[] | null = null;
  return (m, args) => {
    if (m === 'unknown') {
      const kind = String(args[0]);
      const seen = unknownKinds.get(kind);
      if (seen) {
        seen[2] = (seen[2] as number) + 1;
        return;
      }
      const first = [kind, args[1], 1];
      unknownKinds.set(kind, first);
      calls.push(['unknown', first]);
      return;
    }
    if (m === 'warn' && ++warns > MAX_RECORDED_WARNINGS) {
      if (moreWarnings) moreWarnings[2] = (moreWarnings[2] as number) + 1;
      else {
        moreWarnings = [snapshot(args[0]), snapshot(args[1]), 1];
        calls.push(['warn', moreWarnings]);
      }
      return;
    }
    calls.push([m, args.map(snapshot)]);
  };
}

/** A plain object or array copied (a parser may reuse the object it reported); anything else as is. */
function snapshot(v: unknown): unknown {
  if (Array.isArray(v)) return [...v];
  // Object.assign: an object spread costs microseconds on Node 20, and facts come per event.
  if (v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) return Object.assign({}, v);
  return v;
}

/** Run one job: every unit in order, then the member's digest. */
export async function runJob(job: Job, env: JobEnv, sink: ChunkSink): Promise<JobOutcome> {
  const access = await env.accessOf(job.input);
  const name = job.row.archive_path;
  const tap = job.hash ? new Tap(() => access.openMember(name), new MemberDigest(job.scan ? env.setup.maxFindings : null)) : null;
  const pending: [Buffer, number][] = [];
  const writer = new RecordWriter((chunk, n) => pending.push([chunk, n]), env.setup.chunkBytes);
  const ship = async () => {
    while (pending.length > 0) {
      const [chunk, n] = pending.shift()!;
      await sink(chunk, n);
    }
    writer.shipped = false;
  };
  const units: UnitOutcome[] = [];
  for (const ju of job.units) units.push(await runUnit(job, ju, env, access, tap, writer, ship));
  writer.flush();
  await ship();
  writer.release();
  const read = tap ? await tap.finish() : undefined;
  const outcome: JobOutcome = { id: job.id, units };
  if (read) outcome.read = read;
  return outcome;
}

async function runUnit(job: Job, ju: JobUnit, env: JobEnv, access: MemberAccess, tap: Tap | null, writer: RecordWriter, ship: () => Promise<void>): Promise<UnitOutcome> {
  const parser = env.parsers[ju.parser];
  const file = job.row.archive_path;
  const { host, user, agent } = ju;
  const calls: RecordedCall[] = [];
  const ctx = { options: { includeThinking: env.setup.includeThinking } } as ParseContext;
  const record = callRecorder(calls);
  for (const m of RECORDED_CALLS) (ctx as unknown as Record<string, unknown>)[m] = (...args: unknown[]) => record(m, args);
  const out: UnitOutcome = { index: ju.index, rows: 0, calls, records: [], keys: [], shapes: [], cuts: [], observed: [] };
  const observed = new Set<string>();
  const keys = new Set<string>();
  const shapes = new Set<string>();
  const text = unitText(host, user, agent, file);
  const base = ju.index * ORD_STRIDE;
  const dedupOn = env.setup.dedup;

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
      ord: base + out.rows++,
    };
    if (r.tag) row.tag = r.tag;
    if (ju.secondary) row.sec = true;
    return row;
  };

  // Synchronous unless a full chunk has to be handed over: an await per row costs.
  const emit = (r: Row): Promise<void> | undefined => {
    env.check();
    const row = enrich(r);
    if (dedupOn) {
      const rec = (k: string): WireRecord => [row.ord, k, row.session_id, row.timestamp_utc === '' ? null : Date.parse(row.timestamp_utc), ju.secondary && row.tag === 'repeat' ? 1 : 0];
      // A parser's dedup_key stands for the text when its stores word one event differently.
      const keyText = typeof r.dedup_key === 'string' && r.dedup_key !== '' ? r.dedup_key : row.text;
      const exactKey = () => createHash('sha1').update(JSON.stringify([row.host, row.user, row.agent, row.turn_type, keyText])).digest('base64');
      // Hash a primary row's key only when a secondary row has the same turn type and length.
      const shape = `${row.turn_type}\0${keyText.length}`;
      // A cut copy (tag truncated) is keyed by the text before its marker; a primary row that
      // begins with such a prefix gets that key too (docs/formats.md, the prefix rule).
      const prefix = ju.secondary && row.tag === 'truncated' ? truncatedPrefix(row.text) : undefined;
      if (prefix !== undefined) {
        out.cuts.push([out.records.length, row.turn_type, prefix.length, exactKey(), shape]);
        out.records.push(rec(prefixKey(row.host, row.user, row.agent, row.turn_type, prefix)));
      } else {
        if (!ju.secondary) for (const k of env.prefixes.match(row.host, row.user, row.agent, row.turn_type, row.text)) out.records.push(rec(k));
        if (ju.secondary || env.shapes.has(shape)) {
          const k = exactKey();
          if (ju.secondary) {
            keys.add(k);
            shapes.add(shape);
          }
          if (ju.secondary || env.keys.has(k)) out.records.push(rec(k));
        }
      }
    }
    writer.add(row, text);
    return writer.shipped ? ship() : undefined;
  };

  try {
    const artifact = makeArtifact(access, host, job.row, env.indexOf(job.input), env.setup.tmp, {
      stream: () => (tap && !tap.started ? tap.stream() : access.openMember(file)),
      observe: (n) => observed.add(n),
      sidecars: env.sidecarsOf(job.input),
    });
    for await (const r of parser.parse(artifact, ctx)) {
      const p = emit(r);
      if (p) await p;
    }
  } catch (e) {
    if (e instanceof AnalyzeError) throw e; // an interrupt, not the parser's fault
    // A parser bug, not bad data: say so, keep going.
    const msg = `parser ${parser.agent}/${parser.name} failed on ${file}: ${(e as Error)?.message ?? String(e)}`;
    ctx.warn(msg);
    const p = emit({ timestamp_utc: '', session_id: '', project_path: '', git_branch: '', model: '', turn_type: 'system', tool_name: '', tool_use_id: '', text: msg, source_line: null, tag: 'parser_error' });
    if (p) await p;
  }
  out.keys = [...keys];
  out.shapes = [...shapes];
  out.observed = [...observed];
  return out;
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v);
}
