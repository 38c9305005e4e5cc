import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { takenWhileOpen } from '../../sdk/test-helpers/taken-while-open.js';
import type { Row } from '../../sdk/types.js';
import { run, tempHomes } from '../opencode/test-helpers/harness.js';
import { goosePlugin } from './index.js';

// A real sessions.db in WAL mode, as sqlx keeps it, in the schema of session_manager.rs create()
// (v5, as fixtures/homes/goose-source/make/build.mjs writes it), written by SQLite the way goose
// writes it (add_message, replace_conversation, delete_session), and copied with its -wal while
// the writer is still open, as a collector copies it from a running machine.

const [sessionsDb, backupDb] = goosePlugin.parsers;
const homes = tempHomes('goose-recovered');
const REL = '.local/share/goose/sessions/sessions.db';
const SESSIONS = `CREATE TABLE sessions (
  id TEXT PRIMARY KEY, name TEXT NOT NULL DEFAULT '', description TEXT NOT NULL DEFAULT '', user_set_name BOOLEAN DEFAULT FALSE,
  session_type TEXT NOT NULL DEFAULT 'user', working_dir TEXT NOT NULL, created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
  updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP, extension_data TEXT DEFAULT '{}', total_tokens INTEGER, input_tokens INTEGER,
  output_tokens INTEGER, accumulated_total_tokens INTEGER, accumulated_input_tokens INTEGER, accumulated_output_tokens INTEGER,
  schedule_id TEXT, recipe_json TEXT, user_recipe_values_json TEXT)`;
const MESSAGES = `CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL REFERENCES sessions(id),
  role TEXT NOT NULL, content_json TEXT NOT NULL, created_timestamp INTEGER NOT NULL, timestamp TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
  tokens INTEGER, metadata_json TEXT)`;
// Before schema_version (v0): the v2-v5 columns came later by ALTER TABLE, at the end.
const SESSIONS_V0 = `CREATE TABLE sessions (id TEXT PRIMARY KEY, description TEXT NOT NULL DEFAULT '', working_dir TEXT NOT NULL,
  created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP, updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP, extension_data TEXT DEFAULT '{}',
  total_tokens INTEGER, input_tokens INTEGER, output_tokens INTEGER, accumulated_total_tokens INTEGER, accumulated_input_tokens INTEGER,
  accumulated_output_tokens INTEGER, schedule_id TEXT, recipe_json TEXT)`;
const MIGRATIONS = `ALTER TABLE sessions ADD COLUMN user_recipe_values_json TEXT; ALTER TABLE messages ADD COLUMN metadata_json TEXT;
  ALTER TABLE sessions ADD COLUMN name TEXT DEFAULT ''; ALTER TABLE sessions ADD COLUMN user_set_name BOOLEAN DEFAULT FALSE;
  ALTER TABLE sessions ADD COLUMN session_type TEXT NOT NULL DEFAULT 'user'`;

const LIVE = '20261101_1';
const GONE = '20261102_1';
const T1 = 1793527200; // 2026-11-01T10:00:00Z
const T2 = 1793613600; // 2026-11-02T10:00:00Z
const text = (t: string) => JSON.stringify([{ type: 'text', text: t }]);
const visible = JSON.stringify({ userVisible: true, agentVisible: true });

/** A store written by `build` (WAL, no automatic checkpoint), copied with its -wal into a fresh home while the writer is open. */
function homeWith(build: (db: Database.Database, add: (sid: string, role: string, content: string, at: number) => void) => void, schema = `${SESSIONS}; ${MESSAGES}`): string {
  const home = homes.make();
  takenWhileOpen(join(home, REL), (db) => {
    db.exec(schema);
    const hasMeta = schema.includes('metadata_json');
    // add_message: the insert time is SQLite's CURRENT_TIMESTAMP (the copy's clock), so it is set here.
    const put = db.prepare(hasMeta ? 'INSERT INTO messages (session_id, role, content_json, created_timestamp, timestamp, metadata_json) VALUES (?, ?, ?, ?, ?, ?)' : 'INSERT INTO messages (session_id, role, content_json, created_timestamp, timestamp) VALUES (?, ?, ?, ?, ?)');
    const add = (sid: string, role: string, content: string, at: number) => {
      const ts = new Date(at * 1000).toISOString().replace('T', ' ').slice(0, 19);
      if (hasMeta) put.run(sid, role, content, at, ts, visible);
      else put.run(sid, role, content, at, ts);
    };
    build(db, add);
  });
  return home;
}

const session = (db: Database.Database, id: string, name: string, dir: string, created: string) =>
  db.prepare("INSERT INTO sessions (id, name, user_set_name, session_type, working_dir, created_at, updated_at, extension_data) VALUES (?, ?, 1, 'user', ?, ?, ?, '{}')").run(id, name, dir, created, created);

const line = (r: Row) => [r.session_id, r.source_line, r.timestamp_utc, r.turn_type, r.tool_name, r.text, r.project_path, r.tag ?? ''];
const iso = (s: number) => new Date(s * 1000).toISOString();

describe('goose sessions.db: deleted sessions and messages carved back', () => {
  it('a deleted session (its latest save) with its messages, and the messages a live conversation lost, after the live rows, tagged recovered', async () => {
    const home = homeWith((db, add) => {
      session(db, LIVE, 'Fix the login page', '/home/dev/web', '2026-11-01 10:00:00');
      session(db, GONE, 'Wipe the audit log', '/home/dev/ops', '2026-11-02 10:00:00');
      add(LIVE, 'user', text('fix the login page'), T1);
      add(LIVE, 'assistant', text('Fixed the redirect.'), T1 + 5);
      add(LIVE, 'user', text('now push it to prod'), T1 + 60);
      add(LIVE, 'assistant', text('Pushed to prod.'), T1 + 65);
      add(GONE, 'user', text('delete the audit log'), T2);
      add(GONE, 'assistant', JSON.stringify([{ type: 'toolRequest', id: 'toolu_9', toolCall: { status: 'success', value: { name: 'developer__shell', arguments: { command: 'rm -rf /var/log/audit' } } } }]), T2 + 2);
      add(GONE, 'user', JSON.stringify([{ type: 'toolResponse', id: 'toolu_9', toolResult: { status: 'success', value: { content: [{ type: 'text', text: 'removed' }], isError: false } } }]), T2 + 3);
      db.pragma('wal_checkpoint(TRUNCATE)');
      // Renamed after the checkpoint (a second save of the session), then deleted: delete_session.
      db.prepare("UPDATE sessions SET name = 'Wipe the audit log (done)', updated_at = '2026-11-02 10:05:00' WHERE id = ?").run(GONE);
      db.prepare('DELETE FROM messages WHERE session_id = ?').run(GONE);
      db.prepare('DELETE FROM sessions WHERE id = ?').run(GONE);
      // replace_conversation with the conversation cut back to its first exchange: every message goes, the kept ones come back under new ids.
      db.prepare('DELETE FROM messages WHERE session_id = ?').run(LIVE);
      add(LIVE, 'user', text('fix the login page'), T1);
      add(LIVE, 'assistant', text('Fixed the redirect.'), T1 + 5);
    });
    const { rows, ctx } = await run(sessionsDb, home, REL);
    expect(rows.map(line)).toEqual([
      [LIVE, 1, '2026-11-01T10:00:00.000Z', 'system', '', 'session start: Fix the login page type=user', '/home/dev/web', 'session_start'],
      [LIVE, 1, '2026-11-01T10:00:00.000Z', 'system', '', 'session name: Fix the login page (set by the user)', '/home/dev/web', 'session_name'],
      [LIVE, 8, iso(T1), 'user', '', 'fix the login page', '/home/dev/web', ''],
      [LIVE, 9, iso(T1 + 5), 'assistant', '', 'Fixed the redirect.', '/home/dev/web', ''],
      [GONE, 2, '2026-11-02T10:00:00.000Z', 'system', '', expect.stringMatching(/^deleted session recovered: 20261102_1 "Wipe the audit log \(done\)" \(no longer in the sessions table; carved from an older WAL frame, page \d+, rowid 2\)$/), '/home/dev/ops', 'recovered'],
      [GONE, 2, '2026-11-02T10:00:00.000Z', 'system', '', 'session start: Wipe the audit log (done) type=user', '/home/dev/ops', 'session_start'],
      [GONE, 2, '2026-11-02T10:00:00.000Z', 'system', '', 'session name: Wipe the audit log (done) (set by the user)', '/home/dev/ops', 'session_name'],
      [GONE, 5, iso(T2), 'user', '', 'delete the audit log', '/home/dev/ops', 'recovered'],
      [GONE, 6, iso(T2 + 2), 'tool_use', 'developer__shell', 'rm -rf /var/log/audit', '/home/dev/ops', 'recovered'],
      [GONE, 7, iso(T2 + 3), 'tool_result', 'developer__shell', 'removed', '/home/dev/ops', 'recovered'],
      [LIVE, 3, iso(T1 + 60), 'system', '', 'deleted messages recovered: 2 message(s) of session 20261101_1 no longer in the messages table (carved from the main file, as of the last checkpoint)', '/home/dev/web', 'recovered'],
      [LIVE, 3, iso(T1 + 60), 'user', '', 'now push it to prod', '/home/dev/web', 'recovered'],
      [LIVE, 4, iso(T1 + 65), 'assistant', '', 'Pushed to prod.', '/home/dev/web', 'recovered'],
    ]);
    expect(ctx.warnings).toEqual([]);
    // The deleted session's working_dir is its cwd, as a live one's.
    expect(ctx.facts.filter((f) => f.key === 'cwd').map((f) => [f.session_id, f.value])).toEqual([
      [LIVE, '/home/dev/web'],
      [GONE, '/home/dev/ops'],
    ]);
  });

  it('nothing deleted gives nothing; a session renamed, a message updated in place or a conversation given again unchanged is not deleted', async () => {
    const quiet = homeWith((db, add) => {
      session(db, LIVE, 'Fix the login page', '/home/dev/web', '2026-11-01 10:00:00');
      add(LIVE, 'user', text('fix the login page'), T1);
    });
    expect((await run(sessionsDb, quiet, REL)).rows.filter((r) => r.tag === 'recovered')).toEqual([]);
    const saved = homeWith((db, add) => {
      session(db, LIVE, 'Fix the login page', '/home/dev/web', '2026-11-01 10:00:00');
      add(LIVE, 'user', text('fix the login page'), T1);
      add(LIVE, 'assistant', text('Fixed.'), T1 + 5);
      db.pragma('wal_checkpoint(TRUNCATE)');
      db.prepare("UPDATE sessions SET name = 'Login page', user_set_name = 0 WHERE id = ?").run(LIVE);
      db.prepare('UPDATE messages SET content_json = ?, metadata_json = ? WHERE id = 2').run(text('Fixed the redirect.'), JSON.stringify({ userVisible: true, agentVisible: false }));
    });
    const { rows, ctx } = await run(sessionsDb, saved, REL);
    expect(rows.map((r) => [r.source_line, r.text, r.tag ?? ''])).toEqual([
      [1, 'session start: Login page type=user', 'session_start'],
      [1, 'session name: Login page', 'session_name'],
      [1, 'fix the login page', ''],
      [2, 'notice: Fixed the redirect.', ''],
    ]);
    expect(ctx.warnings).toEqual([]);
    const replaced = homeWith((db, add) => {
      session(db, LIVE, 'Fix the login page', '/home/dev/web', '2026-11-01 10:00:00');
      add(LIVE, 'user', text('fix the login page'), T1);
      add(LIVE, 'assistant', text('Fixed.'), T1 + 5);
      db.pragma('wal_checkpoint(TRUNCATE)');
      // replace_conversation, nothing changed: the same messages under new ids.
      db.prepare('DELETE FROM messages WHERE session_id = ?').run(LIVE);
      add(LIVE, 'user', text('fix the login page'), T1);
      add(LIVE, 'assistant', text('Fixed.'), T1 + 5);
    });
    expect((await run(sessionsDb, replaced, REL)).rows.map((r) => [r.source_line, r.text, r.tag ?? ''])).toEqual([
      [1, 'session start: Fix the login page type=user', 'session_start'],
      [1, 'session name: Fix the login page (set by the user)', 'session_name'],
      [3, 'fix the login page', ''],
      [4, 'Fixed.', ''],
    ]);
  });

  it('a session written before the v2-v5 migrations (fewer columns) comes back; a dropped table of another shape does not', async () => {
    const schema = `${SESSIONS_V0}; ${MESSAGES.replace(/,\s*metadata_json TEXT/, '')}`;
    const home = homeWith((db, add) => {
      db.prepare("INSERT INTO sessions (id, description, working_dir, created_at, updated_at) VALUES (?, 'Old CLI work', '/home/dev/cli', '2025-06-01T08:00:00+00:00', '2025-06-01T08:10:00+00:00')").run('20250601_1');
      add('20250601_1', 'user', text('tidy the imports'), 1748764800);
      db.exec("CREATE TABLE notes (id TEXT, a TEXT, b TEXT, c TEXT, d TEXT, e TEXT, f TEXT, g TEXT, h TEXT, i TEXT, j TEXT, k TEXT, l TEXT, m TEXT, n TEXT); INSERT INTO notes VALUES ('n1', 'x', '/p', 'not a time', 'u', '{}', NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)");
      db.pragma('wal_checkpoint(TRUNCATE)');
      db.exec(MIGRATIONS);
      db.exec('DROP TABLE notes');
      db.exec("DELETE FROM messages; DELETE FROM sessions WHERE id = '20250601_1'");
      db.prepare("INSERT INTO sessions (id, name, working_dir) VALUES ('20260101_1', 'New', '/home/dev/new')").run();
    }, schema);
    const { rows } = await run(sessionsDb, home, REL);
    expect(rows.filter((r) => r.tag === 'recovered' || r.session_id === '20250601_1').map((r) => [r.session_id, r.turn_type, r.text.replace(/page \d+/, 'page N'), r.project_path, r.tag ?? ''])).toEqual([
      ['20250601_1', 'system', 'deleted session recovered: 20250601_1 "Old CLI work" (no longer in the sessions table; carved from the main file, as of the last checkpoint, page N, rowid 1)', '/home/dev/cli', 'recovered'],
      ['20250601_1', 'system', 'session start: Old CLI work', '/home/dev/cli', 'session_start'],
      ['20250601_1', 'system', 'session name: Old CLI work', '/home/dev/cli', 'session_name'],
      ['20250601_1', 'user', 'tidy the imports', '/home/dev/cli', 'recovered'],
    ]);
  });

  it('a backup (copied after a checkpoint, no WAL) keeps the messages of a deleted session on its freed pages', async () => {
    const home = homeWith((db, add) => {
      session(db, LIVE, 'Kept', '/home/dev/web', '2026-11-01 10:00:00');
      add(LIVE, 'user', text('keep this'), T1);
      session(db, GONE, 'Dropped', '/home/dev/ops', '2026-11-02 10:00:00');
      for (let i = 0; i < 40; i++) add(GONE, 'user', text(`message ${i} ${'x'.repeat(400)}`), T2 + i);
      db.prepare('DELETE FROM messages WHERE session_id = ?').run(GONE);
      db.prepare('DELETE FROM sessions WHERE id = ?').run(GONE);
      db.pragma('wal_checkpoint(TRUNCATE)');
    });
    const rel = '.local/share/goose/backups/backup_20261103_120000.db';
    mkdirSync(join(home, '.local/share/goose/backups'), { recursive: true });
    copyFileSync(join(home, REL), join(home, rel));
    const { rows, ctx } = await run(backupDb, home, rel);
    const back = rows.filter((r) => r.session_id === GONE);
    // The session's own cell was cleared on its live page: only its messages, on whole freed leaves, remain.
    const users = back.filter((r) => r.turn_type === 'user');
    expect(back[0].text).toBe(`deleted messages recovered: ${users.length} message(s) of session 20261102_1 no longer in the messages table, whose session is gone too (carved from a freed page)`);
    expect(users.length).toBeGreaterThan(5);
    expect(back.slice(1)).toEqual(users);
    expect(users.every((r) => r.tag === 'recovered' && /^message \d+ x{400}$/.test(r.text))).toBe(true);
    // In their order in the conversation.
    expect(users.map((r) => r.timestamp_utc)).toEqual([...users.map((r) => r.timestamp_utc)].sort());
    expect(rows.filter((r) => r.session_id === LIVE).map((r) => r.tag ?? '')).toEqual(['session_start', 'session_name', '']);
    expect(ctx.warnings).toEqual([]);
  });
});
