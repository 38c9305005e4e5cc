import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { artifactFromFile } from '../../sdk/fs-artifact.js';
import { makeRow } from '../../sdk/row.js';
import type { Row } from '../../sdk/types.js';
import { codexCliPlugin } from './index.js';
import { parseRollout } from './rollout.js';
import { collectRows, recordingContext } from './test-helpers/artifact.js';

// The spec's sample fixture, laid out as a home; the expected rows are the spec's "Expected rows"
// paragraphs written out by hand, field by field.
const HOME = fileURLToPath(new URL('../../../../../fixtures/homes/seed-codex/', import.meta.url));
const SID = '019a0000-0000-7000-8000-000000000001';
const ROLLOUT = `.codex/sessions/2026/10/01/rollout-2026-10-01T11-00-00-${SID}.jsonl`;
const MTIME = '2026-10-01T10:00:00.000Z';

function parserFor(rel: string) {
  const ps = codexCliPlugin.parsers.filter((p) => p.wants(rel));
  expect(ps.map((p) => p.name), rel).toHaveLength(1);
  return ps[0];
}

async function rowsOf(rel: string, includeThinking = true) {
  const ctx = recordingContext(includeThinking);
  const rows = await collectRows(parserFor(rel), artifactFromFile(HOME, rel, { mtime: MTIME }), ctx);
  return { rows, ctx };
}

const t = (s: string) => `2026-10-01T09:${s}Z`;
const r = (f: Partial<Row>): Partial<Row> => ({ session_id: SID, project_path: '/srv/proj', git_branch: 'main', ...f });
const CUT = '{"timestamp":"2026-10-01T09:02:00.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"and run';
const PATCH = '*** Begin Patch\n*** Update File: /srv/proj/date.test.js\n-2025\n+2026\n*** End Patch\n';
const OUT1 = 'Chunk ID: 1a2b3c\nWall time: 0.8000 seconds\nProcess exited with code 1\nOriginal token count: 12\nOutput:\n1 failing\n  date.test.js: expected 2026';

describe('seed-codex fixture: the rollout', () => {
  const M1 = 'gpt-5.5';
  const M2 = 'gpt-5.5-mini';
  const expected: Row[] = [
    makeRow('system', 'session start: codex 0.130.0 originator=codex-tui source=cli cwd=/srv/proj', r({ timestamp_utc: t('00:05.000'), source_line: 1, tag: 'session_start' })),
    makeRow('system', 'system prompt: You are Codex, a coding agent.', r({ timestamp_utc: t('00:05.000'), source_line: 1, tag: 'system_prompt' })),
    makeRow('system', 'developer message: <permissions instructions>\n`sandbox_mode` is `workspace-write`.\n</permissions instructions>', r({ timestamp_utc: t('00:05.002'), source_line: 3, tag: 'developer_message' })),
    makeRow('system', 'context agents_md: # AGENTS.md instructions for /srv/proj\n\n<INSTRUCTIONS>\nRun npm test before committing.\n</INSTRUCTIONS>', r({ timestamp_utc: t('00:05.003'), source_line: 4, tag: 'context' })),
    makeRow('system', 'context environment_context: <environment_context>\n  <cwd>/srv/proj</cwd>\n  <shell>bash</shell>\n</environment_context>', r({ timestamp_utc: t('00:05.003'), source_line: 4, tag: 'context' })),
    makeRow('system', 'model: gpt-5.5 effort=medium summary=auto', r({ timestamp_utc: t('00:05.004'), source_line: 5, model: M1, tag: 'model' })),
    makeRow('system', 'approval policy: on-request sandbox=workspace-write network=false writable_roots=[]', r({ timestamp_utc: t('00:05.004'), source_line: 5, model: M1, tag: 'permission_mode' })),
    makeRow('user', 'fix the failing test', r({ timestamp_utc: t('00:05.300'), source_line: 6, model: M1 })),
    makeRow('thinking', '**Running the tests**\n\nRun the tests first.', r({ timestamp_utc: t('00:07.000'), source_line: 9, model: M1 })),
    makeRow('tool_use', 'npm test', r({ timestamp_utc: t('00:07.100'), source_line: 11, model: M1, tool_name: 'exec_command', tool_use_id: 'call_01' })),
    makeRow('tool_result', `[exit 1] ${OUT1}`, r({ timestamp_utc: t('00:08.000'), source_line: 12, model: M1, tool_name: 'exec_command', tool_use_id: 'call_01' })),
    makeRow('tool_use', PATCH, r({ timestamp_utc: t('00:10.000'), source_line: 13, model: M1, tool_name: 'apply_patch', tool_use_id: 'call_02' })),
    makeRow('system', 'file changed: /srv/proj/date.test.js (update) success=true', r({ timestamp_utc: t('00:10.400'), source_line: 14, model: M1, tool_name: 'apply_patch', tool_use_id: 'call_02', tag: 'file_changed' })),
    makeRow('tool_result', 'Success. Updated the following files:\nM /srv/proj/date.test.js\n', r({ timestamp_utc: t('00:10.500'), source_line: 15, model: M1, tool_name: 'apply_patch', tool_use_id: 'call_02' })),
    makeRow('assistant', 'The fixture year was stale; it now reads 2026.', r({ timestamp_utc: t('00:15.000'), source_line: 17, model: M1 })),
    makeRow('system', 'session name: Fix failing test', r({ timestamp_utc: t('00:40.000'), source_line: 20, model: M1, tag: 'session_name' })),
    makeRow('system', 'model: gpt-5.5 -> gpt-5.5-mini effort=low summary=auto', r({ timestamp_utc: t('01:30.001'), source_line: 22, model: M2, tag: 'model' })),
    makeRow('system', 'approval policy: on-request -> never sandbox=danger-full-access network=- writable_roots=-', r({ timestamp_utc: t('01:30.001'), source_line: 22, model: M2, tag: 'permission_mode' })),
    makeRow('user', 'and run lint', r({ timestamp_utc: t('01:30.100'), source_line: 23, model: M2 })),
    makeRow('system', 'turn aborted: interrupted', r({ timestamp_utc: t('01:35.000'), source_line: 24, model: M2, tag: 'turn_aborted' })),
    makeRow('system', 'context compacted: summary=Fixed the fixture year; lint not run. replacement history 1 items', r({ timestamp_utc: t('01:50.000'), source_line: 25, model: M2, tag: 'compaction' })),
    makeRow('system', `parser: unparseable line (cut line, no newline at end of file: invalid JSON): ${CUT}`, r({ timestamp_utc: t('01:50.001'), source_line: 27, model: M2, tag: 'bad_line' })),
  ];

  it('gives the expected rows, field by field, with include_thinking', async () => {
    const { rows } = await rowsOf(ROLLOUT);
    expect(rows).toHaveLength(expected.length);
    for (const [i, row] of rows.entries()) expect(row, `row ${i + 1} (line ${expected[i].source_line})`).toEqual(expected[i]);
  });

  it('gives no thinking row without include_thinking, and nothing else changes', async () => {
    const { rows } = await rowsOf(ROLLOUT, false);
    expect(rows).toEqual(expected.filter((x) => x.turn_type !== 'thinking'));
  });

  it('lines 2, 7, 8, 10, 16, 18, 19, 21 and 26 give no row, each with a reason', async () => {
    const skipped = new Map<number, string>();
    const a = artifactFromFile(HOME, ROLLOUT, { mtime: MTIME });
    const rows = await collectRows((x, c) => parseRollout(x, c, { onSkip: (n, why) => skipped.set(n, why) }), a, recordingContext(true));
    expect([...skipped.keys()].sort((x, y) => x - y)).toEqual([2, 7, 8, 10, 16, 18, 19, 21, 26]);
    const withRows = new Set(rows.map((x) => x.source_line));
    for (const n of skipped.keys()) expect(withRows.has(n), `line ${n}`).toBe(false);
    expect(skipped.get(7)).toMatch(/copy of the user item/);
    expect(skipped.get(16)).toMatch(/copy of the assistant item/);
    expect(skipped.get(10)).toMatch(/copy of the thinking item/);
  });

  it('reports the session facts: cwd and branch as of the first line, the client, the name, a log', async () => {
    const { ctx } = await rowsOf(ROLLOUT);
    expect(ctx.facts).toEqual([
      { session_id: SID, key: 'cwd', value: '/srv/proj', priority: 1, at: t('00:05.000') },
      { session_id: SID, key: 'branch', value: 'main', priority: 1, at: t('00:05.000') },
      { session_id: SID, key: 'client', value: 'codex-tui', priority: 1 },
      { session_id: SID, key: 'has_log', value: 'yes', priority: 1 },
      { session_id: SID, key: 'name', value: 'Fix failing test', priority: 1 },
    ]);
    expect(ctx.unknowns).toEqual([]);
    expect(ctx.warnings).toEqual([]);
  });
});

describe('seed-codex fixture: secondary and settings files', () => {
  it('history.jsonl: three dated user rows, the first of a thread with no rollout', async () => {
    const { rows } = await rowsOf('.codex/history.jsonl');
    expect(rows).toEqual([
      makeRow('user', 'explain the build', { timestamp_utc: '2026-10-01T08:00:00.000Z', session_id: '019a0000-0000-7000-8000-000000000002', source_line: 1, tag: 'history' }),
      makeRow('user', 'fix the failing test', { timestamp_utc: '2026-10-01T09:00:05.000Z', session_id: SID, source_line: 2, tag: 'history' }),
      makeRow('user', 'and run lint', { timestamp_utc: '2026-10-01T09:01:30.000Z', session_id: SID, source_line: 3, tag: 'history' }),
    ]);
    expect(parserFor('.codex/history.jsonl').secondary('.codex/history.jsonl')).toBe(true);
  });

  it('session_index.jsonl: the session name row and a name fact', async () => {
    const { rows, ctx } = await rowsOf('.codex/session_index.jsonl');
    expect(rows).toEqual([makeRow('system', 'session name: Fix failing test', { timestamp_utc: t('00:40.000'), session_id: SID, source_line: 1, tag: 'session_name' })]);
    expect(ctx.facts).toEqual([{ session_id: SID, key: 'name', value: 'Fix failing test', priority: 2 }]);
  });

  it('config.toml: the trusted project at the file mtime; the top-level model gives no row', async () => {
    const { rows, ctx } = await rowsOf('.codex/config.toml');
    expect(rows).toEqual([makeRow('system', 'permission setting: projects./srv/proj.trust_level=trusted', { timestamp_utc: MTIME, project_path: '/srv/proj', tag: 'permission_setting' })]);
    expect(ctx.mcpServers).toEqual([]);
  });

  it('rules/default.rules: the prefix rule at the file mtime', async () => {
    const { rows } = await rowsOf('.codex/rules/default.rules');
    expect(rows).toEqual([makeRow('system', 'permission setting: prefix_rule pattern=["npm","test"] decision=allow (from rules/default.rules)', { timestamp_utc: MTIME, source_line: 1, tag: 'permission_setting' })]);
  });

  it('the noise is not wanted, except the TUI log, which gives no row', async () => {
    for (const rel of ['.codex/auth.json', '.codex/version.json', '.codex/models_cache.json', `.codex/shell_snapshots/${SID}.sh`, '.codex/tmp/arg0/codex-arg0AbCdEf/applypatch']) {
      expect(codexCliPlugin.parsers.filter((p) => p.wants(rel)).map((p) => p.name), rel).toEqual([]);
    }
    const { rows } = await rowsOf('.codex/log/codex-tui.log');
    expect(rows).toEqual([]);
    // The TUI log's second line names the thread but records no approval, denial or call.
    expect(readFileSync(`${HOME}.codex/log/codex-tui.log`, 'utf8')).toContain(SID);
  });
});
