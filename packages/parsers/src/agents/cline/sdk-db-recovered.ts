/**
 * Sessions `db/sessions.db` no longer holds and its bytes still do (sdk/sqlite-deleted.ts). The
 * SDK keeps the store in WAL mode, so a session row deleted after the last checkpoint is still
 * whole in the main file, and every earlier save of it (the row is rewritten at each status,
 * checkpoint and end) sits in older WAL frames. The table holds session metadata only (start,
 * end, status, cwd, model, the prompt, metadata_json); messages live in the session folder's
 * JSON files, so there is no per-message table to carve. Each deleted session comes back once,
 * its latest save, through the live row builder, after a row saying where it was found.
 */
import { asObject, asString, type JsonObject } from '../../sdk/decode.js';
import { makeRow, recovered } from '../../sdk/row.js';
import type { SqliteDatabase } from '../../sdk/sqlite.js';
import { deletedRows, type SqliteBytes, carvedAt } from '../../sdk/sqlite-deleted.js';
import { type SqlRecord, sqlText } from '../../sdk/sqlite-rows.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { ParseContext, Row } from '../../sdk/types.js';
import { sessionRecordRows } from './sdk-store.js';


// Session ids are `<epoch ms>_<base36>` for the CLI, with agent suffixes for subagents: word
// characters, dots, colons and dashes. A record of another table that happens to fit the
// columns (schedules, the spawn queue) fails the id or the typed columns below.
const ID = /^[\w.:-]{1,200}$/;
const isText = (v: unknown) => v === null || v === undefined || typeof v === 'string';
const isFlag = (v: unknown) => v === 0 || v === 1;

/** A session's id, when the carved record has the sessions table's shape (typed as the SDK writes it). */
function sessionKey(r: SqlRecord): string | null {
  const ok =
    typeof r.session_id === 'string' &&
    ID.test(r.session_id) &&
    typeof r.source === 'string' &&
    Number.isInteger(r.pid) &&
    typeof r.started_at === 'string' &&
    toUtc(r.started_at) !== '' &&
    typeof r.status === 'string' &&
    isFlag(r.interactive) &&
    typeof r.provider === 'string' &&
    typeof r.model === 'string' &&
    typeof r.cwd === 'string' &&
    isText(r.prompt) &&
    isText(r.metadata_json);
  return ok ? (r.session_id as string) : null;
}

/** The later save of a row (updated_at is bumped on every write); on a tie, the one that has ended. */
function newer(a: SqlRecord, b: SqlRecord): boolean {
  const [ta, tb] = [sqlText(a.updated_at), sqlText(b.updated_at)];
  return ta > tb || (ta === tb && sqlText(a.ended_at) !== '' && sqlText(b.ended_at) === '');
}

/** The rows of every deleted session carved from `bytes`, oldest start first, after the live ones. */
export function* recoveredSdkSessions(bytes: SqliteBytes, db: SqliteDatabase, ctx: ParseContext, rel: string): Generator<Row> {
  // The first columns are in every schema; rows written before the legacy ALTERs have fewer.
  const found = deletedRows(bytes, db, 'sessions', { key: sessionKey, minColumns: 12, newer });
  for (const n of found.notes) ctx.warn(`${rel}: ${n}`);
  const ordered = [...found.rows].sort((x, y) => {
    const [a, b] = [sqlText(x.row.started_at), sqlText(y.row.started_at)];
    return a < b ? -1 : a > b ? 1 : x.record.rowid - y.record.rowid;
  });
  for (const { row, record } of ordered) {
    const id = sqlText(row.session_id);
    const title = asString(asObject(row.metadata_json)?.title) ?? '';
    yield makeRow('system', `deleted session recovered: ${id}${title ? ` "${title}"` : ''} (no longer in sessions.db; ${carvedAt(record)})`, {
      session_id: id,
      project_path: sqlText(row.cwd),
      timestamp_utc: toUtc(row.started_at),
      model: sqlText(row.model),
      source_line: record.rowid,
      tag: 'recovered',
    });
    for (const r of sessionRecordRows(row as JsonObject, ctx, record.rowid)) yield recovered(r);
  }
}
