/**
 * Conversations and messages cursorDiskKV no longer holds and the state database's bytes still
 * do (sdk/sqlite-deleted.ts): a deleted composer's `composerData:` record with its `bubbleId:`
 * and `checkpointId:` records, and bubbles a live conversation lost (a checkpoint restored drops
 * the later messages). The recovered key-value records go into a table of the same shape in
 * memory and through the very readers the live table goes through, so a recovered conversation
 * reads like a live one; its rows are tagged `recovered` (session, model and permission tags
 * kept), after a row saying where it was found. cursorDiskKV replaces a key on every write, so a
 * key that is still live is never taken for a deleted one, only its older values are set aside.
 */
import { makeRow, recovered } from '../../sdk/row.js';
import type { SqliteDatabase } from '../../sdk/sqlite.js';
import { type DeletedRow, deletedRows, type SqliteBytes, CARVED_FROM, carvedAt } from '../../sdk/sqlite-deleted.js';
import type { ParseContext, Row } from '../../sdk/types.js';
import { conversationRows, orphanRows } from './conversations.js';

const KEY = /^(composerData|bubbleId|checkpointId):([^:]+)/;

/** A record's key when it is a conversation's (a composer, a message, a checkpoint) and its value is text or bytes. */
function conversationKey(r: Record<string, unknown>): string | null {
  return typeof r.key === 'string' && KEY.test(r.key) && (typeof r.value === 'string' || Buffer.isBuffer(r.value) || r.value instanceof Uint8Array) ? r.key : null;
}

/** The recovered records in an in-memory cursorDiskKV, each at its old rowid where two do not share one. */
async function memoryTable(found: DeletedRow[]): Promise<SqliteDatabase> {
  const Db = (await import('better-sqlite3')).default;
  const mem = new Db(':memory:');
  mem.exec('CREATE TABLE cursorDiskKV (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)');
  const atRowid = mem.prepare('INSERT INTO cursorDiskKV (rowid, key, value) VALUES (?, ?, ?)');
  const anywhere = mem.prepare('INSERT INTO cursorDiskKV (key, value) VALUES (?, ?)');
  const used = new Set<number>();
  // Composers first: a conversation is read from its composerData's rowid, so that one must hold.
  const ordered = [...found].sort((x, y) => Number(!String(x.row.key).startsWith('composerData:')) - Number(!String(y.row.key).startsWith('composerData:')));
  for (const { row, record } of ordered) {
    if (used.has(record.rowid)) anywhere.run(row.key, row.value);
    else atRowid.run(record.rowid, row.key, row.value);
    used.add(record.rowid);
  }
  return mem;
}

/** The rows of every deleted conversation, then of the deleted messages of each other conversation, carved from `bytes`. */
export async function* recoveredConversations(bytes: SqliteBytes, db: SqliteDatabase, projectOf: (id: string) => string, ctx: ParseContext, rel: string): AsyncGenerator<Row> {
  const found = deletedRows(bytes, db, 'cursorDiskKV', { key: conversationKey, minColumns: 2 });
  for (const n of found.notes) ctx.warn(`${rel}: ${n}`);
  if (found.rows.length === 0) return;
  const composers = found.rows.filter((d) => String(d.row.key).startsWith('composerData:')).sort((x, y) => x.record.rowid - y.record.rowid);
  const composerIds = new Set(composers.map((d) => KEY.exec(String(d.row.key))?.[2] ?? ''));
  const lostMessages = [...new Set(found.rows.flatMap((d) => (String(d.row.key).startsWith('bubbleId:') ? [KEY.exec(String(d.row.key))?.[2] ?? ''] : [])))].filter((id) => id !== '' && !composerIds.has(id));
  const mem = await memoryTable(found.rows);
  const live = db.prepare('SELECT 1 FROM cursorDiskKV WHERE key = ?');
  try {
    for (const { row, record } of composers) {
      const id = String(row.key).slice('composerData:'.length);
      yield makeRow('system', `deleted conversation recovered: ${id} (no longer in the database; ${carvedAt(record)})`, { session_id: id, project_path: projectOf(id), source_line: record.rowid, tag: 'recovered' });
      for (const r of conversationRows(mem, { id, rowid: record.rowid }, projectOf(id), '', ctx)) yield recovered(r);
    }
    for (const id of lostMessages) {
      const records = found.rows.filter((d) => String(d.row.key).startsWith(`bubbleId:${id}:`));
      const still = live.get(`composerData:${id}`) !== undefined;
      yield makeRow('system', `deleted messages recovered: ${records.length} message record(s) of conversation ${id} no longer in the database${still ? '' : ', whose composerData is gone too'} (carved from ${[...new Set(records.map((d) => CARVED_FROM[d.record.source]))].join(', ')})`, { session_id: id, project_path: projectOf(id), source_line: records[0]?.record.rowid ?? null, tag: 'recovered' });
      // orphanRows' own first row says the composerData is gone, which the row above says right.
      let first = true;
      for (const r of orphanRows(mem, id, ctx)) {
        if (!first) yield recovered(r);
        first = false;
      }
    }
  } finally {
    mem.close();
  }
}
