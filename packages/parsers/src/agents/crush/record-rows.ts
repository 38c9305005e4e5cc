/**
 * The rows of one `sessions` or `messages` record of crush.db, whether SQLite read it from the live
 * table or it was carved back from the file's bytes (recovered-sessions.ts): one builder for both,
 * so a recovered session reads exactly like a live one.
 */
import { asString, isObject } from '../../sdk/decode.js';
import { makeRow } from '../../sdk/row.js';
import { type SqlRecord, sqlJson, sqlText, sqlTime } from '../../sdk/sqlite-rows.js';
import type { ParseContext, Row } from '../../sdk/types.js';
import { type CrushMessage, partRows } from './parts.js';

/** zstd's frame magic (RFC 8878): parts written by a build with crush PR #3581 (compressed parts). */
export const ZSTD = Buffer.from([0x28, 0xb5, 0x2f, 0xfd]);

/** What the message rows need to know of a session. */
export interface SessionInfo {
  title: string;
  parent: string;
  cwd: string;
}

/**
 * The rows of one `sessions` record: its start, name, permission mode and todos. `sessions` learns
 * its title, parent and cwd (for its messages); `root` is the project the artifact belongs to.
 */
export function* sessionRecordRows(r: SqlRecord, root: string, sessions: Map<string, SessionInfo>, ctx: ParseContext): Generator<Row> {
  const id = sqlText(r.id);
  const s = { title: sqlText(r.title), parent: sqlText(r.parent_session_id), cwd: sqlText(r.workspace_cwd) };
  sessions.set(id, s);
  const at = sqlTime(r.created_at);
  const cwd = root || s.cwd;
  if (cwd) ctx.fact({ session_id: id, key: 'cwd', value: cwd, priority: root ? 1 : 3 });
  if (s.title) ctx.fact({ session_id: id, key: 'name', value: s.title, priority: 2 });
  const f = { session_id: id, project_path: cwd, timestamp_utc: at, source_line: Number(r.__rowid) };
  const parent = s.parent ? ` parent=${s.parent}` : '';
  yield makeRow('system', `session: ${s.title} tokens=${sqlText(r.prompt_tokens) || 0}/${sqlText(r.completion_tokens) || 0} cost=${sqlText(r.cost) || 0}${parent}`, { ...f, tag: 'session_start' });
  if (s.title) yield makeRow('system', `session name: ${s.title}`, { ...f, tag: 'session_name' });
  if (sqlText(r.permission_mode)) yield makeRow('system', `permission mode: ${sqlText(r.permission_mode)}`, { ...f, tag: 'permission_mode' });
  const todos = sqlJson(r.todos);
  for (const t of Array.isArray(todos) ? todos : []) {
    if (isObject(t)) yield makeRow('system', `todo ${asString(t.status) ?? ''}: ${asString(t.content) ?? ''}`, { ...f, timestamp_utc: sqlTime(r.updated_at) || at, tag: 'todo' });
  }
}

/**
 * The rows of one `messages` record: a `model:` row when the model differs from the session's
 * previous assistant message (`lastModel`, by session), then the rows of its parts.
 */
export function* messageRecordRows(r: SqlRecord, dir: (sid: string) => string, lastModel: Map<string, string>, ctx: ParseContext): Generator<Row> {
  const m: CrushMessage = {
    id: sqlText(r.id),
    sessionId: sqlText(r.session_id),
    role: sqlText(r.role),
    model: sqlText(r.model),
    provider: sqlText(r.provider),
    summary: Number(r.is_summary_message ?? 0) === 1,
    created: sqlTime(r.created_at),
    line: Number(r.__rowid),
    projectPath: dir(sqlText(r.session_id)),
  };
  const f = { session_id: m.sessionId, project_path: m.projectPath, timestamp_utc: m.created, source_line: m.line };
  if (m.role === 'assistant' && m.model && lastModel.get(m.sessionId) !== m.model) {
    const old = lastModel.get(m.sessionId);
    const provider = m.provider ? ` (${m.provider})` : '';
    yield makeRow('system', old ? `model: ${old} -> ${m.model}${provider}` : `model: ${m.model}${provider}`, { ...f, model: m.model, tag: 'model' });
    lastModel.set(m.sessionId, m.model);
  }
  const raw = r.parts;
  if (raw instanceof Uint8Array && raw.length >= 4 && Buffer.from(raw.buffer, raw.byteOffset, 4).equals(ZSTD)) {
    ctx.unknown('zstd-compressed parts', m.line);
    yield makeRow('system', `parser: unreadable message ${m.id} (its parts are zstd-compressed, as crush PR #3581 proposes; not decoded)`, { ...f, tag: 'bad_line' });
    return;
  }
  const parts = sqlJson(raw);
  if (!Array.isArray(parts)) {
    yield makeRow('system', `parser: unreadable message ${m.id} (expected a JSON array of parts, found ${sqlText(raw).slice(0, 80) || 'nothing'})`, { ...f, tag: 'bad_line' });
    return;
  }
  const cwdAt = (cwd: string, at: string) => ctx.fact({ session_id: m.sessionId, key: 'cwd', value: cwd, priority: 2, ...(at ? { at } : {}) });
  for (const p of parts) {
    if (isObject(p)) yield* partRows(p, m, ctx, cwdAt);
    else ctx.unknown('part that is not an object', m.line);
  }
}
