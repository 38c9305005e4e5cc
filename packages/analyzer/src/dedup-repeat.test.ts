import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyze } from './analyze.js';
import { type FakeFile, makeCollectionDir } from './test-helpers/make-collection.js';

// The store is built with the parsers package's SQLite module (the analyzer has none of its own).
const Database = createRequire(join(import.meta.dirname, '../../parsers/package.json'))('better-sqlite3');

const root = mkdtempSync(join(tmpdir(), 'aitrail-dedup-repeat-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const fresh = () => join(root, `case-${n++}`);

// The seed's Linux round (session-store.db, "Observed: turns 9 rows on macOS"): store rows and
// times as given; the log's times are picked to fit its account.
const S1 = 'a1a1a1a1-0000-4000-8000-000000000001';
const S2 = 'a1a1a1a1-0000-4000-8000-000000000002';
const [P1, R1, P2, R2, Q1, QR] = ['first prompt', 'first reply', 'second prompt', 'second reply', 'other session prompt', 'other session reply'];
const day = (hms: string) => `2026-10-01T${hms}Z`;
const TURNS: [string, number, string, string | null, string][] = [
  [S1, 0, P1, R1, '21:05:34.927'],
  [S1, 1, P2, null, '21:08:11.565'],
  [S1, 2, P1, R1, '21:08:12.119'],
  [S1, 3, P2, R2, '21:16:01.831'],
  [S2, 0, Q1, null, '21:18:16.638'],
  [S2, 1, Q1, QR, '21:19:27.956'],
];

function storeBytes(turns = TURNS): Buffer {
  const dir = fresh();
  mkdirSync(dir);
  const file = join(dir, 'session-store.db');
  const db = new Database(file);
  db.exec(`CREATE TABLE sessions (id TEXT PRIMARY KEY, cwd TEXT, branch TEXT, summary TEXT, created_at TEXT);
    CREATE TABLE turns (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT, turn_index INTEGER, user_message TEXT, assistant_response TEXT, timestamp TEXT);`);
  const ins = db.prepare('INSERT INTO turns (session_id, turn_index, user_message, assistant_response, timestamp) VALUES (?, ?, ?, ?, ?)');
  for (const [s, i, p, r, t] of turns) ins.run(s, i, p, r, day(t));
  db.close();
  return readFileSync(file);
}

const events = (session: string, lines: [string, string, string][]) => ({
  agent: 'copilot-cli',
  rel: `.copilot/session-state/${session}/events.jsonl`,
  content: lines.map(([type, t, content], i) => JSON.stringify({ id: `${session}-${i}`, parentId: null, timestamp: day(t), type, data: { content } })).join('\n') + '\n',
});
const LOG: FakeFile[] = [
  events(S1, [
    ['user.message', '21:03:00.000', P1],
    ['assistant.message', '21:05:00.000', R1],
    ['user.message', '21:05:34.923', P2],
    ['assistant.message', '21:15:50.000', R2],
  ]),
  events(S2, [
    ['user.message', '21:16:40.000', Q1],
    ['assistant.message', '21:19:20.000', QR],
  ]),
];

async function run(files: FakeFile[], turns = TURNS) {
  const input = fresh();
  makeCollectionDir(input, [...files, { agent: 'copilot-cli', rel: '.copilot/session-store.db', content: storeBytes(turns) }]);
  const out = fresh();
  await analyze({ inputs: [input], out });
  const read = (f: string) => readFileSync(join(out, f), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const turn = (r: { turn_type: string }) => r.turn_type === 'user' || r.turn_type === 'assistant';
  return { timeline: read('timeline.jsonl').filter(turn), dups: read('duplicates.jsonl').filter((d) => turn(d.dropped)) };
}

describe("analyze drops the store's repeated turns rows (seed: the Linux round)", () => {
  it('with the log present every store copy drops: the timeline is the log', async () => {
    const { timeline, dups } = await run(LOG);
    expect(timeline.map((r) => [r.session_id, r.text, r.source_file.split('/').pop()])).toEqual([
      [S1, P1, 'events.jsonl'],
      [S1, R1, 'events.jsonl'],
      [S1, P2, 'events.jsonl'],
      [S1, R2, 'events.jsonl'],
      [S2, Q1, 'events.jsonl'],
      [S2, QR, 'events.jsonl'],
    ]);
    expect(dups).toHaveLength(10);
    expect(dups.filter((d) => d.dropped.tag === 'repeat').map((d) => [d.dropped.source_line, d.dropped.text, d.kept.source_file.split('/').pop(), d.paired_with.source_line])).toEqual([
      [3, P1, 'events.jsonl', 1],
      [3, R1, 'events.jsonl', 1],
      [4, P2, 'events.jsonl', 2],
      [6, Q1, 'events.jsonl', 5],
    ]);
  });

  it('with the log deleted one copy of each prompt and reply is kept; the repeats are in duplicates.jsonl', async () => {
    const { timeline, dups } = await run([]);
    expect(timeline.map((r) => [r.session_id, r.text, r.source_line, r.tag])).toEqual([
      [S1, P1, 1, ''],
      [S1, R1, 1, ''],
      [S1, P2, 2, ''],
      [S1, R2, 4, ''],
      [S2, Q1, 5, ''],
      [S2, QR, 6, ''],
    ]);
    expect(dups.map((d) => [d.dropped.source_line, d.dropped.text, d.dropped.tag, d.kept.source_line, d.paired_with.source_line])).toEqual([
      [3, P1, 'repeat', 1, 1],
      [3, R1, 'repeat', 1, 1],
      [4, P2, 'repeat', 2, 2],
      [6, Q1, 'repeat', 5, 5],
    ]);
  });

  it('keeps a prompt typed twice that got a different reply (no log): nothing drops', async () => {
    const { timeline, dups } = await run([], [
      [S1, 0, 'continue', 'A', '10:00:00.000'],
      [S1, 1, 'continue', 'B', '10:05:00.000'],
    ]);
    expect(timeline.map((r) => [r.text, r.source_line])).toEqual([
      ['continue', 1],
      ['A', 1],
      ['continue', 2],
      ['B', 2],
    ]);
    expect(dups).toEqual([]);
  });
});
