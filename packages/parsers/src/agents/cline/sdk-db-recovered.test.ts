import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { takenWhileOpen } from '../../sdk/test-helpers/taken-while-open.js';
import type { Row } from '../../sdk/types.js';
import { run, tempHomes } from '../opencode/test-helpers/harness.js';
import { clinePlugin } from './index.js';

// A real sessions.db in WAL mode, as the Cline SDK keeps it (the schema of the live 3.0.65 store
// in fixtures/homes/cline-family, sdk/packages/shared/src/db/sqlite-db.ts), written by SQLite:
// sessions saved, one deleted, and the database copied with its -wal while the writer is still
// open, as a collector copies it from a running machine.

const sdkDb = clinePlugin.parsers.find((p) => p.name === 'sdk-db')!;
const homes = tempHomes('cline-recovered');
const REL = '.cline/data/db/sessions.db';
const LATER = `session_id TEXT PRIMARY KEY, source TEXT NOT NULL, pid INTEGER NOT NULL, started_at TEXT NOT NULL, ended_at TEXT, exit_code INTEGER,
  status TEXT NOT NULL, status_lock INTEGER NOT NULL DEFAULT 0, interactive INTEGER NOT NULL, provider TEXT NOT NULL, model TEXT NOT NULL, cwd TEXT NOT NULL,
  workspace_root TEXT NOT NULL, team_name TEXT, enable_tools INTEGER NOT NULL, enable_spawn INTEGER NOT NULL, enable_teams INTEGER NOT NULL,
  parent_session_id TEXT, parent_agent_id TEXT, agent_id TEXT, conversation_id TEXT, is_subagent INTEGER NOT NULL DEFAULT 0, prompt TEXT`;
const SCHEMA = `CREATE TABLE sessions (${LATER}, metadata_json TEXT, transcript_path TEXT NOT NULL DEFAULT '', hook_path TEXT NOT NULL, messages_path TEXT, updated_at TEXT NOT NULL);
CREATE TABLE subagent_spawn_queue (id INTEGER PRIMARY KEY AUTOINCREMENT, root_session_id TEXT NOT NULL, parent_agent_id TEXT NOT NULL, task TEXT, system_prompt TEXT, created_at TEXT NOT NULL, consumed_at TEXT);
CREATE TABLE schedules (schedule_id TEXT PRIMARY KEY, name TEXT NOT NULL, cron_pattern TEXT NOT NULL, prompt TEXT NOT NULL, provider TEXT NOT NULL, model TEXT NOT NULL, mode TEXT NOT NULL DEFAULT 'act',
  workspace_root TEXT, cwd TEXT, system_prompt TEXT, max_iterations INTEGER, timeout_seconds INTEGER, max_parallel INTEGER NOT NULL DEFAULT 1, enabled INTEGER NOT NULL DEFAULT 1,
  created_at TEXT NOT NULL, updated_at TEXT NOT NULL, last_run_at TEXT, next_run_at TEXT, claim_token TEXT, claim_started_at TEXT, claim_until_at TEXT, created_by TEXT, tags TEXT, metadata_json TEXT);`;
// A store made before metadata_json and transcript_path: the SDK's legacy migrations add them at the end.
const LEGACY = `CREATE TABLE sessions (${LATER}, hook_path TEXT NOT NULL, messages_path TEXT, updated_at TEXT NOT NULL);`;

const LIVE = '1796096473182_9de1u';
const GONE = '1796096499418_md08x';
const meta = (title: string, branch: string, ref?: string) =>
  JSON.stringify({ sessionHistoryOrigin: { mode: 'user', version: '3.0.65' }, git: { branch }, title, ...(ref ? { checkpoint: { latest: { ref, createdAt: 1796096504075, runCount: 1, kind: 'commit' } } } : {}) });

/** One session row, as the SDK first writes it (running, no end). */
function insert(db: Database.Database, id: string, cwd: string, prompt: string, started: string, metadata?: string): void {
  const cols = ['session_id', 'source', 'pid', 'started_at', 'status', 'interactive', 'provider', 'model', 'cwd', 'workspace_root', 'enable_tools', 'enable_spawn', 'enable_teams', 'prompt', 'hook_path', 'updated_at'];
  const values: unknown[] = [id, 'cli', 28425, started, 'running', 0, 'openai-compatible', 'stub-model', cwd, cwd, 1, 1, 1, prompt, '', started];
  if (metadata !== undefined) cols.push('metadata_json');
  if (metadata !== undefined) values.push(metadata);
  db.prepare(`INSERT INTO sessions (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`).run(...values);
}

/** Writes the store with `build`, then copies it and its WAL into a fresh home while the writer is open. */
function homeWith(schema: string, build: (db: Database.Database) => void): string {
  const home = homes.make();
  takenWhileOpen(join(home, REL), (db) => {
    db.exec(schema);
    build(db);
  });
  return home;
}

const line = (r: Row) => [r.session_id, r.turn_type, r.text, r.timestamp_utc, r.tag ?? ''];

describe('cline sessions.db: deleted sessions carved back', () => {
  it('a session deleted after the last checkpoint comes back once, its latest save, after the live ones; the live session untouched', async () => {
    const home = homeWith(SCHEMA, (db) => {
      insert(db, LIVE, '/home/dev/proj', 'Say hello.', '2026-12-01T03:41:13.293Z', meta('Say hello.', 'main'));
      insert(db, GONE, '/home/dev/secret', 'Upload ~/.ssh to the paste site.', '2026-12-01T03:41:39.527Z', meta('Upload keys', 'exfil'));
      db.pragma('wal_checkpoint(TRUNCATE)');
      // The end is saved later (a second save of the same row), then the session is deleted.
      db.prepare("UPDATE sessions SET status = 'completed', ended_at = ?, exit_code = 0, updated_at = ?, metadata_json = ? WHERE session_id = ?").run(
        '2026-12-01T03:42:50.014Z',
        '2026-12-01T03:42:50.016Z',
        meta('Upload keys', 'exfil', '723a4a294b7082898699233db678d774a1f101e5'),
        GONE,
      );
      db.prepare('DELETE FROM sessions WHERE session_id = ?').run(GONE);
    });
    const { rows, ctx } = await run(sdkDb, home, REL);
    const start = (cwd: string) => `session start: source=cli provider=openai-compatible model=stub-model cwd=${cwd} workspace_root=${cwd} interactive=false`;
    expect(rows.map(line)).toEqual([
      [LIVE, 'system', start('/home/dev/proj'), '2026-12-01T03:41:13.293Z', 'session_start'],
      [LIVE, 'user', 'Say hello.', '2026-12-01T03:41:13.293Z', ''],
      [GONE, 'system', expect.stringMatching(new RegExp(`^deleted session recovered: ${GONE} "Upload keys" \\(no longer in sessions\\.db; carved from an older WAL frame, page \\d+, rowid 2\\)$`)), '2026-12-01T03:41:39.527Z', 'recovered'],
      [GONE, 'system', start('/home/dev/secret'), '2026-12-01T03:41:39.527Z', 'session_start'],
      [GONE, 'user', 'Upload ~/.ssh to the paste site.', '2026-12-01T03:41:39.527Z', 'recovered'],
      [GONE, 'system', 'checkpoint 723a4a294b7082898699233db678d774a1f101e5 (commit run 1)', '2026-12-01T03:41:44.075Z', 'recovered'],
      [GONE, 'system', 'session end: status=completed exit_code=0', '2026-12-01T03:42:50.014Z', 'session_end'],
    ]);
    const gone = rows.filter((r) => r.session_id === GONE);
    expect(gone.every((r) => r.source_line === 2 && r.model === 'stub-model')).toBe(true);
    expect(gone[0].project_path).toBe('/home/dev/secret');
    expect(ctx.facts.filter((f) => f.session_id === GONE).map((f) => [f.key, f.value])).toEqual([
      ['cwd', '/home/dev/secret'],
      ['branch', 'exfil'],
      ['name', 'Upload keys'],
      ['client', 'cline cli 3.0.65'],
    ]);
    expect(ctx.warnings).toEqual([]);
  });

  it('a row saved before the legacy ALTERs (fewer columns) is still a session', async () => {
    const home = homeWith(LEGACY, (db) => {
      insert(db, LIVE, '/p', 'kept', '2026-12-01T03:41:13.293Z');
      insert(db, GONE, '/q', 'old and gone', '2026-12-01T03:41:39.527Z');
      db.pragma('wal_checkpoint(TRUNCATE)');
      db.exec("ALTER TABLE sessions ADD COLUMN metadata_json TEXT; ALTER TABLE sessions ADD COLUMN transcript_path TEXT NOT NULL DEFAULT ''");
      db.prepare('DELETE FROM sessions WHERE session_id = ?').run(GONE);
    });
    const { rows } = await run(sdkDb, home, REL);
    expect(rows.filter((r) => r.session_id === GONE).map((r) => [r.text.split(' (')[0], r.tag ?? ''])).toEqual([
      [`deleted session recovered: ${GONE}`, 'recovered'],
      ['session start: source=cli provider=openai-compatible model=stub-model cwd=/q workspace_root=/q interactive=false', 'session_start'],
      ['old and gone', 'recovered'],
    ]);
    expect(rows[rows.length - 3].text).toMatch(/carved from the main file, as of the last checkpoint, page \d+, rowid 2\)$/);
  });

  it('nothing deleted, or a session saved again under its id, gives nothing; nor do rows of other tables, deleted or on freed pages', async () => {
    const home = homeWith(SCHEMA, (db) => {
      insert(db, LIVE, '/p', 'kept', '2026-12-01T03:41:13.293Z', meta('T', 'b'));
      db.exec(`INSERT INTO schedules (schedule_id, name, cron_pattern, prompt, provider, model, created_at, updated_at) VALUES ('${GONE}', 'nightly', '0 3 * * *', 'wipe logs', 'p', 'm', 'x', 'y');
        INSERT INTO subagent_spawn_queue (root_session_id, parent_agent_id, task, created_at) VALUES ('${LIVE}', 'a', 'subtask', '2026-12-01T03:41:13.293Z');`);
      db.pragma('wal_checkpoint(TRUNCATE)');
      db.prepare("UPDATE sessions SET status = 'completed', ended_at = ?, updated_at = ? WHERE session_id = ?").run('2026-12-01T03:42:00.000Z', '2026-12-01T03:42:00.000Z', LIVE);
      // A dropped table's page is freed: nothing owns it, its records are judged by their shape alone
      // (the schedule's id has a session's form, its cron pattern is no pid).
      db.exec('DELETE FROM subagent_spawn_queue; DROP TABLE schedules');
    });
    const { rows, ctx } = await run(sdkDb, home, REL);
    expect(rows.map((r) => [r.session_id, r.text, r.tag ?? ''])).toEqual([
      [LIVE, 'session start: source=cli provider=openai-compatible model=stub-model cwd=/p workspace_root=/p interactive=false', 'session_start'],
      [LIVE, 'kept', ''],
      [LIVE, 'session end: status=completed', 'session_end'],
    ]);
    expect(ctx.warnings).toEqual([]);
  });
});
