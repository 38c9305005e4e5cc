/**
 * Conversations data.sqlite3 no longer holds and its bytes still do (sdk/sqlite-deleted.ts). q
 * keeps one ConversationState per directory and overwrites it in place when a new conversation
 * starts there (`/clear`, a new `q chat`), so a conversation is identified by the
 * `conversation_id` inside its value, not by its row's key: an older conversation under a key
 * that now holds another is one the store lost. Kiro CLI's `conversations_v2` names the id in a
 * column. A record counts only when its value is a ConversationState (a conversation id and a
 * history list): the same file holds `auth_kv` tokens, whose records have the same two columns
 * and are never taken (nor printed). Each lost conversation comes back once through the live
 * row builder, tagged `recovered`, after a row saying where it was found.
 */
import { asArray, isObject, type JsonObject } from '../../sdk/decode.js';
import { makeRow, recovered } from '../../sdk/row.js';
import type { SqliteDatabase } from '../../sdk/sqlite.js';
import { deletedRows, type SqliteBytes, carvedAt } from '../../sdk/sqlite-deleted.js';
import { type SqlRecord, sqlJson, sqlText, sqlTime } from '../../sdk/sqlite-rows.js';
import type { ParseContext, Row } from '../../sdk/types.js';
import { conversationRows } from './conversation.js';


/** The ConversationState a record's value holds, when it is one. */
function stateOf(r: SqlRecord): JsonObject | null {
  if (typeof r.value !== 'string' && !Buffer.isBuffer(r.value)) return null;
  const v = sqlJson(r.value);
  return isObject(v) && typeof v.conversation_id === 'string' && v.conversation_id !== '' && asArray(v.history) !== undefined ? v : null;
}

function conversationKey(r: SqlRecord): string | null {
  if (typeof r.key !== 'string') return null;
  const s = stateOf(r);
  if (!s) return null;
  // conversations_v2 names the id in a column too: a record whose two disagree is not one row of it.
  if (r.conversation_id !== undefined && r.conversation_id !== null && r.conversation_id !== s.conversation_id) return null;
  return s.conversation_id as string;
}

/** The rows of every conversation the tables lost, in the order found, after the live rows. */
export function* recoveredQConversations(bytes: SqliteBytes, db: SqliteDatabase, tables: Set<string>, client: string, ctx: ParseContext, rel: string): Generator<Row> {
  for (const table of ['conversations', 'conversations_v2']) {
    if (!tables.has(table)) continue;
    const found = deletedRows(bytes, db, table, { key: conversationKey, minColumns: 2, newer: (a, b) => (asArray(stateOf(a)?.history)?.length ?? 0) > (asArray(stateOf(b)?.history)?.length ?? 0) });
    for (const n of found.notes) ctx.warn(`${rel}: ${n}`);
    for (const { row, record } of found.rows) {
      const state = stateOf(row) as JsonObject;
      const id = state.conversation_id as string;
      yield makeRow('system', `deleted conversation recovered: ${id} under ${sqlText(row.key)} (no longer in ${table}; ${carvedAt(record)})`, { session_id: id, project_path: sqlText(row.key), source_line: record.rowid, tag: 'recovered' });
      ctx.fact({ session_id: id, key: 'client', value: client, priority: 2 });
      for (const r of conversationRows(state, { key: sqlText(row.key), line: record.rowid, created: sqlTime(row.created_at) }, ctx)) yield recovered(r);
    }
  }
}
