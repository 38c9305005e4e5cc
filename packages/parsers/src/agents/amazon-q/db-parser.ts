import { isObject } from '../../sdk/decode.js';
import { makeRow } from '../../sdk/row.js';
import { tableNames } from '../../sdk/sqlite.js';
import { readArtifactSqliteBytes } from '../../sdk/sqlite-deleted.js';
import { isSqlRow, openArtifactSqlite, type SqlRecord, selectList, sqlJson, sqlText, sqlTime, tableRows } from '../../sdk/sqlite-rows.js';
import type { Artifact, ParseContext, Row } from '../../sdk/types.js';
import { conversationRows } from './conversation.js';
import { clientOf } from './paths.js';
import { recoveredQConversations } from './recovered-conversations.js';


/**
 * data.sqlite3 of Amazon Q CLI and Kiro CLI, a store that mixes evidence and credentials: only
 * `conversations` (q: one ConversationState per cwd key, overwritten in place), `conversations_v2`
 * (kiro-cli: key, conversation_id, value, created_at, updated_at in ms; the newest row of a
 * conversation is read, older copies under other keys are named) and `history` (the shell
 * integration's command log: context, not agent activity) are read. `auth_kv` (tokens) and
 * `state` (start URL, profile) are never opened by a query.
 */
export async function* parseQDb(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  // The bytes before SQLite opens the copy: lost conversations are carved from them.
  const bytes = await readArtifactSqliteBytes(a, ctx);
  const opened = await openArtifactSqlite(a);
  if (!opened.ok) {
    yield opened.row;
    return;
  }
  const db = opened.db;
  const client = clientOf(a.rel);
  try {
    const tables = tableNames(db);
    if (tables.has('conversations')) {
      for (const r of tableRows(db, 'conversations', 'SELECT rowid AS "__rowid", key, value FROM conversations ORDER BY rowid')) yield* one(r, client, ctx);
    }
    if (tables.has('conversations_v2')) {
      const cols = selectList(db, 'conversations_v2', ['key', 'conversation_id', 'value', 'created_at', 'updated_at']);
      // Newest first within a conversation: the first row of each id is the one read.
      const seen = new Map<string, string>();
      for (const r of tableRows(db, 'conversations_v2', `SELECT rowid AS "__rowid", ${cols} FROM conversations_v2 ORDER BY conversation_id, updated_at DESC, rowid DESC`)) {
        if (isSqlRow(r)) {
          yield r;
          continue;
        }
        const id = sqlText(r.conversation_id);
        if (id && seen.has(id)) {
          yield makeRow('system', `conversation ${id} also stored under ${sqlText(r.key)} (an older copy; the newest, under ${seen.get(id)}, is read)`, { session_id: id, project_path: sqlText(r.key), timestamp_utc: sqlTime(r.updated_at), source_line: Number(r.__rowid), tag: 'session_metadata' });
          continue;
        }
        if (id) seen.set(id, sqlText(r.key));
        yield* one(r, client, ctx);
      }
    }
    if (bytes) yield* recoveredQConversations(bytes, db, tables, client, ctx, a.rel);
    if (tables.has('history')) {
      const cols = selectList(db, 'history', ['command', 'cwd', 'start_time', 'time', 'exit_code', 'hostname']);
      for (const r of tableRows(db, 'history', `SELECT rowid AS "__rowid", ${cols} FROM history ORDER BY rowid`)) {
        if (isSqlRow(r)) yield r;
        else yield makeRow('system', `shell command (shell integration): ${sqlText(r.command)} exit=${sqlText(r.exit_code) || '?'}`, { project_path: sqlText(r.cwd), timestamp_utc: sqlTime(r.start_time) || sqlTime(r.time), source_line: Number(r.__rowid), tag: 'shell_history' });
      }
    }
  } finally {
    db.close();
  }
}

function* one(r: SqlRecord | Row, client: string, ctx: ParseContext): Generator<Row> {
  if (isSqlRow(r)) {
    yield r;
    return;
  }
  const line = Number(r.__rowid);
  const state = sqlJson(r.value);
  if (!isObject(state)) {
    yield makeRow('system', `parser: unreadable conversation under ${sqlText(r.key)} (its value is not a JSON object)`, { project_path: sqlText(r.key), source_line: line, tag: 'bad_line' });
    return;
  }
  const rows = conversationRows(state, { key: sqlText(r.key), line, created: sqlTime(r.created_at) }, ctx);
  if (rows[0]?.session_id) ctx.fact({ session_id: rows[0].session_id, key: 'client', value: client, priority: 2 });
  yield* rows;
}
