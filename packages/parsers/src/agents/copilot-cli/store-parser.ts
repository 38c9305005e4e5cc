import { makeRow, unreadableRow } from '../../sdk/row.js';
import { columnNames, openCollectedSqlite, type SqliteDatabase, tableNames } from '../../sdk/sqlite.js';
import { readSqliteBytes } from '../../sdk/sqlite-deleted.js';
import type { Artifact, ParseContext, Parser, Row } from '../../sdk/types.js';
import { copilotParser } from './common.js';
import { COPILOT_PATTERNS } from './paths.js';
import { TurnRepeats } from './store-repeats.js';
import { recoveredStoreRows } from './store-recovered.js';
import { countUnknownTables } from './store-tables.js';
import { stamp, text } from './store-values.js';

type Rec = Record<string, unknown>;

interface SessionInfo {
  cwd: string;
  branch: string;
}

/** The checkpoint columns printed after the title, one `<column>: <value>` line each. */
export const CHECKPOINT_COLUMNS = ['overview', 'history', 'work_done', 'technical_details', 'important_files', 'next_steps'] as const;

/**
 * session-store.db, the cross-session "chronicle" store, read through its WAL. Secondary: its
 * turns repeat the event log's prompts and replies, written at the end of each turn, so their
 * copies may sit minutes from the original (tolerance one hour).
 *
 * Rows, table by table, source_line the rowid, session_id/project_path/git_branch from sessions:
 * sessions `session name: <summary>`; turns user and assistant (tag `repeat` on a row that
 * repeats an earlier turns row of its session, see {@link TurnRepeats}); session_files
 * `file changed: <path> tool=<tool or ->`; session_refs `reference: <type> <value>`; checkpoints
 * `checkpoint <n>: <title or ->` then `<column>: <value>` per non-null column on its own line;
 * forge_trajectory_events tool_use and tool_result (`[exit N] ` when non-zero).
 */
export const copilotStoreParser: Parser = copilotParser({
  name: 'session-store',
  patterns: COPILOT_PATTERNS.store,
  secondary: true,
  toleranceSeconds: 3600,
  parse: parseStore,
});

async function* parseStore(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  // Asked before the open, which may itself create an empty -wal in the local copy.
  const hadWal = a.sibling(`${a.rel.split('/').pop()}-wal`) !== undefined;
  let local: string;
  try {
    local = await a.localPath();
  } catch (e) {
    // Only the code: the message names the analyst's private temp folder, not the evidence.
    const why = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
    yield unreadableRow(`expected a private copy of ${a.rel} to open as SQLite, but it could not be made (${why})`);
    return;
  }
  // The bytes before SQLite opens the copy: deleted sessions and turns are carved from them.
  const bytes = await readSqliteBytes(local);
  if (!bytes.ok) ctx.warn(`session-store.db: ${bytes.why}`);
  let db: SqliteDatabase;
  try {
    // Named by rel, so the row reads the same wherever the analysis ran.
    db = await openCollectedSqlite(local, a.rel);
  } catch (e) {
    yield unreadableRow((e as Error).message);
    return;
  }
  try {
    const tables = tableNames(db);
    if (tables.size === 0) {
      // The CLI keeps every row in the WAL (a 4 KB main file on every install): without it, nothing.
      const wal = hadWal ? 'its -wal holds no committed schema' : 'no -wal was collected beside it';
      ctx.warn(`session-store.db has no tables: ${wal}`);
    }
    const sessions = new Map<string, SessionInfo>();
    if (tables.has('sessions')) yield* sessionRows(db, sessions, ctx);
    const ctxOf = (id: string): Partial<Row> => {
      const s = sessions.get(id);
      return { session_id: id, project_path: s?.cwd ?? '', git_branch: s?.branch ?? '' };
    };
    if (tables.has('turns')) {
      const cols = ['session_id', 'user_message', 'assistant_response', 'timestamp'];
      const repeats = new TurnRepeats();
      yield* tableRows(db, 'turns', cols, (r, rowid) => {
        const base = { ...ctxOf(text(r.session_id)), timestamp_utc: stamp(r.timestamp, 'turns', rowid, ctx), source_line: rowid };
        const [prompt, reply] = [text(r.user_message), text(r.assistant_response)];
        const rep = repeats.see(text(r.session_id), prompt, reply);
        const rows: Row[] = [];
        if (prompt !== '') rows.push(makeRow('user', prompt, rep.user ? { ...base, tag: 'repeat' } : base));
        if (reply !== '') rows.push(makeRow('assistant', reply, rep.assistant ? { ...base, tag: 'repeat' } : base));
        return rows;
      });
    }
    if (tables.has('session_files')) {
      yield* tableRows(db, 'session_files', ['session_id', 'file_path', 'tool_name', 'first_seen_at'], (r, rowid) => [
        makeRow('system', `file changed: ${text(r.file_path)} tool=${text(r.tool_name) || '-'}`, {
          ...ctxOf(text(r.session_id)),
          timestamp_utc: stamp(r.first_seen_at, 'session_files', rowid, ctx),
          source_line: rowid,
          tag: 'file_changed',
        }),
      ]);
    }
    if (tables.has('session_refs')) {
      yield* tableRows(db, 'session_refs', ['session_id', 'ref_type', 'ref_value', 'created_at'], (r, rowid) => [
        makeRow('system', `reference: ${text(r.ref_type)} ${text(r.ref_value)}`, {
          ...ctxOf(text(r.session_id)),
          timestamp_utc: stamp(r.created_at, 'session_refs', rowid, ctx),
          source_line: rowid,
          tag: 'reference',
        }),
      ]);
    }
    if (tables.has('checkpoints')) {
      const cols = ['session_id', 'checkpoint_number', 'title', ...CHECKPOINT_COLUMNS, 'created_at'];
      yield* tableRows(db, 'checkpoints', cols, (r, rowid) => {
        const lines = [`checkpoint ${text(r.checkpoint_number) || '?'}: ${text(r.title) || '-'}`];
        for (const c of CHECKPOINT_COLUMNS) if (r[c] !== null && r[c] !== undefined) lines.push(`${c}: ${text(r[c])}`);
        return [
          makeRow('system', lines.join('\n'), {
            ...ctxOf(text(r.session_id)),
            timestamp_utc: stamp(r.created_at, 'checkpoints', rowid, ctx),
            source_line: rowid,
            tag: 'checkpoint',
          }),
        ];
      });
    }
    if (tables.has('forge_trajectory_events')) yield* forgeRows(db, ctxOf, ctx);
    if (bytes.ok) yield* recoveredStoreRows(bytes.bytes, db, tables, sessions, ctx);
    // search_index, assistant_usage_events, forge_skill_proposals, dynamic_context_items: no
    // rows (concatenated copies of turns, accounting, or nothing tied to a session). Any other
    // table is a newer schema's, counted as unknown.
    countUnknownTables(db, tables, ctx);
  } finally {
    db.close();
  }
}

function* sessionRows(db: SqliteDatabase, sessions: Map<string, SessionInfo>, ctx: ParseContext): Generator<Row> {
  yield* tableRows(db, 'sessions', ['id', 'cwd', 'branch', 'summary', 'created_at'], (r, rowid) => {
    const id = text(r.id);
    const info = { cwd: text(r.cwd), branch: text(r.branch) };
    if (id !== '') {
      sessions.set(id, info);
      if (info.cwd) ctx.fact({ session_id: id, key: 'cwd', value: info.cwd, priority: 3 });
      if (info.branch) ctx.fact({ session_id: id, key: 'branch', value: info.branch, priority: 3 });
      if (text(r.summary)) ctx.fact({ session_id: id, key: 'name', value: text(r.summary), priority: 2 });
    }
    if (text(r.summary) === '') return [];
    // Same text and tag as workspace.yaml's row, so dedup drops this copy when the two agree.
    return [
      makeRow('system', `session name: ${text(r.summary)}`, {
        session_id: id,
        project_path: info.cwd,
        git_branch: info.branch,
        timestamp_utc: stamp(r.created_at, 'sessions', rowid, ctx),
        source_line: rowid,
        tag: 'session_name',
      }),
    ];
  });
}

/**
 * forge_trajectory_events (empty on every install seen, so its event_type values are unknown):
 * a row with a command gives tool_use, a row with an output tool_result, both keyed by the
 * tool_call_id; a command already given for the same call is not repeated.
 */
function* forgeRows(db: SqliteDatabase, ctxOf: (id: string) => Partial<Row>, ctx: ParseContext): Generator<Row> {
  const seen = new Set<string>();
  const cols = ['session_id', 'tool_call_id', 'command', 'output', 'exit_code', 'created_at'];
  yield* tableRows(db, 'forge_trajectory_events', cols, (r, rowid) => {
    const base = {
      ...ctxOf(text(r.session_id)),
      tool_use_id: text(r.tool_call_id),
      timestamp_utc: stamp(r.created_at, 'forge_trajectory_events', rowid, ctx),
      source_line: rowid,
    };
    const rows: Row[] = [];
    const command = text(r.command);
    const key = `${base.session_id}\u0000${base.tool_use_id}\u0000${command}`;
    if (command !== '' && !(base.tool_use_id !== '' && seen.has(key))) {
      seen.add(key);
      rows.push(makeRow('tool_use', command, base));
    }
    if (r.output !== null && r.output !== undefined) {
      const code = Number(r.exit_code ?? 0);
      const prefix = r.exit_code !== null && r.exit_code !== undefined && code !== 0 ? `[exit ${text(r.exit_code)}] ` : '';
      rows.push(makeRow('tool_result', prefix + text(r.output), base));
    }
    return rows;
  });
}

/**
 * Every row of a table, oldest rowid first, reading only the wanted columns that exist (the
 * schema differs between versions 2, 4, 8 and 38); a missing column reads as NULL. A table made
 * WITHOUT ROWID is read in its key order, numbered from 1. A table that fails mid-read (corrupt
 * page) gives one unreadable row and the next table is read.
 */
function* tableRows(db: SqliteDatabase, table: string, wanted: string[], toRows: (r: Rec, rowid: number) => Row[]): Generator<Row> {
  const have = columnNames(db, table);
  const list = wanted.map((c) => (have.has(c) ? quote(c) : `NULL AS ${quote(c)}`));
  let last: number | null = null;
  try {
    const withRowid = hasRowid(db, table);
    const sql = withRowid ? `SELECT rowid AS "__rowid", ${list.join(', ')} FROM ${quote(table)} ORDER BY rowid` : `SELECT ${list.join(', ')} FROM ${quote(table)}`;
    let n = 0;
    for (const r of db.prepare(sql).iterate() as IterableIterator<Rec>) {
      last = withRowid ? Number(r.__rowid) : ++n;
      yield* toRows(r, last);
    }
  } catch (e) {
    const where = last === null ? '' : ` after rowid ${last}`;
    yield unreadableRow(`table ${table} could not be read${where}: ${(e as Error).message}`, { source_line: last });
  }
}

// A WITHOUT ROWID table has no rowid to select or order by; only preparing the query tells.
function hasRowid(db: SqliteDatabase, table: string): boolean {
  try {
    db.prepare(`SELECT rowid FROM ${quote(table)} LIMIT 0`);
    return true;
  } catch {
    return false;
  }
}

function quote(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
