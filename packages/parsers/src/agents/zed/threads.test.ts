import { describe, expect, it } from 'vitest';
import { recordingContext } from '../../sdk/recording-context.js';
import type { Row } from '../../sdk/types.js';
import { buildDb, copyHome, run, tempHomes } from '../opencode/test-helpers/harness.js';
import { zedPlugin } from './index.js';
import { rawFrame, rleFrame } from './test-helpers/zstd-frame.js';
import { decodeThreadData } from './threads-parser.js';

// fixtures/homes/zed-spec threads.db (built by fixtures/scripts/make-zed-home.mjs from zed's
// db.rs, thread.rs and legacy_thread.rs shapes), read row by row against shared/agents/zed.md's
// parser plan; then the older schemas and damaged rows a real database can hold.

const [threads] = zedPlugin.parsers;
const homes = tempHomes('zed');
const T1 = '7e57ab1e-0000-4000-8000-000000000001';
const SUB = '5ab0a9e7-0000-4000-8000-000000000002';
const OLD = '1e9ac100-0000-4000-8000-000000000003';
const GONE = 'de1e7ed0-0000-4000-8000-000000000006';
const short = (id: string) => ({ [T1]: 'T1', [SUB]: 'SUB', [OLD]: 'OLD' })[id] ?? id;
const line = (r: Row) => [short(r.session_id), r.source_line, r.timestamp_utc, r.turn_type, r.tool_name, r.tool_use_id, r.text, r.tag ?? ''];
const CREATED = '2026-10-03T14:20:00.500Z';
const APP = '/home/dev/src/zed-app';

describe('threads.db (the fixture home)', () => {
  it('gives the plan rows: the thread, its messages in order with the thread time, sub-agent and legacy threads, damaged rows', async () => {
    const home = copyHome('zed-spec', homes.make());
    const { rows, ctx } = await run(threads, home, '.local/share/zed/threads/threads.db');
    expect(rows.map(line)).toEqual([
      ['OLD', null, '2025-06-10T09:15:02.417Z', 'system', '', '', 'thread: Explain the build script profile=write model=zed.dev/claude-sonnet-4 folders=/home/dev/src/old-app tokens=9000/400 version=0.2.0', 'session_start'],
      ['OLD', null, '2025-06-10T09:15:02.417Z', 'system', '', '', 'session name: Explain the build script', 'session_name'],
      ['OLD', null, '2025-06-10T09:15:02.417Z', 'system', '', '', 'model: zed.dev/claude-sonnet-4', 'model'],
      ['OLD', 1, '2025-06-10T09:15:02.417Z', 'user', '', '', 'What does build.rs do?', 'time_session'],
      ['OLD', 1, '2025-06-10T09:15:02.417Z', 'system', '', '', 'context: <context>\nbuild.rs\n</context>', 'context'],
      ['OLD', 2, '2025-06-10T09:15:02.417Z', 'thinking', '', '', 'Read it.', 'time_session'],
      ['OLD', 2, '2025-06-10T09:15:02.417Z', 'assistant', '', '', 'Let me read it.', 'time_session'],
      ['OLD', 2, '2025-06-10T09:15:02.417Z', 'tool_use', 'read_file', 'toolu_01X', 'zed-app/build.rs', 'time_session'],
      ['OLD', 2, '2025-06-10T09:15:02.417Z', 'tool_result', 'read_file', 'toolu_01X', 'fn main() { println!("cargo:rerun-if-changed=x"); }', 'time_session'],
      ['T1', null, CREATED, 'system', '', '', `thread: Fix failing cargo test profile=write model=anthropic/claude-sonnet-4-5 folders=${APP} tokens=18234/912 version=0.3.0`, 'session_start'],
      ['T1', null, CREATED, 'system', '', '', 'session name: Fix failing cargo test', 'session_name'],
      ['T1', null, CREATED, 'system', '', '', 'model: anthropic/claude-sonnet-4-5', 'model'],
      ['T1', 1, CREATED, 'user', '', '', `Why does this test fail? [@${APP}/src/lib.rs] [@${APP}/tests/t.rs#L5-10]`, 'time_session'],
      ['T1', 1, CREATED, 'system', '', '', `context: ${APP}/src/lib.rs\npub fn add(a: i32, b: i32) -> i32 { a - b }\n`, 'context'],
      ['T1', 1, CREATED, 'system', '', '', `context: ${APP}/tests/t.rs#L5-10\nassert_eq!(add(2, 2), 4);`, 'context'],
      ['T1', 2, CREATED, 'thinking', '', '', 'Run the tests first.', 'time_session'],
      ['T1', 2, CREATED, 'assistant', '', '', 'Let me run the test suite.', 'time_session'],
      ['T1', 2, CREATED, 'tool_use', 'terminal', 'toolu_01ABCdef', 'cargo test (cd zed-app)', 'time_session'],
      ['T1', 2, CREATED, 'tool_result', 'terminal', 'toolu_01ABCdef', 'running 1 test\ntest t ... FAILED', 'time_session'],
      ['T1', 3, CREATED, 'system', '', '', 'resumed', 'time_session'],
      ['T1', 4, CREATED, 'assistant', '', '', 'add subtracts; I will fix it.', 'time_session'],
      ['T1', 4, CREATED, 'tool_use', 'edit_file', 'toolu_02edit', 'zed-app/src/lib.rs: Make add add', 'time_session'],
      ['T1', 4, CREATED, 'tool_result', 'edit_file', 'toolu_02edit', '[error] Could not find matching text', 'time_session'],
      ['T1', 5, CREATED, 'system', '', '', 'context compacted: The user asked why a test fails; add subtracted.', 'compaction'],
      ['T1', null, '2026-10-03T14:22:07.123Z', 'system', '', '', 'summary: Fixed add() so cargo test passes.', 'summary'],
      ['SUB', null, '2026-10-03T14:21:00.000Z', 'system', '', '', `thread: Search for callers of add profile=ask model=zed.dev/claude-haiku-4-5 folders=${APP} tokens=0/0 version=0.3.0 parent=${T1}`, 'session_start'],
      ['SUB', null, '2026-10-03T14:21:00.000Z', 'system', '', '', 'session name: Search for callers of add', 'session_name'],
      ['SUB', null, '2026-10-03T14:21:00.000Z', 'system', '', '', 'model: zed.dev/claude-haiku-4-5', 'model'],
      ['SUB', 1, '2026-10-03T14:21:00.000Z', 'user', '', '', 'Find every caller of add.', 'time_session'],
      ['SUB', 2, '2026-10-03T14:21:00.000Z', 'tool_use', 'grep', 'toolu_03grep', '{"regex":"add\\\\("}', 'time_session'],
      ['SUB', 2, '2026-10-03T14:21:00.000Z', 'tool_result', 'grep', 'toolu_03grep', 'src/main.rs:4: add(1, 2)', 'time_session'],
      ['j50n0000-0000-4000-8000-000000000004', null, '2026-10-04T08:00:00.000Z', 'system', '', '', `thread: Plain JSON row profile=- model=- folders=${APP} tokens=0/0 version=0.3.0`, 'session_start'],
      ['j50n0000-0000-4000-8000-000000000004', null, '2026-10-04T08:00:00.000Z', 'system', '', '', 'session name: Plain JSON row', 'session_name'],
      ['j50n0000-0000-4000-8000-000000000004', 1, '2026-10-04T08:00:00.000Z', 'user', '', '', 'hello from a json row', 'time_session'],
      ['c07c07c0-0000-4000-8000-000000000005', null, '2026-10-04T09:00:00.000Z', 'system', '', '', expect.stringMatching(/^parser: unreadable thread c07c07c0-\S+ "Cut short" \(rowid 5\): expected zstd-compressed data, but decoding stopped after \d+ compressed bytes/), 'bad_line'],
      // Deleted while Zed ran: the delete is in the -wal, the thread still whole in the main file's page.
      [GONE, null, '2026-10-05T10:00:00.000Z', 'system', '', '', `deleted thread recovered: ${GONE} "Read the deploy settings" (no longer in the table; carved from the main file, as of the last checkpoint, page 2, rowid 6)`, 'recovered'],
      [GONE, null, '2026-10-05T10:00:00.000Z', 'system', '', '', `thread: Read the deploy settings profile=write model=anthropic/claude-sonnet-4-5 folders=${APP} tokens=0/0 version=0.3.0`, 'session_start'],
      [GONE, null, '2026-10-05T10:00:00.000Z', 'system', '', '', 'session name: Read the deploy settings', 'session_name'],
      [GONE, null, '2026-10-05T10:00:00.000Z', 'system', '', '', 'model: anthropic/claude-sonnet-4-5', 'model'],
      [GONE, 1, '2026-10-05T10:00:00.000Z', 'user', '', '', 'What is in .env? Then delete this thread.', 'recovered'],
      [GONE, 2, '2026-10-05T10:00:00.000Z', 'assistant', '', '', 'Reading it.', 'recovered'],
      [GONE, 2, '2026-10-05T10:00:00.000Z', 'tool_use', 'terminal', 'toolu_06cat', 'cat .env (cd zed-app)', 'recovered'],
      [GONE, 2, '2026-10-05T10:00:00.000Z', 'tool_result', 'terminal', 'toolu_06cat', 'DEPLOY_REGION=eu-west-1', 'recovered'],
    ]);
    // Every row of a thread carries its project, model and branch; results carry no model.
    expect(rows.filter((r) => r.session_id === T1).every((r) => r.project_path === APP && r.git_branch === 'main')).toBe(true);
    expect([...new Set(rows.filter((r) => r.session_id === T1 && r.turn_type !== 'tool_result').map((r) => r.model))]).toEqual(['anthropic/claude-sonnet-4-5']);
    expect(rows.find((r) => r.session_id === OLD)?.project_path).toBe('/home/dev/src/old-app');
    expect(ctx.facts).toEqual(expect.arrayContaining([{ session_id: T1, key: 'cwd', value: APP, priority: 1 }, { session_id: T1, key: 'branch', value: 'main', priority: 1 }, { session_id: SUB, key: 'name', value: 'Search for callers of add', priority: 1 }]));
    expect(ctx.unknowns).toEqual([]);
  });

  it('leaves thinking out unless asked', async () => {
    const home = copyHome('zed-spec', homes.make());
    const { rows } = await run(threads, home, '.local/share/zed/threads/threads.db', { includeThinking: false });
    expect(rows.filter((r) => r.turn_type === 'thinking')).toEqual([]);
    // Three in the live threads, one in the deleted thread carved back.
    expect(rows.filter((r) => r.turn_type === 'assistant').length).toBe(4);
  });

  it('wants the threads database at each OS place, nothing under the downloaded folders', () => {
    for (const rel of ['.local/share/zed/threads/threads.db', 'Library/Application Support/Zed/threads/threads.db', 'AppData/Local/Zed/threads/threads.db', '.var/app/dev.zed.Zed/data/zed/threads/threads.db']) expect(threads.wants(rel), rel).toBe(true);
    for (const rel of ['.local/share/zed/threads/threads.db-wal', '.local/share/zed/db/0-stable/db.sqlite', '.local/share/zed/extensions/threads/threads.db', 'src/app/threads/threads.db']) expect(threads.wants(rel), rel).toBe(false);
  });
});

const FIVE = 'CREATE TABLE threads (id TEXT PRIMARY KEY, summary TEXT NOT NULL, updated_at TEXT NOT NULL, data_type TEXT NOT NULL, data BLOB NOT NULL)';
const REL = '.local/share/zed/threads/threads.db';
const doc = (o: object) => rawFrame(Buffer.from(JSON.stringify(o)));

describe('threads.db as older builds and damage leave it', () => {
  it('a five-column table (before parent_id, folder_paths, created_at): the time is updated_at, the project the snapshot\'s worktree', async () => {
    const home = homes.make();
    const d = { title: 'Early thread', messages: [{ User: { id: 'u', content: [{ Text: 'hi' }, { Image: { source: 'iVBOR', size: { width: 1, height: 1 } } }] } }], updated_at: '2025-08-01T10:00:00Z', initial_project_snapshot: { worktree_snapshots: [{ worktree_path: '/w/p', git_state: { current_branch: 'dev' } }] }, version: '0.3.0' };
    buildDb(home, REL, FIVE, [['INSERT INTO threads VALUES (?, ?, ?, ?, ?)', ['t-early', 'Early thread', '2025-08-01T10:00:00+00:00', 'zstd', doc(d)]]]);
    const { rows } = await run(threads, home, REL);
    expect(rows.map((r) => [r.timestamp_utc, r.project_path, r.git_branch, r.turn_type, r.text])).toEqual([
      ['2025-08-01T10:00:00.000Z', '/w/p', 'dev', 'system', 'thread: Early thread profile=- model=- folders=/w/p tokens=0/0 version=0.3.0'],
      ['2025-08-01T10:00:00.000Z', '/w/p', 'dev', 'system', 'session name: Early thread'],
      ['2025-08-01T10:00:00.000Z', '/w/p', 'dev', 'user', 'hi [image]'],
    ]);
  });

  it('an unversioned first-agent document ({role, text}), results with a plain-string content and tool names from their calls', async () => {
    const home = homes.make();
    const d = { summary: 'Oldest', updated_at: '2025-03-01T00:00:00Z', messages: [{ id: 0, role: 'user', text: 'list files', tool_uses: [], tool_results: [] }, { id: 1, role: 'assistant', text: '', tool_uses: [{ id: 'x1', name: 'list_directory', input: { path: '.' } }], tool_results: [] }, { id: 2, role: 'user', text: '', tool_uses: [], tool_results: [{ tool_use_id: 'x1', is_error: false, content: 'a.txt\nb.txt' }] }, { id: 3, role: 'system', text: 'You are helpful.' }] };
    buildDb(home, REL, FIVE, [['INSERT INTO threads VALUES (?, ?, ?, ?, ?)', ['t-old', 'Oldest', '2025-03-01T00:00:00+00:00', 'json', JSON.stringify(d)]]]);
    const { rows } = await run(threads, home, REL);
    expect(rows.slice(2).map((r) => [r.source_line, r.turn_type, r.tool_name, r.tool_use_id, r.text])).toEqual([
      [1, 'user', '', '', 'list files'],
      [2, 'tool_use', 'list_directory', 'x1', '{"path":"."}'],
      [3, 'tool_result', 'list_directory', 'x1', 'a.txt\nb.txt'],
      [4, 'system', '', '', 'system message: You are helpful.'],
    ]);
  });

  it('damaged rows: each gives one bad_line row naming its thread, and the next thread is read; new variants are counted, not dropped', async () => {
    const home = homes.make();
    const ok = { title: 'Fine', messages: [{ User: { id: 'u', content: [{ Text: 'still here' }] } }, { Checkpoint: { id: 7 } }, { Agent: { content: [{ Text: 'yes' }, { Citation: { url: 'https://example.com' } }], tool_results: {} } }], updated_at: '2026-01-01T00:00:00Z', version: '0.3.0' };
    const rowsIn: [string, unknown[]][] = [
      ['t1', 'not json', 'json', Buffer.from('{"title": "x", "messages": [')],
      ['t2', 'zstd claimed', 'zstd', Buffer.from('{"title":"plain"}')],
      ['t3', 'an array', 'zstd', doc([1, 2])],
      ['t4', 'brotli', 'brotli', Buffer.from([0x1b, 0x02, 0x00])],
      ['t5', 'no messages', 'json', JSON.stringify({ title: 'no messages', messages: 'gone' })],
      ['t6', 'empty', 'zstd', Buffer.alloc(0)],
      ['t7', 'Fine', 'zstd', doc(ok)],
    ].map(([id, summary, type, data], i) => ['INSERT INTO threads VALUES (?, ?, ?, ?, ?)', [id, summary, `2026-01-01T00:00:0${i}+00:00`, type, data]]);
    buildDb(home, REL, FIVE, rowsIn);
    const { rows, ctx } = await run(threads, home, REL);
    const bad = rows.filter((r) => r.tag === 'bad_line').map((r) => [r.session_id, r.text]);
    expect(bad).toEqual([
      ['t1', expect.stringMatching(/^parser: unreadable thread t1 "not json" \(rowid 1\): expected a JSON document, found "\{\\"title\\": \\"x\\", \\"messages\\": \[" \(/)],
      ['t2', 'parser: unreadable thread t2 "zstd claimed" (rowid 2): data_type is zstd but the data does not start with zstd\'s magic (found 7b227469)'],
      ['t3', 'parser: unreadable thread t3 "an array" (rowid 3): expected a JSON object, found an array'],
      ['t4', expect.stringMatching(/^parser: unreadable thread t4 "brotli" \(rowid 4\): expected a JSON document, found/)],
      ['t5', 'parser: thread t5 has no messages list (found "gone")'],
      ['t6', 'parser: unreadable thread t6 "empty" (rowid 6): its data is empty'],
    ]);
    expect(rows.filter((r) => r.session_id === 't7').map((r) => [r.turn_type, r.text])).toEqual([
      ['system', 'thread: Fine profile=- model=- folders=- tokens=0/0 version=0.3.0'],
      ['system', 'session name: Fine'],
      ['user', 'still here'],
      ['system', 'message: {"Checkpoint":{"id":7}}'],
      ['assistant', 'yes'],
      ['system', 'agent content: {"Citation":{"url":"https://example.com"}}'],
    ]);
    expect(ctx.unknowns.map((u) => u.kind)).toEqual(['data_type "brotli"', 'message Checkpoint', 'agent content Citation']);
  });

  it('a database without the threads table is a warning, not rows', async () => {
    const home = homes.make();
    buildDb(home, REL, 'CREATE TABLE other (x)');
    const { rows, ctx } = await run(threads, home, REL);
    expect(rows).toEqual([]);
    expect(ctx.warnings.map((w) => w.message)).toEqual([`${REL} has no threads table: not a Zed threads database, or its rows are in a -wal that was not collected`]);
  });

  it('a document that decodes past the cap is refused early (a zstd bomb), with what was expected', async () => {
    const ctx = recordingContext(true);
    // 200 RLE blocks of 128 KiB: 25 MiB decoded from about 800 bytes.
    const r = await decodeThreadData('zstd', rleFrame(0x5b, 200), ctx, 1, 1 << 20);
    expect(r).toEqual({ ok: false, why: `its document decodes to more than ${1 << 20} bytes; not read` });
    expect(await decodeThreadData('json', Buffer.from('{"a":1}'), ctx, 1, 4)).toEqual({ ok: false, why: 'its document is larger than 4 bytes; not read' });
  });
});
