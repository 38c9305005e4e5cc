import { compactJson } from '../../sdk/compact-json.js';
import { asArray, asString, isObject, type JsonObject } from '../../sdk/decode.js';
import { makeRow, recovered, unreadableRow } from '../../sdk/row.js';
import type { SqliteDatabase } from '../../sdk/sqlite.js';
import { querySafely, sqlJson, sqlText } from '../../sdk/sqlite-rows.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { ParseContext, Row } from '../../sdk/types.js';
import type { DbState } from './db-parser.js';
import { type MessageInfo, messageInfo } from './message-info.js';
import { partRows } from './parts.js';
import type { OpenCodeProfile } from './profile.js';
import { sessionFromJson, sessionRows } from './session.js';

const obj = (v: unknown): JsonObject => (isObject(v) ? v : {});
const str = (v: unknown): string => asString(v) ?? '';

/** Event types whose copies the tables already hold, or streaming steps: no row on purpose. */
const QUIET = new Set(['message.part.delta', 'session.status', 'session.idle', 'session.diff']);

/** Whether a part is one the profile marks as UI-only (written and removed again): no row for any copy of it. */
export function isTransientPart(part: JsonObject, profile: OpenCodeProfile): boolean {
  return profile.transientMetadata.some((t) => obj(part.metadata)[t.key] === t.value);
}

interface Kept {
  data: JsonObject;
  line: number;
  time: string;
}

/**
 * The `event` table (1.18+: an event-sourcing log of every session, message and part change, per
 * session in `seq` order). Its updates repeat the tables, so they give rows only for what the
 * tables no longer hold: the last state of a message part, message or session that was deleted or
 * reverted is given again, tagged `recovered`; `*.removed` and `session.deleted` events are rows of
 * their own (tag `removed`). A permission prompt or reply, if one is ever logged, is a row. Other
 * types are counted as unknown.
 */
export function* recoverFromEvents(db: SqliteDatabase, st: DbState, ctx: ParseContext, profile: OpenCodeProfile): Generator<Row> {
  const messages = new Map<string, Kept>();
  const parts = new Map<string, Kept>();
  const sessions = new Map<string, Kept>();
  const transient = new Set<string>();
  for (const item of querySafely(db, 'SELECT rowid AS "__rowid", aggregate_id, type, data FROM event ORDER BY aggregate_id, seq')) {
    if ('error' in item) {
      yield unreadableRow(`table event could not be read: ${item.error}`);
      break;
    }
    const r = item.row;
    const line = Number(r.__rowid);
    const type = sqlText(r.type).replace(/\.\d+$/, '');
    const data = obj(sqlJson(r.data));
    const sid = str(data.sessionID) || sqlText(r.aggregate_id);
    const f = { session_id: sid, project_path: st.sessions.get(sid)?.directory ?? '', source_line: line };
    switch (type) {
      case 'session.created':
      case 'session.updated': {
        const info = obj(data.info);
        if (!st.sessions.has(str(info.id) || sid)) sessions.set(str(info.id) || sid, { data: info, line, time: '' });
        break;
      }
      case 'message.updated': {
        const info = obj(data.info);
        if (!st.messages.has(str(info.id))) messages.set(str(info.id), { data: info, line, time: '' });
        break;
      }
      case 'message.part.updated': {
        const part = obj(data.part);
        if (isTransientPart(part, profile)) transient.add(str(part.id));
        else if (!st.parts.has(str(part.id))) parts.set(str(part.id), { data: part, line, time: toUtc(data.time) });
        break;
      }
      case 'session.deleted':
        yield makeRow('system', `session deleted: ${sid}`, { ...f, timestamp_utc: toUtc(data.time), tag: 'removed' });
        break;
      case 'message.removed':
        yield makeRow('system', `message removed: ${str(data.messageID)}`, { ...f, timestamp_utc: toUtc(data.time), tag: 'removed' });
        break;
      case 'message.part.removed':
        if (transient.has(str(data.partID))) break;
        yield makeRow('system', `part removed: ${str(data.partID)} of message ${str(data.messageID)}`, { ...f, timestamp_utc: toUtc(data.time), tag: 'removed' });
        break;
      case 'permission.asked': {
        const tool = obj(data.tool);
        const what = [str(data.permission), (asArray(data.patterns) ?? []).map(str).join(' ')].filter(Boolean).join(' ');
        yield makeRow('system', `permission requested: ${what}`, { ...f, tool_use_id: str(tool.callID), timestamp_utc: toUtc(data.time), tag: 'permission_request' });
        break;
      }
      case 'permission.replied':
        yield makeRow('system', `permission ${str(data.reply) || str(data.response) || 'replied'}: ${str(data.requestID) || str(data.permissionID)}`, { ...f, timestamp_utc: toUtc(data.time), tag: 'permission_decision' });
        break;
      default:
        if (!QUIET.has(type)) ctx.unknown(`event ${type || '(no type)'}`, line);
    }
  }
  // What the log gave back, so that a copy of the same item carved from the file's bytes is not given twice.
  for (const id of sessions.keys()) st.given.sessions.add(id);
  for (const [id, k] of messages) st.given.messages.set(id, messageInfo(k.data));
  for (const id of parts.keys()) st.given.parts.add(id);
  for (const [id, k] of sessions) {
    for (const r of sessionRows(sessionFromJson(k.data, id), k.line, ctx)) yield recovered(r);
  }
  const infoOf = (id: string, k: Kept): MessageInfo => {
    const m = messages.get(id);
    if (m) return messageInfo(m.data);
    // The message is still in the table: read its role, model and time there.
    const row = db.prepare('SELECT session_id, time_created, data FROM message WHERE id = ?').get(id) as Record<string, unknown> | undefined;
    if (row && isObject(sqlJson(row.data))) return messageInfo(obj(sqlJson(row.data)), { id, sessionId: sqlText(row.session_id), created: row.time_created });
    return { ...messageInfo({}), id, sessionId: str(k.data.sessionID), created: k.time };
  };
  for (const [id, k] of parts) {
    const msg = infoOf(str(k.data.messageID), k);
    const base = { session_id: msg.sessionId || str(k.data.sessionID), project_path: msg.cwd || (st.sessions.get(msg.sessionId)?.directory ?? ''), source_line: k.line };
    for (const r of partRows({ ...k.data, id }, msg, base, ctx)) yield recovered(r);
  }
  const withParts = new Set([...parts.values()].map((p) => str(p.data.messageID)));
  for (const [id, k] of messages) {
    const msg = messageInfo(k.data);
    if (msg.error) yield recovered(makeRow('system', `error: ${msg.error}`, { session_id: msg.sessionId, timestamp_utc: msg.created, model: msg.model, source_line: k.line }));
    else if (!withParts.has(id)) {
      yield recovered(makeRow('system', `message ${msg.role} without parts: ${compactJson(k.data)}`, { session_id: msg.sessionId, timestamp_utc: msg.created, model: msg.model, source_line: k.line }));
    }
  }
}
