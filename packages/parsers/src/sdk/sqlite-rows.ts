import { unreadableRow } from './row.js';
import { columnNames, openCollectedSqlite, quoteIdent, type SqliteDatabase } from './sqlite.js';
import { normalizeTimestamp } from './timestamp.js';
import type { Artifact, Row } from './types.js';

/** A database row as better-sqlite3 returns it. */
export type SqlRecord = Record<string, unknown>;

/** What {@link openArtifactSqlite} gives: the open database, or the one unreadable row saying why not. */
export type OpenedSqlite = { ok: true; db: SqliteDatabase; hadWal: boolean } | { ok: false; row: Row };

/**
 * Open a collected SQLite artifact read-only through its private copy (with `-wal`/`-shm`), or
 * give the one `unreadable` row that says why it could not be: no private copy, not a database,
 * truncated, only a WAL. Messages name the artifact's `rel`, never the analyst's temp folder.
 * `hadWal` says whether a `-wal` was collected beside it (asked before the open, which may create one).
 */
export async function openArtifactSqlite(a: Artifact): Promise<OpenedSqlite> {
  const hadWal = a.sibling(`${a.rel.split('/').pop()}-wal`) !== undefined;
  let local: string;
  try {
    local = await a.localPath();
  } catch (e) {
    // Only the code: the message names the analyst's private temp folder, not the evidence.
    const why = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
    return { ok: false, row: unreadableRow(`expected a private copy of ${a.rel} to open as SQLite, but it could not be made (${why})`) };
  }
  try {
    return { ok: true, db: await openCollectedSqlite(local, a.rel), hadWal };
  } catch (e) {
    return { ok: false, row: unreadableRow((e as Error).message) };
  }
}


/**
 * The select list for `wanted` columns of a table whose schema differs between versions: a
 * column the table lacks reads as NULL under its own name.
 */
export function selectList(db: SqliteDatabase, table: string, wanted: readonly string[]): string {
  const have = columnNames(db, table);
  return wanted.map((c) => (have.has(c) ? quoteIdent(c) : `NULL AS ${quoteIdent(c)}`)).join(', ');
}

/** One result row of {@link querySafely}, or the error that stopped the read (a corrupt page, a bad schema). */
export type QueryItem = { row: SqlRecord } | { error: string };

/**
 * The rows of a query, one at a time; an error (while preparing or mid-read) ends the stream with
 * one `{error}` item instead of a throw, so the caller can give an `unreadable` row and go on.
 */
export function* querySafely(db: SqliteDatabase, sql: string, params: readonly unknown[] = []): Generator<QueryItem> {
  let it: IterableIterator<unknown>;
  try {
    it = db.prepare(sql).iterate(...params) as IterableIterator<unknown>;
  } catch (e) {
    yield { error: (e as Error).message };
    return;
  }
  while (true) {
    let next: IteratorResult<unknown>;
    try {
      next = it.next();
    } catch (e) {
      yield { error: (e as Error).message };
      return;
    }
    if (next.done) return;
    yield { row: next.value as SqlRecord };
  }
}

/**
 * A table's records, or, when the query fails, one unreadable row naming the table and why (the
 * rows before the failure stay); {@link isSqlRow} tells the two apart.
 */
export function* tableRows(db: SqliteDatabase, table: string, sql: string, params: readonly unknown[] = []): Generator<SqlRecord | Row> {
  for (const item of querySafely(db, sql, params)) {
    if ('error' in item) {
      yield unreadableRow(`table ${table} could not be read: ${item.error}`);
      return;
    }
    yield item.row;
  }
}

/** Whether an item of {@link tableRows} is its unreadable row rather than a record. */
export const isSqlRow = (x: SqlRecord | Row): x is Row => typeof (x as Row).turn_type === 'string' && 'text' in x;

/** A column as text: strings as stored, numbers printed, blobs read as UTF-8 (SQLite keeps any type in any column), NULL ''. */
export function sqlText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  if (v instanceof Uint8Array) return Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('utf8');
  return '';
}

/** A column holding JSON (text or blob): the parsed value, or undefined when it is NULL or not JSON. */
export function sqlJson(v: unknown): unknown {
  const t = sqlText(v);
  if (t.trim() === '') return undefined;
  try {
    return JSON.parse(t);
  } catch {
    return undefined;
  }
}

/**
 * A stored time in UTC (`YYYY-MM-DDTHH:mm:ss.sssZ`): epoch seconds, milliseconds or microseconds
 * read by magnitude, or SQLite's `YYYY-MM-DD HH:MM:SS` text (UTC); '' when absent or unreadable.
 */
export function sqlTime(v: unknown): string {
  if (v === null || v === undefined || v === '' || v === 0) return '';
  const r = normalizeTimestamp(typeof v === 'bigint' ? Number(v) : v instanceof Uint8Array ? sqlText(v) : v);
  return r.ok ? r.value : '';
}
