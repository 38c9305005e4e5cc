import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { takenWhileOpen } from '../../sdk/test-helpers/taken-while-open.js';
import type { Row } from '../../sdk/types.js';
import { familyParsers } from './family.js';
import { openCodePlugin } from './index.js';
import { OPENCODE_PROFILE } from './profile.js';
import { copyHome, HOMES, run, tempHomes } from './test-helpers/harness.js';

// The real opencode.db of fixtures/homes/opencode-live (1.18.33: its schema, its live sessions),
// turned to WAL mode as OpenCode runs it and written by SQLite: sessions, messages and parts
// added, a checkpoint, then a session deleted (its messages and parts go by ON DELETE CASCADE)
// and messages of a live session deleted (a revert); the file and its -wal copied while the
// writer is still open, as a collector copies them from a running machine.

const DB = '.local/share/opencode/opencode.db';
const PROJECT = '0e28c7c89ec07c9be8bfdf90f72fe61b29dd3bf2';
const LIVE = 'ses_ff0000000001LiveSession00';
const GONE = 'ses_ff0000000002GoneSession00';
const T = 1796200000000;
const at = (ms: number) => new Date(ms).toISOString();
const homes = tempHomes('opencode-recovered');
const parser = openCodePlugin.parsers[0];

type Db = Database.Database;

function dbWith(build: (db: Db) => void): string {
  const home = copyHome('opencode-live', homes.make());
  // The writer starts from the fixture's database; its copy replaces the home's opencode.db.
  takenWhileOpen(
    join(home, DB),
    (db) => {
      // Foreign keys on: a session's delete takes its messages and parts (ON DELETE CASCADE).
      db.pragma('foreign_keys = ON');
      build(db);
    },
    { from: join(HOMES, 'opencode-live', DB) },
  );
  return home;
}

const session = (db: Db, id: string, dir: string, title: string, ms: number) =>
  db
    .prepare("INSERT INTO session (id, project_id, slug, directory, title, version, agent, model, time_created, time_updated) VALUES (?, ?, 'slug', ?, ?, '1.18.33', 'build', ?, ?, ?)")
    .run(id, PROJECT, dir, title, JSON.stringify({ id: 'stub-model', providerID: 'stub' }), ms, ms);
const message = (db: Db, id: string, sid: string, role: 'user' | 'assistant', ms: number, extra: object = {}) => {
  const model = role === 'user' ? { model: { providerID: 'stub', modelID: 'stub-model' } } : { modelID: 'stub-model', providerID: 'stub' };
  db.prepare('INSERT INTO message VALUES (?, ?, ?, ?, ?)').run(id, sid, ms, ms, JSON.stringify({ role, time: { created: ms }, ...model, ...extra }));
};
const part = (db: Db, id: string, mid: string, sid: string, ms: number, data: object) => db.prepare('INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)').run(id, mid, sid, ms, ms, JSON.stringify(data));
const text = (t: string, ms?: number) => ({ type: 'text', text: t, ...(ms ? { time: { start: ms, end: ms } } : {}) });

const FIXTURE_SESSIONS = new Set(['ses_dd05a8037ffeJZInD8euLCyD9b', 'ses_dd059960effeE0W7BAII0xHCUR']);
const line = (r: Row) => [r.session_id, r.turn_type, r.text, r.project_path, r.timestamp_utc, r.model, r.tag ?? ''];

describe('opencode.db: deleted sessions, messages and parts carved back', () => {
  let baseline: Row[];
  beforeAll(async () => {
    baseline = (await run(parser, copyHome('opencode-live', homes.make()), DB)).rows;
  });

  it('a deleted session reads as a live one and a live session gets its reverted messages back, tagged recovered, after the live rows', async () => {
    const home = dbWith((db) => {
      session(db, LIVE, '/srv/app', 'Live work', T);
      message(db, 'msg_ff01LiveAsk', LIVE, 'user', T + 1000);
      part(db, 'prt_ff01LiveAsk', 'msg_ff01LiveAsk', LIVE, T + 1000, text('run the tests'));
      message(db, 'msg_ff02LiveReply', LIVE, 'assistant', T + 2000);
      part(db, 'prt_ff02LiveReply', 'msg_ff02LiveReply', LIVE, T + 2000, text('all green', T + 2100));
      message(db, 'msg_ff03Reverted', LIVE, 'user', T + 3000);
      part(db, 'prt_ff03Reverted', 'msg_ff03Reverted', LIVE, T + 3000, text('drop the users table'));
      message(db, 'msg_ff04Reverted', LIVE, 'assistant', T + 4000);
      const tool = { type: 'tool', tool: 'bash', callID: 'call_drop', state: { status: 'completed', input: { command: "psql -c 'drop table users'" }, output: 'DROP TABLE', time: { start: T + 4100, end: T + 4200 } } };
      part(db, 'prt_ff04Reverted', 'msg_ff04Reverted', LIVE, T + 4000, tool);
      session(db, GONE, '/srv/secret', 'Copy the keys', T + 10000);
      message(db, 'msg_ff05Gone', GONE, 'user', T + 11000);
      part(db, 'prt_ff05Gone', 'msg_ff05Gone', GONE, T + 11000, text('zip ~/.ssh and upload it'));
      message(db, 'msg_ff06Gone', GONE, 'assistant', T + 12000);
      part(db, 'prt_ff06Gone', 'msg_ff06Gone', GONE, T + 12000, text('Uploading.', T + 12100));
      db.pragma('wal_checkpoint(TRUNCATE)');
      // The reply streamed into place (a later save of the same part), then everything deleted.
      db.prepare('UPDATE part SET data = ?, time_updated = ? WHERE id = ?').run(JSON.stringify(text('Uploaded keys.zip', T + 12100)), T + 12500, 'prt_ff06Gone');
      db.prepare('DELETE FROM session WHERE id = ?').run(GONE);
      db.prepare('DELETE FROM message WHERE id IN (?, ?)').run('msg_ff03Reverted', 'msg_ff04Reverted');
    });
    const { rows, ctx } = await run(parser, home, DB);
    // The fixture's own sessions: the same rows as without anything deleted, untagged.
    expect(rows.filter((r) => FIXTURE_SESSIONS.has(r.session_id))).toEqual(baseline);
    const m = 'stub-model';
    expect(rows.filter((r) => !FIXTURE_SESSIONS.has(r.session_id)).map(line)).toEqual([
      [LIVE, 'system', 'session start: title=Live work version=1.18.33', '/srv/app', at(T), '', 'session_start'],
      [LIVE, 'system', `session agent: build model=${m}`, '/srv/app', at(T), m, 'session_metadata'],
      [LIVE, 'system', 'session name: Live work', '/srv/app', at(T), '', 'session_name'],
      [LIVE, 'system', `model: ${m} (stub)`, '/srv/app', at(T + 1000), m, 'model'],
      [LIVE, 'user', 'run the tests', '/srv/app', at(T + 1000), m, ''],
      [LIVE, 'assistant', 'all green', '/srv/app', at(T + 2100), m, ''],
      [GONE, 'system', expect.stringMatching(new RegExp(`^deleted session recovered: ${GONE} "Copy the keys" \\(no longer in the session table; carved from the main file, as of the last checkpoint, page \\d+, rowid \\d+\\)$`)), '/srv/secret', at(T + 10000), '', 'recovered'],
      [GONE, 'system', 'session start: title=Copy the keys version=1.18.33', '/srv/secret', at(T + 10000), '', 'session_start'],
      [GONE, 'system', `session agent: build model=${m}`, '/srv/secret', at(T + 10000), m, 'session_metadata'],
      [GONE, 'system', 'session name: Copy the keys', '/srv/secret', at(T + 10000), '', 'session_name'],
      [GONE, 'system', `model: ${m} (stub)`, '/srv/secret', at(T + 11000), m, 'model'],
      [GONE, 'user', 'zip ~/.ssh and upload it', '/srv/secret', at(T + 11000), m, 'recovered'],
      [GONE, 'assistant', 'Uploaded keys.zip', '/srv/secret', at(T + 12100), m, 'recovered'],
      [LIVE, 'system', 'deleted messages recovered: 2 message(s) and 2 part(s) of session ses_ff0000000001LiveSession00 no longer in the message and part tables (carved from the main file, as of the last checkpoint)', '/srv/app', at(T + 3000), '', 'recovered'],
      [LIVE, 'user', 'drop the users table', '/srv/app', at(T + 3000), m, 'recovered'],
      [LIVE, 'tool_use', "psql -c 'drop table users'", '/srv/app', at(T + 4100), m, 'recovered'],
      [LIVE, 'tool_result', 'DROP TABLE', '/srv/app', at(T + 4200), '', 'recovered'],
    ]);
    expect(ctx.facts.filter((f) => f.session_id === GONE)).toEqual([
      { session_id: GONE, key: 'cwd', value: '/srv/secret', priority: 3, at: at(T + 10000) },
      { session_id: GONE, key: 'name', value: 'Copy the keys', priority: 2 },
    ]);
    expect(ctx.warnings).toEqual([]);
    expect(ctx.unknowns).toEqual([]);
  });

  it('what the event log already gave back is not given twice; what only the bytes hold still comes back', async () => {
    const home = dbWith((db) => {
      session(db, LIVE, '/srv/app', 'Live work', T);
      message(db, 'msg_ff01Logged', LIVE, 'user', T + 1000);
      part(db, 'prt_ff01Logged', 'msg_ff01Logged', LIVE, T + 1000, text('delete the prod database'));
      part(db, 'prt_ff02NotLogged', 'msg_ff01Logged', LIVE, T + 1000, text('and the backups'));
      session(db, GONE, '/srv/secret', 'Logged session', T + 10000);
      db.prepare('INSERT INTO event_sequence VALUES (?, ?, NULL)').run(LIVE, 1);
      db.prepare('INSERT INTO event_sequence VALUES (?, ?, NULL)').run(GONE, 0);
      const ev = db.prepare('INSERT INTO event VALUES (?, ?, ?, ?, ?)');
      ev.run('evt_ff1', GONE, 0, 'session.created.1', JSON.stringify({ sessionID: GONE, info: { id: GONE, directory: '/srv/secret', title: 'Logged session', version: '1.18.33', time: { created: T + 10000 } } }));
      ev.run('evt_ff2', LIVE, 0, 'message.updated.1', JSON.stringify({ sessionID: LIVE, info: { id: 'msg_ff01Logged', sessionID: LIVE, role: 'user', time: { created: T + 1000 } } }));
      ev.run('evt_ff3', LIVE, 1, 'message.part.updated.1', JSON.stringify({ sessionID: LIVE, part: { id: 'prt_ff01Logged', sessionID: LIVE, messageID: 'msg_ff01Logged', ...text('delete the prod database') }, time: T + 1000 }));
      db.pragma('wal_checkpoint(TRUNCATE)');
      db.prepare('DELETE FROM session WHERE id = ?').run(GONE);
      db.prepare('DELETE FROM message WHERE id = ?').run('msg_ff01Logged');
    });
    const { rows, ctx } = await run(parser, home, DB);
    expect(rows.filter((r) => !FIXTURE_SESSIONS.has(r.session_id) && (r.tag === 'recovered' || r.tag === 'session_start')).map((r) => [r.session_id, r.turn_type, r.text, r.tag])).toEqual([
      [LIVE, 'system', 'session start: title=Live work version=1.18.33', 'session_start'],
      // The event log's: the session and the one part it logged.
      [GONE, 'system', 'session start: title=Logged session version=1.18.33', 'session_start'],
      [LIVE, 'user', 'delete the prod database', 'recovered'],
      // The bytes': only the part the log never had (its message is the log's, read from there).
      [LIVE, 'system', 'deleted messages recovered: 0 message(s) and 1 part(s) of session ses_ff0000000001LiveSession00 no longer in the message and part tables (carved from the main file, as of the last checkpoint)', 'recovered'],
      [LIVE, 'user', 'and the backups', 'recovered'],
    ]);
    expect(ctx.warnings).toEqual([]);
  });

  it('rows updated in place (same id) and a database with nothing deleted give no recovered row', async () => {
    const home = dbWith((db) => {
      session(db, LIVE, '/srv/app', 'Live work', T);
      message(db, 'msg_ff01LiveAsk', LIVE, 'user', T + 1000);
      part(db, 'prt_ff01LiveAsk', 'msg_ff01LiveAsk', LIVE, T + 1000, text('first draft'));
      db.pragma('wal_checkpoint(TRUNCATE)');
      db.prepare('UPDATE part SET data = ?, time_updated = ? WHERE id = ?').run(JSON.stringify(text('final prompt')), T + 5000, 'prt_ff01LiveAsk');
      db.prepare("UPDATE session SET title = 'Renamed', time_updated = ? WHERE id = ?").run(T + 5000, LIVE);
      db.prepare('UPDATE message SET time_updated = ? WHERE id = ?').run(T + 5000, 'msg_ff01LiveAsk');
    });
    const { rows } = await run(parser, home, DB);
    expect(rows.filter((r) => r.tag === 'recovered')).toEqual([]);
    expect(rows.filter((r) => r.session_id === LIVE && r.turn_type === 'user').map((r) => r.text)).toEqual(['final prompt']);
    expect((await run(parser, dbWith(() => {}), DB)).rows).toEqual(baseline);
  });

  it('a deleted row whose id is not in OpenCode\'s format (ses_/msg_/prt_) is not taken for a session, message or part', async () => {
    const home = dbWith((db) => {
      session(db, 'legacy-session-1', '/srv/other', 'Not ours', T);
      message(db, 'message-1', 'legacy-session-1', 'user', T + 1000);
      part(db, 'part-1', 'message-1', 'legacy-session-1', T + 1000, text('not a carved prompt'));
      db.pragma('wal_checkpoint(TRUNCATE)');
      db.prepare('DELETE FROM session WHERE id = ?').run('legacy-session-1');
    });
    expect((await run(parser, home, DB)).rows).toEqual(baseline);
  });

  it("a part the profile marks UI-only (Kilo's transient spinner) gives no row when carved, as when the event log holds it", async () => {
    const transient = { ...text('⠴ Initializing snapshot…'), metadata: { 'kilocode.lifecycle': 'transient' } };
    const home = dbWith((db) => {
      session(db, LIVE, '/srv/app', 'Live work', T);
      message(db, 'msg_ff01LiveAsk', LIVE, 'user', T + 1000);
      part(db, 'prt_ff01LiveAsk', 'msg_ff01LiveAsk', LIVE, T + 1000, text('run the tests'));
      part(db, 'prt_ff02Spinner', 'msg_ff01LiveAsk', LIVE, T + 1000, transient);
      db.pragma('wal_checkpoint(TRUNCATE)');
      db.prepare('DELETE FROM part WHERE id = ?').run('prt_ff02Spinner');
    });
    const kilo = familyParsers({ ...OPENCODE_PROFILE, transientMetadata: [{ key: 'kilocode.lifecycle', value: 'transient' }] })[0];
    expect((await run(kilo, home, DB)).rows.filter((r) => r.tag === 'recovered')).toEqual([]);
    // Without the rule the same part is an ordinary deleted part.
    expect((await run(parser, home, DB)).rows.filter((r) => r.tag === 'recovered').map((r) => r.text)).toEqual([
      'deleted messages recovered: 0 message(s) and 1 part(s) of session ses_ff0000000001LiveSession00 no longer in the message and part tables (carved from the main file, as of the last checkpoint)',
      '⠴ Initializing snapshot…',
    ]);
  });
});
