/**
 * Sessions, messages and parts opencode.db (kilo.db) no longer holds and its bytes still do
 * (sdk/sqlite-deleted.ts). OpenCode keeps the database in WAL mode: a session deleted (its
 * messages and parts go with it, ON DELETE CASCADE) or messages reverted stay whole in the main
 * file until a checkpoint, in older WAL frames, and on freed pages. A carved record counts only
 * with its table's shape (`ses_`/`msg_`/`prt_` ids, integer times, a data column), and only when
 * neither a live row nor the event log (events.ts, which gives back the last state of what the
 * tables lost) already gave the same id: an item comes back once. A message or part saved several
 * times comes back as its latest save. The rows are the live ones (sessionRows, messageRows,
 * partRows), through `recovered()`, after a row saying where each deleted session was found, or
 * how many messages and parts a session still listed (or gone without a trace) lost.
 */
import { compactJson } from '../../sdk/compact-json.js';
import { isObject } from '../../sdk/decode.js';
import { pushAll } from '../../sdk/push-all.js';
import { makeRow, recovered } from '../../sdk/row.js';
import { columnNames, type SqliteDatabase } from '../../sdk/sqlite.js';
import { type DeletedRow, deletedRows, type SqliteBytes, CARVED_FROM, carvedAt } from '../../sdk/sqlite-deleted.js';
import { type SqlRecord, sqlJson, sqlText } from '../../sdk/sqlite-rows.js';
import type { ParseContext, Row } from '../../sdk/types.js';
import type { DbState } from './db-parser.js';
import { isTransientPart } from './events.js';
import { type MessageInfo, messageInfo } from './message-info.js';
import { messageRows } from './message-rows.js';
import { partRows } from './parts.js';
import type { OpenCodeProfile } from './profile.js';
import { sessionFromRow, sessionRows } from './session.js';


// OpenCode's ids (Identifier: a prefix, then time and random base62): a record of another table that fits the columns has others.
const SES = /^ses_[0-9A-Za-z]+$/;
const MSG = /^msg_[0-9A-Za-z]+$/;
const PRT = /^prt_[0-9A-Za-z]+$/;

const isId = (re: RegExp, v: unknown): v is string => typeof v === 'string' && re.test(v);
const isInt = (v: unknown): boolean => (typeof v === 'number' && Number.isInteger(v)) || typeof v === 'bigint';
const isText = (v: unknown): boolean => typeof v === 'string';
// The data column: JSON text as OpenCode writes it (a blob only when written by other hands; the live rows read it too).
const isData = (v: unknown): boolean => (typeof v === 'string' && v.startsWith('{')) || v instanceof Uint8Array;

function sessionKey(r: SqlRecord): string | null {
  const ok = isId(SES, r.id) && isText(r.project_id) && isText(r.directory) && isText(r.title) && isText(r.version) && isInt(r.time_created);
  return ok ? (r.id as string) : null;
}

function messageKey(r: SqlRecord): string | null {
  return isId(MSG, r.id) && isId(SES, r.session_id) && isInt(r.time_created) && isData(r.data) ? (r.id as string) : null;
}

function partKey(r: SqlRecord): string | null {
  return isId(PRT, r.id) && isId(MSG, r.message_id) && isId(SES, r.session_id) && isData(r.data) ? (r.id as string) : null;
}

/** The latest save (time_updated), the longer one at a tie: a part streamed into place is saved many times. */
function newer(a: SqlRecord, b: SqlRecord): boolean {
  const ta = Number(a.time_updated ?? 0);
  const tb = Number(b.time_updated ?? 0);
  return ta !== tb ? ta > tb : sqlText(a.data).length > sqlText(b.data).length;
}

/** Fewest values a record needs to hold the columns its key reads (a row written before a later ALTER has fewer). */
function needed(db: SqliteDatabase, table: string, cols: string[]): number {
  const names = [...columnNames(db, table)];
  return cols.reduce((n, c) => Math.max(n, names.indexOf(c) + 1), 1);
}

/** A message: carved, or the one its carved parts name (live, given back by the event log, or lost). */
interface Unit {
  id: string;
  /** The session it is listed under: the message's, else its parts'. */
  sid: string;
  msg: MessageInfo;
  /** The carved message row; undefined when only parts of the message were carved. */
  carved?: DeletedRow;
  unreadable: boolean;
  parts: DeletedRow[];
}

/** The rows of every deleted session, then the lost messages and parts of every other session, carved from `bytes`. */
export function* recoveredDbRows(bytes: SqliteBytes, db: SqliteDatabase, tables: Set<string>, st: DbState, ctx: ParseContext, profile: OpenCodeProfile, rel: string): Generator<Row> {
  const notes: string[] = [];
  const carve = (table: string, key: (r: SqlRecord) => string | null, cols: string[], known: (id: string) => boolean): DeletedRow[] => {
    if (!tables.has(table)) return [];
    const found = deletedRows(bytes, db, table, { key, newer, minColumns: needed(db, table, cols) });
    pushAll(notes, found.notes);
    // The live rows already gave these, or the event log gave them back.
    return found.rows.filter((d) => !known(sqlText(d.row.id)));
  };
  const sessions = carve('session', sessionKey, ['id', 'project_id', 'directory', 'title', 'version', 'time_created'], (id) => st.sessions.has(id) || st.given.sessions.has(id));
  const messages = carve('message', messageKey, ['id', 'session_id', 'time_created', 'data'], (id) => st.messages.has(id) || st.given.messages.has(id));
  // A part the profile marks UI-only (Kilo's spinner text) was written to be removed: no row, as in events.ts.
  const transient = (d: DeletedRow): boolean => {
    const part = sqlJson(d.row.data);
    return isObject(part) && isTransientPart(part, profile);
  };
  const parts = carve('part', partKey, ['id', 'message_id', 'session_id', 'data'], (id) => st.parts.has(id) || st.given.parts.has(id)).filter((d) => !transient(d));
  for (const n of notes) ctx.warn(`${rel}: ${n}`);
  if (sessions.length + messages.length + parts.length === 0) return;

  const bySession = groupBySession(db, tables.has('message'), messages, parts, st);
  const carvedSessions = sessions.map((d) => ({ d, s: sessionFromRow(d.row) })).sort((x, y) => (x.s.created < y.s.created ? -1 : x.s.created > y.s.created ? 1 : x.s.id < y.s.id ? -1 : 1));
  const directories = new Map(carvedSessions.map(({ s }) => [s.id, s.directory]));
  const dirOf = (sid: string): string => st.sessions.get(sid)?.directory ?? directories.get(sid) ?? '';
  for (const { d, s } of carvedSessions) {
    const { record } = d;
    yield makeRow('system', `deleted session recovered: ${s.id}${s.title ? ` "${s.title}"` : ''} (no longer in the session table; ${carvedAt(record)})`, {
      session_id: s.id,
      project_path: s.directory,
      timestamp_utc: s.created,
      source_line: record.rowid,
      tag: 'recovered',
    });
    for (const r of sessionRows(s, record.rowid, ctx)) yield recovered(r);
    // A deleted session's messages read as the live ones do, its first model named.
    yield* unitRows(bySession.get(s.id) ?? [], s.directory, new Map(), ctx);
    bySession.delete(s.id);
  }
  for (const [sid, units] of bySession) {
    const records = units.flatMap((u) => (u.carved ? [u.carved, ...u.parts] : u.parts));
    const n = units.filter((u) => u.carved).length;
    const gone = st.sessions.has(sid) ? '' : ', whose session row is gone too';
    const from = [...new Set(records.map((d) => CARVED_FROM[d.record.source]))].join(', ');
    yield makeRow('system', `deleted messages recovered: ${n} message(s) and ${records.length - n} part(s) of session ${sid} no longer in the message and part tables${gone} (carved from ${from})`, {
      session_id: sid,
      project_path: dirOf(sid),
      timestamp_utc: units[0]?.msg.created ?? '',
      source_line: records[0]?.record.rowid ?? null,
      tag: 'recovered',
    });
    // No model rows: the live session's own messages already said which model it used.
    yield* unitRows(units, dirOf(sid), undefined, ctx);
  }
}

/** The carved messages and parts by session, each session's messages in time and id order, each message with its carved parts. */
function groupBySession(db: SqliteDatabase, hasMessages: boolean, messages: DeletedRow[], parts: DeletedRow[], st: DbState): Map<string, Unit[]> {
  const units = new Map<string, Unit>();
  for (const d of messages) {
    const data = sqlJson(d.row.data);
    const id = sqlText(d.row.id);
    const msg = messageInfo(isObject(data) ? data : {}, { id, sessionId: sqlText(d.row.session_id), created: d.row.time_created });
    units.set(id, { id, sid: msg.sessionId, msg, carved: d, unreadable: !isObject(data), parts: [] });
  }
  const live = hasMessages ? db.prepare('SELECT session_id, time_created, data FROM message WHERE id = ?') : undefined;
  const liveRow = (id: string): SqlRecord | undefined => {
    try {
      return live?.get(id) as SqlRecord | undefined;
    } catch {
      // A corrupt page of the message table: the part is still given, its message unknown.
      return undefined;
    }
  };
  for (const d of [...parts].sort((x, y) => (sqlText(x.row.id) < sqlText(y.row.id) ? -1 : 1))) {
    const mid = sqlText(d.row.message_id);
    let u = units.get(mid);
    if (!u) {
      const msg = messageOf(liveRow(mid), mid, st) ?? { ...messageInfo({}), id: mid, sessionId: sqlText(d.row.session_id) };
      u = { id: mid, sid: msg.sessionId || sqlText(d.row.session_id), msg, unreadable: false, parts: [] };
      units.set(mid, u);
    }
    u.parts.push(d);
  }
  const out = new Map<string, Unit[]>();
  const order = [...units.values()].sort((x, y) => (x.msg.created < y.msg.created ? -1 : x.msg.created > y.msg.created ? 1 : x.id < y.id ? -1 : 1));
  for (const u of order) {
    const list = out.get(u.sid) ?? [];
    list.push(u);
    out.set(u.sid, list);
  }
  return out;
}

/** The info of a message the message table still holds, or that the event log gave back. */
function messageOf(row: SqlRecord | undefined, id: string, st: DbState): MessageInfo | undefined {
  const data = row ? sqlJson(row.data) : undefined;
  if (row && isObject(data)) return messageInfo(data, { id, sessionId: sqlText(row.session_id), created: row.time_created });
  return st.given.messages.get(id);
}

/** Each message's own rows, then its parts' rows, as the live message table gives them, tagged recovered. */
function* unitRows(units: Unit[], directory: string, models: Map<string, string> | undefined, ctx: ParseContext): Generator<Row> {
  for (const u of units) {
    const base = { session_id: u.sid, project_path: u.msg.cwd || directory, source_line: u.carved?.record.rowid ?? null };
    if (u.unreadable) {
      yield makeRow('system', `parser: unreadable recovered message ${u.id} (its data column is not a JSON object)`, { ...base, tag: 'bad_line' });
    } else if (u.carved) {
      for (const r of messageRows(u.msg, base, models)) yield recovered(r);
      // A message whose parts were not carved still says who wrote when (events.ts does the same).
      if (u.parts.length === 0 && !u.msg.error) {
        yield recovered(makeRow('system', `message ${u.msg.role} without parts: ${compactJson(sqlJson(u.carved.row.data))}`, { ...base, timestamp_utc: u.msg.created, model: u.msg.model }));
      }
    }
    for (const p of u.parts) {
      const part = sqlJson(p.row.data);
      const at = { ...base, source_line: p.record.rowid };
      if (!isObject(part)) {
        yield makeRow('system', `parser: unreadable recovered part ${sqlText(p.row.id)} (its data column is not a JSON object)`, { ...at, tag: 'bad_line' });
        continue;
      }
      for (const r of partRows({ ...part, id: sqlText(p.row.id) }, u.msg, at, ctx)) yield recovered(r);
    }
  }
}
