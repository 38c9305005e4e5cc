import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { artifactFromFile } from '../../sdk/fs-artifact.js';
import { takenWhileOpen } from '../../sdk/test-helpers/taken-while-open.js';
import type { Row } from '../../sdk/types.js';
import { copilotStoreParser } from './store-parser.js';
import { makeHome, removeHome, runParser } from './test-helpers/harness.js';

// A real session-store.db in WAL mode (the CLI's), with the tables of its schema the parser
// reads, written by SQLite: a session and its turns deleted after a checkpoint, the store copied
// with its -wal while the writer is open, as a collector copies it from a running machine.

const REL = '.copilot/session-store.db';
const homes: string[] = [];
afterEach(() => {
  while (homes.length) removeHome(homes.pop()!);
});

const SCHEMA = `CREATE TABLE sessions (id TEXT PRIMARY KEY, cwd TEXT, repository TEXT, host_type TEXT, branch TEXT, summary TEXT, created_at TEXT, updated_at TEXT);
CREATE TABLE turns (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT, turn_index INTEGER, user_message TEXT, assistant_response TEXT, timestamp TEXT);`;

function storeWith(build: (db: Database.Database) => void): string {
  const home = makeHome();
  homes.push(home);
  takenWhileOpen(join(home, REL), (db) => {
    db.exec(SCHEMA);
    build(db);
  });
  return home;
}

const LIVE = '5e55a0a1-0000-4000-8000-00000000000a';
const GONE = '5e55a0a1-0000-4000-8000-00000000000b';
const line = (r: Row) => [r.session_id, r.turn_type, r.text, r.project_path, r.git_branch, r.timestamp_utc, r.tag ?? ''];

describe('session-store.db: deleted sessions and turns carved back', () => {
  it('a session deleted after the last checkpoint: its row and turns, after the live rows, tagged recovered; the live session untouched', async () => {
    const home = storeWith((db) => {
      db.exec(`INSERT INTO sessions VALUES ('${LIVE}', '/srv/app', NULL, NULL, 'main', 'Live work', '2026-11-01T10:00:00Z', NULL);
        INSERT INTO sessions VALUES ('${GONE}', '/srv/secret', NULL, NULL, 'exfil', 'Copy the keys', '2026-11-02T10:00:00Z', NULL);
        INSERT INTO turns (session_id, turn_index, user_message, assistant_response, timestamp) VALUES
          ('${LIVE}', 0, 'run the tests', 'all green', '2026-11-01T10:01:00Z'),
          ('${GONE}', 0, 'zip ~/.ssh and upload it', '', '2026-11-02T10:01:00Z');`);
      db.pragma('wal_checkpoint(TRUNCATE)');
      // The reply is saved later (a second save of the same turn), then the session is deleted.
      db.exec(`UPDATE turns SET assistant_response = 'Uploaded keys.zip' WHERE session_id = '${GONE}'`);
      db.exec(`DELETE FROM turns WHERE session_id = '${GONE}'; DELETE FROM sessions WHERE id = '${GONE}';`);
    });
    const { rows, warnings, facts } = await runParser(copilotStoreParser, artifactFromFile(home, REL));
    expect(facts.filter((f) => f.session_id === GONE)).toEqual([
      { session_id: GONE, key: 'name', value: 'Copy the keys', priority: 4 },
      { session_id: GONE, key: 'cwd', value: '/srv/secret', priority: 4 },
      { session_id: GONE, key: 'branch', value: 'exfil', priority: 4 },
    ]);
    expect(rows.map(line)).toEqual([
      [LIVE, 'system', 'session name: Live work', '/srv/app', 'main', '2026-11-01T10:00:00.000Z', 'session_name'],
      [LIVE, 'user', 'run the tests', '/srv/app', 'main', '2026-11-01T10:01:00.000Z', ''],
      [LIVE, 'assistant', 'all green', '/srv/app', 'main', '2026-11-01T10:01:00.000Z', ''],
      [GONE, 'system', expect.stringMatching(new RegExp(`^deleted session recovered: ${GONE} "Copy the keys" \\(no longer in the store; carved from the main file, as of the last checkpoint, page \\d+, rowid 2\\)$`)), '/srv/secret', 'exfil', '2026-11-02T10:00:00.000Z', 'recovered'],
      [GONE, 'user', 'zip ~/.ssh and upload it', '/srv/secret', 'exfil', '2026-11-02T10:01:00.000Z', 'recovered'],
      [GONE, 'assistant', 'Uploaded keys.zip', '/srv/secret', 'exfil', '2026-11-02T10:01:00.000Z', 'recovered'],
    ]);
    expect(warnings).toEqual([]);
  });

  it('a store with nothing deleted, or turns saved again (same session and index), gives no recovered row', async () => {
    const home = storeWith((db) => {
      db.exec(`INSERT INTO sessions VALUES ('${LIVE}', '/p', NULL, NULL, 'b', 'T', '2026-11-01T10:00:00Z', NULL);
        INSERT INTO turns (session_id, turn_index, user_message, assistant_response, timestamp) VALUES ('${LIVE}', 0, 'p', '', '2026-11-01T10:01:00Z');`);
      db.pragma('wal_checkpoint(TRUNCATE)');
      db.exec("UPDATE turns SET assistant_response = 'r'; UPDATE sessions SET summary = 'T2'");
    });
    const { rows } = await runParser(copilotStoreParser, artifactFromFile(home, REL));
    expect(rows.filter((r) => r.tag === 'recovered')).toEqual([]);
    expect(rows.map((r) => r.text)).toEqual(['session name: T2', 'p', 'r']);
  });
});
