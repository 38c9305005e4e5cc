import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { ANALYZER_VERSION } from './version.js';
import { AtomicFile, writeFileStaged } from './atomic.js';
import { CSV_BOM, csvField, csvLine, TIMELINE_COLUMNS } from './csv.js';
import type { DedupDrop } from './dedup.js';
import { type CopyCandidate, type CopyContent, CopyFilter } from './copies.js';
import { type FactStore, fillFromFacts, sessionKey } from './facts.js';
import { type CollectionEntry, credentialTotals, type InventoryBuilder } from './inventory.js';
import { ORD_STRIDE } from './job.js';
import type { UnitIdentity } from './plan.js';
import { newRecordView, readRecord } from './record.js';
import { ByteWriter } from './byte-writer.js';
import { HeldLines } from './held-lines.js';
import type { RecordStore } from './record-store.js';
import type { TimelineRow } from './row.js';
import { SessionAccumulator, type SessionRecord } from './sessions.js';
import { type Piece, putAll, putCsvFeedRow } from './report/csv-feed.js';
import { feedWriter } from './report/feed-writer.js';
import type { LineFeed, RowSink } from './report/sink.js';
import type { KeptCounts, UnparsedEntry } from './summary.js';

/** Where the outputs were written. */
export interface OutputPaths {
  timelineCsv: string;
  timelineJsonl: string;
  sessions: string;
  inventory: string;
  duplicates: string;
}

/** A row as timeline.jsonl writes it: the columns in order, then tag. */
export function outputRow(r: TimelineRow): Record<string, string | number | null> {
  const o: Record<string, string | number | null> = {};
  for (const c of TIMELINE_COLUMNS) o[c] = r[c] as string | number | null;
  o.tag = r.tag ?? '';
  return o;
}

const KEYS = [...TIMELINE_COLUMNS.map((c, i) => `${i === 0 ? '{' : ','}${JSON.stringify(c)}:`), ',"tag":'];

/** The timeline.jsonl line of a row (the same text as JSON.stringify(outputRow(r)), built without the object). */
export function jsonLine(r: TimelineRow): string {
  let s = '';
  for (let i = 0; i < TIMELINE_COLUMNS.length; i++) s += KEYS[i] + JSON.stringify(r[TIMELINE_COLUMNS[i]] ?? null);
  return s + KEYS[TIMELINE_COLUMNS.length] + JSON.stringify(r.tag ?? '') + '}\n';
}

/** Inputs of {@link writeOutputs}. */
export interface WriteInput {
  out: string;
  /** Every row, as records (record.ts). */
  store: RecordStore;
  /** Who each unit's rows belong to, by unit index (ord / ORD_STRIDE). */
  identities: UnitIdentity[];
  /** Units whose member failed the integrity check: their rows are not written. */
  skipped: ReadonlySet<number>;
  drops: Map<number, DedupDrop>;
  facts: FactStore;
  inv: InventoryBuilder;
  collections: CollectionEntry[];
  syncAgents: Set<string>;
  options: Record<string, unknown>;
  onRow?: (n: number) => void;
  /** Throws to stop (an interrupt); called every few thousand rows. */
  check?: () => void;
  /** Extra outputs fed each kept row in output order, then ended in this order (report/sink.ts). */
  sinks?: RowSink[];
  /** Extra outputs on threads, fed the timeline.jsonl bytes, then ended in this order after `sinks`. */
  feeds?: LineFeed[];
  /** The run's private temp folder: the lines duplicates.jsonl shows spill there past a few MB. */
  tmp?: string;
  /** Characters of those lines kept in memory (default 8 Mi; 0 when every record chunk is spilled, for tests). */
  heldChars?: number;
}

const J = JSON.stringify;

/**
 * The last pass: merge the sorted rows, drop duplicates, fill project and branch from facts,
 * copy each row's two lines (built where it was parsed) to timeline.csv and timeline.jsonl, and
 * accumulate sessions, inventory and duplicates. Every file goes to a temporary name and is
 * renamed when complete.
 */
export async function writeOutputs(w: WriteInput): Promise<{ files: OutputPaths; sessions: SessionRecord[]; kept: KeptCounts; rows: number; duplicates: number; warnings: number; unparsed: UnparsedEntry[] }> {
  const files: OutputPaths = {
    timelineCsv: join(w.out, 'timeline.csv'),
    timelineJsonl: join(w.out, 'timeline.jsonl'),
    sessions: join(w.out, 'sessions.jsonl'),
    inventory: join(w.out, 'inventory.json'),
    duplicates: join(w.out, 'duplicates.jsonl'),
  };
  const csv = new AtomicFile(files.timelineCsv);
  const jsonl = new AtomicFile(files.timelineJsonl);
  const csvOut = new ByteWriter((b) => csv.writeAll(b), { reuse: true });
  const jsonOut = new ByteWriter((b) => jsonl.writeAll(b), { reuse: true });
  const sessions = new SessionAccumulator();
  const kept: KeptCounts = new Map();
  // Rows a duplicates.jsonl line needs: the dropped rows and the rows they matched.
  const wanted = new Set<number>();
  for (const d of w.drops.values()) {
    wanted.add(d.kept);
    wanted.add(d.paired);
  }
  /** timeline.jsonl lines (without the newline) of the rows duplicates.jsonl shows. */
  const held = new HeldLines(w.tmp, w.heldChars);
  const droppedOrder: number[] = [];
  const copies = w.options.dedup ? new CopyFilter<CopyRow>(COPY_CONTENT) : undefined;
  const v = newRecordView();
  let rows = 0;
  let seen = 0;
  const skipping = w.skipped.size > 0;
  const sinks = w.sinks ?? [];
  const feeds = w.feeds ?? [];
  // The kept lines, shared by every feed of timeline.jsonl; the SQLite feed's records (csv-feed.ts).
  const lineFeeds = feeds.filter((f) => f.kind === 'jsonl');
  const csvFeeds = feeds.filter((f) => f.kind === 'csv');
  const feedOut = lineFeeds.length > 0 ? feedWriter(lineFeeds) : undefined;
  const csvFeedOut = csvFeeds.length > 0 ? feedWriter(csvFeeds) : undefined;
  try {
    await csv.write(CSV_BOM + csvLine(TIMELINE_COLUMNS));
    // Per unit (one artifact and parser): who its rows belong to, looked up once.
    const byUnit: { id: UnitIdentity; skip: boolean; acc: ReturnType<InventoryBuilder['agent']> | null; kept: KeptEntry | null }[] = [];
    let lastSid = '';
    let lastScopeUnit = -1;
    let scope = '';
    await w.store.merge((b, off) => {
      if ((++seen & 4095) === 0) {
        w.check?.();
        w.onRow?.(rows);
      }
      readRecord(b, off, v);
      const unit = Math.floor(v.ord / ORD_STRIDE);
      let u = byUnit[unit];
      if (!u) {
        u = { id: w.identities[unit], skip: skipping && w.skipped.has(unit), acc: null, kept: null };
        byUnit[unit] = u;
      }
      if (u.skip) return undefined;
      const id = u.id;
      const r: TimelineRow = { timestamp_utc: v.timestamp_utc, host: id.host, user: id.user, agent: id.agent, session_id: v.session_id, project_path: v.project_path, git_branch: v.git_branch, model: v.model, turn_type: v.turn_type as TimelineRow['turn_type'], tool_name: v.tool_name, tool_use_id: '', text: v.text, source_file: id.file, source_line: null, ord: v.ord };
      if (v.tag !== '') r.tag = v.tag;
      if (v.sec) r.sec = true;
      if (unit !== lastScopeUnit || r.session_id !== lastSid) {
        lastScopeUnit = unit;
        lastSid = r.session_id;
        scope = sessionKey(r.host, r.user, r.agent, r.session_id);
      }
      fillFromFacts(r, w.facts, scope);
      const same = r.project_path === v.project_path && r.git_branch === v.git_branch;
      let dropped = w.drops.has(r.ord);
      if (!dropped && copies) {
        // Copies of one session in several files (copies.ts), told apart by their lines' bytes.
        const c: CopyRow = { timestamp_utc: r.timestamp_utc, session_id: r.session_id, sec: r.sec, tag: r.tag, host: r.host, user: r.user, agent: r.agent, turn_type: r.turn_type, source_file: r.source_file, ord: r.ord, buf: b, json: [...v.json], contentEnd: v.contentEnd, project: same ? null : r.project_path, branch: r.git_branch };
        const original = copies.copyOf(c);
        if (original) {
          dropped = true;
          w.drops.set(r.ord, { kept: original.ord, paired: original.ord });
          held.set(original.ord, heldLine(original.buf, original.json, original.project, original.branch));
        }
      }
      sessions.add(r, !dropped);
      if (dropped || wanted.has(r.ord)) held.set(r.ord, heldLine(b, v.json, same ? null : r.project_path, r.git_branch));
      if (dropped) {
        droppedOrder.push(r.ord);
        return undefined;
      }
      rows++;
      u.acc ??= w.inv.agent(r.host, r.user, r.agent);
      u.acc.rows++;
      // Session rows give their project through the session record (a scratch session's cwd is
      // not a project); rows of no session (standing grants) name projects directly.
      if (r.session_id === '' && r.project_path) w.inv.project(r.host, r.user, r.agent, r.project_path, r.tag === 'scratch_directory');
      u.kept ??= keptEntry(kept, r);
      countKept(u.kept, r);
      const fed = sinks.length > 0 ? feedSinks(sinks, sinkRow(b, v.json, same ? null : r.project_path, r.git_branch)) : undefined;
      if (same) {
        const csvFed = csvFeedOut && putCsvFeedRow(csvFeedOut, r.tag ?? '', [[b, v.csv[0], v.csv[5]]]);
        return both(both(fed, both(feedOut?.put(b, v.json[0], v.json[5]), csvFed)), both(csvOut.put(b, v.csv[0], v.csv[5]), jsonOut.put(b, v.json[0], v.json[5])));
      }
      const jsonPieces = filled(b, v.json, J(r.project_path), J(r.git_branch));
      const csvPieces = filled(b, v.csv, csvField(r.project_path), csvField(r.git_branch));
      return both(
        both(fed, both(feedOut && putAll(feedOut, jsonPieces), csvFeedOut && putCsvFeedRow(csvFeedOut, r.tag ?? '', csvPieces))),
        both(putAll(csvOut, csvPieces), putAll(jsonOut, jsonPieces)),
      );
    });
    await csvOut.flush();
    await jsonOut.flush();
    await feedOut?.flush();
    await csvFeedOut?.flush();
    for (const f of feeds) f.rowsDone();
    for (const s of sinks) await s.rowsDone?.();
    await csv.close();
    await jsonl.close();
  } catch (e) {
    held.close();
    await Promise.allSettled([csvOut.flush(), jsonOut.flush()]);
    await csv.abort();
    await jsonl.abort();
    await abortSinks(sinks, feeds);
    throw e;
  }

  const dup = new AtomicFile(files.duplicates);
  try {
    for (const ord of droppedOrder) {
      const d = w.drops.get(ord)!;
      for (const piece of duplicateLine(held.get(ord), held.get(d.kept), held.get(d.paired))) await dup.write(piece);
    }
    await dup.close();
  } catch (e) {
    await dup.abort();
    await abortSinks(sinks, feeds);
    throw e;
  } finally {
    held.close();
  }

  const recs = sessions.finish(w.facts, (agent) => w.syncAgents.has(agent));
  const sf = new AtomicFile(files.sessions);
  try {
    for (const s of recs) await sf.write(JSON.stringify(s) + '\n');
    await sf.close();
  } catch (e) {
    await sf.abort();
    await abortSinks(sinks, feeds);
    throw e;
  }

  const homes = w.inv.finish(recs);
  const system = w.inv.system();
  let warnings = 0;
  const totals = { hosts: new Set(w.collections.map((c) => c.host)).size, homes: homes.length, artifacts: 0, bytes: 0, parsed_artifacts: 0, rows, duplicates: droppedOrder.length, sessions: recs.length, session_files: 0, synced_sessions: 0, projects: 0, scratch_directories: 0, secret_files: 0, parse_warnings: 0, unknown_records: 0, mcp_servers: 0, ...credentialTotals([...homes, ...system]), integrity_ok: w.collections.every((c) => c.integrity.ok) };
  // A file two agents claim is listed under both agents but counted once here.
  totals.artifacts = w.inv.distinct.artifacts;
  totals.bytes = w.inv.distinct.bytes;
  const unparsed: UnparsedEntry[] = [];
  for (const h of [...homes, ...system]) {
    for (const a of h.agents) {
      if (a.rows === 0 && a.artifacts > 0) unparsed.push({ host: h.host, user: 'user' in h ? h.user : '', agent: a.agent, artifacts: a.artifacts, session_files: a.session_files });
      totals.parsed_artifacts += a.parsed_artifacts;
      totals.synced_sessions += a.synced_sessions;
      totals.session_files += a.session_files;
      totals.projects += a.projects.length;
      totals.scratch_directories += a.scratch_directories.length;
      totals.secret_files += a.secret_files.length;
      totals.parse_warnings += a.parse_warnings_total;
      totals.mcp_servers += a.mcp_servers.length;
      for (const kinds of Object.values(a.unknown_records)) for (const n of Object.values(kinds)) totals.unknown_records += n;
      warnings += a.parse_warnings_total;
    }
  }
  const inventory = {
    format: 'aitrail-inventory',
    format_version: 1,
    analyzer: { version: ANALYZER_VERSION, options: w.options },
    collections: w.collections,
    homes,
    system,
    totals,
    outputs: { timeline_csv: 'timeline.csv', timeline_jsonl: 'timeline.jsonl', sessions: 'sessions.jsonl', duplicates: 'duplicates.jsonl' },
  };
  try {
    await writeFileStaged(files.inventory, JSON.stringify(inventory, null, 2) + '\n');
  } catch (e) {
    await abortSinks(sinks, feeds);
    throw e;
  }
  const ends = [...sinks, ...feeds];
  for (let i = 0; i < ends.length; i++) {
    try {
      await ends[i].end({ out: w.out, inventory });
    } catch (e) {
      await abortSinks(ends.slice(i));
      throw e;
    }
  }
  return { files, sessions: recs, kept, rows, duplicates: droppedOrder.length, warnings, unparsed };
}

/** Lines at least this long are written apart from the rest of their duplicates.jsonl line. */
const LONG_LINE = 1 << 20;

/**
 * A duplicates.jsonl line: the same text as JSON.stringify of the three row objects, each being
 * its timeline.jsonl line. In pieces when a row's line is long: joined, the three lines of a
 * duplicated 64 MB prompt would be flattened into one string of three times that.
 */
export function duplicateLine(dropped: string | undefined, kept: string | undefined, paired: string | undefined): string[] {
  const parts = ['{"dropped":', `${dropped}`, ',"kept":', kept ?? 'null', ',"paired_with":', paired ?? 'null', '}\n'];
  if ((dropped?.length ?? 0) < LONG_LINE && (kept?.length ?? 0) < LONG_LINE && (paired?.length ?? 0) < LONG_LINE) return [parts.join('')];
  return parts;
}

async function abortSinks(...groups: (RowSink | LineFeed)[][]): Promise<void> {
  await Promise.allSettled(groups.flat().map((s) => s.abort()));
}

/**
 * The full row a sink is given, and its timeline.jsonl line: the line parsed (the record view
 * holds a row's text only for a few tags, and neither its tool use id nor its line), project and
 * branch as filled.
 */
function sinkRow(b: Buffer, json: readonly number[], project: string | null, branch: string): [TimelineRow, string] {
  const line = heldLine(b, json, project, branch);
  const o = JSON.parse(line) as TimelineRow;
  if (o.tag === '') delete o.tag;
  return [o, line];
}

/** Each sink's row() in turn, waiting for one that returns a promise before the next. */
function feedSinks(sinks: RowSink[], [r, line]: [TimelineRow, string]): Promise<void> | undefined {
  for (let i = 0; i < sinks.length; i++) {
    const p = sinks[i].row(r, line);
    if (p) return sinks.slice(i + 1).reduce<Promise<void>>((chain, s) => chain.then(() => s.row(r, line) ?? undefined), p);
  }
  return undefined;
}

/** A row as the copy rule sees it in the last pass: its line's bytes stand for its content. */
interface CopyRow extends CopyCandidate {
  ord: number;
  buf: Buffer;
  json: number[];
  contentEnd: number;
  /** The filled project_path (with `branch`, the filled git_branch), or null when the line is as built. */
  project: string | null;
  branch: string;
}

/** Model, turn type, tool, tool use id and text compared as the bytes of their JSON. */
const COPY_CONTENT: CopyContent<CopyRow> = {
  size: (r) => r.contentEnd - r.json[4],
  same: (a, b) => a.buf.compare(b.buf, b.json[4], b.contentEnd, a.json[4], a.contentEnd) === 0,
  digest: (r) => createHash('sha1').update(r.buf.subarray(r.json[4], r.contentEnd)).digest('base64'),
};

/** A row's timeline.jsonl line without its newline, its project and branch filled when `project` is not null. */
function heldLine(b: Buffer, json: readonly number[], project: string | null, branch: string): string {
  if (project === null) return b.toString('utf8', json[0], json[5] - 1);
  return b.toString('utf8', json[0], json[1]) + J(project) + b.toString('utf8', json[2], json[3]) + J(branch) + b.toString('utf8', json[4], json[5] - 1);
}

/** The pieces of a line or record with its project_path and git_branch values replaced (as JSON or CSV fields). */
function filled(b: Buffer, at: readonly number[], project: string, branch: string): Piece[] {
  const pv = Buffer.from(project, 'utf8');
  const gv = Buffer.from(branch, 'utf8');
  return [
    [b, at[0], at[1]],
    [pv, 0, pv.length],
    [b, at[2], at[3]],
    [gv, 0, gv.length],
    [b, at[4], at[5]],
  ];
}

function both(a: Promise<void> | undefined, b: Promise<void> | undefined): Promise<void> | undefined {
  return a && b ? Promise.all([a, b]).then(() => {}) : (a ?? b);
}

type KeptEntry = KeptCounts extends Map<string, infer E> ? E : never;

/** The kept-row counts of a row's host, user and agent, created on first use. */
function keptEntry(kept: KeptCounts, r: TimelineRow): KeptEntry {
  const k = `${r.host}\0${r.user}\0${r.agent}`;
  let c = kept.get(k);
  if (!c) {
    c = { host: r.host, user: r.user, agent: r.agent, prompts: 0, tool_calls: 0, permission_decisions: 0, rows: 0, models: new Set(), first: '', last: '' };
    kept.set(k, c);
  }
  return c;
}

function countKept(c: KeptEntry, r: TimelineRow): void {
  c.rows++;
  if (r.turn_type === 'user') c.prompts++;
  if (r.turn_type === 'tool_use') c.tool_calls++;
  if (r.tag === 'permission_decision') c.permission_decisions++;
  if (r.model && r.tag !== 'utility_model') c.models.add(r.model);
  if (r.timestamp_utc) {
    if (!c.first || r.timestamp_utc < c.first) c.first = r.timestamp_utc;
    if (r.timestamp_utc > c.last) c.last = r.timestamp_utc;
  }
}
