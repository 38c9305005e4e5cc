/**
 * Threads deleted from `threads.db` that its bytes still hold (sdk/sqlite-carve.ts): Zed writes
 * the database in WAL mode, so until a checkpoint the main file keeps every page as it was
 * before the delete, and older WAL frames keep earlier versions. A carved record is a thread when
 * it has the `threads` table's shape (its columns by position, as the live table declares them;
 * a row written before an ALTER has fewer) and its id is not a live thread's. Each thread comes
 * back once, its latest carved save, through the same rows as a live one, tagged `recovered`.
 */
import { readFile, stat } from 'node:fs/promises';
import { isObject } from '../../sdk/decode.js';
import { makeRow, recovered } from '../../sdk/row.js';
import type { SqliteDatabase } from '../../sdk/sqlite.js';
import { type CarvedRecord, carveSqlite } from '../../sdk/sqlite-carve.js';
import { type SqlRecord, sqlText } from '../../sdk/sqlite-rows.js';
import type { ParseContext, Row } from '../../sdk/types.js';
import { threadMeta, threadRows } from './thread-rows.js';

/** A database (with its WAL) larger than this is not carved (it is read into memory whole): the live rows are read all the same. */
export const MAX_CARVE_BYTES = 128 * 1024 * 1024;

/** The database's bytes and its WAL's, read before SQLite opens the copy (an open may change the WAL); null when too large or unreadable. */
export async function carveBytes(local: string, ctx: ParseContext, rel: string): Promise<{ file: Buffer; wal: Buffer | null } | null> {
  try {
    const size = (await stat(local)).size + ((await stat(`${local}-wal`).catch(() => null))?.size ?? 0);
    if (size > MAX_CARVE_BYTES) {
      ctx.warn(`${rel}: ${size} bytes with its WAL, over ${MAX_CARVE_BYTES}: deleted threads were not looked for`);
      return null;
    }
    return { file: await readFile(local), wal: await readFile(`${local}-wal`).catch(() => null) };
  } catch {
    // The live read reports an unreadable copy itself.
    return null;
  }
}

type Decode = (dataType: string, raw: unknown, ctx: ParseContext, line: number) => Promise<{ ok: true; value: unknown } | { ok: false; why: string }>;

/** A carved record as a `threads` row, when it has the table's shape. */
function asThread(r: CarvedRecord, cols: string[]): SqlRecord | null {
  if (r.values.length < 5 || r.values.length > cols.length) return null;
  const row: SqlRecord = { __rowid: r.rowid };
  r.values.forEach((v, i) => {
    row[cols[i]] = v;
  });
  const ok = typeof row.id === 'string' && row.id !== '' && typeof row.summary === 'string' && typeof row.data_type === 'string' && (Buffer.isBuffer(row.data) || typeof row.data === 'string');
  return ok ? row : null;
}

/** The rows of every deleted thread carved from `bytes`, oldest first, after the live ones. */
export async function* recoveredThreads(bytes: { file: Buffer; wal: Buffer | null }, db: SqliteDatabase, live: Set<string>, decode: Decode, ctx: ParseContext, rel: string): AsyncGenerator<Row> {
  const carved = carveSqlite(bytes.file, bytes.wal);
  for (const note of carved.notes.filter((n) => n.startsWith('more than'))) ctx.warn(`${rel}: ${note}`);
  const cols = (db.prepare("SELECT name FROM pragma_table_info('threads')").all() as { name: string }[]).map((c) => c.name);
  const latest = new Map<string, { row: SqlRecord; rec: CarvedRecord }>();
  for (const rec of carved.records) {
    const row = asThread(rec, cols);
    if (!row || live.has(row.id as string)) continue;
    const seen = latest.get(row.id as string);
    if (!seen || sqlText(row.updated_at) > sqlText(seen.row.updated_at)) latest.set(row.id as string, { row, rec });
  }
  const found = [...latest.values()].map(({ row, rec }) => ({ row, rec, meta: threadMeta(row, rec.rowid) }));
  found.sort((a, b) => (a.meta.created < b.meta.created ? -1 : a.meta.created > b.meta.created ? 1 : a.rec.rowid - b.rec.rowid));
  for (const { row, rec, meta } of found) {
    const where = rec.source === 'freelist' ? 'a freed page' : rec.source === 'file-old' ? 'the main file, as of the last checkpoint' : 'an older WAL frame';
    const at = { session_id: meta.id, project_path: meta.folders[0] ?? '', timestamp_utc: meta.created, source_line: null };
    yield makeRow('system', `deleted thread recovered: ${meta.id} "${meta.summary}" (no longer in the table; carved from ${where}, page ${rec.page}, rowid ${rec.rowid})`, { ...at, tag: 'recovered' });
    const doc = await decode(sqlText(row.data_type), row.data, ctx, rec.rowid);
    if (!doc.ok || !isObject(doc.value)) {
      const why = doc.ok ? `expected a JSON object, found ${Array.isArray(doc.value) ? 'an array' : typeof doc.value}` : doc.why;
      yield makeRow('system', `parser: unreadable recovered thread ${meta.id} (rowid ${rec.rowid}): ${why}`, { ...at, tag: 'bad_line' });
      continue;
    }
    for (const r of threadRows(doc.value, meta, ctx)) yield recovered(r);
  }
}
