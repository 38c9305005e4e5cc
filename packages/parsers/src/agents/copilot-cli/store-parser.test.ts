import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { artifactFromFile } from '../../sdk/fs-artifact.js';
import { copilotStoreParser } from './store-parser.js';
import { CORPUS_ROOT, makeHome, removeHome, runParser, writeHomeFile } from './test-helpers/harness.js';

const REL = '.copilot/session-store.db';
const SID = '5e55a0a1-0000-4000-8000-000000000001';
const FIXTURE = join(import.meta.dirname, '../../../../../fixtures/homes/seed-copilot/.copilot');
const CORPUS = `${CORPUS_ROOT}`;

const homes: string[] = [];
afterEach(() => {
  while (homes.length) removeHome(homes.pop()!);
});

/** A home whose store is built by `sql` (rollback journal, closed: self-contained). */
function storeHome(sql: string): string {
  const home = makeHome();
  homes.push(home);
  writeHomeFile(home, '.copilot/.keep', '');
  const db = new Database(join(home, REL));
  db.exec(sql);
  db.close();
  return home;
}

/** A private copy of a store with its sidecars (SQLite may create -shm next to it). */
function copyStore(dir: string): string {
  const home = makeHome();
  homes.push(home);
  writeHomeFile(home, '.copilot/.keep', '');
  for (const s of ['', '-wal', '-shm']) if (existsSync(join(dir, `session-store.db${s}`))) copyFileSync(join(dir, `session-store.db${s}`), join(home, `${REL}${s}`));
  return home;
}

const parse = (home: string) => runParser(copilotStoreParser, artifactFromFile(home, REL));

const SESSIONS = `CREATE TABLE sessions (id TEXT PRIMARY KEY, cwd TEXT, repository TEXT, host_type TEXT, branch TEXT, summary TEXT, created_at TEXT, updated_at TEXT);
INSERT INTO sessions VALUES ('s1', '/p', NULL, NULL, 'dev', 'Title', '2026-01-01 10:00:00', NULL);`;

describe('session-store.db parser', () => {
  it('reads the seed store through its WAL: turns, sessions and session_files rows', async () => {
    const { rows, facts } = await parse(copyStore(FIXTURE));
    const fields = { session_id: SID, project_path: '/srv/proj', git_branch: '', model: '', tool_name: '', tool_use_id: '' };
    expect(rows).toEqual([
      { ...fields, turn_type: 'system', text: 'session name: Fix failing test', timestamp_utc: '2026-10-01T09:00:00.000Z', source_line: 1, tag: 'session_name' },
      { ...fields, turn_type: 'user', text: 'fix the failing test', timestamp_utc: '2026-10-01T09:00:15.200Z', source_line: 1 },
      { ...fields, turn_type: 'assistant', text: 'The fixture year was stale; it now reads 2026.', timestamp_utc: '2026-10-01T09:00:15.200Z', source_line: 1 },
      { ...fields, turn_type: 'user', text: 'and run lint', timestamp_utc: '2026-10-01T09:01:05.000Z', source_line: 2 },
      { ...fields, turn_type: 'system', text: 'file changed: /srv/proj/date.test.js tool=apply_patch', timestamp_utc: '2026-10-01T09:00:12.500Z', source_line: 1, tag: 'file_changed' },
    ]);
    expect(facts).toEqual([
      { session_id: SID, key: 'cwd', value: '/srv/proj', priority: 3 },
      { session_id: SID, key: 'name', value: 'Fix failing test', priority: 2 },
    ]);
  });

  it('the fixture keeps its rows only in the WAL: the main file alone has no turns rows', async () => {
    const home = makeHome();
    homes.push(home);
    writeHomeFile(home, '.copilot/.keep', '');
    copyFileSync(join(FIXTURE, 'session-store.db'), join(home, REL));
    // Parse first: any open (even read-only) may create an empty -wal beside the file.
    const { rows, warnings } = await parse(home);
    expect(rows).toEqual([]);
    expect(warnings).toEqual([{ message: 'session-store.db has no tables: no -wal was collected beside it', line: undefined }]);
    const db = new Database(join(home, REL), { readonly: true });
    const hasTurns = db.prepare("SELECT COUNT(*) AS n FROM sqlite_master WHERE name = 'turns'").get() as { n: number };
    const count = hasTurns.n === 0 ? 0 : (db.prepare('SELECT COUNT(*) AS n FROM turns').get() as { n: number }).n;
    db.close();
    expect(count).toBe(0);
  });

  it('gives a turn with a null or empty reply its user row only', async () => {
    const home = storeHome(`${SESSIONS}
      CREATE TABLE turns (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT, turn_index INTEGER, user_message TEXT, assistant_response TEXT, timestamp TEXT);
      INSERT INTO turns (session_id, turn_index, user_message, assistant_response, timestamp) VALUES ('s1', 0, 'p1', NULL, '2026-01-01 10:01:00'), ('s1', 1, 'p2', '', '2026-01-01 10:02:00'), ('gone', 0, 'p3', 'r3', NULL);`);
    const { rows } = await parse(home);
    const turns = rows.filter((r) => r.turn_type !== 'system');
    expect(turns.map((r) => [r.turn_type, r.text, r.source_line, r.timestamp_utc, r.project_path, r.git_branch])).toEqual([
      ['user', 'p1', 1, '2026-01-01T10:01:00.000Z', '/p', 'dev'],
      ['user', 'p2', 2, '2026-01-01T10:02:00.000Z', '/p', 'dev'],
      ['user', 'p3', 3, '', '', ''],
      ['assistant', 'r3', 3, '', '', ''],
    ]);
  });

  const TURNS = 'CREATE TABLE turns (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT, turn_index INTEGER, user_message TEXT, assistant_response TEXT, timestamp TEXT);';
  const turnsSql = (rows: [string, number, string, string | null, string][]) =>
    `${TURNS} INSERT INTO turns (session_id, turn_index, user_message, assistant_response, timestamp) VALUES ${rows.map((r) => `(${r.map((v) => (v === null ? 'NULL' : `'${v}'`)).join(', ')})`).join(', ')};`;
  const tagged = async (home: string) => (await parse(home)).rows.map((r) => [r.session_id, r.source_line, r.turn_type, r.text, r.tag ?? '']);

  it("tags `repeat` on the seed's Linux round: the complete row written again, and the complete row after its prompt-only row", async () => {
    // Seed, session-store.db: session 1 (0,p1,r1) (1,p2,null) (2,p1,r1) (3,p2,r2); session 2 (0,p1,null) (1,p1,r1).
    const home = storeHome(
      turnsSql([
        ['s1', 0, 'p1', 'r1', '2026-10-01T21:05:34.927Z'],
        ['s1', 1, 'p2', null, '2026-10-01T21:08:11.565Z'],
        ['s1', 2, 'p1', 'r1', '2026-10-01T21:08:12.119Z'],
        ['s1', 3, 'p2', 'r2', '2026-10-01T21:16:01.831Z'],
        ['s2', 0, 'q1', null, '2026-10-01T21:18:16.638Z'],
        ['s2', 1, 'q1', 'q1 reply', '2026-10-01T21:19:27.956Z'],
      ]),
    );
    expect(await tagged(home)).toEqual([
      ['s1', 1, 'user', 'p1', ''],
      ['s1', 1, 'assistant', 'r1', ''],
      ['s1', 2, 'user', 'p2', ''],
      ['s1', 3, 'user', 'p1', 'repeat'],
      ['s1', 3, 'assistant', 'r1', 'repeat'],
      ['s1', 4, 'user', 'p2', 'repeat'],
      ['s1', 4, 'assistant', 'r2', ''],
      ['s2', 5, 'user', 'q1', ''],
      ['s2', 6, 'user', 'q1', 'repeat'],
      ['s2', 6, 'assistant', 'q1 reply', ''],
    ]);
  });

  it('gives a sessions row only for a non-empty summary, and cwd/branch/name facts', async () => {
    const home = storeHome(`${SESSIONS} INSERT INTO sessions VALUES ('s2', '/q', NULL, NULL, NULL, NULL, '2026-01-02T00:00:00Z', NULL);`);
    const { rows, facts } = await parse(home);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ turn_type: 'system', text: 'session name: Title', session_id: 's1', project_path: '/p', git_branch: 'dev', timestamp_utc: '2026-01-01T10:00:00.000Z', source_line: 1, tag: 'session_name' });
    expect(facts).toContainEqual({ session_id: 's1', key: 'branch', value: 'dev', priority: 3 });
    expect(facts).toContainEqual({ session_id: 's2', key: 'cwd', value: '/q', priority: 3 });
    expect(facts.filter((f) => f.session_id === 's2' && f.key === 'name')).toEqual([]);
  });

  it('session_refs: reference: <ref_type> <ref_value> at created_at', async () => {
    const home = storeHome(`${SESSIONS}
      CREATE TABLE session_refs (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT, ref_type TEXT, ref_value TEXT, turn_index INTEGER, created_at TEXT);
      INSERT INTO session_refs (session_id, ref_type, ref_value, created_at) VALUES ('s1', 'pr', 'octo/repo#12', '2026-01-01T10:05:00.000Z');`);
    const { rows } = await parse(home);
    expect(rows[1]).toMatchObject({ turn_type: 'system', text: 'reference: pr octo/repo#12', session_id: 's1', project_path: '/p', timestamp_utc: '2026-01-01T10:05:00.000Z', source_line: 1, tag: 'reference' });
  });

  it('session_files: a missing tool prints tool=-', async () => {
    const home = storeHome(`CREATE TABLE session_files (id INTEGER PRIMARY KEY, session_id TEXT, file_path TEXT, tool_name TEXT, turn_index INTEGER, first_seen_at TEXT);
      INSERT INTO session_files VALUES (7, 's9', '/a.txt', NULL, 0, '2026-01-01T00:00:00Z');`);
    const { rows } = await parse(home);
    expect(rows).toEqual([expect.objectContaining({ text: 'file changed: /a.txt tool=-', session_id: 's9', project_path: '', source_line: 7 })]);
  });

  it('checkpoints: the title line, then one `<column>: <value>` line per non-null column', async () => {
    const home = storeHome(`${SESSIONS}
      CREATE TABLE checkpoints (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT, checkpoint_number INTEGER, title TEXT, overview TEXT, history TEXT, work_done TEXT, technical_details TEXT, important_files TEXT, next_steps TEXT, created_at TEXT);
      INSERT INTO checkpoints (session_id, checkpoint_number, title, overview, history, work_done, technical_details, important_files, next_steps, created_at)
      VALUES ('s1', 1, 'Fixed the test', 'ov', NULL, 'did\nthings', NULL, 'a.js', '', '2026-01-01T11:00:00Z');`);
    const { rows } = await parse(home);
    expect(rows[1]).toMatchObject({
      turn_type: 'system',
      text: 'checkpoint 1: Fixed the test\noverview: ov\nwork_done: did\nthings\nimportant_files: a.js\nnext_steps: ',
      session_id: 's1',
      timestamp_utc: '2026-01-01T11:00:00.000Z',
      source_line: 1,
      tag: 'checkpoint',
    });
  });

  it('forge_trajectory_events: tool_use from command, tool_result from output with [exit N], joined on tool_call_id', async () => {
    const home = storeHome(`${SESSIONS}
      CREATE TABLE forge_trajectory_events (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT, tool_call_id TEXT, turn_index INTEGER, event_type TEXT, command TEXT, output TEXT, exit_code INTEGER, event_key TEXT, event_value TEXT, created_at TEXT);
      INSERT INTO forge_trajectory_events (session_id, tool_call_id, event_type, command, output, exit_code, created_at) VALUES
        ('s1', 'call_1', 'command', 'npm test', NULL, NULL, '2026-01-01T10:00:01Z'),
        ('s1', 'call_1', 'output', 'npm test', '1 failing', 1, '2026-01-01T10:00:02Z'),
        ('s1', 'call_2', 'run', 'ls', 'a b', 0, '2026-01-01T10:00:03Z'),
        ('s1', NULL, 'note', NULL, NULL, NULL, '2026-01-01T10:00:04Z');`);
    const { rows } = await parse(home);
    expect(rows.slice(1).map((r) => [r.turn_type, r.tool_use_id, r.text, r.source_line, r.timestamp_utc])).toEqual([
      ['tool_use', 'call_1', 'npm test', 1, '2026-01-01T10:00:01.000Z'],
      ['tool_result', 'call_1', '[exit 1] 1 failing', 2, '2026-01-01T10:00:02.000Z'],
      ['tool_use', 'call_2', 'ls', 3, '2026-01-01T10:00:03.000Z'],
      ['tool_result', 'call_2', 'a b', 3, '2026-01-01T10:00:03.000Z'],
    ]);
  });

  it('gives no rows from search_index, assistant_usage_events, forge_skill_proposals or dynamic_context_items', async () => {
    const home = storeHome(`CREATE VIRTUAL TABLE search_index USING fts5(content, session_id UNINDEXED, source_type UNINDEXED, source_id UNINDEXED);
      INSERT INTO search_index VALUES ('fix it\nfixed', 's1', 'turn', 's1:turn:0');
      CREATE TABLE assistant_usage_events (id INTEGER PRIMARY KEY, session_id TEXT, model TEXT, created_at TEXT);
      INSERT INTO assistant_usage_events VALUES (1, 's1', 'gpt-6.1-sol', '2026-01-01T00:00:00Z');
      CREATE TABLE forge_skill_proposals (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO forge_skill_proposals VALUES (1, 'skill');
      CREATE TABLE dynamic_context_items (repository TEXT, branch TEXT, src TEXT, name TEXT, content TEXT); INSERT INTO dynamic_context_items VALUES ('r', 'b', 's', 'n', 'c');`);
    const { rows, unknowns } = await parse(home);
    expect(rows).toEqual([]);
    // Named by the Parser plan: skipped on purpose, not unknown (nor the FTS5 shadow tables).
    expect(unknowns).toEqual([]);
  });

  it('counts every row of a table it does not know (a newer schema) as an unknown record kind', async () => {
    const home = storeHome(`${SESSIONS}
      CREATE TABLE session_tasks (id INTEGER PRIMARY KEY, session_id TEXT, title TEXT);
      INSERT INTO session_tasks VALUES (1, 's1', 'a'), (2, 's1', 'b'), (3, 's1', 'c');
      CREATE TABLE empty_new (x TEXT);`);
    const { rows, unknowns } = await parse(home);
    expect(rows.map((r) => r.text)).toEqual(['session name: Title']);
    expect(unknowns).toEqual([{ kind: 'table session_tasks' }, { kind: 'table session_tasks' }, { kind: 'table session_tasks' }]);
  });

  it('reads an old schema: missing columns read as NULL, missing tables are skipped', async () => {
    const home = storeHome(`CREATE TABLE sessions (id TEXT PRIMARY KEY, cwd TEXT, summary TEXT);
      INSERT INTO sessions VALUES ('s1', '/old', 'Old');
      CREATE TABLE turns (session_id TEXT, user_message TEXT);
      INSERT INTO turns VALUES ('s1', 'hello');`);
    const { rows, warnings } = await parse(home);
    expect(rows.map((r) => [r.turn_type, r.text, r.timestamp_utc, r.project_path, r.git_branch, r.source_line])).toEqual([
      ['system', 'session name: Old', '', '/old', '', 1],
      ['user', 'hello', '', '/old', '', 1],
    ]);
    expect(warnings).toEqual([]);
  });

  it('reads a table made WITHOUT ROWID (source_line then the 1-based row position) instead of losing it', async () => {
    const home = storeHome(`CREATE TABLE turns (session_id TEXT, turn_index INTEGER, user_message TEXT, assistant_response TEXT, timestamp TEXT,
        PRIMARY KEY (session_id, turn_index)) WITHOUT ROWID;
      INSERT INTO turns VALUES ('s1', 1, 'second', NULL, '2026-10-01T09:01:00.000Z');
      INSERT INTO turns VALUES ('s1', 0, 'first', 'reply', '2026-10-01T09:00:30.000Z');`);
    const { rows } = await parse(home);
    expect(rows.map((r) => [r.turn_type, r.text, r.timestamp_utc, r.source_line])).toEqual([
      ['user', 'first', '2026-10-01T09:00:30.000Z', 1],
      ['assistant', 'reply', '2026-10-01T09:00:30.000Z', 1],
      ['user', 'second', '2026-10-01T09:01:00.000Z', 2],
    ]);
  });

  it('reads text stored as a BLOB (SQLite keeps any type in any column) as UTF-8, not as nothing', async () => {
    const home = storeHome(`CREATE TABLE turns (session_id TEXT, user_message BLOB, assistant_response TEXT, timestamp TEXT);
      INSERT INTO turns VALUES ('s1', CAST('héllo' AS BLOB), 'r', '2026-10-01T09:00:00.000Z');`);
    const { rows } = await parse(home);
    expect(rows.map((r) => [r.turn_type, r.text])).toEqual([
      ['user', 'héllo'],
      ['assistant', 'r'],
    ]);
  });

  it('warns on a stored time it cannot read and leaves the row undated', async () => {
    const home = storeHome(`CREATE TABLE turns (session_id TEXT, user_message TEXT, timestamp TEXT); INSERT INTO turns VALUES ('s1', 'hi', 'yesterday');`);
    const { rows, warnings } = await parse(home);
    expect(rows).toEqual([expect.objectContaining({ text: 'hi', timestamp_utc: '' })]);
    expect(warnings[0].message).toContain('turns rowid 1');
  });

  it('gives one unreadable row for a file that is not a database', async () => {
    const home = makeHome({ [REL]: 'not a database at all, just text' });
    homes.push(home);
    const { rows } = await parse(home);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ turn_type: 'system', tag: 'unreadable', source_line: null });
    expect(rows[0].text).toMatch(/^parser: unreadable file \(expected a SQLite database/);
  });

  it('names the collected file (rel) in the unreadable row, never the local copy it opened', async () => {
    const home = makeHome({ [REL]: 'not a database at all, just text' });
    homes.push(home);
    const { rows } = await parse(home);
    expect(rows).toEqual([expect.objectContaining({ tag: 'unreadable', text: expect.stringContaining(`in ${REL};`) })]);
    expect(rows[0].text).not.toContain(home);
  });

  it('gives one unreadable row for an empty file', async () => {
    const home = makeHome({ [REL]: '' });
    homes.push(home);
    const { rows } = await parse(home);
    expect(rows).toEqual([expect.objectContaining({ tag: 'unreadable', text: expect.stringContaining('empty file') })]);
  });
});

describe('session-store.db parser on real stores', () => {
  const cases = [
    ['Kaijon__little-hou-claw (schema 2, WAL)', `${CORPUS}/Kaijon__little-hou-claw/.copilot`],
    ['XEFF09__dotfiles (schema 4, no WAL)', `${CORPUS}/XEFF09__dotfiles/.copilot`],
  ] as const;
  for (const [name, dir] of cases) {
    it.skipIf(!existsSync(dir))(`${name}: one user row per turn with a prompt, one assistant row per reply`, async () => {
      const home = copyStore(dir);
      const check = new Database(join(home, REL), { readonly: true });
      const prompts = (check.prepare("SELECT COUNT(*) AS n FROM turns WHERE user_message IS NOT NULL AND user_message <> ''").get() as { n: number }).n;
      const replies = (check.prepare("SELECT COUNT(*) AS n FROM turns WHERE assistant_response IS NOT NULL AND assistant_response <> ''").get() as { n: number }).n;
      const named = (check.prepare("SELECT COUNT(*) AS n FROM sessions WHERE summary IS NOT NULL AND summary <> ''").get() as { n: number }).n;
      const ids = (check.prepare('SELECT id FROM sessions').all() as { id: string }[]).map((r) => r.id);
      check.close();
      const { rows, warnings } = await parse(home);
      expect(prompts).toBeGreaterThan(0);
      expect(rows.filter((r) => r.turn_type === 'user')).toHaveLength(prompts);
      expect(rows.filter((r) => r.turn_type === 'assistant')).toHaveLength(replies);
      expect(rows.filter((r) => r.tag === 'session_name')).toHaveLength(named);
      expect(rows.filter((r) => r.tag === 'unreadable')).toEqual([]);
      expect(warnings).toEqual([]);
      for (const r of rows) {
        expect(ids).toContain(r.session_id);
        expect(r.timestamp_utc).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
        expect(r.project_path).not.toBe('');
        expect(r.source_line).toBeGreaterThan(0);
      }
    });
  }

  it('parses a copied store twice to the same rows (the read-only open changes nothing)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aitrail-store-'));
    try {
      for (const s of ['', '-wal', '-shm']) copyFileSync(join(FIXTURE, `session-store.db${s}`), join(dir, `session-store.db${s}`));
      const before = await runParser(copilotStoreParser, artifactFromFile(dir, 'session-store.db'));
      const after = await runParser(copilotStoreParser, artifactFromFile(dir, 'session-store.db'));
      expect(after.rows).toEqual(before.rows);
      expect(before.rows).toHaveLength(5);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
