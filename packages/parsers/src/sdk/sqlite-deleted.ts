/**
 * The rows a SQLite table no longer holds and its database's bytes still do: records carved by
 * {@link carveSqlite} that have the table's shape and whose identity no live row has. One place
 * for what every parser of a SQLite store needs to get right: read the bytes before SQLite opens
 * the copy, map a record's values to the columns by position (a row written before an ALTER has
 * fewer; an INTEGER PRIMARY KEY column is stored as NULL and is the rowid), keep to the pages the
 * table owns (or that nothing owns now), and look only when the live table was read whole, or a
 * live row the read could not reach would pass for deleted.
 */
import { readFile, stat } from 'node:fs/promises';
import { quoteIdent, type SqliteDatabase } from './sqlite.js';
import { type CarvedRecord, type CarvedSource, carveSqlite } from './sqlite-carve.js';
import type { SqlRecord } from './sqlite-rows.js';
import type { Artifact, ParseContext } from './types.js';

/** A database with its WAL larger than this is not carved (both are read into memory whole). */
export const MAX_CARVE_BYTES = 128 * 1024 * 1024;

/** A database file's bytes and its WAL's, as collected. */
export interface SqliteBytes {
  file: Buffer;
  wal: Buffer | null;
}

/** The bytes of a private copy and its `-wal`, read before SQLite opens it (an open may change the WAL); or why they were not. */
export async function readSqliteBytes(local: string, max = MAX_CARVE_BYTES): Promise<{ ok: true; bytes: SqliteBytes } | { ok: false; why: string }> {
  try {
    const wal = await stat(`${local}-wal`).catch(() => null);
    const size = (await stat(local)).size + (wal?.size ?? 0);
    if (size > max) return { ok: false, why: `${size} bytes with its WAL, over ${max}: deleted rows were not looked for` };
    return { ok: true, bytes: { file: await readFile(local), wal: wal ? await readFile(`${local}-wal`) : null } };
  } catch (e) {
    return { ok: false, why: `its bytes could not be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})` };
  }
}

/** Where a carved record was found, as the rows that give one back say it. */
export const CARVED_FROM: Record<CarvedSource, string> = { freelist: 'a freed page', 'file-old': 'the main file, as of the last checkpoint', 'wal-old': 'an older WAL frame' };

/** `carved from <where>, page <n>, rowid <r>`: the end of every row that heads a thing carved back. */
export function carvedAt(record: CarvedRecord): string {
  return `carved from ${CARVED_FROM[record.source]}, page ${record.page}, rowid ${record.rowid}`;
}

/** An artifact's bytes for {@link deletedRows}, read before its SQLite copy is opened; null (with a warning saying why, when there is one) when they cannot be had. */
export async function readArtifactSqliteBytes(a: Artifact, ctx: ParseContext): Promise<SqliteBytes | null> {
  let local: string;
  try {
    local = await a.localPath();
  } catch {
    // The open that follows says why the copy could not be made.
    return null;
  }
  const r = await readSqliteBytes(local);
  if (!r.ok) ctx.warn(`${a.rel}: ${r.why}`);
  return r.ok ? r.bytes : null;
}

/** A row carved back: its columns by name (`__rowid` too) and where it was found. */
export interface DeletedRow {
  row: SqlRecord;
  record: CarvedRecord;
}

/** How {@link deletedRows} tells a table's rows apart. */
export interface DeletedRowsOptions {
  /** A row's identity, live or carved; null when a carved record is not a row of this table (another table's that fits by chance). */
  key: (r: SqlRecord) => string | null;
  /** Whether a carved row replaces the one kept for the same key (default: the first found stays). */
  newer?: (candidate: SqlRecord, kept: SqlRecord) => boolean;
  /** Fewest columns a carved record may have (default: every column the table has now). */
  minColumns?: number;
}

/** The rows of `table` carved from `bytes` whose key no live row has, one per key, in the order found; and what stopped the look. */
export function deletedRows(bytes: SqliteBytes, db: SqliteDatabase, table: string, opts: DeletedRowsOptions): { rows: DeletedRow[]; notes: string[] } {
  let cols: { name: string; type: string; pk: number }[];
  const live = new Set<string>();
  try {
    cols = db.prepare('SELECT name, type, pk FROM pragma_table_info(?)').all(table) as typeof cols;
    if (cols.length === 0) return { rows: [], notes: [] };
    for (const r of db.prepare(`SELECT * FROM ${quoteIdent(table)}`).iterate() as IterableIterator<SqlRecord>) {
      const k = opts.key(r);
      if (k !== null) live.add(k);
    }
  } catch {
    return { rows: [], notes: [`the live ${table} table could not be read whole; its deleted rows were not looked for`] };
  }
  // Which b-tree owns each live page (SQLite's dbstat): an older version of a page another table
  // owns now (the schema's page 1 above all) is that table's, not this one's. A freed page, or one
  // past the live end, may have been this table's: its records are judged by their shape alone.
  const owner = new Map<number, string>();
  try {
    for (const r of db.prepare('SELECT pageno, name FROM dbstat').iterate() as IterableIterator<{ pageno: number; name: string }>) owner.set(r.pageno, r.name);
  } catch {
    return { rows: [], notes: [`the pages of ${table} could not be listed; its deleted rows were not looked for`] };
  }
  const pks = cols.filter((c) => c.pk > 0);
  const alias = pks.length === 1 && pks[0].type.toUpperCase() === 'INTEGER' ? cols.indexOf(pks[0]) : -1;
  const min = opts.minColumns ?? cols.length;
  const kept = new Map<string, DeletedRow>();
  const asRow = (record: CarvedRecord): SqlRecord | null => {
    if (record.values.length < min || record.values.length > cols.length) return null;
    const row: SqlRecord = { __rowid: record.rowid };
    cols.forEach((c, i) => {
      row[c.name] = i === alias && (record.values[i] ?? null) === null ? record.rowid : (record.values[i] ?? null);
    });
    return row;
  };
  // Decided as each record is carved, so the older saves of live rows are never held in memory.
  const carved = carveSqlite(bytes.file, bytes.wal, {
    accept: (page) => (owner.get(page) ?? table) === table,
    filter: (record) => {
      const row = asRow(record);
      const k = row && opts.key(row);
      if (!row || k === null || k === undefined || live.has(k)) return false;
      const seen = kept.get(k);
      if (seen && !opts.newer?.(row, seen.row)) return false;
      kept.set(k, { row, record });
      // Held: it counts toward the carve's limits on records and bytes kept.
      return true;
    },
  });
  return { rows: [...kept.values()], notes: carved.notes.filter((n) => n.startsWith('more than') || n.startsWith('stopped')) };
}
