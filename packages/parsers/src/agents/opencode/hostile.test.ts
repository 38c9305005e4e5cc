import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openCodePlugin } from './index.js';
import { buildDb, copyHome, run, tempHomes, writeFiles } from './test-helpers/harness.js';

// Hostile and damaged databases: every one gives rows that say what happened, never a throw.

const dbParser = openCodePlugin.parsers[0];
const REL = '.local/share/opencode/opencode.db';
const homes = tempHomes('opencode-hostile');

const SCHEMA = `CREATE TABLE session (id text PRIMARY KEY, project_id text, parent_id text, slug text, directory text, title text, version text, agent text, model text, permission text, revert text, share_url text, time_created integer, time_updated integer, time_archived integer);
CREATE TABLE message (id text PRIMARY KEY, session_id text, time_created integer, time_updated integer, data text);
CREATE TABLE part (id text PRIMARY KEY, message_id text, session_id text, time_created integer, time_updated integer, data text);
CREATE TABLE event_sequence (aggregate_id text PRIMARY KEY, seq integer, owner_id text);
CREATE TABLE event (id text PRIMARY KEY, aggregate_id text, seq integer, type text, data text);`;

describe('opencode db: damaged files', () => {
  it('a truncated copy, garbage, an empty file and a lone -wal each give one unreadable row naming the rel', async () => {
    const home = copyHome('opencode-live', homes.make());
    const path = join(home, REL);
    const whole = readFileSync(path);
    writeFileSync(path, whole.subarray(0, 8192));
    expect((await run(dbParser, home, REL)).rows.map((r) => [r.tag, r.text])).toEqual([['unreadable', `parser: unreadable file (expected a SQLite database of 70 pages of 4096 bytes (286720 bytes), found 8192 bytes in ${REL}; it is truncated: collect it again)`]]);
    writeFileSync(path, 'not a database at all');
    expect((await run(dbParser, home, REL)).rows[0].text).toContain('found other bytes in .local/share/opencode/opencode.db');
    writeFileSync(path, '');
    expect((await run(dbParser, home, REL)).rows[0].text).toContain('found an empty file');
  });

  it('rows only in the -wal are read (a copy taken while OpenCode was running)', async () => {
    const home = homes.make();
    const path = buildDb(home, REL, SCHEMA);
    const db = new Database(path);
    db.pragma('journal_mode = WAL');
    db.pragma('wal_autocheckpoint = 0');
    db.prepare('INSERT INTO session (id, directory, title, version, time_created) VALUES (?, ?, ?, ?, ?)').run('ses_w', '/w', 'in the wal', '1.18.0', 1789380000000);
    db.prepare('INSERT INTO message VALUES (?, ?, ?, ?, ?)').run('msg_w', 'ses_w', 1789380001000, 1789380001000, JSON.stringify({ role: 'user', time: { created: 1789380001000 } }));
    db.prepare('INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)').run('prt_w', 'msg_w', 'ses_w', 1, 1, JSON.stringify({ type: 'text', text: 'only in the wal' }));
    copyFileSync(path, `${path}.keep`);
    copyFileSync(`${path}-wal`, `${path}-wal.keep`);
    db.close();
    copyFileSync(`${path}.keep`, path);
    copyFileSync(`${path}-wal.keep`, `${path}-wal`);
    const { rows } = await run(dbParser, home, REL);
    expect(rows.filter((r) => r.turn_type === 'user').map((r) => [r.session_id, r.text, r.project_path])).toEqual([['ses_w', 'only in the wal', '/w']]);
  });

  it('wrong types: data that is not JSON, a JSON array, a blob, NULL columns, a number where text belongs (better-sqlite3 binds 42 as a REAL: the column holds "42.0")', async () => {
    const home = homes.make();
    buildDb(home, REL, SCHEMA, [
      ['INSERT INTO session (id, directory, title, version, model, permission, time_created) VALUES (?, ?, ?, ?, ?, ?, ?)', ['ses_t', null, 42, null, '{broken', '"allow"', 'yesterday']],
      ['INSERT INTO message VALUES (?, ?, ?, ?, ?)', ['msg_1', 'ses_t', 1789380001000, 0, 'not json']],
      ['INSERT INTO message VALUES (?, ?, ?, ?, ?)', ['msg_2', 'ses_t', 1789380002000, 0, '[1,2]']],
      ['INSERT INTO message VALUES (?, ?, ?, ?, ?)', ['msg_3', 'ses_t', 1789380003000, 0, Buffer.from(JSON.stringify({ role: 'user' }))]],
      ['INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)', ['prt_1', 'msg_3', 'ses_t', 0, 0, JSON.stringify({ type: 'text', text: 7 })]],
      ['INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)', ['prt_2', 'msg_3', 'ses_t', 0, 0, JSON.stringify({ type: 'text', text: 'from a blob message' })]],
      ['INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)', ['prt_3', 'msg_3', 'ses_t', 0, 0, '"a string"']],
    ]);
    const { rows, ctx } = await run(dbParser, home, REL);
    expect(rows.map((r) => [r.turn_type, r.text, r.timestamp_utc, r.tag ?? ''])).toEqual([
      ['system', 'session start: title=42.0 version=', '', 'session_start'],
      ['system', 'session name: 42.0', '', 'session_name'],
      ['system', 'permission setting: "allow"', '', 'permission_setting'],
      ['system', 'parser: unreadable message msg_1 (its data column is not a JSON object)', '', 'bad_line'],
      ['system', 'parser: unreadable message msg_2 (its data column is not a JSON object)', '', 'bad_line'],
      ['user', '7', '2026-09-14T10:00:03.000Z', ''],
      ['user', 'from a blob message', '2026-09-14T10:00:03.000Z', ''],
      ['system', 'parser: unreadable part prt_3 (its data column is not a JSON object)', '', 'bad_line'],
    ]);
    expect(ctx.unknowns).toEqual([]);
  });

  it('a huge part is read whole; a table from a newer schema (session_message) is counted as unknown', async () => {
    const home = homes.make();
    const big = 'x'.repeat(3_000_000);
    buildDb(home, REL, `${SCHEMA} CREATE TABLE session_message (id text, session_id text, type text, seq integer, time_created integer, time_updated integer, data text);`, [
      ['INSERT INTO message VALUES (?, ?, ?, ?, ?)', ['msg_b', 'ses_b', 1789380001000, 0, JSON.stringify({ role: 'assistant', modelID: 'm' })]],
      ['INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)', ['prt_b', 'msg_b', 'ses_b', 0, 0, JSON.stringify({ type: 'text', text: big })]],
      ['INSERT INTO session_message VALUES (?, ?, ?, ?, ?, ?, ?)', ['sm_1', 'ses_b', 'turn', 1, 0, 0, '{}']],
    ]);
    const { rows, ctx } = await run(dbParser, home, REL);
    expect(rows.find((r) => r.turn_type === 'assistant')?.text.length).toBe(3_000_000);
    expect(ctx.unknowns).toEqual([{ kind: 'session_message turn', line: 1 }]);
  });

  it('the event log: a deleted part and message come back tagged recovered, removals and unknown types are rows or counts', async () => {
    const home = homes.make();
    const ev = (seq: number, type: string, data: unknown) => ['INSERT INTO event VALUES (?, ?, ?, ?, ?)', [`evt_${seq}`, 'ses_e', seq, type, JSON.stringify(data)]] as [string, unknown[]];
    buildDb(home, REL, SCHEMA, [
      ['INSERT INTO session (id, directory, title, version, time_created) VALUES (?, ?, ?, ?, ?)', ['ses_e', '/e', 'evented', '1.18.33', 1789380000000]],
      ev(0, 'message.updated.1', { sessionID: 'ses_e', info: { id: 'msg_gone', sessionID: 'ses_e', role: 'user', time: { created: 1789380001000 } } }),
      ev(1, 'message.part.updated.1', { sessionID: 'ses_e', part: { id: 'prt_gone', sessionID: 'ses_e', messageID: 'msg_gone', type: 'text', text: 'delete the prod database' }, time: 1789380001100 }),
      ev(2, 'message.part.removed.1', { sessionID: 'ses_e', messageID: 'msg_gone', partID: 'prt_gone' }),
      ev(3, 'message.removed.1', { sessionID: 'ses_e', messageID: 'msg_gone' }),
      ev(4, 'permission.replied.1', { sessionID: 'ses_e', requestID: 'per_1', reply: 'always' }),
      ev(5, 'workspace.teleported.2', { sessionID: 'ses_e' }),
      ev(6, 'message.part.delta.1', { sessionID: 'ses_e', partID: 'prt_gone', field: 'text', delta: 'x' }),
    ]);
    const { rows, ctx } = await run(dbParser, home, REL);
    expect(rows.filter((r) => ['recovered', 'removed', 'permission_decision'].includes(r.tag ?? '')).map((r) => [r.turn_type, r.text, r.tag, r.timestamp_utc])).toEqual([
      ['system', 'part removed: prt_gone of message msg_gone', 'removed', ''],
      ['system', 'message removed: msg_gone', 'removed', ''],
      ['system', 'permission always: per_1', 'permission_decision', ''],
      ['user', 'delete the prod database', 'recovered', '2026-09-14T10:00:01.000Z'],
    ]);
    expect(ctx.unknowns).toEqual([{ kind: 'event workspace.teleported', line: 6 }]);
  });

  it('an unreadable data column in a file only half written: no throw, the other tables still read', async () => {
    const home = homes.make();
    writeFiles(home, { '.keep': '' });
    buildDb(home, REL, 'CREATE TABLE todo (session_id text, content text, status text, priority text, position integer, time_created integer, time_updated integer);', [['INSERT INTO todo VALUES (?, ?, ?, ?, ?, ?, ?)', ['ses_q', 'ship it', 'pending', 'high', 0, 1789380000000, 0]]]);
    const { rows, ctx } = await run(dbParser, home, REL);
    expect(rows.map((r) => [r.text, r.tag])).toEqual([['todo pending: ship it', 'todo']]);
    expect(ctx.warnings.map((w) => w.message)).toEqual([`${REL} has no session or message table: not an OpenCode database, or its rows are in a -wal that was not collected`]);
  });
});
