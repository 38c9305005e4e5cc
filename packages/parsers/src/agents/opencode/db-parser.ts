import { compactJson } from '../../sdk/compact-json.js';
import { isObject } from '../../sdk/decode.js';
import { makeRow, unreadableRow } from '../../sdk/row.js';
import { readArtifactSqliteBytes } from '../../sdk/sqlite-deleted.js';
import type { SqliteDatabase } from '../../sdk/sqlite.js';
import { tableNames } from '../../sdk/sqlite.js';
import { isSqlRow, openArtifactSqlite, type SqlRecord, selectList, sqlJson, sqlText, sqlTime, tableRows } from '../../sdk/sqlite-rows.js';
import type { Artifact, ParseContext, Row } from '../../sdk/types.js';
import { recoverFromEvents } from './events.js';
import { type MessageInfo, messageInfo } from './message-info.js';
import { messageRows } from './message-rows.js';
import { partRows } from './parts.js';
import type { OpenCodeProfile } from './profile.js';
import { recoveredDbRows } from './recovered-rows.js';
import { type SessionInfo, sessionFromRow, sessionRows } from './session.js';

/** What the tables read so far tell the later ones. */
export interface DbState {
  sessions: Map<string, SessionInfo>;
  /** Ids of the message and part rows the tables hold (the event log's other copies are not repeated). */
  messages: Set<string>;
  parts: Set<string>;
  /** Ids of what the event log gave back (with the messages' info): the bytes' copies of them are not given again. */
  given: { sessions: Set<string>; messages: Map<string, MessageInfo>; parts: Set<string> };
}

const SESSION_COLS = ['id', 'project_id', 'parent_id', 'directory', 'title', 'version', 'agent', 'model', 'time_created', 'time_updated', 'time_archived', 'permission', 'revert', 'share_url'];

/**
 * opencode.db (and a fork's kilo.db): sessions, then every message in session and time order with
 * its parts, then todos, standing permissions, shares, queued prompts, what only the event log
 * still holds, and what only the file's bytes still hold (recovered-rows.ts). source_line is the
 * rowid of the row that gave the row.
 */
export async function* parseOpenCodeDb(a: Artifact, ctx: ParseContext, profile: OpenCodeProfile): AsyncGenerator<Row> {
  // The bytes before SQLite opens the copy: deleted sessions, messages and parts are carved from them.
  const bytes = await readArtifactSqliteBytes(a, ctx);
  const opened = await openArtifactSqlite(a);
  if (!opened.ok) {
    yield opened.row;
    return;
  }
  const db = opened.db;
  try {
    const tables = tableNames(db);
    if (!tables.has('session') && !tables.has('message')) {
      ctx.warn(`${a.rel} has no session or message table: ${opened.hadWal ? 'its -wal holds no committed schema' : 'not an OpenCode database, or its rows are in a -wal that was not collected'}`);
    }
    const st: DbState = { sessions: new Map(), messages: new Set(), parts: new Set(), given: { sessions: new Set(), messages: new Map(), parts: new Set() } };
    if (tables.has('session')) {
      for (const r of tableRows(db, 'session', `SELECT rowid AS "__rowid", ${selectList(db, 'session', SESSION_COLS)} FROM session ORDER BY time_created, id`)) {
        if (isSqlRow(r)) {
          yield r;
          continue;
        }
        const s = sessionFromRow(r);
        st.sessions.set(s.id, s);
        yield* sessionRows(s, Number(r.__rowid), ctx);
      }
    }
    if (tables.has('message')) yield* messageTable(db, tables.has('part'), st, ctx);
    yield* sideTables(db, tables, st);
    if (tables.has('event')) yield* recoverFromEvents(db, st, ctx, profile);
    if (tables.has('session_message')) {
      for (const r of tableRows(db, 'session_message', 'SELECT rowid AS "__rowid", type FROM session_message ORDER BY rowid')) {
        if (isSqlRow(r)) yield r;
        // A newer message store whose records no release seen here has written: counted, not guessed at.
        else ctx.unknown(`session_message ${sqlText(r.type) || '(no type)'}`, Number(r.__rowid));
      }
    }
    if (bytes) yield* recoveredDbRows(bytes, db, tables, st, ctx, profile, a.rel);
  } finally {
    db.close();
  }
}

function* messageTable(db: SqliteDatabase, hasParts: boolean, st: DbState, ctx: ParseContext): Generator<Row> {
  const models = new Map<string, string>();
  const partsOf = hasParts ? db.prepare(`SELECT rowid AS "__rowid", ${selectList(db, 'part', ['id', 'data'])} FROM part WHERE message_id = ? ORDER BY id`) : undefined;
  const sql = `SELECT rowid AS "__rowid", ${selectList(db, 'message', ['id', 'session_id', 'time_created', 'data'])} FROM message ORDER BY session_id, time_created, id`;
  for (const r of tableRows(db, 'message', sql)) {
    if (isSqlRow(r)) {
      yield r;
      continue;
    }
    const id = sqlText(r.id);
    const sid = sqlText(r.session_id);
    st.messages.add(id);
    const data = sqlJson(r.data);
    const line = Number(r.__rowid);
    if (!isObject(data)) {
      yield makeRow('system', `parser: unreadable message ${id} (its data column is not a JSON object)`, { session_id: sid, source_line: line, tag: 'bad_line' });
      continue;
    }
    const msg = messageInfo(data, { id, sessionId: sid, created: r.time_created });
    const s = st.sessions.get(sid);
    const base = { session_id: sid, project_path: msg.cwd || s?.directory || '', source_line: line };
    yield* messageRows(msg, base, models);
    if (!partsOf) continue;
    let parts: SqlRecord[];
    try {
      parts = partsOf.all(id) as SqlRecord[];
    } catch (e) {
      yield unreadableRow(`table part could not be read for message ${id}: ${(e as Error).message}`, { session_id: sid, source_line: line });
      continue;
    }
    for (const p of parts) {
      const pid = sqlText(p.id);
      st.parts.add(pid);
      const part = sqlJson(p.data);
      const pline = Number(p.__rowid);
      if (!isObject(part)) {
        yield makeRow('system', `parser: unreadable part ${pid} (its data column is not a JSON object)`, { session_id: sid, source_line: pline, tag: 'bad_line' });
        continue;
      }
      yield* partRows({ ...part, id: pid }, msg, { ...base, source_line: pline }, ctx);
    }
  }
}

/** todo, permission (both schemas), session_share (the URL; never the secret), session_input. */
function* sideTables(db: SqliteDatabase, tables: Set<string>, st: DbState): Generator<Row> {
  const dir = (sid: string) => st.sessions.get(sid)?.directory ?? '';
  if (tables.has('todo')) {
    for (const r of tableRows(db, 'todo', `SELECT rowid AS "__rowid", ${selectList(db, 'todo', ['session_id', 'content', 'status', 'time_created'])} FROM todo ORDER BY session_id, position`)) {
      if (isSqlRow(r)) yield r;
      else yield makeRow('system', `todo ${sqlText(r.status)}: ${sqlText(r.content)}`, { session_id: sqlText(r.session_id), project_path: dir(sqlText(r.session_id)), timestamp_utc: sqlTime(r.time_created), source_line: Number(r.__rowid), tag: 'todo' });
    }
  }
  if (tables.has('permission')) {
    const projects = new Map<string, string>();
    if (tables.has('project')) for (const r of tableRows(db, 'project', 'SELECT id, worktree FROM project')) if (!isSqlRow(r)) projects.set(sqlText(r.id), sqlText(r.worktree));
    const cols = ['project_id', 'action', 'resource', 'data', 'time_updated'];
    for (const r of tableRows(db, 'permission', `SELECT rowid AS "__rowid", ${selectList(db, 'permission', cols)} FROM permission ORDER BY rowid`)) {
      if (isSqlRow(r)) {
        yield r;
        continue;
      }
      // 1.1x: data = the ruleset as JSON; 1.18: one rule per row (action, resource).
      const rule = r.data !== null && r.data !== undefined ? compactJson(sqlJson(r.data) ?? sqlText(r.data)) : `${sqlText(r.action)} ${sqlText(r.resource)}`;
      yield makeRow('system', `permission setting: ${rule}`, { project_path: projects.get(sqlText(r.project_id)) ?? '', timestamp_utc: sqlTime(r.time_updated), source_line: Number(r.__rowid), tag: 'permission_setting' });
    }
  }
  if (tables.has('session_share')) {
    for (const r of tableRows(db, 'session_share', 'SELECT rowid AS "__rowid", session_id, url, time_created FROM session_share ORDER BY rowid')) {
      if (isSqlRow(r)) yield r;
      else yield makeRow('system', `session shared: ${sqlText(r.url)}`, { session_id: sqlText(r.session_id), project_path: dir(sqlText(r.session_id)), timestamp_utc: sqlTime(r.time_created), source_line: Number(r.__rowid), tag: 'session_metadata' });
    }
  }
  if (tables.has('session_input')) {
    const cols = ['session_id', 'prompt', 'delivery', 'promoted_seq', 'time_created'];
    for (const r of tableRows(db, 'session_input', `SELECT rowid AS "__rowid", ${selectList(db, 'session_input', cols)} FROM session_input ORDER BY rowid`)) {
      if (isSqlRow(r)) {
        yield r;
        continue;
      }
      const promoted = r.promoted_seq !== null && r.promoted_seq !== undefined ? 'delivered' : 'not delivered';
      yield makeRow('system', `prompt queued (${sqlText(r.delivery) || '?'}, ${promoted}): ${sqlText(r.prompt)}`, { session_id: sqlText(r.session_id), project_path: dir(sqlText(r.session_id)), timestamp_utc: sqlTime(r.time_created), source_line: Number(r.__rowid), tag: 'queued_prompt' });
    }
  }
}
