/**
 * Cline's SDK session index `db/sessions.db` (WAL mode): one row per session, the manifest's
 * fields (sdk/packages/shared/src/db/sqlite-db.ts), read through the same row builder as the
 * manifest; then the sessions the table no longer holds, carved from the database's bytes.
 */
import { asNumber, type JsonObject } from '../../sdk/decode.js';
import { unreadableRow } from '../../sdk/row.js';
import { openCollectedSqlite, type SqliteDatabase, SqliteOpenError, tableNames } from '../../sdk/sqlite.js';
import { readArtifactSqliteBytes } from '../../sdk/sqlite-deleted.js';
import type { Artifact, ParseContext, Row } from '../../sdk/types.js';
import { recoveredSdkSessions } from './sdk-db-recovered.js';
import { sessionRecordRows } from './sdk-store.js';

/** `db/sessions.db`: one row per session (a session whose folder was removed survives here), then the deleted ones carved back. */
export async function* parseSdkDb(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  // The bytes before SQLite opens the copy (an open may change the WAL): deleted sessions are carved from them.
  const bytes = await readArtifactSqliteBytes(a, ctx);
  let db: SqliteDatabase;
  try {
    db = await openCollectedSqlite(await a.localPath(), a.rel);
  } catch (e) {
    return yield unreadableRow(e instanceof SqliteOpenError ? e.message : 'expected a readable SQLite database', { timestamp_utc: a.mtime });
  }
  try {
    if (!tableNames(db).has('sessions')) return yield unreadableRow('expected a sessions table in sessions.db, found none', { timestamp_utc: a.mtime });
    const rows = db.prepare('SELECT rowid AS _rowid, * FROM sessions ORDER BY started_at, rowid').iterate() as IterableIterator<JsonObject>;
    for (const r of rows) yield* sessionRecordRows(r, ctx, asNumber(r._rowid) ?? null);
    if (bytes) yield* recoveredSdkSessions(bytes, db, ctx, a.rel);
  } catch (e) {
    yield unreadableRow(`expected Cline's sessions table: ${(e as Error).message.split('\n')[0]}`, { timestamp_utc: a.mtime });
  } finally {
    db.close();
  }
}
