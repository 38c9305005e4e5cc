import { unreadableRow } from '../../sdk/row.js';
import { openCollectedSqlite, type SqliteDatabase } from '../../sdk/sqlite.js';
import type { Artifact, Row } from '../../sdk/types.js';

/** The artifact opened read-only from its private copy (with -wal and -shm beside it), or the row that says why not. */
export async function openStore(a: Artifact, fields: Partial<Row> = {}): Promise<{ db: SqliteDatabase } | { row: Row }> {
  let local: string;
  try {
    local = await a.localPath();
  } catch (e) {
    // Only the code: the message names the analyst's private temp folder, not the evidence.
    const why = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
    return { row: unreadableRow(`expected a private copy of ${a.rel} to open as SQLite, but it could not be made (${why})`, fields) };
  }
  try {
    return { db: await openCollectedSqlite(local, a.rel) };
  } catch (e) {
    return { row: unreadableRow((e as Error).message, fields) };
  }
}
