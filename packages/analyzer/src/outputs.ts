import { join } from 'node:path';
import { ANALYZER_VERSION } from './version.js';
import { AtomicFile, writeFileAtomic } from './atomic.js';
import { CSV_BOM, csvLine, TIMELINE_COLUMNS } from './csv.js';
import type { DedupDrop } from './dedup.js';
import { type FactStore, fillFromFacts, sessionKey } from './facts.js';
import { CopyFilter } from './copies.js';
import { type CollectionEntry, credentialTotals, type InventoryBuilder } from './inventory.js';
import { mergeRuns, type TimelineRow } from './runs.js';
import { SessionAccumulator, type SessionRecord } from './sessions.js';
import type { KeptCounts, UnparsedEntry } from './summary.js';
import { WriteBehind } from './write-behind.js';

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

/** Characters buffered per timeline file before a write. */
const FLUSH = 1 << 20;

/** Inputs of {@link writeOutputs}. */
export interface WriteInput {
  out: string;
  tmp: string;
  runs: string[];
  drops: Map<number, DedupDrop>;
  facts: FactStore;
  inv: InventoryBuilder;
  collections: CollectionEntry[];
  syncAgents: Set<string>;
  options: Record<string, unknown>;
  onRow?: (n: number) => void;
  /** Throws to stop (an interrupt); called on every row. */
  check?: () => void;
}

/**
 * The last pass: merge the sorted runs, drop duplicates, fill project and branch from facts,
 * write timeline.csv and timeline.jsonl as the rows go by, and accumulate sessions, inventory
 * and duplicates. Every file goes to a temporary name and is renamed when complete.
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
  const csvOut = new WriteBehind(csv);
  const jsonOut = new WriteBehind(jsonl);
  const sessions = new SessionAccumulator();
  const kept: KeptCounts = new Map();
  // Rows a duplicates.jsonl line needs: the dropped rows and the rows they matched.
  const wanted = new Set<number>();
  for (const d of w.drops.values()) {
    wanted.add(d.kept);
    wanted.add(d.paired);
  }
  const held = new Map<number, Record<string, string | number | null>>();
  const droppedOrder: number[] = [];
  const copies = w.options.dedup ? new CopyFilter() : undefined;
  let rows = 0;
  try {
    await csv.write(CSV_BOM + csvLine(TIMELINE_COLUMNS));
    let csvBuf = '';
    let jsonBuf = '';
    for await (const batch of mergeRuns(w.runs, w.tmp)) {
      w.check?.();
      for (const r of batch) {
        const scope = sessionKey(r.host, r.user, r.agent, r.session_id);
        fillFromFacts(r, w.facts, scope);
        let dropped = w.drops.has(r.ord);
        const original = dropped ? undefined : copies?.copyOf(r);
        if (original) {
          dropped = true;
          w.drops.set(r.ord, { kept: original.ord, paired: original.ord });
          held.set(original.ord, outputRow(original));
        }
        sessions.add(r, !dropped);
        if (dropped || wanted.has(r.ord)) held.set(r.ord, outputRow(r));
        if (dropped) {
          droppedOrder.push(r.ord);
          continue;
        }
        rows++;
        const a = w.inv.agent(r.host, r.user, r.agent);
        a.rows++;
        // Session rows give their project through the session record (a scratch session's cwd is
        // not a project); rows of no session (standing grants) name projects directly.
        if (r.session_id === '' && r.project_path) w.inv.project(r.host, r.user, r.agent, r.project_path, r.tag === 'scratch_directory');
        countKept(kept, r);
        // Each buffer is handed to its file (encoded off the heap) as soon as it is full, before
        // the other line is built: a 64 MB row is then never in the heap three times at once.
        // The writes go on behind (one in flight per file) while the next rows are built.
        csvBuf += csvLine(TIMELINE_COLUMNS.map((c) => r[c] as string | number | null));
        if (csvBuf.length > FLUSH) {
          await csvOut.write(csvBuf);
          csvBuf = '';
        }
        jsonBuf += jsonLine(r);
        if (jsonBuf.length > FLUSH) {
          await jsonOut.write(jsonBuf);
          jsonBuf = '';
          w.onRow?.(rows);
        }
      }
    }
    await csvOut.write(csvBuf);
    await jsonOut.write(jsonBuf);
    await csvOut.flush();
    await jsonOut.flush();
    await csv.commit();
    await jsonl.commit();
  } catch (e) {
    await Promise.allSettled([csvOut.flush(), jsonOut.flush()]);
    await csv.abort();
    await jsonl.abort();
    throw e;
  }

  const dup = new AtomicFile(files.duplicates);
  try {
    for (const ord of droppedOrder) {
      const d = w.drops.get(ord)!;
      await dup.write(JSON.stringify({ dropped: held.get(ord), kept: held.get(d.kept) ?? null, paired_with: held.get(d.paired) ?? null }) + '\n');
    }
    await dup.commit();
  } catch (e) {
    await dup.abort();
    throw e;
  }

  const recs = sessions.finish(w.facts, (agent) => w.syncAgents.has(agent));
  const sf = new AtomicFile(files.sessions);
  try {
    for (const s of recs) await sf.write(JSON.stringify(s) + '\n');
    await sf.commit();
  } catch (e) {
    await sf.abort();
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
  await writeFileAtomic(files.inventory, JSON.stringify(inventory, null, 2) + '\n');
  return { files, sessions: recs, kept, rows, duplicates: droppedOrder.length, warnings, unparsed };
}

function countKept(kept: KeptCounts, r: TimelineRow): void {
  const k = `${r.host}\0${r.user}\0${r.agent}`;
  let c = kept.get(k);
  if (!c) {
      c = { host: r.host, user: r.user, agent: r.agent, prompts: 0, tool_calls: 0, permission_decisions: 0, rows: 0, models: new Set(), first: '', last: '' };
      kept.set(k, c);
    }
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
