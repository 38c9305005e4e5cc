import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { artifactFromFile } from '../../sdk/fs-artifact.js';
import { makeRow } from '../../sdk/row.js';
import type { Row } from '../../sdk/types.js';
import { claudeCodePlugin } from './index.js';
import { collectRows, recordingContext } from './test-helpers/context.js';

// The spec's sample fixture, laid out as a home; expectations are the spec's "Expected rows".
const HOME = fileURLToPath(new URL('../../../../../fixtures/homes/seed-claude/', import.meta.url));
const SID = '5e55a0a1-0000-4000-8000-000000000001';
const MAIN = `.claude/projects/-srv-proj/${SID}.jsonl`;
const SUB = `.claude/projects/-srv-proj/${SID}/subagents/agent-a0f1e2d3c4b5a6978.jsonl`;
const OPUS = 'claude-opus-4-7';
const CUT_LINE =
  '{"parentUuid":"c1000000-0000-4000-8000-000000000007","isSidechain":false,"promptId":"d1000000-0000-4000-8000-000000000002","type":"user","message":{"role":"user","content":"and run li';

function parserFor(rel: string) {
  const ps = claudeCodePlugin.parsers.filter((p) => p.wants(rel));
  expect(ps, rel).toHaveLength(1);
  return ps[0];
}

async function rowsOf(rel: string, includeThinking = true, mtime?: string) {
  const ctx = recordingContext(includeThinking);
  const rows = await collectRows(parserFor(rel), artifactFromFile(HOME, rel, { mtime }), ctx);
  return { rows, ctx };
}

const at = (t: string) => `2026-10-01T09:00:${t}Z`;
const main = (f: Partial<Row>) => ({ session_id: SID, ...f });

describe('seed-claude fixture: transcript', () => {
  const expected: Row[] = [
    makeRow('system', 'permission mode: default', main({ timestamp_utc: at('01.200'), source_line: 1, tag: 'permission_mode' })),
    makeRow('user', 'Use a subagent to run the tests, then summarise', main({ timestamp_utc: at('01.200'), source_line: 3, project_path: '/srv/proj', git_branch: 'main' })),
    makeRow('system', 'session name: Run tests via subagent', main({ timestamp_utc: at('01.199'), source_line: 5, project_path: '/srv/proj', git_branch: 'main', tag: 'session_name' })),
    makeRow('thinking', 'Delegate the test run to a subagent.', main({ timestamp_utc: at('03.000'), source_line: 6, project_path: '/srv/proj', git_branch: 'main', model: OPUS })),
    makeRow(
      'tool_use',
      '{"description":"Run the tests","prompt":"Run npm test and report the result.","subagent_type":"general-purpose"}',
      main({ timestamp_utc: at('03.500'), source_line: 7, project_path: '/srv/proj', git_branch: 'main', model: OPUS, tool_name: 'Agent', tool_use_id: 'toolu_01AAAAAAAAAAAAAAAAAAAAAA' }),
    ),
    makeRow(
      'tool_result',
      "2 passing\nagentId: a0f1e2d3c4b5a6978 (use SendMessage with to: 'a0f1e2d3c4b5a6978' to continue this agent)\n<usage>total_tokens: 900\ntool_uses: 1\nduration_ms: 4000</usage>",
      main({ timestamp_utc: at('08.000'), source_line: 8, project_path: '/srv/proj', git_branch: 'main', model: OPUS, tool_name: 'Agent', tool_use_id: 'toolu_01AAAAAAAAAAAAAAAAAAAAAA' }),
    ),
    makeRow('assistant', 'All 2 tests pass.', main({ timestamp_utc: at('09.000'), source_line: 9, project_path: '/srv/proj', git_branch: 'main', model: OPUS })),
    makeRow('system', 'summary: Test run delegated to a subagent', main({ timestamp_utc: at('09.050'), source_line: 11, project_path: '/srv/proj', git_branch: 'main', model: OPUS, tag: 'summary' })),
    makeRow('system', `parser: unparseable line (cut line, no newline at end of file: invalid JSON): ${CUT_LINE}`, main({ timestamp_utc: at('09.050'), source_line: 13, project_path: '/srv/proj', git_branch: 'main', model: OPUS, tag: 'bad_line' })),
  ];

  it('gives the expected rows, field by field, with include_thinking', async () => {
    const { rows } = await rowsOf(MAIN);
    expect(rows).toHaveLength(expected.length);
    for (const [i, r] of rows.entries()) expect(r, `row ${i + 1} (line ${expected[i].source_line})`).toEqual(expected[i]);
  });

  it('lines 2, 4, 10 and 12 give no row', async () => {
    const { rows } = await rowsOf(MAIN);
    const lines = new Set(rows.map((r) => r.source_line));
    for (const n of [2, 4, 10, 12]) expect(lines.has(n), `line ${n}`).toBe(false);
  });

  it('without include_thinking the line-6 thinking row is absent and nothing else changes', async () => {
    const { rows } = await rowsOf(MAIN, false);
    expect(rows).toEqual(expected.filter((r) => r.turn_type !== 'thinking'));
  });

  it('reports the session facts: cwd and branch as of the first line that names them, client, name', async () => {
    const { ctx } = await rowsOf(MAIN);
    const best = (key: string) => ctx.facts.filter((f) => f.key === key && f.session_id === SID).sort((a, b) => a.priority - b.priority)[0];
    expect(best('cwd')).toEqual({ session_id: SID, key: 'cwd', value: '/srv/proj', priority: 1, at: '2026-10-01T09:00:01.200Z' });
    expect(best('branch')).toEqual({ session_id: SID, key: 'branch', value: 'main', priority: 1, at: '2026-10-01T09:00:01.200Z' });
    expect(best('client')).toEqual({ session_id: SID, key: 'client', value: 'cli', priority: 1 });
    expect(best('name')).toEqual({ session_id: SID, key: 'name', value: 'Run tests via subagent', priority: 2 });
  });
});

describe('seed-claude fixture: other files', () => {
  it('subagent file: the task row and the reply, tagged sidechain', async () => {
    const { rows } = await rowsOf(SUB);
    const base = { session_id: SID, project_path: '/srv/proj', git_branch: 'main', tag: 'sidechain' };
    expect(rows).toEqual([
      makeRow('system', 'subagent a0f1e2d3c4b5a6978 (general-purpose) task: Run npm test and report the result.', { ...base, timestamp_utc: at('03.600'), source_line: 1 }),
      makeRow('assistant', '2 passing', { ...base, timestamp_utc: at('07.500'), source_line: 2, model: 'claude-haiku-4-5' }),
    ]);
  });

  it('history.jsonl: both prompts as secondary user rows', async () => {
    const rel = '.claude/history.jsonl';
    const p = parserFor(rel);
    expect(p.secondary(rel)).toBe(true);
    expect(p.secondaryToleranceSeconds(rel)).toBe(3600);
    const { rows } = await rowsOf(rel);
    const base = { session_id: SID, project_path: '/srv/proj', tag: 'history' };
    expect(rows).toEqual([
      makeRow('user', 'Use a subagent to run the tests, then summarise', { ...base, timestamp_utc: at('01.150'), source_line: 1 }),
      makeRow('user', 'and run lint', { ...base, timestamp_utc: at('40.000'), source_line: 2 }),
    ]);
  });

  it('history text equals the transcript text of the same prompt, 50 ms apart (the pair dedup drops)', async () => {
    const t = (await rowsOf(MAIN)).rows.find((r) => r.turn_type === 'user');
    const h = (await rowsOf('.claude/history.jsonl')).rows;
    expect(h[0].text).toBe(t?.text);
    expect(Date.parse(t?.timestamp_utc ?? '') - Date.parse(h[0].timestamp_utc)).toBe(50);
    // The cut prompt exists only in history: no transcript row has its text.
    expect((await rowsOf(MAIN)).rows.some((r) => r.text === 'and run lint')).toBe(false);
  });

  it('.claude.json: account and project trust at the mtime; empty allowedTools give no permission row', async () => {
    const { rows, ctx } = await rowsOf('.claude.json', true, '2026-10-01T09:00:10.000Z');
    expect(rows).toEqual([
      makeRow('system', 'account: octo@example.com org=Example Org', { timestamp_utc: at('10.000'), tag: 'signed_in' }),
      makeRow('system', 'project trust: accepted', { timestamp_utc: at('10.000'), project_path: '/srv/proj', tag: 'project_trust' }),
    ]);
    expect(ctx.facts).toEqual([{ session_id: SID, key: 'cwd', value: '/srv/proj', priority: 5 }]);
  });

  it('settings.json: permission, retention and env rows (env name only), session empty', async () => {
    const { rows } = await rowsOf('.claude/settings.json', true, '2026-09-30T12:00:00.000Z');
    const ts = '2026-09-30T12:00:00.000Z';
    expect(rows).toEqual([
      makeRow('system', 'permission setting: user.permissions.allow=Bash(npm test *)', { timestamp_utc: ts, tag: 'permission_setting' }),
      makeRow('system', 'retention setting: user.cleanupPeriodDays=30', { timestamp_utc: ts, tag: 'retention_setting' }),
      makeRow('system', 'env setting: user.HTTPS_PROXY', { timestamp_utc: ts, tag: 'env_setting' }),
    ]);
    expect(rows.some((r) => r.text.includes('proxy.example'))).toBe(false);
  });

  it('the empty todos file is wanted and gives no row', async () => {
    const { rows } = await rowsOf(`.claude/todos/${SID}-agent-${SID}.json`);
    expect(rows).toEqual([]);
  });

  it('the shell snapshot, statsig id and meta.json are wanted by no parser', () => {
    for (const rel of [
      '.claude/shell-snapshots/snapshot-bash-1790845199000-ab12cd.sh',
      '.claude/statsig/statsig.stable_id.2656274335',
      `.claude/projects/-srv-proj/${SID}/subagents/agent-a0f1e2d3c4b5a6978.meta.json`,
    ]) {
      expect(claudeCodePlugin.parsers.filter((p) => p.wants(rel)).map((p) => p.name), rel).toEqual([]);
    }
  });
});
