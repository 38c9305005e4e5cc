import { normalizeTimestamp } from '../../sdk/timestamp.js';
import type { ParseContext } from '../../sdk/types.js';

/** A column as text: strings as stored, numbers printed, blobs read as UTF-8 (SQLite keeps any type in any column), NULL ''. */
export function text(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  if (v instanceof Uint8Array) return Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('utf8');
  return '';
}

/** A stored time in UTC; one that cannot be read leaves the row undated and says so. */
export function stamp(v: unknown, table: string, rowid: number, ctx: ParseContext): string {
  if (v === null || v === undefined || v === '') return '';
  const r = normalizeTimestamp(typeof v === 'bigint' ? Number(v) : v);
  if (r.ok) return r.value;
  ctx.warn(`session-store.db ${table} rowid ${rowid}: ${r.reason}`, rowid);
  return '';
}
