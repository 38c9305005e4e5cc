import { unreadableRow } from '../../sdk/row.js';
import { columnNames, openCollectedSqlite, type SqliteDatabase } from '../../sdk/sqlite.js';
import type { Artifact, Row } from '../../sdk/types.js';

/** A database row as better-sqlite3 gives it. */
export type Rec = Record<string, unknown>;

/** Open a collected Codex database read-only from its private copy, or the one row that says why not. */
export async function openStore(a: Artifact): Promise<{ ok: true; db: SqliteDatabase } | { ok: false; row: Row }> {
  let local: string;
  try {
    local = await a.localPath();
  } catch (e) {
    // Only the code: the message would name the analyst's private temp folder.
    const why = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
    return { ok: false, row: unreadableRow(`expected a private copy of ${a.rel} to open as SQLite, but it could not be made (${why})`, { timestamp_utc: a.mtime }) };
  }
  try {
    return { ok: true, db: await openCollectedSqlite(local, a.rel) };
  } catch (e) {
    return { ok: false, row: unreadableRow((e as Error).message, { timestamp_utc: a.mtime }) };
  }
}

const quote = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/**
 * Every row of a table, in rowid order, with only the wanted columns that exist (the schema
 * grows with each migration; a missing column reads as NULL). `where` filters in SQL (for the
 * log store, which can hold 90 days of tracing). A table that fails mid-read gives one
 * unreadable row after the rows read before.
 */
export function* tableRows(db: SqliteDatabase, table: string, wanted: readonly string[], toRows: (r: Rec, rowid: number) => Row[], where = ''): Generator<Row> {
  const have = columnNames(db, table);
  if (have.size === 0) return;
  const list = wanted.map((c) => (have.has(c) ? quote(c) : `NULL AS ${quote(c)}`));
  let last: number | null = null;
  let n = 0;
  try {
    let sql = `SELECT rowid AS "__rowid", ${list.join(', ')} FROM ${quote(table)}${where ? ` WHERE ${where}` : ''} ORDER BY rowid`;
    try {
      db.prepare(sql);
    } catch {
      // A WITHOUT ROWID table: read in key order, numbered from 1.
      sql = `SELECT ${list.join(', ')} FROM ${quote(table)}${where ? ` WHERE ${where}` : ''}`;
    }
    for (const r of db.prepare(sql).iterate() as IterableIterator<Rec>) {
      last = r.__rowid === undefined ? ++n : Number(r.__rowid);
      yield* toRows(r, last);
    }
  } catch (e) {
    const after = last === null ? '' : ` after rowid ${last}`;
    yield unreadableRow(`table ${table} could not be read${after}: ${(e as Error).message}`, { source_line: last });
  }
}

/** A text column, '' for NULL. */
export function text(v: unknown): string {
  return v === null || v === undefined ? '' : typeof v === 'string' ? v : typeof v === 'bigint' ? v.toString() : String(v);
}
