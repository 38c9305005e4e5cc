import { beforeAll, describe, expect, it } from 'vitest';
import type { Row } from '../../sdk/types.js';
import { buildDb, copyHome, run, tempHomes } from '../opencode/test-helpers/harness.js';
import { crushPlugin } from './index.js';
import { splitCwd } from './parts.js';

// fixtures/homes/crush-source app/.crush/crush.db (built from crush's migrations by
// make/build.mjs), read as a project file of /home/dev/app, row by row from the fixture's data and
// the spec's parser plan.

const [db] = crushPlugin.parsers;
const homes = tempHomes('crush');
const S = 'b5a1c0de-0000-4000-8000-000000000001';
const SUB = 'b5a1c0de-0000-4000-8000-000000000002';
const T = (s: number) => new Date((1789549200 + s) * 1000).toISOString();
const line = (r: Row) => [r.session_id === S ? 'S' : r.session_id === SUB ? 'SUB' : r.session_id, r.source_line, r.timestamp_utc, r.turn_type, r.tool_name, r.tool_use_id, r.model, r.text, r.tag ?? ''];

describe('crush.db in a project', () => {
  let out: Awaited<ReturnType<typeof run>>;
  beforeAll(async () => {
    const home = copyHome('crush-source', homes.make());
    out = await run(db, `${home}/app`, '.crush/crush.db', { fields: { scope: 'project', projectRoot: '/home/dev/app' } });
  });

  it('gives the rows of the spec plan in time order (seconds and milliseconds read alike), every row in the project', () => {
    expect(out.rows.map(line)).toEqual([
      ['S', 1, T(0), 'system', '', '', '', 'session: Move logging to slog tokens=20480/1900 cost=0.0731', 'session_start'],
      ['S', 1, T(0), 'system', '', '', '', 'session name: Move logging to slog', 'session_name'],
      ['S', 1, T(400), 'system', '', '', '', 'todo completed: switch the logger to slog', 'todo'],
      ['S', 1, T(400), 'system', '', '', '', 'todo pending: update the README', 'todo'],
      ['SUB', 2, T(60), 'system', '', '', '', `session: Find every log.Printf call tokens=3000/200 cost=0.004 parent=${S}`, 'session_start'],
      ['SUB', 2, T(60), 'system', '', '', '', 'session name: Find every log.Printf call', 'session_name'],
      ['S', 1, T(1), 'user', '', '', '', 'replace the log package with slog everywhere', ''],
      ['S', 2, T(2), 'system', '', '', 'claude-sonnet-4-5', 'model: claude-sonnet-4-5 (anthropic)', 'model'],
      ['S', 2, T(3 - 1), 'thinking', '', '', 'claude-sonnet-4-5', 'Find the call sites first.', ''],
      ['S', 2, T(2), 'assistant', '', '', 'claude-sonnet-4-5', 'I will look for the log calls.', ''],
      ['S', 2, T(2), 'tool_use', 'bash', 'call_1', 'claude-sonnet-4-5', 'grep -rn "log.Printf" .', ''],
      ['S', 3, T(5), 'tool_result', 'bash', 'call_1', '', './main.go:12: log.Printf("start")', ''],
      ['S', 4, T(7), 'tool_use', 'edit', 'call_2', 'claude-sonnet-4-5', '{"file_path":"/home/dev/app/main.go","old_string":"log.Printf","new_string":"slog.Info"}', ''],
      ['S', 5, T(30), 'tool_result', 'edit', 'call_2', '', '[error] User denied permission', ''],
      ['S', 5, T(30), 'system', 'edit', 'call_2', '', 'permission denied: edit', 'permission_decision'],
      ['SUB', 11, T(60), 'user', '', '', '', 'Find every log.Printf call in the repository', ''],
      ['SUB', 12, T(80), 'system', '', '', 'claude-haiku-4-5', 'model: claude-haiku-4-5 (anthropic)', 'model'],
      ['SUB', 12, T(80), 'assistant', '', '', 'claude-haiku-4-5', 'Found one call, in main.go.', ''],
      ['S', 6, T(120), 'user', 'bash', '', '', '!go build ./...', ''],
      ['S', 6, T(120), 'system', 'bash', '', '', 'shell exit=0: ok', ''],
      ['S', 6, T(120), 'user', '', '', '', 'it builds; now do it with a smaller model', ''],
      ['S', 7, T(125), 'system', '', '', 'gpt-5-mini', 'model: claude-sonnet-4-5 -> gpt-5-mini (openai)', 'model'],
      ['S', 7, T(125), 'assistant', '', '', 'gpt-5-mini', 'Switched to the smaller model; the edit is ready for review.', ''],
      ['S', 8, T(200), 'user', '', '', '', '[image https://example.com/log.png]', ''],
      ['S', 8, T(200), 'user', '', '', '', '[attachment /home/dev/app/trace.txt text/plain]', ''],
      ['S', 9, T(300), 'system', '', '', 'gpt-5-mini', 'context summary: Summary: logging moved to slog in main.go; README pending.', 'compaction'],
      ['S', 10, T(310), 'assistant', '', '', 'gpt-5-mini', 'Stopping here.', ''],
      ['S', 10, T(310), 'system', '', '', 'gpt-5-mini', 'finish: canceled Request canceled by the user', ''],
      ['S', 1, T(6), 'system', '', '', '', 'file version: /home/dev/app/main.go v0 (27 chars)', 'file_changed'],
      ['S', 2, T(150), 'system', '', '', '', 'file version: /home/dev/app/main.go v1 (32 chars)', 'file_changed'],
      ['S', 1, T(5), 'system', '', '', '', 'file read: /home/dev/app/main.go', 'file_read'],
    ]);
    expect(new Set(out.rows.map((r) => r.project_path))).toEqual(new Set(['/home/dev/app']));
    expect(out.ctx.unknowns).toEqual([{ kind: 'part hologram', line: 10 }]);
  });

  it('the project root is the cwd (priority 1); the <cwd> tag of a tool result is a later point of the session', () => {
    expect(out.ctx.facts.filter((f) => f.key === 'cwd')).toEqual([
      { session_id: S, key: 'cwd', value: '/home/dev/app', priority: 1 },
      { session_id: SUB, key: 'cwd', value: '/home/dev/app', priority: 1 },
      { session_id: S, key: 'cwd', value: '/home/dev/app', priority: 2, at: T(5) },
    ]);
  });

  it('outside a project scope (a copy found in a home) the <cwd> tag is the only project the rows get, through facts', async () => {
    const home = copyHome('crush-source', homes.make());
    const r = await run(db, home, 'app/.crush/crush.db');
    expect(new Set(r.rows.map((x) => x.project_path))).toEqual(new Set(['']));
    expect(r.ctx.facts.filter((f) => f.key === 'cwd')).toEqual([{ session_id: S, key: 'cwd', value: '/home/dev/app', priority: 2, at: T(5) }]);
  });
});

describe('crush.db variations and damage', () => {
  it('splits the <cwd> tag off a result only at its end', () => {
    expect(splitCwd('out\n<cwd>/x</cwd>\n')).toEqual({ text: 'out', cwd: '/x' });
    expect(splitCwd('<cwd>/x</cwd> in the middle')).toEqual({ text: '<cwd>/x</cwd> in the middle', cwd: '' });
  });

  it('zstd-compressed parts (crush PR #3581), parts that are not JSON, and NULL columns each give a row that says so', async () => {
    const home = homes.make();
    const zstd = Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x20, 0x05, 0x29, 0x00]);
    buildDb(home, '.crush/crush.db', 'CREATE TABLE messages (id TEXT PRIMARY KEY, session_id TEXT, role TEXT, parts BLOB, model TEXT, created_at INTEGER, updated_at INTEGER);', [
      ['INSERT INTO messages VALUES (?, ?, ?, ?, ?, ?, ?)', ['z1', 's', 'user', zstd, null, 1789549200, 0]],
      ['INSERT INTO messages VALUES (?, ?, ?, ?, ?, ?, ?)', ['n1', 's', 'user', '{not json', null, 1789549201, 0]],
      ['INSERT INTO messages VALUES (?, ?, ?, ?, ?, ?, ?)', ['n2', null, null, null, null, null, 0]],
    ]);
    const { rows, ctx } = await run(db, home, '.crush/crush.db');
    expect(rows.map((r) => [r.tag, r.text])).toEqual([
      ['bad_line', 'parser: unreadable message n2 (expected a JSON array of parts, found nothing)'],
      ['bad_line', 'parser: unreadable message z1 (its parts are zstd-compressed, as crush PR #3581 proposes; not decoded)'],
      ['bad_line', 'parser: unreadable message n1 (expected a JSON array of parts, found {not json)'],
    ]);
    expect(ctx.unknowns).toEqual([{ kind: 'zstd-compressed parts', line: 1 }]);
  });

  it('newer columns (permission_mode, workspace_cwd) are read when present', async () => {
    const home = homes.make();
    buildDb(home, '.crush/crush.db', "CREATE TABLE sessions (id TEXT PRIMARY KEY, parent_session_id TEXT, title TEXT, prompt_tokens INTEGER, completion_tokens INTEGER, cost REAL, created_at INTEGER, updated_at INTEGER, permission_mode TEXT NOT NULL DEFAULT 'auto', workspace_cwd TEXT);", [['INSERT INTO sessions (id, title, created_at, permission_mode, workspace_cwd) VALUES (?, ?, ?, ?, ?)', ['s1', 't', 1789549200, 'yolo', '/w']]]);
    const { rows, ctx } = await run(db, home, '.crush/crush.db');
    expect(rows.map((r) => [r.text, r.tag, r.project_path])).toEqual([
      ['session: t tokens=0/0 cost=0', 'session_start', '/w'],
      ['session name: t', 'session_name', '/w'],
      ['permission mode: yolo', 'permission_mode', '/w'],
    ]);
    expect(ctx.facts[0]).toEqual({ session_id: 's1', key: 'cwd', value: '/w', priority: 3 });
  });
});
