/**
 * Threads deleted from `threads.db` that its bytes still hold (sdk/sqlite-deleted.ts): Zed writes
 * the database in WAL mode, so until a checkpoint the main file keeps every page as it was
 * before the delete, and older WAL frames keep earlier saves. A carved record is a thread when it
 * has the `threads` table's shape (a row saved before an ALTER has fewer columns) and its id is
 * not a live thread's. Each thread comes back once, its latest carved save, through the same rows
 * as a live one, tagged `recovered`.
 */
import { isObject } from '../../sdk/decode.js';
import { makeRow, recovered } from '../../sdk/row.js';
import type { SqliteDatabase } from '../../sdk/sqlite.js';
import { deletedRows, type SqliteBytes, carvedAt } from '../../sdk/sqlite-deleted.js';
import { type SqlRecord, sqlText } from '../../sdk/sqlite-rows.js';
import type { ParseContext, Row } from '../../sdk/types.js';
import { threadMeta, threadRows } from './thread-rows.js';

type Decode = (dataType: string, raw: unknown, ctx: ParseContext, line: number) => Promise<{ ok: true; value: unknown } | { ok: false; why: string }>;

/** A thread's id, when the row has a thread's shape (an id, a summary, a data type and data). */
function threadKey(r: SqlRecord): string | null {
  const ok = typeof r.id === 'string' && r.id !== '' && typeof r.summary === 'string' && typeof r.data_type === 'string' && (Buffer.isBuffer(r.data) || r.data instanceof Uint8Array || typeof r.data === 'string');
  return ok ? (r.id as string) : null;
}


/** The rows of every deleted thread carved from `bytes`, oldest first, after the live ones. */
export async function* recoveredThreads(bytes: SqliteBytes, db: SqliteDatabase, decode: Decode, ctx: ParseContext, rel: string): AsyncGenerator<Row> {
  const carved = deletedRows(bytes, db, 'threads', { key: threadKey, minColumns: 5, newer: (a, b) => sqlText(a.updated_at) > sqlText(b.updated_at) });
  for (const note of carved.notes) ctx.warn(`${rel}: ${note}`);
  const found = carved.rows.map(({ row, record }) => ({ row, record, meta: threadMeta(row, record.rowid) }));
  found.sort((a, b) => (a.meta.created < b.meta.created ? -1 : a.meta.created > b.meta.created ? 1 : a.record.rowid - b.record.rowid));
  for (const { row, record, meta } of found) {
    const at = { session_id: meta.id, project_path: meta.folders[0] ?? '', timestamp_utc: meta.created, source_line: null };
    yield makeRow('system', `deleted thread recovered: ${meta.id} "${meta.summary}" (no longer in the table; ${carvedAt(record)})`, { ...at, tag: 'recovered' });
    const doc = await decode(sqlText(row.data_type), row.data, ctx, record.rowid);
    if (!doc.ok || !isObject(doc.value)) {
      const why = doc.ok ? `expected a JSON object, found ${Array.isArray(doc.value) ? 'an array' : typeof doc.value}` : doc.why;
      yield makeRow('system', `parser: unreadable recovered thread ${meta.id} (rowid ${record.rowid}): ${why}`, { ...at, tag: 'bad_line' });
      continue;
    }
    for (const r of threadRows(doc.value, meta, ctx)) yield recovered(r);
  }
}
