import { open } from 'node:fs/promises';
import Database from 'better-sqlite3';

/** A read-only handle on a collected SQLite database. */
export type SqliteDatabase = Database.Database;

/** Why a collected database could not be opened; the message says what to do. */
export class SqliteOpenError extends Error {}

const MAGIC = 'SQLite format 3\u0000';

/**
 * Open a collected SQLite database read-only, from a copy that has its `-wal` (and `-shm`)
 * beside it, so rows that live only in the WAL are read. Never use this on evidence in place:
 * the caller materializes a private copy first (the collector never opens SQLite at all).
 * Throws {@link SqliteOpenError} with a clear message for a file that is not a database.
 */
export async function openCollectedSqlite(path: string): Promise<SqliteDatabase> {
  let header: Buffer;
  try {
    const fh = await open(path, 'r');
    try {
      header = Buffer.alloc(16);
      const { bytesRead } = await fh.read(header, 0, 16, 0);
      header = header.subarray(0, bytesRead);
    } finally {
      await fh.close();
    }
  } catch (e) {
    throw new SqliteOpenError(`expected a SQLite database at ${path}, but it could not be read (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
  if (header.length === 0) throw new SqliteOpenError(`expected a SQLite database, found an empty file (${path}); the WAL, if any, cannot be read without its database`);
  if (header.toString('latin1') !== MAGIC) {
    throw new SqliteOpenError(`expected a SQLite database (header "SQLite format 3"), found other bytes in ${path}; the file is corrupt or not a database`);
  }
  try {
    const db = new Database(path, { readonly: true, fileMustExist: true });
    // Touch the schema now so a corrupt file fails here, with one clear error.
    db.prepare('SELECT name FROM sqlite_master LIMIT 1').all();
    return db;
  } catch (e) {
    throw new SqliteOpenError(`expected a readable SQLite database at ${path}: ${(e as Error).message}; the file may be truncated or corrupt`);
  }
}

/** Table names present in the database (never fails on a missing table). */
export function tableNames(db: SqliteDatabase): Set<string> {
  const rows = db.prepare("SELECT name FROM sqlite_master WHERE type IN ('table','view')").all() as { name: string }[];
  return new Set(rows.map((r) => r.name));
}

/** Column names of a table, or an empty set when it does not exist. */
export function columnNames(db: SqliteDatabase, table: string): Set<string> {
  try {
    const rows = db.prepare(`PRAGMA table_info(${JSON.stringify(table)})`).all() as { name: string }[];
    return new Set(rows.map((r) => r.name));
  } catch {
    return new Set();
  }
}
