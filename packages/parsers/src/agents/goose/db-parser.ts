import { tableNames } from '../../sdk/sqlite.js';
import { readArtifactSqliteBytes } from '../../sdk/sqlite-deleted.js';
import { isSqlRow, openArtifactSqlite, selectList, sqlText, tableRows } from '../../sdk/sqlite-rows.js';
import type { Artifact, ParseContext, Row } from '../../sdk/types.js';
import { messageRecordRows, sessionRecordRows } from './db-records.js';
import { recoveredGooseRows } from './recovered-sessions.js';

const SESSION_COLS = ['id', 'name', 'description', 'user_set_name', 'session_type', 'working_dir', 'created_at', 'updated_at', 'extension_data', 'schedule_id', 'recipe_json', 'total_tokens', 'accumulated_total_tokens'];
const MESSAGE_COLS = ['session_id', 'role', 'content_json', 'created_timestamp', 'timestamp', 'metadata_json'];

/**
 * sessions.db (session_manager.rs, schema v1-v5 and later columns read when present): every
 * session, then every message in id order (insert order). A message's time is its
 * `created_timestamp` (Message.created: epoch seconds in releases, milliseconds in some builds:
 * read by magnitude), else the row's insert `timestamp`. Then the sessions and messages the
 * tables no longer hold and the file's bytes still do (recovered-sessions.ts). Backups are read
 * the same way; their copies of live sessions are dropped by the analyzer (copyRank), sessions
 * deleted since stay.
 */
export async function* parseGooseDb(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  // The bytes before SQLite opens the copy: deleted sessions and messages are carved from them.
  const bytes = await readArtifactSqliteBytes(a, ctx);
  const opened = await openArtifactSqlite(a);
  if (!opened.ok) {
    yield opened.row;
    return;
  }
  const db = opened.db;
  try {
    const tables = tableNames(db);
    if (!tables.has('sessions') && !tables.has('messages')) ctx.warn(`${a.rel} has no sessions or messages table: ${opened.hadWal ? 'its -wal holds no committed schema' : 'its rows may be in a -wal that was not collected'}`);
    const dirs = new Map<string, string>();
    if (tables.has('sessions')) {
      for (const r of tableRows(db, 'sessions', `SELECT rowid AS "__rowid", ${selectList(db, 'sessions', SESSION_COLS)} FROM sessions ORDER BY created_at, rowid`)) {
        if (isSqlRow(r)) {
          yield r;
          continue;
        }
        dirs.set(sqlText(r.id), sqlText(r.working_dir));
        yield* sessionRecordRows(r, Number(r.__rowid), ctx);
      }
    }
    const tools = new Map<string, string>();
    if (tables.has('messages')) {
      for (const r of tableRows(db, 'messages', `SELECT rowid AS "__rowid", ${selectList(db, 'messages', MESSAGE_COLS)} FROM messages ORDER BY rowid`)) {
        if (isSqlRow(r)) {
          yield r;
          continue;
        }
        yield* messageRecordRows(r, Number(r.__rowid), dirs.get(sqlText(r.session_id)) ?? '', tools, ctx);
      }
    }
    if (bytes) yield* recoveredGooseRows(bytes, db, tables, { dirs, tools }, ctx, a.rel);
  } finally {
    db.close();
  }
}
