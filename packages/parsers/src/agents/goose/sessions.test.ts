import { beforeAll, describe, expect, it } from 'vitest';
import type { Row } from '../../sdk/types.js';
import { copyHome, run, tempHomes } from '../opencode/test-helpers/harness.js';
import { goosePlugin } from './index.js';

// fixtures/homes/goose-source (built from block/goose's source by make/build.mjs): sessions.db
// with its -wal, the v4 backup and the legacy JSONL files, row by row from the fixture's data and
// the spec's parser plan.

const [db, backup, legacy] = goosePlugin.parsers;
const homes = tempHomes('goose');
const DATA = '.local/share/goose';
const T = (s: number) => new Date(s * 1000).toISOString();
const line = (r: Row) => [r.session_id, r.source_line, r.timestamp_utc, r.turn_type, r.tool_name, r.tool_use_id, r.text, r.tag ?? ''];

describe('goose sessions.db', () => {
  let out: Awaited<ReturnType<typeof run>>;
  beforeAll(async () => {
    out = await run(db, copyHome('goose-source', homes.make()), `${DATA}/sessions/sessions.db`);
  });

  it('gives the sessions first (the -wal-only scheduled session included), with their start, name and extensions', () => {
    expect(out.rows.filter((r) => r.tag?.startsWith('session')).map(line)).toEqual([
      ['old-session', 1, '2026-05-02T08:00:00.000Z', 'system', '', '', 'session start: Old CLI session type=user', 'session_start'],
      ['old-session', 1, '2026-05-02T08:00:00.000Z', 'system', '', '', 'session name: Old CLI session (set by the user)', 'session_name'],
      ['20260914_1', 2, '2026-09-14T09:00:00.000Z', 'system', '', '', 'session start: Refactor the CSV export type=user', 'session_start'],
      ['20260914_1', 2, '2026-09-14T09:00:00.000Z', 'system', '', '', 'session name: Refactor the CSV export', 'session_name'],
      ['20260914_1', 2, '2026-09-14T09:00:00.000Z', 'system', '', '', 'extensions enabled: developer, github', 'session_metadata'],
      ['20260915_1', 3, '2026-09-15T09:00:00.000Z', 'system', '', '', 'session start: nightly-report type=scheduled schedule=nightly-report recipe=Nightly sales report', 'session_start'],
      ['20260915_1', 3, '2026-09-15T09:00:00.000Z', 'system', '', '', 'session name: nightly-report', 'session_name'],
    ]);
  });

  it('gives session 20260914_1 message by message: every content kind, the declined call, the compaction summary', () => {
    const S = '20260914_1';
    expect(out.rows.filter((r) => r.session_id === S && !r.tag?.startsWith('session')).map(line)).toEqual([
      [S, 5, T(1789376400), 'user', '', '', 'make the CSV export stream rows instead of buffering them', ''],
      [S, 6, T(1789376405), 'thinking', '', '', 'Find where the export buffers.', ''],
      [S, 6, T(1789376405), 'assistant', '', '', 'Looking for the export code.', ''],
      [S, 6, T(1789376405), 'tool_use', 'developer__shell', 'toolu_01', 'rg -n "toCsv" src', ''],
      [S, 7, T(1789376406), 'tool_result', 'developer__shell', 'toolu_01', 'src/export.ts:12:export function toCsv(rows) {', ''],
      [S, 8, T(1789376410), 'system', 'developer__text_editor', 'toolu_02', 'approval request: developer__text_editor {"command":"write","path":"/home/dev/shop/src/export.ts"} (Allow writing src/export.ts?)', 'permission_request'],
      [S, 8, T(1789376410), 'tool_use', 'developer__text_editor', 'toolu_02', '{"command":"write","file_text":"…","path":"/home/dev/shop/src/export.ts"}', ''],
      [S, 9, T(1789376430), 'tool_result', 'developer__text_editor', 'toolu_02', 'The user has declined to run this tool. DO NOT attempt to call this tool again. If there are no alternative methods to proceed, clearly explain the situation and STOP.', ''],
      [S, 9, T(1789376430), 'system', 'developer__text_editor', 'toolu_02', 'permission denied: developer__text_editor', 'permission_decision'],
      [S, 10, T(1789376432), 'assistant', '', '', 'Understood; here is the change as a diff instead.', ''],
      [S, 11, T(1789376500), 'user', '', '', '[image image/png]', ''],
      [S, 11, T(1789376500), 'user', '', '', 'this is the error I see', ''],
      [S, 12, T(1789376505), 'tool_use', '', 'toolu_03', '[invalid tool call] Could not parse tool arguments: EOF while parsing', ''],
      [S, 12, T(1789376505), 'thinking', '', '', '[redacted thinking]', ''],
      [S, 13, T(1789376506), 'tool_result', '', 'toolu_03', '[error] invalid tool call', ''],
      [S, 14, T(1789376600), 'system', '', '', 'inlineMessage: Context is 80% full', ''],
      [S, 14, T(1789376600), 'tool_use', 'open_url', 'toolu_04', '{"url":"https://example.com/csv"}', ''],
      [S, 15, T(1789376700), 'system', '', '', 'context summary: Summary so far: the export buffers rows in toCsv; the user declined a direct write.', 'compaction'],
    ]);
    expect(out.ctx.unknowns).toEqual([{ kind: 'content lunarPhase', line: 14 }]);
  });

  it('reads the rows that live only in the -wal, and names every session\'s working_dir as its cwd', () => {
    expect(out.rows.filter((r) => r.session_id === '20260915_1' && !r.tag).map((r) => [r.turn_type, r.text, r.project_path])).toEqual([
      ['user', 'Write the nightly sales report to reports/today.md', '/home/dev/shop'],
      ['assistant', 'Report written.', '/home/dev/shop'],
    ]);
    expect(out.ctx.facts.filter((f) => f.key === 'cwd').map((f) => [f.session_id, f.value, f.priority])).toEqual([
      ['old-session', '/home/dev/shop', 3],
      ['20260914_1', '/home/dev/shop', 3],
      ['20260915_1', '/home/dev/shop', 3],
    ]);
  });
});

describe('goose backups and legacy sessions', () => {
  it('a pre-migration backup (schema v4) keeps a session deleted since; its copies of live sessions yield (copyRank)', async () => {
    const rel = `${DATA}/backups/pre_migration_v4_to_v5.db`;
    expect(backup.wants(rel)).toBe(true);
    expect(db.wants(rel)).toBe(false);
    expect(backup.wants(`${DATA}/sessions/sessions.db`)).toBe(false);
    expect([db.copyRank?.(`${DATA}/sessions/sessions.db`), legacy.copyRank?.(`${DATA}/sessions/x.jsonl`), backup.copyRank?.(rel)]).toEqual([0, 1, 2]);
    const { rows } = await run(backup, copyHome('goose-source', homes.make()), rel);
    expect(rows.map((r) => [r.session_id, r.turn_type, r.tool_name, r.text])).toEqual([
      ['20260913_1', 'system', '', 'session start: Delete the staging bucket'],
      ['20260913_1', 'system', '', 'session name: Delete the staging bucket (set by the user)'],
      ['20260913_1', 'user', '', 'delete the staging bucket, we do not need it'],
      ['20260913_1', 'tool_use', 'developer__shell', 'aws s3 rb s3://acme-staging --force'],
      ['20260913_1', 'tool_result', 'developer__shell', 'remove_bucket: acme-staging'],
    ]);
  });

  it("a legacy file the database imported gives the database's rows for its messages (dropped as copies), with the file name as the session id", async () => {
    const home = copyHome('goose-source', homes.make());
    const fromDb = (await run(db, home, `${DATA}/sessions/sessions.db`)).rows.filter((r) => r.session_id === 'old-session' && !r.tag);
    const fromFile = (await run(legacy, home, `${DATA}/sessions/old-session.jsonl`)).rows;
    const k = (r: Row) => [r.timestamp_utc, r.turn_type, r.tool_name, r.tool_use_id, r.text, r.model].join('|');
    expect(fromFile.filter((r) => !r.tag).map(k)).toEqual(fromDb.map(k));
    // The metadata line has no time: its session rows are undated (the database's say when the import ran).
    expect(fromFile.filter((r) => r.tag).map((r) => [r.timestamp_utc, r.text])).toEqual([
      ['', 'session start: Old CLI session'],
      ['', 'session name: Old CLI session'],
    ]);
  });

  it('a legacy-only session: the approval request, the pre-1.4 compaction marker, and its cut last line as a bad_line row', async () => {
    const { rows } = await run(legacy, copyHome('goose-source', homes.make()), `${DATA}/sessions/cli-spike.jsonl`);
    expect(rows.map((r) => [r.source_line, r.turn_type, r.text, r.project_path, r.tag ?? ''])).toEqual([
      [1, 'system', 'session start: Spike the deploy script', '/home/dev/infra', 'session_start'],
      [1, 'system', 'session name: Spike the deploy script', '/home/dev/infra', 'session_name'],
      [2, 'user', 'write a deploy script for the staging box', '/home/dev/infra', ''],
      [3, 'system', 'approval request: developer__shell {"command":"ssh staging \'sudo systemctl restart app\'"}', '/home/dev/infra', 'permission_request'],
      [3, 'tool_use', "ssh staging 'sudo systemctl restart app'", '/home/dev/infra', ''],
      [4, 'tool_result', 'app restarted', '/home/dev/infra', ''],
      [5, 'system', 'context compacted: Conversation compacted to save context', '/home/dev/infra', 'compaction'],
      [6, 'system', 'parser: unparseable line (cut line, no newline at end of file: invalid JSON): {"id":"msg_e","role":"assistant","created":1772352200,"content":[{"type":"text","text":"The script is in deplo', '', 'bad_line'],
    ]);
  });
});
