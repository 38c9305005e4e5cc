import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { artifactFromFile } from '../../sdk/fs-artifact.js';
import { collectRows, recordingContext } from '../../sdk/recording-context.js';
import type { Parser, Row } from '../../sdk/types.js';
import { geminiCliPlugin } from './index.js';

// The spec's sample fixture (fixtures/homes/gemini-spec), against the spec's "Expected rows",
// written here by hand from the spec's text, row by row.

const HOME = fileURLToPath(new URL('../../../../../fixtures/homes/gemini-spec/', import.meta.url));
const SID = '5e55a0a1-0000-4000-8000-000000000001';
const CHAT = '.gemini/tmp/proj/chats/session-2026-10-01T09-00-5e55a0a1.jsonl';
const MTIME = '2026-09-30T12:00:00.000Z';
const parsers = geminiCliPlugin.parsers;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? files(join(dir, n)) : [join(dir, n)]));
}
const rels = files(HOME)
  .map((f) => relative(HOME, f).split('\\').join('/'))
  .filter((r) => r !== 'README.md');

async function rowsOf(rel: string, includeThinking = true): Promise<{ rows: Row[]; parser: Parser; ctx: ReturnType<typeof recordingContext> }> {
  const wanted = parsers.filter((p) => p.wants(rel));
  expect(wanted.length, `expected exactly one gemini-cli parser to want ${rel}`).toBe(1);
  const ctx = recordingContext(includeThinking);
  const rows = await collectRows(wanted[0], artifactFromFile(HOME, rel, { mtime: MTIME }), ctx);
  return { rows, parser: wanted[0], ctx };
}

type Expect = [line: number | null, ts: string, turn: string, text: string, tool?: string, id?: string];
const t = (s: string) => `2026-10-01T${s}Z`;

describe('the spec fixture chat, row by row', () => {
  const expected: Expect[] = [
    [1, t('09:00:00.000'), 'system', 'session start: kind=main projectHash=6b9af143446a411aefa3edb76e4693799bd7513e7ed8d919962d6713d3d3b972'],
    [2, t('09:00:00.001'), 'system', 'session context: <session_context>'],
    [3, t('09:00:10.000'), 'user', 'fix the failing test in @date.test.js'],
    [7, t('09:00:12.000'), 'thinking', '**Running the tests** Run the tests before editing.'],
    [7, t('09:00:14.000'), 'system', 'model: gemini-3.5-flash'],
    [7, t('09:00:14.000'), 'assistant', 'I will run the tests first.'],
    [7, t('09:00:16.000'), 'tool_use', 'npm test', 'run_shell_command', 'run_shell_command__0001'],
    [7, t('09:00:16.000'), 'tool_result', 'Output: 1 failing\nExit Code: 1\nProcess Group PGID: 4242', 'run_shell_command', 'run_shell_command__0001'],
    [10, t('09:00:25.000'), 'tool_use', '/srv/proj/date.test.js', 'replace', 'replace__0002'],
    [10, t('09:00:25.000'), 'tool_result', '[cancelled] declined by the user (synthetic text)', 'replace', 'replace__0002'],
    [11, t('09:00:26.000'), 'system', 'info: Approval mode changed (synthetic text)'],
    [12, t('09:00:40.000'), 'system', 'model: gemini-3.5-flash -> gemini-3.5-pro'],
    [12, t('09:00:40.000'), 'assistant', 'The edit was declined; the test still expects 2025.'],
    [14, t('09:00:40.000'), 'system', 'session name: Fix failing date test'],
    [15, t('09:01:00.000'), 'user', 'and run lint'],
    [16, t('09:01:00.000'), 'system', 'rewind: messages from a0000000-0000-4000-8000-000000000002 on were discarded (the earlier rows stay)'],
    [17, t('09:01:10.000'), 'system', 'error: [API Error: quota exceeded] (synthetic text)'],
    [18, t('09:01:10.000'), 'system', 'parser: unparseable line (cut line, no newline at end of file: invalid JSON): {"id":"a0000000-0000-4000-8000-000000000003"'],
  ];

  it('gives exactly the expected rows, in file order, and nothing for lines 4, 5, 6, 8, 9 and 13', async () => {
    const { rows } = await rowsOf(CHAT);
    expect(rows.length).toBe(expected.length);
    rows.forEach((r, i) => {
      const [line, ts, turn, text, tool = '', id = ''] = expected[i];
      expect([r.source_line, r.timestamp_utc, r.turn_type, r.tool_name, r.tool_use_id], `row ${i}`).toEqual([line, ts, turn, tool, id]);
      if (text.endsWith('<session_context>') || turn === 'system' && text.startsWith('parser:')) expect(r.text.startsWith(text), `row ${i}: ${r.text.slice(0, 80)}`).toBe(true);
      else expect(r.text, `row ${i}`).toBe(text);
    });
    expect(rows.map((r) => r.source_line).filter((l) => [4, 5, 6, 8, 9, 13].includes(l ?? 0))).toEqual([]);
  });

  it('puts every row in the session, in /srv/proj (from .project_root, whose sha256 is projectHash), on no branch', async () => {
    const { rows, ctx } = await rowsOf(CHAT);
    for (const r of rows) expect([r.session_id, r.project_path, r.git_branch]).toEqual([SID, '/srv/proj', '']);
    expect(ctx.facts).toEqual([{ session_id: SID, key: 'cwd', value: '/srv/proj', priority: 1, at: t('09:00:00.000') }]);
  });

  it('gives the model of the gemini record on its rows and the last model seen on the others', async () => {
    const { rows } = await rowsOf(CHAT);
    expect(rows.map((r) => r.model)).toEqual(['', '', '', ...Array(7).fill('gemini-3.5-flash'), 'gemini-3.5-flash', ...Array(7).fill('gemini-3.5-pro')]);
  });

  it('keeps the session context whole and tags the kinds the analyzer reads', async () => {
    const { rows } = await rowsOf(CHAT);
    expect(rows[1].text).toContain('- **Workspace Directories:**\n  - /srv/proj\n</session_context>');
    expect(rows.map((r) => r.tag ?? '')).toEqual(['session_start', '', '', '', 'model', '', '', '', '', '', '', 'model', '', 'session_name', '', 'rewind', '', 'bad_line']);
  });

  it('gives no thinking row without --include-thinking', async () => {
    const { rows } = await rowsOf(CHAT, false);
    expect(rows.filter((r) => r.turn_type === 'thinking')).toEqual([]);
    expect(rows.length).toBe(expected.length - 1);
  });
});

describe('the spec fixture: prompt logs, checkpoint, settings and account', () => {
  it('logs.json: one user row per entry, dated, in its session, source_line the index + 1', async () => {
    const { rows, parser } = await rowsOf('.gemini/tmp/proj/logs.json');
    expect(parser.secondary('.gemini/tmp/proj/logs.json')).toBe(true);
    expect(parser.secondaryToleranceSeconds('.gemini/tmp/proj/logs.json')).toBe(3600);
    expect(rows.map((r) => [r.source_line, r.timestamp_utc, r.turn_type, r.text, r.session_id, r.project_path])).toEqual([
      [1, t('09:00:09.900'), 'user', 'fix the failing test in @date.test.js', SID, '/srv/proj'],
      [2, t('09:00:50.000'), 'user', '/model', SID, '/srv/proj'],
      [3, t('09:00:59.900'), 'user', 'and run lint', SID, '/srv/proj'],
      [4, t('09:01:30.000'), 'user', 'npm run lint', SID, '/srv/proj'],
    ]);
  });

  it('shell_history: undated user rows with no session, source_line the command index', async () => {
    const { rows, parser } = await rowsOf('.gemini/tmp/proj/shell_history');
    expect(parser.secondary('.gemini/tmp/proj/shell_history')).toBe(true);
    expect(rows.map((r) => [r.source_line, r.timestamp_utc, r.turn_type, r.text, r.session_id, r.project_path])).toEqual([
      [1, '', 'user', 'git status', '', '/srv/proj'],
      [2, '', 'user', 'npm run lint', '', '/srv/proj'],
    ]);
  });

  it('checkpoint-decision.json: the history undated, then the saved row at the file mtime', async () => {
    const { rows, parser } = await rowsOf('.gemini/tmp/proj/checkpoint-decision.json');
    expect(parser.secondary('.gemini/tmp/proj/checkpoint-decision.json')).toBe(true);
    expect(rows.map((r) => [r.timestamp_utc, r.turn_type, r.text, r.session_id])).toEqual([
      ['', 'user', 'and run lint', ''],
      [MTIME, 'system', 'chat checkpoint saved: decision (1 messages, authType=oauth-personal)', ''],
    ]);
  });

  it('settings, trust, policy and account rows, each at its file mtime with no session', async () => {
    const texts: [string, string, string][] = [];
    for (const rel of ['.gemini/settings.json', '.gemini/trustedFolders.json', '.gemini/policies/auto-saved.toml', '.gemini/google_accounts.json']) {
      const { rows } = await rowsOf(rel);
      for (const r of rows) {
        expect([r.timestamp_utc, r.session_id, r.turn_type]).toEqual([MTIME, '', 'system']);
        texts.push([r.text, r.project_path, r.tag ?? '']);
      }
    }
    expect(texts).toEqual([
      ['auth: selectedType=oauth-personal', '', 'auth'],
      ['permission setting: general.defaultApprovalMode=auto_edit', '', 'permission_mode'],
      ['permission setting: tools.allowed=run_shell_command(git status)', '', 'permission_setting'],
      ['retention setting: general.sessionRetention={"enabled":true,"maxAge":"30d"}', '', 'retention_setting'],
      ['permission setting: trustedFolders./srv/proj=TRUST_FOLDER', '/srv/proj', 'permission_setting'],
      ['permission setting: policy rule toolName=run_shell_command decision=allow commandPrefix=npm test (from policies/auto-saved.toml)', '', 'permission_setting'],
      ['signed in: octo@example.org (google_accounts.json)', '', 'signed_in'],
    ]);
  });

  it('wants no noise file; projects.json and .project_root are read as facts by the other parsers, not parsed alone', () => {
    const unwanted = rels.filter((r) => !parsers.some((p) => p.wants(r))).sort();
    expect(unwanted).toEqual([
      '.gemini/installation_id',
      '.gemini/oauth_creds.json',
      '.gemini/projects.json',
      '.gemini/state.json',
      '.gemini/tmp/bin/rg',
      '.gemini/tmp/proj/.project_root',
      '.gemini/tmp/proj/logs/rag-trace.log',
      '.gemini/tmp/proj/tool-outputs/session-5e55a0a1-0000-4000-8000-000000000001/run_shell_command_run_shell_command__0001.txt',
    ]);
  });
});
