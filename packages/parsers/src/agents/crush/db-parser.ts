import { asString, isObject } from '../../sdk/decode.js';
import { makeRow } from '../../sdk/row.js';
import type { SqliteDatabase } from '../../sdk/sqlite.js';
import { tableNames } from '../../sdk/sqlite.js';
import { isSqlRow, openArtifactSqlite, selectList, sqlJson, sqlText, sqlTime, tableRows } from '../../sdk/sqlite-rows.js';
import type { Artifact, ParseContext, Row } from '../../sdk/types.js';
import { type CrushMessage, partRows } from './parts.js';

/** zstd's frame magic (RFC 8878): parts written by a build with crush PR #3581 (compressed parts). */
const ZSTD = Buffer.from([0x28, 0xb5, 0x2f, 0xfd]);


interface SessionInfo {
  title: string;
  parent: string;
  cwd: string;
}

/** ORDER BY a time column written in seconds by some builds and milliseconds by others. */
const byTime = (col: string) => `CASE WHEN typeof(${col}) IN ('integer', 'real') AND ${col} > 100000000000 THEN ${col} / 1000.0 ELSE ${col} END`;

const SESSION_COLS = ['id', 'parent_session_id', 'title', 'message_count', 'prompt_tokens', 'completion_tokens', 'cost', 'todos', 'permission_mode', 'workspace_cwd', 'created_at', 'updated_at'];
const MESSAGE_COLS = ['id', 'session_id', 'role', 'parts', 'model', 'provider', 'is_summary_message', 'created_at'];

/**
 * `.crush/crush.db`: sessions, messages in time order (rowid breaks ties) with their parts, the
 * files the agent wrote (one row per version, never the content) and read. Times are read by
 * magnitude: the schema says milliseconds, the triggers and the releases seen write seconds.
 * The project is the folder that holds `.crush` (the artifact's project root), else the `<cwd>`
 * a tool result names.
 */
export async function* parseCrushDb(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const opened = await openArtifactSqlite(a);
  if (!opened.ok) {
    yield opened.row;
    return;
  }
  const db = opened.db;
  const root = a.scope === 'project' ? (a.projectRoot ?? '') : '';
  try {
    const tables = tableNames(db);
    if (!tables.has('sessions') && !tables.has('messages')) ctx.warn(`${a.rel} has no sessions or messages table: ${opened.hadWal ? 'its -wal holds no committed schema' : 'its rows may be in a -wal that was not collected'}`);
    const sessions = new Map<string, SessionInfo>();
    if (tables.has('sessions')) yield* sessionRows(db, root, sessions, ctx);
    const dir = (sid: string) => root || sessions.get(sid)?.cwd || '';
    if (tables.has('messages')) yield* messageRows(db, dir, ctx);
    if (tables.has('files')) {
      for (const r of tableRows(db, 'files', `SELECT rowid AS "__rowid", ${selectList(db, 'files', ['session_id', 'path', 'version', 'content', 'created_at'])} FROM files ORDER BY ${byTime('created_at')}, rowid`)) {
        if (isSqlRow(r)) yield r;
        else yield makeRow('system', `file version: ${sqlText(r.path)} v${sqlText(r.version)} (${sqlText(r.content).length} chars)`, { session_id: sqlText(r.session_id), project_path: dir(sqlText(r.session_id)), timestamp_utc: sqlTime(r.created_at), source_line: Number(r.__rowid), tag: 'file_changed' });
      }
    }
    if (tables.has('read_files')) {
      for (const r of tableRows(db, 'read_files', `SELECT rowid AS "__rowid", ${selectList(db, 'read_files', ['session_id', 'path', 'read_at'])} FROM read_files ORDER BY ${byTime('read_at')}, rowid`)) {
        if (isSqlRow(r)) yield r;
        else yield makeRow('system', `file read: ${sqlText(r.path)}`, { session_id: sqlText(r.session_id), project_path: dir(sqlText(r.session_id)), timestamp_utc: sqlTime(r.read_at), source_line: Number(r.__rowid), tag: 'file_read' });
      }
    }
  } finally {
    db.close();
  }
}

function* sessionRows(db: SqliteDatabase, root: string, sessions: Map<string, SessionInfo>, ctx: ParseContext): Generator<Row> {
  for (const r of tableRows(db, 'sessions', `SELECT rowid AS "__rowid", ${selectList(db, 'sessions', SESSION_COLS)} FROM sessions ORDER BY ${byTime('created_at')}, rowid`)) {
    if (isSqlRow(r)) {
      yield r;
      continue;
    }
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
}

function* messageRows(db: SqliteDatabase, dir: (sid: string) => string, ctx: ParseContext): Generator<Row> {
  const lastModel = new Map<string, string>();
  for (const r of tableRows(db, 'messages', `SELECT rowid AS "__rowid", ${selectList(db, 'messages', MESSAGE_COLS)} FROM messages ORDER BY ${byTime('created_at')}, rowid`)) {
    if (isSqlRow(r)) {
      yield r;
      continue;
    }
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
      continue;
    }
    const parts = sqlJson(raw);
    if (!Array.isArray(parts)) {
      yield makeRow('system', `parser: unreadable message ${m.id} (expected a JSON array of parts, found ${sqlText(raw).slice(0, 80) || 'nothing'})`, { ...f, tag: 'bad_line' });
      continue;
    }
    const cwdAt = (cwd: string, at: string) => ctx.fact({ session_id: m.sessionId, key: 'cwd', value: cwd, priority: 2, ...(at ? { at } : {}) });
    for (const p of parts) {
      if (isObject(p)) yield* partRows(p, m, ctx, cwdAt);
      else ctx.unknown('part that is not an object', m.line);
    }
  }
}
