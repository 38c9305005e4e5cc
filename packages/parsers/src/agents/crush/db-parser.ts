import { makeRow } from '../../sdk/row.js';
import type { SqliteDatabase } from '../../sdk/sqlite.js';
import { tableNames } from '../../sdk/sqlite.js';
import { readArtifactSqliteBytes } from '../../sdk/sqlite-deleted.js';
import { isSqlRow, openArtifactSqlite, selectList, sqlText, sqlTime, tableRows } from '../../sdk/sqlite-rows.js';
import type { Artifact, ParseContext, Row } from '../../sdk/types.js';
import { messageRecordRows, type SessionInfo, sessionRecordRows } from './record-rows.js';
import { recoveredSessions } from './recovered-sessions.js';

/** ORDER BY a time column written in seconds by some builds and milliseconds by others. */
const byTime = (col: string) => `CASE WHEN typeof(${col}) IN ('integer', 'real') AND ${col} > 100000000000 THEN ${col} / 1000.0 ELSE ${col} END`;

const SESSION_COLS = ['id', 'parent_session_id', 'title', 'message_count', 'prompt_tokens', 'completion_tokens', 'cost', 'todos', 'permission_mode', 'workspace_cwd', 'created_at', 'updated_at'];
const MESSAGE_COLS = ['id', 'session_id', 'role', 'parts', 'model', 'provider', 'is_summary_message', 'created_at'];

/**
 * `.crush/crush.db`: sessions, messages in time order (rowid breaks ties) with their parts, the
 * files the agent wrote (one row per version, never the content) and read. Times are read by
 * magnitude: the schema says milliseconds, the triggers and the releases seen write seconds.
 * The project is the folder that holds `.crush` (the artifact's project root), else the `<cwd>`
 * a tool result names. After the live rows, the sessions and messages the tables no longer hold
 * and the file's bytes still do (recovered-sessions.ts).
 */
export async function* parseCrushDb(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  // The bytes first: deleted rows are carved from the copy as collected, before SQLite opens it.
  const bytes = await readArtifactSqliteBytes(a, ctx);
  const opened = await openArtifactSqlite(a);
  if (!opened.ok) {
    yield opened.row;
    return;
  }
  const db = opened.db;
  const root = a.scope === 'project' ? (a.projectRoot ?? '') : '';
  try {
    const tables = tableNames(db);
    if (!tables.has('sessions') && !tables.has('messages')) ctx.warn(`${a.rel} has no sessions or messages table: ${opened.hadWal ? 'its -wal holds no committed schema' : 'its rows may be in a -wal that was not collected'}`);
    const sessions = new Map<string, SessionInfo>();
    if (tables.has('sessions')) yield* sessionRows(db, root, sessions, ctx);
    const dir = (sid: string) => root || sessions.get(sid)?.cwd || '';
    if (tables.has('messages')) yield* messageRows(db, dir, ctx);
    if (tables.has('files')) {
      for (const r of tableRows(db, 'files', `SELECT rowid AS "__rowid", ${selectList(db, 'files', ['session_id', 'path', 'version', 'content', 'created_at'])} FROM files ORDER BY ${byTime('created_at')}, rowid`)) {
        if (isSqlRow(r)) yield r;
        else yield makeRow('system', `file version: ${sqlText(r.path)} v${sqlText(r.version)} (${sqlText(r.content).length} chars)`, { session_id: sqlText(r.session_id), project_path: dir(sqlText(r.session_id)), timestamp_utc: sqlTime(r.created_at), source_line: Number(r.__rowid), tag: 'file_changed' });
      }
    }
    if (tables.has('read_files')) {
      for (const r of tableRows(db, 'read_files', `SELECT rowid AS "__rowid", ${selectList(db, 'read_files', ['session_id', 'path', 'read_at'])} FROM read_files ORDER BY ${byTime('read_at')}, rowid`)) {
        if (isSqlRow(r)) yield r;
        else yield makeRow('system', `file read: ${sqlText(r.path)}`, { session_id: sqlText(r.session_id), project_path: dir(sqlText(r.session_id)), timestamp_utc: sqlTime(r.read_at), source_line: Number(r.__rowid), tag: 'file_read' });
      }
    }
    if (bytes) yield* recoveredSessions(bytes, db, tables, { root, sessions, ctx, rel: a.rel });
  } finally {
    db.close();
  }
}

function* sessionRows(db: SqliteDatabase, root: string, sessions: Map<string, SessionInfo>, ctx: ParseContext): Generator<Row> {
  for (const r of tableRows(db, 'sessions', `SELECT rowid AS "__rowid", ${selectList(db, 'sessions', SESSION_COLS)} FROM sessions ORDER BY ${byTime('created_at')}, rowid`)) {
    if (isSqlRow(r)) yield r;
    else yield* sessionRecordRows(r, root, sessions, ctx);
  }
}

function* messageRows(db: SqliteDatabase, dir: (sid: string) => string, ctx: ParseContext): Generator<Row> {
  const lastModel = new Map<string, string>();
  for (const r of tableRows(db, 'messages', `SELECT rowid AS "__rowid", ${selectList(db, 'messages', MESSAGE_COLS)} FROM messages ORDER BY ${byTime('created_at')}, rowid`)) {
    if (isSqlRow(r)) yield r;
    else yield* messageRecordRows(r, dir, lastModel, ctx);
  }
}
