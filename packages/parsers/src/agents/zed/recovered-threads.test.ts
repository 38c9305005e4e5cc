import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { takenWhileOpen } from '../../sdk/test-helpers/taken-while-open.js';
import type { Row } from '../../sdk/types.js';
import { run, tempHomes } from '../opencode/test-helpers/harness.js';
import { zedPlugin } from './index.js';
import { rawFrame } from './test-helpers/zstd-frame.js';

// A real threads.db in WAL mode, as Zed keeps it (the schema of crates/agent/src/db.rs, every
// ALTER applied), written by SQLite: threads saved, one deleted, and the database copied with
// its -wal while the writer is still open, as a collector copies it from a running machine.

const [threads] = zedPlugin.parsers;
const homes = tempHomes('zed-recovered');
const REL = '.local/share/zed/threads/threads.db';
const SCHEMA = `CREATE TABLE threads (id TEXT PRIMARY KEY, summary TEXT NOT NULL, updated_at TEXT NOT NULL, data_type TEXT NOT NULL, data BLOB NOT NULL);
ALTER TABLE threads ADD COLUMN parent_id TEXT; ALTER TABLE threads ADD COLUMN folder_paths TEXT;
ALTER TABLE threads ADD COLUMN folder_paths_order TEXT; ALTER TABLE threads ADD COLUMN created_at TEXT;`;

/** A 0.3.0 thread document: one prompt, one reply; `pad` makes it long enough for overflow pages. */
const doc = (title: string, prompt: string, pad = 0) =>
  JSON.stringify({ title, version: '0.3.0', messages: [{ User: { id: 'u1', content: [{ Text: prompt }] } }, { Agent: { content: [{ Text: `done: ${'x'.repeat(pad)}` }], tool_results: {} } }], updated_at: '2026-11-02T10:00:00Z', model: { provider: 'anthropic', model: 'claude-sonnet-4-5' } });

/** Writes the threads with `build`, then copies the database and its WAL into a fresh home while the writer is open. */
function homeWith(build: (db: Database.Database, put: Database.Statement) => void): string {
  const home = homes.make();
  takenWhileOpen(join(home, REL), (db) => {
    db.exec(SCHEMA);
    build(db, db.prepare('INSERT INTO threads (id, summary, updated_at, data_type, data, folder_paths, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)'));
  });
  return home;
}

const brief = (r: Row) => [r.session_id, r.turn_type, r.text.slice(0, 60), r.tag ?? ''];

describe('zed threads.db: deleted threads carved back', () => {
  it('a thread deleted after the last checkpoint comes back once, after the live ones, its rows tagged recovered (zstd data across overflow pages)', async () => {
    const home = homeWith((db, put) => {
      put.run('live-1', 'Kept thread', '2026-11-02T10:00:00Z', 'json', Buffer.from(doc('Kept thread', 'keep me')), '/home/dev/app', '2026-11-02T09:00:00Z');
      put.run('gone-1', 'Deleted thread', '2026-11-03T10:00:00Z', 'zstd', rawFrame(Buffer.from(doc('Deleted thread', 'delete me later', 30_000))), '/home/dev/secret-app', '2026-11-03T09:00:00Z');
      db.pragma('wal_checkpoint(TRUNCATE)');
      // Saved again before the delete: the later save is the one given back.
      db.prepare('UPDATE threads SET updated_at = ? WHERE id = ?').run('2026-11-03T11:00:00Z', 'gone-1');
      db.prepare('DELETE FROM threads WHERE id = ?').run('gone-1');
    });
    const { rows, ctx } = await run(threads, home, REL);
    expect(rows.filter((r) => r.session_id === 'live-1').every((r) => r.tag !== 'recovered')).toBe(true);
    const gone = rows.filter((r) => r.session_id === 'gone-1');
    expect(rows.indexOf(gone[0])).toBeGreaterThan(rows.findLastIndex((r) => r.session_id === 'live-1'));
    expect(gone.map(brief)).toEqual([
      ['gone-1', 'system', 'deleted thread recovered: gone-1 "Deleted thread" (no longer', 'recovered'],
      ['gone-1', 'system', 'thread: Deleted thread profile=- model=anthropic/claude-sonn', 'session_start'],
      ['gone-1', 'system', 'session name: Deleted thread', 'session_name'],
      ['gone-1', 'system', 'model: anthropic/claude-sonnet-4-5', 'model'],
      ['gone-1', 'user', 'delete me later', 'recovered'],
      ['gone-1', 'assistant', `done: ${'x'.repeat(54)}`, 'recovered'],
    ]);
    // Two saves are carved (the checkpointed one in the main file, the update in the WAL): the later one is given.
    expect(gone[0].text).toMatch(/carved from an older WAL frame, page \d+, rowid 2\)$/);
    expect(gone.every((r) => r.project_path === '/home/dev/secret-app' && r.timestamp_utc === '2026-11-03T09:00:00.000Z')).toBe(true);
    expect(ctx.warnings).toEqual([]);
  });

  it('no delete, nothing recovered; a carved record of another table is not taken for a thread, whatever its shape', async () => {
    const quiet = homeWith((_db, put) => {
      put.run('live-1', 'Kept', '2026-11-02T10:00:00Z', 'json', Buffer.from(doc('Kept', 'hi')), '', '2026-11-02T09:00:00Z');
    });
    expect((await run(threads, quiet, REL)).rows.some((r) => r.tag === 'recovered')).toBe(false);
    const other = homeWith((db, put) => {
      put.run('live-1', 'Kept', '2026-11-02T10:00:00Z', 'json', Buffer.from(doc('Kept', 'hi')), '', '2026-11-02T09:00:00Z');
      db.exec("CREATE TABLE notes (a TEXT, b TEXT, c TEXT, d TEXT, e BLOB); INSERT INTO notes VALUES ('n1', 's', 'u', 'json', x'00'); INSERT INTO notes VALUES (NULL, 's', 'u', 'json', 'x')");
      db.exec('DELETE FROM notes');
      db.exec("UPDATE threads SET summary = 'Kept, renamed'");
    });
    // notes' first row has the threads shape, but its page is notes' own (SQLite's dbstat says so):
    // it is not taken for a thread, nor is the schema's page 1 (its records fit five columns too).
    expect((await run(threads, other, REL)).rows.filter((r) => r.session_id !== 'live-1')).toEqual([]);
  });

  it('a table the live read cannot finish (a damaged page) is not carved: a live thread it could not reach must not pass for a deleted one', async () => {
    const home = homeWith((db, put) => {
      for (let i = 0; i < 40; i++) put.run(`t${i}`, `Thread ${i}`, '2026-11-02T10:00:00Z', 'json', Buffer.from(doc(`Thread ${i}`, 'hi', 1500)), '', '2026-11-02T09:00:00Z');
      db.pragma('wal_checkpoint(TRUNCATE)');
      db.exec("UPDATE threads SET summary = summary || ' (renamed)' WHERE rowid <= 3");
    });
    // The last page of the main file (a leaf of the table the WAL does not replace) made unreadable.
    const path = join(home, REL);
    const file = readFileSync(path);
    const size = file.readUInt16BE(16);
    file.fill(0xff, file.length - size, file.length - size + 12);
    writeFileSync(path, file);
    const { rows, ctx } = await run(threads, home, REL);
    expect(rows.some((r) => r.tag === 'recovered')).toBe(false);
    expect(ctx.warnings.map((w) => w.message)).toContain(`${REL}: the live threads table could not be read whole; its deleted rows were not looked for`);
  });
});
