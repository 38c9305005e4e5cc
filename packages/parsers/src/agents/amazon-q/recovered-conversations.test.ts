import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { takenWhileOpen } from '../../sdk/test-helpers/taken-while-open.js';
import type { Row } from '../../sdk/types.js';
import { run, tempHomes } from '../opencode/test-helpers/harness.js';
import { amazonQPlugin } from './index.js';

// A real q data.sqlite3 in WAL mode, written by SQLite: a conversation in a directory, then a new
// one started there (q overwrites the directory's row in place), with the auth_kv table beside
// them; copied with its -wal while the writer is open, as a collector copies it.

const db = amazonQPlugin.parsers[0];
const homes = tempHomes('amazon-q-recovered');
const Q = '.local/share/amazon-q/data.sqlite3';
const FIRST = '0a0b0c0d-0000-4000-8000-0000000000f1';
const SECOND = '0a0b0c0d-0000-4000-8000-0000000000f2';

const state = (id: string, prompt: string, reply: string) =>
  JSON.stringify({ conversation_id: id, history: [{ user: { content: { Prompt: { prompt } }, timestamp: '2026-11-10T08:00:00Z' }, assistant: { Response: { message_id: 'm1', content: reply } } }], model_info: { model_id: 'claude-sonnet-4' } });

function home(build: (d: Database.Database) => void): string {
  const h = homes.make();
  takenWhileOpen(join(h, Q), (d) => {
    d.exec('CREATE TABLE conversations (key TEXT PRIMARY KEY, value TEXT); CREATE TABLE auth_kv (key TEXT PRIMARY KEY, value TEXT);');
    build(d);
  });
  return h;
}

const line = (r: Row) => [r.session_id, r.turn_type, r.text, r.project_path, r.tag ?? ''];

describe('amazon-q data.sqlite3: conversations overwritten in place, carved back', () => {
  it("the directory's earlier conversation comes back once, after the live one, tagged recovered; auth_kv is never read", async () => {
    const h = home((d) => {
      d.prepare('INSERT INTO conversations VALUES (?, ?)').run('/home/dev/svc', state(FIRST, 'list the prod buckets', 'There are 3 buckets.'));
      d.prepare('INSERT INTO auth_kv VALUES (?, ?)').run('codewhisperer:odic:token', JSON.stringify({ conversation_id: 'FAKEtoken', history: [], access_token: 'FAKEaccess' }));
      d.pragma('wal_checkpoint(TRUNCATE)');
      d.prepare('UPDATE conversations SET value = ? WHERE key = ?').run(state(SECOND, 'hello again', 'Hi.'), '/home/dev/svc');
      d.prepare('DELETE FROM auth_kv').run();
    });
    const { rows, ctx } = await run(db, h, Q);
    expect(rows.map(line)).toEqual([
      [SECOND, 'system', `conversation ${SECOND} in /home/dev/svc (summary present: no)`, '/home/dev/svc', 'session_start'],
      [SECOND, 'user', 'hello again', '/home/dev/svc', ''],
      [SECOND, 'assistant', 'Hi.', '/home/dev/svc', ''],
      [FIRST, 'system', expect.stringMatching(/^deleted conversation recovered: 0a0b0c0d-\S+ under \/home\/dev\/svc \(no longer in conversations; carved from the main file, as of the last checkpoint, page \d+, rowid 1\)$/), '/home/dev/svc', 'recovered'],
      [FIRST, 'system', `conversation ${FIRST} in /home/dev/svc (summary present: no)`, '/home/dev/svc', 'session_start'],
      [FIRST, 'user', 'list the prod buckets', '/home/dev/svc', 'recovered'],
      [FIRST, 'assistant', 'There are 3 buckets.', '/home/dev/svc', 'recovered'],
    ]);
    expect(JSON.stringify(rows)).not.toMatch(/FAKE/);
    expect(ctx.warnings).toEqual([]);
  });

  it('the same conversation saved again under its key is not lost: nothing recovered', async () => {
    const h = home((d) => {
      d.prepare('INSERT INTO conversations VALUES (?, ?)').run('/home/dev/svc', state(FIRST, 'p1', 'r1'));
      d.pragma('wal_checkpoint(TRUNCATE)');
      d.prepare('UPDATE conversations SET value = ? WHERE key = ?').run(state(FIRST, 'p1', 'r1, longer'), '/home/dev/svc');
    });
    expect((await run(db, h, Q)).rows.filter((r) => r.tag === 'recovered')).toEqual([]);
  });
});
