import { createReadStream, existsSync, readFileSync, rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { TIMELINE_COLUMNS } from '../csv.js';
import type { TimelineRow } from '../row.js';
import type { SessionRecord } from '../sessions.js';
import { stagedPath } from '../atomic.js';
import { loadDuplicates, num, str } from './duplicates-table.js';
import { type SqliteValues, sqliteValues, TEXT_AT } from './csv-feed.js';
import { ReportTally } from './report-tally.js';
import type { RowSink, SinkEnd } from './sink.js';

/** Version of timeline.sqlite's schema (table `meta`). */
export const TIMELINE_DB_VERSION = 1;

/** FTS5's buffer of pending terms (its `hashsize` option). */
const FTS_HASH_BYTES = 8 * 1024 * 1024;

/** timeline.sqlite's page size. */
export const PAGE_BYTES = 32 * 1024;

/** Rows inserted per transaction: bounds the work lost to nothing and keeps commits rare. */
const BATCH = 20_000;

const SCHEMA = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE timeline (id INTEGER PRIMARY KEY, ${TIMELINE_COLUMNS.map((c) => `${c} ${c === 'source_line' ? 'INTEGER' : 'TEXT'}`).join(', ')}, tag TEXT NOT NULL DEFAULT '');
CREATE TABLE sessions (host TEXT, user TEXT, agent TEXT, session_id TEXT, name TEXT, client TEXT, project_path TEXT, git_branch TEXT,
  first_timestamp TEXT, last_timestamp TEXT, rows INTEGER, synced TEXT, secondary_only INTEGER, scratch_directory TEXT,
  models TEXT, tools TEXT, counts TEXT, permission_decisions TEXT, json TEXT NOT NULL);
CREATE TABLE duplicates (id INTEGER PRIMARY KEY, agent TEXT, session_id TEXT, source_file TEXT, source_line INTEGER,
  kept_source_file TEXT, kept_source_line INTEGER, dropped TEXT, kept TEXT, paired_with TEXT);
CREATE TABLE collections (input TEXT, host TEXT, started_utc TEXT, ended_utc TEXT, tool_version TEXT, complete INTEGER, integrity_ok INTEGER, json TEXT NOT NULL);
CREATE TABLE mcp_servers (host TEXT, user TEXT, agent TEXT, name TEXT, scope TEXT, project_path TEXT, transport TEXT, command TEXT, url TEXT, file TEXT, disabled INTEGER, json TEXT NOT NULL);
CREATE TABLE credential_findings (host TEXT, user TEXT, agent TEXT, file TEXT, line INTEGER, kind TEXT, preview TEXT, key TEXT, server TEXT, json TEXT NOT NULL);
CREATE TABLE secret_files (host TEXT, user TEXT, agent TEXT, path TEXT, size INTEGER, sha256 TEXT);
CREATE TABLE findings (id INTEGER PRIMARY KEY, json TEXT NOT NULL);
CREATE VIRTUAL TABLE timeline_fts USING fts5 (text, content='timeline', content_rowid='id', tokenize='unicode61 remove_diacritics 2');
`;

// Built after the load: an index filled row by row costs several times a bulk build. The FTS5
// index is the exception: filled row by row it costs 16% more than a rebuild at the end (2.9 s
// against 2.5 s at 160 MiB), but that work then runs while the last pass is still going instead
// of after it, alone on one core.
// ANALYZE gives the planner the indexes' shapes, for the report and for `aitrail serve` and ad
// hoc queries: without it, a session's rows were read through the agent index. It samples about
// a thousand rows of each index (analysis_limit): a full ANALYZE read every index whole, 0.8 s of
// a million rows, for statistics the planner only needs roughly.
// The timeline's are built as soon as its last row is in (rowsDone), while the run writes its
// other outputs; the sessions' at the end.
const TIMELINE_INDEXES = `
CREATE INDEX timeline_time ON timeline (timestamp_utc);
CREATE INDEX timeline_session ON timeline (session_id, timestamp_utc);
CREATE INDEX timeline_agent ON timeline (agent, timestamp_utc);
CREATE INDEX timeline_turn ON timeline (turn_type, tool_name);
PRAGMA analysis_limit = 1000;
ANALYZE timeline;
`;
const END_INDEXES = `
CREATE INDEX sessions_key ON sessions (agent, session_id);
ANALYZE sessions;
`;

type Inv = { collections?: Record<string, unknown>[]; homes?: Home[]; system?: Home[]; analyzer?: unknown; totals?: unknown };
type Home = { host: string; user?: string; agents: { agent: string; mcp_servers?: Record<string, unknown>[]; credential_findings?: Record<string, unknown>[]; secret_files?: { path: string; size: number | null; sha256: string }[] }[] };

/**
 * timeline.sqlite, written in the streaming pass: every kept row into `timeline`, then at the end
 * sessions, duplicates, collections, MCP servers, credential findings (as redacted as in
 * inventory.json), secret files, findings.jsonl when a previous sink wrote it, the indexes and the
 * FTS5 index. Written under its staged name (atomic.ts), put in place with the other outputs at the end.
 */
export class SqliteSink implements RowSink {
  /** The final path. */
  readonly path: string;
  private readonly tmp: string;
  private readonly db: Database.Database;
  private readonly insert: Database.Statement;
  private readonly fts: Database.Statement;
  private pending = 0;
  private rowsFinished = false;
  /** report.html's counts over the rows inserted (report-tally.ts). */
  readonly tally = new ReportTally();

  constructor(out: string) {
    this.path = join(out, 'timeline.sqlite');
    this.tmp = stagedPath(this.path);
    rmSync(this.tmp, { force: true });
    this.db = new Database(this.tmp);
    // Pages of 32 KiB rather than 4: loading the bench's 61,647 rows with their FTS5 entries took
    // 10% less time (1.56-1.70 s against 1.76-1.91 s), building the four indexes 40% less (106-114
    // ms against 189-193 ms), for a file of the same size (167.8 MB against 166.5 MB). Set before
    // anything is written, when SQLite still takes it.
    this.db.pragma(`page_size = ${PAGE_BYTES}`);
    // No journal and no fsync: the file is private until the rename, and a failed run removes it.
    this.db.pragma('journal_mode = OFF');
    this.db.pragma('synchronous = OFF');
    // 8 MB: the rows are appended in id order and the FTS5 build keeps its own buffer; 32 MB was
    // no faster at 160 MiB and added 25 MB to the run's peak RSS, now that this runs beside the
    // parse's other threads.
    this.db.pragma('cache_size = -8000');
    this.db.exec(SCHEMA);
    // FTS5 flushes the terms it has gathered as a new segment each time they pass `hashsize`
    // (1 MB by default), and merges segments as they pile up: 8 MB makes fewer, larger segments
    // and fewer merges, 12% less CPU for the FTS5 build at 160 MiB for ~8 MB more memory at most.
    this.db.exec(`INSERT INTO timeline_fts (timeline_fts, rank) VALUES ('hashsize', ${FTS_HASH_BYTES})`);
    const cols = [...TIMELINE_COLUMNS, 'tag'];
    // CAST: the text comes as a string or as its UTF-8 bytes (a blob, which CAST makes text of the same bytes).
    this.insert = this.db.prepare(`INSERT INTO timeline (${cols.join(', ')}) VALUES (${cols.map((c) => (c === 'text' ? 'CAST(? AS TEXT)' : '?')).join(', ')})`);
    this.fts = this.db.prepare('INSERT INTO timeline_fts (rowid, text) VALUES (?, CAST(? AS TEXT))');
    this.db.exec('BEGIN');
  }

  /** Insert one kept row, and its text into the FTS5 index. */
  row(r: TimelineRow): void {
    this.values(sqliteValues(r));
  }

  /**
   * Insert one kept row as the SQLite feed gives it (csv-feed.ts). Its text may be UTF-8 bytes:
   * bound as a blob and cast to text, they are stored as they are, with nothing decoded.
   */
  values(v: SqliteValues): void {
    const { lastInsertRowid } = this.insert.run(v);
    this.fts.run(lastInsertRowid, v[TEXT_AT]);
    this.tally.add(Number(lastInsertRowid), v);
    if (++this.pending >= BATCH) {
      this.db.exec('COMMIT; BEGIN');
      this.pending = 0;
    }
  }

  /** The last row is in: build the timeline's indexes now. */
  rowsDone(): void {
    if (this.rowsFinished) return;
    this.rowsFinished = true;
    this.db.exec('COMMIT');
    this.db.exec(TIMELINE_INDEXES);
    this.db.exec('BEGIN');
  }

  /** Fill the other tables, build the remaining indexes, close and rename. */
  async end(info: SinkEnd): Promise<void> {
    this.rowsDone();
    const db = this.db;
    const inv = info.inventory as Inv;
    // This run's sessions.jsonl, duplicates.jsonl and findings.jsonl, staged until the run puts
    // its outputs in place: read from disk rather than handed over, so a run of 200,000 sessions
    // does not copy their records into this thread.
    await loadSessions(db, stagedPath(join(info.out, 'sessions.jsonl')));
    await loadDuplicates(db, stagedPath(join(info.out, 'duplicates.jsonl')));
    const col = db.prepare('INSERT INTO collections VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
    for (const c of inv.collections ?? []) {
      col.run(str(c.input), str(c.host), str(c.started_utc), str(c.ended_utc), str(c.tool_version), num(c.complete), num((c.integrity as { ok?: boolean } | undefined)?.ok), JSON.stringify(c));
    }
    const mcp = db.prepare('INSERT INTO mcp_servers VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
    const cred = db.prepare('INSERT INTO credential_findings VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
    const sec = db.prepare('INSERT INTO secret_files VALUES (?, ?, ?, ?, ?, ?)');
    for (const h of [...(inv.homes ?? []), ...(inv.system ?? [])]) {
      for (const a of h.agents) {
        for (const m of a.mcp_servers ?? []) mcp.run(h.host, h.user ?? '', a.agent, str(m.name), str(m.scope), str(m.project_path), str(m.transport), str(m.command), str(m.url), str(m.file), num(m.disabled), JSON.stringify(m));
        for (const f of a.credential_findings ?? []) cred.run(h.host, h.user ?? '', a.agent, str(f.file), num(f.line), str(f.kind), str(f.preview), str(f.key), str(f.server), JSON.stringify(f));
        for (const f of a.secret_files ?? []) sec.run(h.host, h.user ?? '', a.agent, f.path, f.size, f.sha256);
      }
    }
    loadFindings(db, stagedPath(join(info.out, 'findings.jsonl')));
    const meta = db.prepare('INSERT INTO meta VALUES (?, ?)');
    meta.run('format', 'aitrail-timeline-db');
    meta.run('format_version', String(TIMELINE_DB_VERSION));
    meta.run('analyzer', JSON.stringify(inv.analyzer ?? null));
    meta.run('totals', JSON.stringify(inv.totals ?? null));
    db.exec('COMMIT');
    db.exec(END_INDEXES);
    db.close();
  }

  /** Close and remove the partial file. */
  async abort(): Promise<void> {
    try {
      if (this.db.open) this.db.close();
    } finally {
      rmSync(this.tmp, { force: true });
    }
  }
}

/** findings.jsonl (written by an earlier sink of the same run) into `findings`; absent → nothing. */
function loadFindings(db: Database.Database, path: string): void {
  if (!existsSync(path)) return;
  const ins = db.prepare('INSERT INTO findings (json) VALUES (?)');
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      ins.run(JSON.stringify(JSON.parse(line)));
    } catch {
      // A line that is not JSON is kept as a JSON string rather than lost.
      ins.run(JSON.stringify(line));
    }
  }
}

/** The `sessions` table from a sessions.jsonl, one line at a time (none when the file is absent). */
async function loadSessions(db: Database.Database, path: string): Promise<void> {
  if (!existsSync(path)) return;
  const sess = db.prepare('INSERT INTO sessions VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
  for await (const line of createInterface({ input: createReadStream(path), crlfDelay: Number.POSITIVE_INFINITY })) {
    if (line === '') continue;
    const s = JSON.parse(line) as SessionRecord;
    sess.run(s.host, s.user, s.agent, s.session_id, s.name, s.client, s.project_path, s.git_branch, s.first_timestamp, s.last_timestamp, s.rows, s.synced, s.secondary_only ? 1 : 0, s.scratch_directory, JSON.stringify(s.models), JSON.stringify(s.tools), JSON.stringify(s.counts), JSON.stringify(s.permission_decisions), line);
  }
}
