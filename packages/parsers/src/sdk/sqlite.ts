import { rmSync } from 'node:fs';
import { copyFile, mkdtemp, open, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type Database from 'better-sqlite3';

/** A read-only handle on a collected SQLite database. */
export type SqliteDatabase = Database.Database;

/** Why a collected database could not be opened; the message says what to do. */
export class SqliteOpenError extends Error {}

const MAGIC = 'SQLite format 3\u0000';

/**
 * Open a collected SQLite database read-only, from a copy that has its `-wal` (and `-shm`)
 * beside it, so rows that live only in the WAL are read. A database in rollback-journal mode
 * copied in the middle of a write (its `-journal` beside it, hot) is read as SQLite would read it
 * after the rollback: from a second private copy, rolled back once and removed on close. Never
 * use this on evidence in place: the caller materializes a private copy first (the collector
 * never opens SQLite at all).
 * Throws {@link SqliteOpenError} with a clear message for a file that is not a database; the
 * message names `displayName` (give the artifact's `rel`), never the private copy's path, so a
 * row quoting it does not depend on where the analysis ran. Without it, the path's base name.
 * better-sqlite3 is loaded here, on first use, so the SDK imports without the native module.
 */
export async function openCollectedSqlite(path: string, displayName?: string): Promise<SqliteDatabase> {
  const name = displayName ?? basename(path);
  let header: Buffer;
  let size: number;
  try {
    const fh = await open(path, 'r');
    try {
      header = Buffer.alloc(100);
      const { bytesRead } = await fh.read(header, 0, 100, 0);
      header = header.subarray(0, bytesRead);
      size = (await fh.stat()).size;
    } finally {
      await fh.close();
    }
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? String(e);
    if (code === 'ENOENT' && (await exists(`${path}-wal`))) {
      throw new SqliteOpenError(`expected a SQLite database at ${name}, found only its write-ahead log (${name}-wal); a WAL cannot be read without its database: collect the database file too`);
    }
    throw new SqliteOpenError(`expected a SQLite database at ${name}, but it could not be read (${code})`);
  }
  if (header.length === 0) throw new SqliteOpenError(`expected a SQLite database, found an empty file (${name}); the WAL, if any, cannot be read without its database`);
  if (header.subarray(0, 16).toString('latin1') !== MAGIC) {
    throw new SqliteOpenError(`expected a SQLite database (header "SQLite format 3"), found other bytes in ${name}; the file is corrupt or not a database`);
  }
  // With a WAL beside it, pages past the main file's end can be in the WAL (a copy taken while a
  // checkpoint was writing: page 1 already says the new size); SQLite reads them from there and
  // reports corruption itself if they are not.
  const truncated = truncation(name, header, size);
  if (truncated && !(await nonEmpty(`${path}-wal`))) throw new SqliteOpenError(truncated);
  let Db: typeof Database;
  try {
    Db = (await import('better-sqlite3')).default;
  } catch (e) {
    throw new SqliteOpenError(`expected the better-sqlite3 module to read ${name}, but it could not be loaded (${(e as Error).message}); reinstall @aitrail/parsers with install scripts enabled`);
  }
  let db: SqliteDatabase | undefined;
  try {
    db = new Db(path, { readonly: true, fileMustExist: true });
    // Touch the schema now so a corrupt file fails here, with one clear error.
    db.prepare('SELECT name FROM sqlite_master LIMIT 1').all();
    shadowViews(db);
    return db;
  } catch (e) {
    db?.close();
    if (NEEDS_WRITE.has((e as { code?: string }).code ?? '')) return openRecovered(Db, path, name);
    // Only the first line: bindings lists every path it tried.
    const msg = (e as Error).message.split('\n')[0];
    // better-sqlite3 loads its native addon on the first open; installed without scripts it has none.
    if (/bindings|\.node\b|NODE_MODULE_VERSION/.test(msg)) {
      throw new SqliteOpenError(`expected better-sqlite3's native module to read ${name}, but it could not be loaded (${msg}); reinstall with install scripts enabled (npm rebuild better-sqlite3)`);
    }
    throw new SqliteOpenError(`expected a readable SQLite database at ${name}: ${msg}; the file may be truncated or corrupt`);
  }
}

/**
 * Every view of the collected database is shadowed by an empty temporary table of the same name
 * and columns (SQLite resolves an unqualified name in the temp schema first): an agent keeps its
 * data in tables, and a view's rows are computed when read, so a planted one (a recursive CTE
 * under the name VS Code's ItemTable has) made a parser's SELECT run forever and the analysis
 * with it. The connection stays read-only: temporary objects live outside the file.
 */
function shadowViews(db: SqliteDatabase): void {
  const views = db.prepare("SELECT name FROM sqlite_master WHERE type = 'view'").all() as { name: string }[];
  for (const { name } of views) {
    // Compiling the view names its columns without running it (none when it does not compile).
    const cols = [...columnNames(db, name)];
    // An empty table rather than an empty view: it has a rowid, as the table a parser expects does.
    db.exec(`CREATE TEMP TABLE IF NOT EXISTS ${quoteIdent(name)} (${cols.length > 0 ? cols.map(quoteIdent).join(', ') : '"_"'})`);
  }
}

// A hot rollback journal (a copy taken in the middle of a write transaction) must be rolled
// back, and a WAL whose index cannot be rebuilt in place must be recovered, before any read; a
// read-only connection can do neither (SQLITE_READONLY_ROLLBACK / _RECOVERY).
const NEEDS_WRITE = new Set(['SQLITE_READONLY_ROLLBACK', 'SQLITE_READONLY_RECOVERY']);

/**
 * Open a private copy of the database and its sidecars read-write once, so SQLite rolls the hot
 * journal back (or recovers the WAL) exactly as the writer would have on its next start, then
 * read that copy read-only. The files given (which may be evidence when a caller opens a file in
 * place) are never written; the copy is removed when the handle is closed or the process exits.
 */
async function openRecovered(Db: typeof Database, path: string, name: string): Promise<SqliteDatabase> {
  const dir = await mkdtemp(join(tmpdir(), 'aitrail-sqlite-'));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  process.once('exit', remove);
  const copy = join(dir, 'db');
  let db: SqliteDatabase | undefined;
  try {
    await copyFile(path, copy);
    for (const s of ['-journal', '-wal', '-shm']) if (await exists(path + s)) await copyFile(path + s, copy + s);
    const rw = new Db(copy, { fileMustExist: true });
    try {
      rw.prepare('SELECT name FROM sqlite_master LIMIT 1').all();
    } finally {
      rw.close();
    }
    db = new Db(copy, { readonly: true, fileMustExist: true });
    db.prepare('SELECT name FROM sqlite_master LIMIT 1').all();
    shadowViews(db);
  } catch (e) {
    db?.close();
    remove();
    process.removeListener('exit', remove);
    const msg = (e as Error).message.split('\n')[0];
    throw new SqliteOpenError(`expected a SQLite database whose hot journal or write-ahead log can be rolled back in a private copy, but ${name} could not be (${msg}); the file may be truncated or corrupt`);
  }
  const close = db.close.bind(db);
  db.close = () => {
    const r = close();
    remove();
    process.removeListener('exit', remove);
    return r;
  };
  return db;
}

async function nonEmpty(p: string): Promise<boolean> {
  try {
    return (await stat(p)).size > 0;
  } catch {
    return false;
  }
}

async function exists(p: string): Promise<boolean> {
  try {
    await stat(p);
    return true;
  } catch {
    return false;
  }
}

// The header's page size and page count say how long the main file must be; a shorter file was
// cut (a partial copy), and SQLite would only notice later, on the first query that reaches the
// missing pages. The count is trusted only when valid (offset 92 equals the change counter at 24).
function truncation(name: string, h: Buffer, size: number): string | undefined {
  if (h.length < 100) return `expected a SQLite database, found a file of ${size} bytes that begins like one (${name}); it is truncated: collect it again`;
  const raw = h.readUInt16BE(16);
  const pageSize = raw === 1 ? 65536 : raw;
  const pages = h.readUInt32BE(28);
  const valid = h.readUInt32BE(92) === h.readUInt32BE(24);
  if (valid && pages > 0 && size < pages * pageSize) {
    return `expected a SQLite database of ${pages} pages of ${pageSize} bytes (${pages * pageSize} bytes), found ${size} bytes in ${name}; it is truncated: collect it again`;
  }
  return undefined;
}

/** A table or column name quoted for SQL (never spliced raw). */
export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Table names present in the database (never fails on a missing table). */
export function tableNames(db: SqliteDatabase): Set<string> {
  const rows = db.prepare("SELECT name FROM sqlite_master WHERE type IN ('table','view')").all() as { name: string }[];
  return new Set(rows.map((r) => r.name));
}

/** Column names of a table, or an empty set when it does not exist. */
export function columnNames(db: SqliteDatabase, table: string): Set<string> {
  try {
    // Bound, not spliced: a table name is never SQL.
    const rows = db.prepare('SELECT name FROM pragma_table_info(?)').all(table) as { name: string }[];
    return new Set(rows.map((r) => r.name));
  } catch {
    return new Set();
  }
}
