import { isObject, type JsonObject } from '../../sdk/decode.js';
import { makeRow } from '../../sdk/row.js';
import { tableNames } from '../../sdk/sqlite.js';
import { isSqlRow, openArtifactSqlite, selectList, sqlJson, sqlText, sqlTime, tableRows } from '../../sdk/sqlite-rows.js';
import type { Artifact, ParseContext, Row } from '../../sdk/types.js';
import { messageRows } from './content.js';
import { sessionRows } from './session.js';


const SESSION_COLS = ['id', 'name', 'description', 'user_set_name', 'session_type', 'working_dir', 'created_at', 'updated_at', 'extension_data', 'schedule_id', 'recipe_json', 'total_tokens', 'accumulated_total_tokens'];
const MESSAGE_COLS = ['session_id', 'role', 'content_json', 'created_timestamp', 'timestamp', 'metadata_json'];

/**
 * sessions.db (session_manager.rs, schema v1-v5 and later columns read when present): every
 * session, then every message in id order (insert order). A message's time is its
 * `created_timestamp` (Message.created: epoch seconds in releases, milliseconds in some builds:
 * read by magnitude), else the row's insert `timestamp`. Backups are read the same way; their
 * copies of live sessions are dropped by the analyzer (copyRank), sessions deleted since stay.
 */
export async function* parseGooseDb(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
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
        const id = sqlText(r.id);
        dirs.set(id, sqlText(r.working_dir));
        yield* sessionRows(
          {
            id,
            name: sqlText(r.name) || sqlText(r.description),
            userSetName: Number(r.user_set_name ?? 0) === 1,
            type: sqlText(r.session_type),
            workingDir: sqlText(r.working_dir),
            created: sqlTime(r.created_at),
            scheduleId: sqlText(r.schedule_id),
            recipe: sqlJson(r.recipe_json),
            extensionData: sqlJson(r.extension_data),
          },
          Number(r.__rowid),
          ctx,
        );
      }
    }
    if (!tables.has('messages')) return;
    const tools = new Map<string, string>();
    for (const r of tableRows(db, 'messages', `SELECT rowid AS "__rowid", ${selectList(db, 'messages', MESSAGE_COLS)} FROM messages ORDER BY rowid`)) {
      if (isSqlRow(r)) {
        yield r;
        continue;
      }
      const sid = sqlText(r.session_id);
      const line = Number(r.__rowid);
      const content = sqlJson(r.content_json);
      if (!Array.isArray(content)) {
        yield makeRow('system', `parser: unreadable message (expected a JSON array of content, found ${sqlText(r.content_json).slice(0, 80) || 'nothing'})`, { session_id: sid, source_line: line, tag: 'bad_line' });
        continue;
      }
      const meta = sqlJson(r.metadata_json);
      yield* messageRows(
        { sessionId: sid, role: sqlText(r.role), created: sqlTime(r.created_timestamp) || sqlTime(r.timestamp), content, metadata: isObject(meta) ? (meta as JsonObject) : {}, line, projectPath: dirs.get(sid) ?? '' },
        tools,
        ctx,
      );
    }
  } finally {
    db.close();
  }
}
