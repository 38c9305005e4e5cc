import { posix } from 'node:path';
import { compactJson } from '../../sdk/compact-json.js';
import { asArray, asString, describeJson, isObject, type JsonObject } from '../../sdk/decode.js';
import { makeRow, unreadableRow } from '../../sdk/row.js';
import type { Artifact, ParseContext, Row } from '../../sdk/types.js';
import { readJsonDocument } from '../../sdk/json-document.js';
import { type MessageInfo, messageInfo } from './message-info.js';
import { messageRows } from './message-rows.js';
import { legacyPartRows } from './legacy-parts.js';
import { partRows } from './parts.js';
import type { OpenCodePaths } from './paths.js';
import { sessionFromJson, sessionRows } from './session.js';

const obj = (v: unknown): JsonObject => (isObject(v) ? v : {});
const str = (v: unknown): string => asString(v) ?? '';
const stem = (rel: string): string => posix.basename(rel).replace(/\.json$/, '');

/** The message a part file belongs to: `<store>/message/<sessionID>/<messageID>.json`, read as a sibling. */
async function messageOfPart(a: Artifact, part: JsonObject): Promise<MessageInfo | undefined> {
  const cut = a.rel.lastIndexOf('/part/');
  const sid = str(part.sessionID);
  const mid = str(part.messageID);
  if (cut < 0 || !sid || !mid) return undefined;
  const target = `${a.rel.slice(0, cut)}/message/${sid}/${mid}.json`;
  const sib = a.sibling(posix.relative(posix.dirname(a.rel), target));
  if (!sib) return undefined;
  const r = await readJsonDocument(sib);
  return r.ok && isObject(r.value) ? messageInfo(r.value, { id: mid, sessionId: sid }) : undefined;
}

/**
 * The legacy JSON store (before the 1.2 move to SQLite, left in place by the migration) and the
 * oldest per-project layout: one file per session, message and part, plus todo, permission and
 * share files. The rows equal the database's rows for the same records, so where both hold a
 * session the analyzer keeps the database's copy (copyRank) and drops these.
 */
export async function* parseStorage(a: Artifact, ctx: ParseContext, paths: OpenCodePaths): AsyncGenerator<Row> {
  const kind = paths.storageKind(a.rel);
  const r = await readJsonDocument(a, { secret: kind === 'session_share' });
  if (!r.ok) {
    yield r.row;
    return;
  }
  const v = r.value;
  const fileTime = { timestamp_utc: a.mtime, tag: 'time_file' };
  if (kind === 'todo') {
    // storage/todo/<sessionID>.json: the list as last written; no time per item.
    if (!Array.isArray(v)) {
      yield unreadableRow(`expected a JSON array of todo items, found ${describeJson(v)}`, { timestamp_utc: a.mtime, session_id: stem(a.rel) });
      return;
    }
    for (const t of v) yield makeRow('system', `todo ${str(obj(t).status)}: ${str(obj(t).content)}`, { ...fileTime, session_id: stem(a.rel) });
    return;
  }
  if (kind === 'permission') {
    yield makeRow('system', `permission setting: ${compactJson(v)}`, { ...fileTime, tag: 'permission_setting' });
    return;
  }
  if (!isObject(v)) {
    yield makeRow('system', `parser: unreadable file (expected a JSON object for a ${kind} record, found ${Array.isArray(v) ? 'an array' : typeof v})`, { tag: 'unreadable' });
    return;
  }
  if (kind === 'session_share') {
    // {id, secret, url}: the secret is a credential and never printed.
    yield makeRow('system', `session shared: ${str(v.url)}`, { ...fileTime, session_id: stem(a.rel), tag: 'session_metadata' });
    return;
  }
  if (kind === 'session') {
    yield* sessionRows(sessionFromJson(v, stem(a.rel)), null, ctx);
    return;
  }
  if (kind === 'message') {
    const msg = messageInfo(v, { id: stem(a.rel), sessionId: posix.basename(posix.dirname(a.rel)) });
    const base = { session_id: msg.sessionId, project_path: msg.cwd, source_line: null };
    yield* messageRows(msg, base);
    // The oldest builds kept the parts inside the message (AI SDK UI parts).
    for (const p of asArray(v.parts) ?? []) if (isObject(p)) yield* legacyPartRows(p, msg, base, ctx);
    return;
  }
  // A part: its role, model and time come from its message file.
  const msg = await messageOfPart(a, v);
  if (!msg) ctx.warn(`${a.rel}: its message file was not collected; the part's role is unknown`);
  const info = msg ?? { ...messageInfo({}), sessionId: str(v.sessionID), id: str(v.messageID) };
  yield* partRows({ ...v, id: str(v.id) || stem(a.rel) }, info, { session_id: info.sessionId, project_path: info.cwd, source_line: null }, ctx);
}
