/**
 * Sessions and messages sessions.db no longer holds and its bytes still do (sdk/sqlite-deleted.ts).
 * sqlx keeps the store in WAL mode, so a deleted session's rows (`delete_session` removes its
 * messages, then the session) stay whole in the main file until a checkpoint and in older WAL
 * frames after it; a backup, copied whole, keeps them on freed pages.
 *
 * A session is its id. A message has no identity of its own: `replace_conversation` (compaction,
 * an edited or truncated conversation, an import) deletes every message of the session and
 * inserts them again under new ids, so a message is its session, role, time and content. A
 * message given again unchanged is not deleted; one the new conversation dropped or changed is.
 * A message updated in place keeps its id, which is still live: its older text is not deleted
 * either. Each deleted session comes back once (its latest save, which holds its latest name),
 * through the live rows, after a row saying where it was found, with its messages; messages of
 * any other session come back under it, after a row saying how many were lost.
 */
import { createHash } from 'node:crypto';
import { pushAll } from '../../sdk/push-all.js';
import { makeRow, recovered } from '../../sdk/row.js';
import type { SqliteDatabase } from '../../sdk/sqlite.js';
import { type DeletedRow, deletedRows, type SqliteBytes, CARVED_FROM, carvedAt } from '../../sdk/sqlite-deleted.js';
import { type SqlRecord, sqlText, sqlTime } from '../../sdk/sqlite-rows.js';
import type { ParseContext, Row } from '../../sdk/types.js';
import { messageRecordRows, sessionOf, sessionRecordRows } from './db-records.js';


// goose names a session `YYYYMMDD_<n>`, an imported legacy one by its file's name: one path
// segment, no control characters. Records of other shapes do turn up among the carved ones.
const ID = /^[^\u0000-\u001f/\\]{1,255}$/;
// TIMESTAMP columns: SQLite's CURRENT_TIMESTAMP / datetime('now') text or sqlx's RFC 3339.
const WHEN = /^\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d/;
const isText = (v: unknown) => v === null || v === undefined || typeof v === 'string';
const isInt = (v: unknown) => v === null || v === undefined || typeof v === 'bigint' || (typeof v === 'number' && Number.isInteger(v));

/** The session's id, when the record has a session's shape (v0, before the later ALTERs, has 14 columns). */
function sessionKey(r: SqlRecord): string | null {
  const ok = typeof r.id === 'string' && ID.test(r.id) && typeof r.working_dir === 'string' && typeof r.created_at === 'string' && WHEN.test(r.created_at) && isText(r.name) && isText(r.description) && isText(r.session_type) && isText(r.extension_data) && isText(r.recipe_json) && isInt(r.total_tokens);
  return ok ? (r.id as string) : null;
}

/** A message's session, role, time and content (digested: the key of every live message is held), when the record has a message's shape. */
function messageKey(r: SqlRecord): string | null {
  const ok = typeof r.session_id === 'string' && ID.test(r.session_id) && (r.role === 'user' || r.role === 'assistant') && typeof r.content_json === 'string' && r.content_json.startsWith('[') && (typeof r.created_timestamp === 'number' || typeof r.created_timestamp === 'bigint') && isText(r.timestamp) && isText(r.metadata_json);
  return ok ? `${r.session_id}\0${r.role}\0${String(r.created_timestamp)}\0${createHash('sha1').update(r.content_json as string).digest('base64')}` : null;
}

/** The messages the table lost: carved, keyed by content, not a live row's older save (its id still live). */
function lostMessages(bytes: SqliteBytes, db: SqliteDatabase, notes: string[]): DeletedRow[] {
  // The latest save of a message given again several times: its rowid places it among its session's.
  const found = deletedRows(bytes, db, 'messages', { key: messageKey, minColumns: 7, newer: (a, b) => Number(a.__rowid) > Number(b.__rowid) });
  pushAll(notes, found.notes);
  if (found.rows.length === 0) return [];
  const live = new Set<number>();
  for (const r of db.prepare('SELECT rowid AS id FROM messages').iterate() as IterableIterator<{ id: number }>) live.add(r.id);
  return found.rows.filter((d) => !live.has(d.record.rowid));
}

const order = (a: DeletedRow, b: DeletedRow) => Number(a.row.created_timestamp) - Number(b.row.created_timestamp) || a.record.rowid - b.record.rowid;

/** What the live parse learned: each live session's working_dir, each tool call's name by id. */
export interface GooseLive {
  dirs: Map<string, string>;
  tools: Map<string, string>;
}

/** The rows of every deleted session (with its messages), then of the deleted messages of each other session, carved from `bytes`, after the live rows. */
export function* recoveredGooseRows(bytes: SqliteBytes, db: SqliteDatabase, tables: Set<string>, live: GooseLive, ctx: ParseContext, rel: string): Generator<Row> {
  const notes: string[] = [];
  const sessions: DeletedRow[] = [];
  if (tables.has('sessions')) {
    const found = deletedRows(bytes, db, 'sessions', { key: sessionKey, minColumns: 14, newer: (a, b) => sqlTime(a.updated_at) > sqlTime(b.updated_at) });
    pushAll(notes, found.notes);
    pushAll(sessions, found.rows);
  }
  const bySession = new Map<string, DeletedRow[]>();
  for (const d of tables.has('messages') ? lostMessages(bytes, db, notes) : []) {
    const sid = sqlText(d.row.session_id);
    const list = bySession.get(sid);
    if (list) list.push(d);
    else bySession.set(sid, [d]);
  }
  for (const n of notes) ctx.warn(`${rel}: ${n}`);
  const dirs = new Map(live.dirs);
  const messagesOf = function* (sid: string): Generator<Row> {
    for (const { row, record } of (bySession.get(sid) ?? []).sort(order))
      for (const r of messageRecordRows(row, record.rowid, dirs.get(sid) ?? '', live.tools, ctx)) yield recovered(r);
    bySession.delete(sid);
  };
  // As the live sessions are read: by creation, then rowid.
  const byCreation = sessions.map((d) => ({ ...d, s: sessionOf(d.row) })).sort((a, b) => (a.s.created < b.s.created ? -1 : a.s.created > b.s.created ? 1 : a.record.rowid - b.record.rowid));
  for (const { row, record, s } of byCreation) {
    dirs.set(s.id, s.workingDir);
    yield makeRow('system', `deleted session recovered: ${s.id}${s.name ? ` "${s.name}"` : ''} (no longer in the sessions table; ${carvedAt(record)})`, {
      session_id: s.id,
      project_path: s.workingDir,
      timestamp_utc: s.created,
      source_line: record.rowid,
      tag: 'recovered',
    });
    for (const r of sessionRecordRows(row, record.rowid, ctx)) yield recovered(r);
    yield* messagesOf(s.id);
  }
  // Messages of a session still listed (a conversation replaced or cut short), or of one whose session record was not found.
  const rest = [...bySession.entries()].map(([sid, found]) => ({ sid, found: found.sort(order) }));
  rest.sort((a, b) => a.found[0].record.rowid - b.found[0].record.rowid);
  for (const { sid, found } of rest) {
    const first = found[0];
    const still = live.dirs.has(sid) ? '' : ', whose session is gone too';
    yield makeRow('system', `deleted messages recovered: ${found.length} message(s) of session ${sid} no longer in the messages table${still} (carved from ${[...new Set(found.map((d) => CARVED_FROM[d.record.source]))].join(', ')})`, {
      session_id: sid,
      project_path: dirs.get(sid) ?? '',
      timestamp_utc: sqlTime(first.row.created_timestamp) || sqlTime(first.row.timestamp),
      source_line: first.record.rowid,
      tag: 'recovered',
    });
    yield* messagesOf(sid);
  }
}
