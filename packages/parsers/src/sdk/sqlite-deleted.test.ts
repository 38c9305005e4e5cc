import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openCollectedSqlite } from './sqlite.js';
import { deletedRows, readSqliteBytes } from './sqlite-deleted.js';
import { takenWhileOpen } from './test-helpers/taken-while-open.js';

// Real databases in WAL mode written by SQLite and copied with their -wal while the writer is
// open (as a collector copies them), then read as a parser reads them: bytes first, then the
// live tables through openCollectedSqlite.

const root = mkdtempSync(join(tmpdir(), 'aitrail-deleted-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

async function taken(build: (db: Database.Database) => void) {
  const copy = join(root, `d${++n}`, 'copy.db');
  takenWhileOpen(copy, build);
  const bytes = await readSqliteBytes(copy);
  if (!bytes.ok) throw new Error(bytes.why);
  return { bytes: bytes.bytes, live: await openCollectedSqlite(copy), copy };
}

describe('deletedRows', () => {
  it('gives the rows whose key is gone, one per key (the newer save when asked), the INTEGER PRIMARY KEY as the rowid, rows from before an ALTER', async () => {
    const t = await taken((db) => {
      db.exec('CREATE TABLE turns (id INTEGER PRIMARY KEY, session_id TEXT, turn_index INTEGER, user_message TEXT)');
      const put = db.prepare('INSERT INTO turns (session_id, turn_index, user_message) VALUES (?, ?, ?)');
      put.run('s1', 0, 'kept');
      put.run('s2', 0, 'old prompt of a deleted session');
      db.exec('ALTER TABLE turns ADD COLUMN reply TEXT');
      db.pragma('wal_checkpoint(TRUNCATE)');
      db.exec("UPDATE turns SET user_message = 'edited prompt of a deleted session', reply = 'r' WHERE session_id = 's2'");
      db.exec("DELETE FROM turns WHERE session_id = 's2'");
      // A live row whose key changes is not deleted: its old key is still a live row's.
      db.exec("UPDATE turns SET user_message = 'kept, edited' WHERE session_id = 's1'");
    });
    const key = (r: Record<string, unknown>) => (typeof r.session_id === 'string' ? `${r.session_id}#${r.turn_index}` : null);
    const first = deletedRows(t.bytes, t.live, 'turns', { key, minColumns: 4 });
    expect(first.rows.map((d) => [d.row.id, d.row.session_id, d.row.user_message, d.row.reply ?? null, d.record.source])).toEqual([[2, 's2', 'old prompt of a deleted session', null, 'file-old']]);
    const newer = deletedRows(t.bytes, t.live, 'turns', { key, minColumns: 4, newer: (a) => a.reply !== null });
    expect(newer.rows.map((d) => [d.row.id, d.row.user_message, d.row.reply, d.record.source])).toEqual([[2, 'edited prompt of a deleted session', 'r', 'wal-old']]);
    // Without the rows from before the ALTER (four columns of five), only the edited save is one.
    expect(deletedRows(t.bytes, t.live, 'turns', { key }).rows.map((d) => d.row.user_message)).toEqual(['edited prompt of a deleted session']);
    // A key that refuses every record gives nothing; so does a table with no columns.
    expect(deletedRows(t.bytes, t.live, 'turns', { key: () => null }).rows).toEqual([]);
    expect(deletedRows(t.bytes, t.live, 'no_such_table', { key }).rows).toEqual([]);
    t.live.close();
  });

  it("keeps to the table's own pages: the schema's older page 1 (records of five values, like this table's) is not read as its rows", async () => {
    const t = await taken((db) => {
      db.exec('CREATE TABLE sessions (id TEXT PRIMARY KEY, cwd TEXT, summary TEXT, a, b)');
      db.pragma('wal_checkpoint(TRUNCATE)');
      // A new table rewrites page 1 in the WAL: the main file's page 1 is now an older version.
      db.exec('CREATE TABLE later (x)');
    });
    const any = (r: Record<string, unknown>) => (typeof r.id === 'string' ? r.id : null);
    expect(deletedRows(t.bytes, t.live, 'sessions', { key: any }).rows).toEqual([]);
    t.live.close();
  });

  it('readSqliteBytes: over the cap or unreadable, says why instead', async () => {
    const t = await taken((db) => db.exec('CREATE TABLE x (a)'));
    t.live.close();
    const capped = await readSqliteBytes(t.copy, 100);
    expect(capped).toEqual({ ok: false, why: expect.stringMatching(/^\d+ bytes with its WAL, over 100: deleted rows were not looked for$/) });
    expect(await readSqliteBytes(join(root, 'missing.db'))).toEqual({ ok: false, why: 'its bytes could not be read (ENOENT)' });
    writeFileSync(join(root, 'lone.db'), Buffer.alloc(10));
    expect(await readSqliteBytes(join(root, 'lone.db'))).toEqual({ ok: true, bytes: { file: Buffer.alloc(10), wal: null } });
  });
});
