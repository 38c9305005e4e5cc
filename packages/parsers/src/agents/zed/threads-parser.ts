/**
 * `threads/threads.db` (zed crates/agent/src/db.rs): one row per Agent Panel thread, rewritten
 * whole on every save; `data` is one JSON document, zstd-compressed (`data_type` "zstd") or plain
 * ("json"). Each thread's rows come from {@link threadRows}; a row that does not decode gives one
 * `bad_line` row naming the thread, and the next thread is read.
 */
import { jsonText } from '../../sdk/compact-json.js';
import { isObject } from '../../sdk/decode.js';
import { makeRow } from '../../sdk/row.js';
import { tableNames } from '../../sdk/sqlite.js';
import { readArtifactSqliteBytes } from '../../sdk/sqlite-deleted.js';
import { isSqlRow, openArtifactSqlite, selectList, sqlText, tableRows } from '../../sdk/sqlite-rows.js';
import type { Artifact, ParseContext, Row } from '../../sdk/types.js';
import { isZstd, zstdDecompress } from '../../sdk/zstd.js';
import { recoveredThreads } from './recovered-threads.js';
import { threadMeta, threadRows } from './thread-rows.js';

/** A decoded document larger than this is not parsed (a zstd bomb, or damage): its thread says so. */
export const MAX_DOCUMENT_BYTES = 256 * 1024 * 1024;

const COLS = ['id', 'summary', 'updated_at', 'data_type', 'data', 'parent_id', 'folder_paths', 'folder_paths_order', 'created_at'];

/** A thread's document, or why it could not be read. */
export type Decoded = { ok: true; value: unknown } | { ok: false; why: string };

/**
 * The compressed bytes fed 1 KiB at a time: a frame of RLE blocks turns each few bytes into 128
 * KiB, so the cap is checked every ~25 MB decoded at worst, not after a bomb is all in memory.
 */
async function* slices(b: Buffer): AsyncGenerator<Buffer> {
  for (let i = 0; i < b.length; i += 1024) yield b.subarray(i, i + 1024);
}

async function zstdText(buf: Buffer, max: number): Promise<{ ok: true; text: string } | { ok: false; why: string }> {
  const parts: Buffer[] = [];
  let n = 0;
  try {
    for await (const c of zstdDecompress(slices(buf))) {
      n += c.length;
      if (n > max) return { ok: false, why: `its document decodes to more than ${max} bytes; not read` };
      parts.push(c);
    }
  } catch (e) {
    // A document cut short is not JSON: nothing of it is kept, whatever the decoder's own words say.
    return { ok: false, why: (e as Error).message.replace(/; the rows decoded before the fault are kept$/, '') };
  }
  return { ok: true, text: Buffer.concat(parts, n).toString('utf8') };
}

/** A thread's `data` as its JSON document: zstd by `data_type` or by its magic (a missing or new type), else JSON text; at most `max` bytes decoded. */
export async function decodeThreadData(dataType: string, raw: unknown, ctx: ParseContext, line: number, max = MAX_DOCUMENT_BYTES): Promise<Decoded> {
  const buf = raw instanceof Uint8Array ? Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength) : Buffer.from(sqlText(raw), 'utf8');
  if (buf.length === 0) return { ok: false, why: 'its data is empty' };
  const zstd = isZstd(buf);
  if (dataType !== 'zstd' && dataType !== 'json') ctx.unknown(`data_type ${jsonText(dataType)}`, line);
  if (dataType === 'zstd' && !zstd) return { ok: false, why: `data_type is zstd but the data does not start with zstd's magic (found ${buf.subarray(0, 4).toString('hex')})` };
  let text: string;
  if (zstd) {
    const r = await zstdText(buf, max);
    if (!r.ok) return r;
    text = r.text;
  } else {
    if (buf.length > max) return { ok: false, why: `its document is larger than ${max} bytes; not read` };
    text = buf.toString('utf8');
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    return { ok: false, why: `expected a JSON document, found ${jsonText(text.slice(0, 80))} (${(e as Error).message})` };
  }
}


/** The Agent Panel's threads, oldest first (source_line: a message's 1-based place in its thread). */
export async function* parseZedThreads(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  // The bytes first: deleted threads are carved from the copy as collected, before SQLite opens it.
  const bytes = await readArtifactSqliteBytes(a, ctx);
  const opened = await openArtifactSqlite(a);
  if (!opened.ok) {
    yield opened.row;
    return;
  }
  const db = opened.db;
  try {
    if (!tableNames(db).has('threads')) {
      ctx.warn(`${a.rel} has no threads table: ${opened.hadWal ? 'its -wal holds no committed schema' : 'not a Zed threads database, or its rows are in a -wal that was not collected'}`);
      return;
    }
    const sql = `SELECT * FROM (SELECT rowid AS "__rowid", ${selectList(db, 'threads', COLS)} FROM threads) ORDER BY COALESCE(created_at, updated_at), "__rowid"`;
    for (const r of tableRows(db, 'threads', sql)) {
      if (isSqlRow(r)) {
        yield r;
        continue;
      }
      const meta = threadMeta(r, Number(r.__rowid));
      const doc = await decodeThreadData(sqlText(r.data_type), r.data, ctx, meta.line);
      if (!doc.ok || !isObject(doc.value)) {
        const why = doc.ok ? `expected a JSON object, found ${Array.isArray(doc.value) ? 'an array' : typeof doc.value}` : doc.why;
        yield makeRow('system', `parser: unreadable thread ${meta.id} "${meta.summary}" (rowid ${meta.line}): ${why}`, { session_id: meta.id, project_path: meta.folders[0] ?? '', timestamp_utc: meta.created, source_line: null, tag: 'bad_line' });
        continue;
      }
      yield* threadRows(doc.value, meta, ctx);
    }
    if (bytes) yield* recoveredThreads(bytes, db, decodeThreadData, ctx, a.rel);
  } finally {
    db.close();
  }
}
