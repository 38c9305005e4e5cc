/**
 * Sessions and messages crush.db no longer holds and its bytes still do (sdk/sqlite-deleted.ts).
 * Crush opens the store in WAL mode, so a session deleted after the last checkpoint is still whole
 * in the main file, and every streamed save of a message (UpdateMessage rewrites `parts` in place)
 * sits in an older WAL frame until the WAL is reset. A carved record is a session or a message
 * when its NOT NULL columns of the schema (internal/db/migrations) have their types and its id is
 * not a live row's; each comes back once, its latest or fullest save, through the very builders
 * of the live rows (record-rows.ts), tagged `recovered`, after a row saying where it was found.
 */
import { makeRow, recovered } from '../../sdk/row.js';
import type { SqliteDatabase } from '../../sdk/sqlite.js';
import { type DeletedRow, deletedRows, type SqliteBytes, CARVED_FROM, carvedAt } from '../../sdk/sqlite-deleted.js';
import { type SqlRecord, sqlText, sqlTime } from '../../sdk/sqlite-rows.js';
import type { ParseContext, Row } from '../../sdk/types.js';
import { messageRecordRows, type SessionInfo, sessionRecordRows } from './record-rows.js';


// Crush's ids: a uuid, `<message id>$$<tool call id>` for a sub-agent's session, a tool call id
// for a task session: never empty, never with spaces or control characters.
const ID = /^[^\s\x00-\x1f]{1,256}$/;
const isId = (v: unknown): v is string => typeof v === 'string' && ID.test(v);
const isNum = (v: unknown) => typeof v === 'number' || typeof v === 'bigint';
const isBytes = (v: unknown) => typeof v === 'string' || v instanceof Uint8Array;
/** A column the live table may lack (undefined: not in this schema) holding a number when present. */
const numIfThere = (v: unknown) => v === undefined || isNum(v);
// Columns of the initial migration: the fewest a record written before any later ALTER has.
const SESSION_MIN = 9;
const MESSAGE_MIN = 8;

/** A session's id, when the record has the `sessions` table's NOT NULL columns with their types. */
function sessionKey(r: SqlRecord): string | null {
  const counts = numIfThere(r.message_count) && numIfThere(r.prompt_tokens) && numIfThere(r.completion_tokens) && numIfThere(r.cost);
  const ok = isId(r.id) && typeof r.title === 'string' && (r.parent_session_id === null || r.parent_session_id === undefined || typeof r.parent_session_id === 'string') && counts && isNum(r.created_at) && numIfThere(r.updated_at);
  return ok ? (r.id as string) : null;
}

/** A message's id, when the record has the `messages` table's NOT NULL columns with their types (a role is a lowercase word). */
function messageKey(r: SqlRecord): string | null {
  const ok = isId(r.id) && isId(r.session_id) && typeof r.role === 'string' && /^[a-z]{1,32}$/.test(r.role) && isBytes(r.parts) && isNum(r.created_at);
  return ok ? (r.id as string) : null;
}

const num = (v: unknown) => (isNum(v) ? Number(v) : 0);
const size = (v: unknown) => (typeof v === 'string' ? Buffer.byteLength(v) : v instanceof Uint8Array ? v.length : 0);

/** The later save of a session (updated_at; in the same second, the one with more tokens spent). */
const newerSession = (a: SqlRecord, b: SqlRecord) => (num(a.updated_at) - num(b.updated_at) || num(a.prompt_tokens) + num(a.completion_tokens) - num(b.prompt_tokens) - num(b.completion_tokens)) > 0;
/** The fuller save of a message: a streamed reply's parts only grow; then the later one. */
const newerMessage = (a: SqlRecord, b: SqlRecord) => (size(a.parts) - size(b.parts) || num(a.updated_at) - num(b.updated_at)) > 0;

/** Oldest first by the normalized time (seconds and milliseconds alike), then rowid, as the live rows go. */
const byTime = (col: string) => (x: DeletedRow, y: DeletedRow) => {
  const a = sqlTime(x.row[col]);
  const b = sqlTime(y.row[col]);
  return a < b ? -1 : a > b ? 1 : x.record.rowid - y.record.rowid;
};

/** What the recovery shares with the live parse. */
export interface RecoveryScope {
  /** The project the artifact belongs to ('' outside a project scope). */
  root: string;
  /** The live sessions (the recovered ones are added). */
  sessions: Map<string, SessionInfo>;
  ctx: ParseContext;
  rel: string;
}

/** The rows of every deleted session (its messages under it), then of the deleted messages of each other session, carved from `bytes`. */
export function* recoveredSessions(bytes: SqliteBytes, db: SqliteDatabase, tables: Set<string>, scope: RecoveryScope): Generator<Row> {
  const { root, sessions, ctx, rel } = scope;
  const gone = tables.has('sessions') ? deletedRows(bytes, db, 'sessions', { key: sessionKey, minColumns: SESSION_MIN, newer: newerSession }) : { rows: [], notes: [] };
  const lost = tables.has('messages') ? deletedRows(bytes, db, 'messages', { key: messageKey, minColumns: MESSAGE_MIN, newer: newerMessage }) : { rows: [], notes: [] };
  for (const n of [...gone.notes, ...lost.notes]) ctx.warn(`${rel}: ${n}`);
  const bySession = new Map<string, DeletedRow[]>();
  for (const d of lost.rows.sort(byTime('created_at'))) {
    const sid = sqlText(d.row.session_id);
    const list = bySession.get(sid);
    if (list) list.push(d);
    else bySession.set(sid, [d]);
  }
  const live = new Set(sessions.keys());
  const dir = (sid: string) => root || sessions.get(sid)?.cwd || '';
  const lastModel = new Map<string, string>();
  const messages = function* (found: DeletedRow[]): Generator<Row> {
    for (const { row } of found) for (const r of messageRecordRows(row, dir, lastModel, ctx)) yield recovered(r);
  };
  for (const { row, record } of gone.rows.sort(byTime('created_at'))) {
    const id = sqlText(row.id);
    const title = sqlText(row.title);
    const at = { session_id: id, project_path: root || sqlText(row.workspace_cwd), timestamp_utc: sqlTime(row.created_at), source_line: record.rowid, tag: 'recovered' };
    yield makeRow('system', `deleted session recovered: ${id}${title ? ` "${title}"` : ''} (no longer in the sessions table; ${carvedAt(record)})`, at);
    for (const r of sessionRecordRows(row, root, sessions, ctx)) yield recovered(r);
    yield* messages(bySession.get(id) ?? []);
    bySession.delete(id);
  }
  // Messages of a session still listed (deleted one by one, or a session reverted), or of one whose row was not carved.
  for (const [sid, found] of bySession) {
    const where = [...new Set(found.map((d) => CARVED_FROM[d.record.source]))].join(', ');
    const first = found[0];
    const what = `${found.length} message${found.length === 1 ? '' : 's'} of session ${sid} no longer in the messages table${live.has(sid) ? '' : ', whose session is gone too'}`;
    yield makeRow('system', `deleted messages recovered: ${what} (carved from ${where})`, { session_id: sid, project_path: dir(sid), timestamp_utc: sqlTime(first.row.created_at), source_line: first.record.rowid, tag: 'recovered' });
    yield* messages(found);
  }
}
