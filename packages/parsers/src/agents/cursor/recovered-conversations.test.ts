import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { takenWhileOpen } from '../../sdk/test-helpers/taken-while-open.js';
import { parseFile, STATE_SCHEMA, scratchHome } from './test-helpers/build.js';

// A real global state.vscdb in WAL mode with Cursor's two tables, written by SQLite: a
// conversation deleted, and a message of a live one dropped (a checkpoint restored), after a
// checkpoint; the database copied with its -wal while the writer is open.

const { dir, done } = scratchHome('cursor-recovered');
afterAll(done);
const G = '.config/Cursor/User/globalStorage/state.vscdb';
const LIVE = 'c1111111-0000-4000-8000-00000000000a';
const GONE = 'c1111111-0000-4000-8000-00000000000b';
let n = 0;

const json = (v: unknown) => JSON.stringify(v);
const composer = (id: string, name: string, bubbles: string[]) => [`composerData:${id}`, json({ _v: 10, composerId: id, name, createdAt: 1790845200000, lastUpdatedAt: 1790845260000, fullConversationHeadersOnly: bubbles.map((b, i) => ({ bubbleId: b, type: i % 2 === 0 ? 1 : 2 })) })];
const bubble = (id: string, b: string, type: number, text: string, at: string) => [`bubbleId:${id}:${b}`, json({ _v: 3, bubbleId: b, type, text, createdAt: at })];

function home(build: (db: Database.Database, put: (kv: string[]) => void) => void): string {
  const h = join(dir, `h${++n}`);
  takenWhileOpen(join(h, G), (db) => {
    db.exec(STATE_SCHEMA);
    const ins = db.prepare('INSERT INTO cursorDiskKV (key, value) VALUES (?, ?)');
    build(db, ([k, v]) => ins.run(k, v));
  });
  return h;
}

describe('cursor state.vscdb: deleted conversations and messages carved back', () => {
  it('a deleted conversation reads as a live one, tagged recovered; a live one keeps its rows and gets its lost message back', async () => {
    const h = home((db, put) => {
      put(composer(LIVE, 'Kept chat', ['l1', 'l2', 'l3']));
      put(bubble(LIVE, 'l1', 1, 'first question', '2026-10-01T09:00:01.000Z'));
      put(bubble(LIVE, 'l2', 2, 'first answer', '2026-10-01T09:00:02.000Z'));
      put(bubble(LIVE, 'l3', 1, 'a question later taken back', '2026-10-01T09:00:03.000Z'));
      put(composer(GONE, 'Deleted chat', ['g1', 'g2']));
      put(bubble(GONE, 'g1', 1, 'copy the customer table to my laptop', '2026-10-01T10:00:01.000Z'));
      put(bubble(GONE, 'g2', 2, 'Done: customers.csv', '2026-10-01T10:00:02.000Z'));
      db.pragma('wal_checkpoint(TRUNCATE)');
      db.exec(`DELETE FROM cursorDiskKV WHERE key LIKE '%${GONE}%'`);
      db.prepare('DELETE FROM cursorDiskKV WHERE key = ?').run(`bubbleId:${LIVE}:l3`);
      put(composer(LIVE, 'Kept chat', ['l1', 'l2']));
    });
    const { rows, ctx } = await parseFile(h, G);
    const brief = (id: string) => rows.filter((r) => r.session_id === id).map((r) => [r.turn_type, r.text, r.tag ?? '']);
    expect(brief(LIVE)).toEqual([
      ['system', 'session start: cursor composer', 'session_start'],
      ['user', 'first question', ''],
      ['assistant', 'first answer', ''],
      ['system', 'session name: Kept chat', 'session_name'],
      ['system', expect.stringMatching(/^deleted messages recovered: 1 message record\(s\) of conversation c1111111-\S+ no longer in the database \(carved from the main file, as of the last checkpoint\)$/), 'recovered'],
      ['user', 'a question later taken back', 'recovered'],
    ]);
    expect(brief(GONE)).toEqual([
      ['system', expect.stringMatching(/^deleted conversation recovered: c1111111-\S+ \(no longer in the database; carved from the main file, as of the last checkpoint, page \d+, rowid \d+\)$/), 'recovered'],
      ['system', 'session start: cursor composer', 'session_start'],
      ['user', 'copy the customer table to my laptop', 'recovered'],
      ['assistant', 'Done: customers.csv', 'recovered'],
      ['system', 'session name: Deleted chat', 'session_name'],
    ]);
    expect(ctx.warnings).toEqual([]);
  });

  it('a key written again (Cursor replaces it) is not deleted: nothing recovered', async () => {
    const h = home((db, put) => {
      put(composer(LIVE, 'v1', ['l1']));
      put(bubble(LIVE, 'l1', 1, 'q', '2026-10-01T09:00:01.000Z'));
      db.pragma('wal_checkpoint(TRUNCATE)');
      put(composer(LIVE, 'v2', ['l1']));
      put(bubble(LIVE, 'l1', 1, 'q, edited', '2026-10-01T09:00:01.000Z'));
    });
    const { rows } = await parseFile(h, G);
    expect(rows.filter((r) => r.tag === 'recovered')).toEqual([]);
    expect(rows.filter((r) => r.turn_type === 'user').map((r) => r.text)).toEqual(['q, edited']);
  });
});
