/**
 * Sessions and turns session-store.db no longer holds and its bytes still do (sdk/sqlite-deleted.ts).
 * The CLI keeps the store in WAL mode, so a deleted session's rows stay whole in the main file
 * until a checkpoint and in older WAL frames after it. A turn is identified by its session and
 * `turn_index` (a turn saved again keeps them, so an older save of a live turn is not "deleted");
 * each deleted turn comes back once, its save with the longest reply. The rows are the live ones'
 * (prompt and reply, secondary like every row of the store: a copy of a prompt the event log
 * still holds is dropped by dedup), tagged `recovered`, after a row saying where each deleted
 * session was found.
 */
import { pushAll } from '../../sdk/push-all.js';
import { makeRow } from '../../sdk/row.js';
import type { SqliteDatabase } from '../../sdk/sqlite.js';
import { deletedRows, type SqliteBytes, carvedAt } from '../../sdk/sqlite-deleted.js';
import type { SqlRecord } from '../../sdk/sqlite-rows.js';
import type { ParseContext, Row } from '../../sdk/types.js';
import { stamp, text } from './store-values.js';

const isText = (v: unknown) => v === null || v === undefined || typeof v === 'string';

// The CLI names sessions by uuid: a record of another shape that happens to fit the columns is not a session's.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function sessionKey(r: SqlRecord): string | null {
  return typeof r.id === 'string' && UUID.test(r.id) && isText(r.cwd) && isText(r.summary) ? r.id : null;
}

function turnKey(r: SqlRecord): string | null {
  const ok = typeof r.session_id === 'string' && UUID.test(r.session_id) && typeof r.turn_index === 'number' && isText(r.user_message) && isText(r.assistant_response);
  return ok ? `${r.session_id}\0${r.turn_index}` : null;
}

/** Where the live sessions are (cwd, branch by id), for the turns of a deleted session that is still listed. */
export type SessionPlaces = Map<string, { cwd: string; branch: string }>;

/** The rows of the deleted sessions and turns carved from `bytes`, after the live rows. */
export function* recoveredStoreRows(bytes: SqliteBytes, db: SqliteDatabase, tables: Set<string>, places: SessionPlaces, ctx: ParseContext): Generator<Row> {
  const notes: string[] = [];
  if (tables.has('sessions')) {
    const found = deletedRows(bytes, db, 'sessions', { key: sessionKey, minColumns: 2 });
    pushAll(notes, found.notes);
    for (const { row, record } of found.rows) {
      const id = text(row.id);
      places.set(id, { cwd: text(row.cwd), branch: text(row.branch) });
      const summary = text(row.summary);
      // Below every live source's: a session the event log still has is named by it.
      if (summary) ctx.fact({ session_id: id, key: 'name', value: summary, priority: 4 });
      if (text(row.cwd)) ctx.fact({ session_id: id, key: 'cwd', value: text(row.cwd), priority: 4 });
      if (text(row.branch)) ctx.fact({ session_id: id, key: 'branch', value: text(row.branch), priority: 4 });
      yield makeRow('system', `deleted session recovered: ${id}${summary ? ` "${summary}"` : ''} (no longer in the store; ${carvedAt(record)})`, {
        session_id: id,
        project_path: text(row.cwd),
        git_branch: text(row.branch),
        timestamp_utc: stamp(row.created_at, 'sessions', record.rowid, ctx),
        source_line: record.rowid,
        tag: 'recovered',
      });
    }
  }
  if (tables.has('turns')) {
    const found = deletedRows(bytes, db, 'turns', { key: turnKey, minColumns: 4, newer: (a, b) => text(a.assistant_response).length > text(b.assistant_response).length });
    pushAll(notes, found.notes);
    for (const { row, record } of found.rows) {
      const id = text(row.session_id);
      const place = places.get(id);
      const base = { session_id: id, project_path: place?.cwd ?? '', git_branch: place?.branch ?? '', timestamp_utc: stamp(row.timestamp, 'turns', record.rowid, ctx), source_line: record.rowid, tag: 'recovered' };
      if (text(row.user_message) !== '') yield makeRow('user', text(row.user_message), base);
      if (text(row.assistant_response) !== '') yield makeRow('assistant', text(row.assistant_response), base);
    }
  }
  for (const n of notes) ctx.warn(`session-store.db: ${n}`);
}
