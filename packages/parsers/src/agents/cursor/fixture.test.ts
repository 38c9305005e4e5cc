import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseFile, parserFor, view } from './test-helpers/build.js';

// The spec's sample fixture (shared/agents/cursor.md, "Fixtures"), laid out in
// fixtures/homes/cursor-spec. Every expected row below is written by hand from the spec's
// "Expected rows" and "Secondary rows" paragraphs, not from a run of the parser.
const HOME = fileURLToPath(new URL('../../../../../fixtures/homes/cursor-spec/', import.meta.url));
const CU = '.config/Cursor/User';
const S = 'c0c0c0c0-0000-4000-8000-000000000001';
const P = '/srv/proj';
const M = 'claude-4.5-sonnet';
const T = (hms: string) => `2026-10-01T${hms}Z`;

describe('the spec fixture, global state.vscdb', () => {
  it('gives the spec rows in order, with project, branch and model; the token is never read', async () => {
    const { rows } = await parseFile(HOME, `${CU}/globalStorage/state.vscdb`);
    const c = (time: string, turn: string, text: string, line: number, tag = '', tool = '', id = '') => [time, S, P, 'main', M, turn, tool, id, text, line, tag];
    expect(rows.map(view)).toEqual([
      ['', '', '', '', '', 'system', '', '', 'signed in: alex@example.com plan=pro', 2, 'signed_in'],
      c(T('09:00:00.000'), 'system', 'session start: cursor composer mode=agent agentic=true status=completed', 1, 'session_start'),
      c(T('09:00:00.000'), 'system', 'model: claude-4.5-sonnet max=false', 1, 'model'),
      c(T('09:00:01.200'), 'user', 'fix the failing test', 2),
      c(T('09:00:01.200'), 'system', 'checkpoint: files=1: /srv/proj/date.test.js', 6, 'checkpoint'),
      c(T('09:00:02.000'), 'thinking', 'Run the tests first.', 3),
      c(T('09:00:02.000'), 'tool_use', 'npm test', 3, '', 'run_terminal_cmd', 'toolu_01'),
      c(T('09:00:02.000'), 'system', 'permission decision: accepted review=Done option=run', 3, 'permission_decision', 'run_terminal_cmd', 'toolu_01'),
      c(T('09:00:05.000'), 'tool_result', '1 failing', 3, '', 'run_terminal_cmd', 'toolu_01'),
      c(T('09:00:05.000'), 'system', 'terminal exit: 1 rejected=false', 3, 'terminal_exit', 'run_terminal_cmd', 'toolu_01'),
      c(T('09:00:08.000'), 'tool_use', '{"file_path":"/srv/proj/date.test.js","new_string":"2026","old_string":"2025"}', 4, '', 'search_replace', 'toolu_02'),
      c(T('09:00:08.000'), 'tool_result', '{"diff":{"chunks":[{"diffString":"-2025\\n+2026","linesAdded":1,"linesRemoved":1}]}}', 4, '', 'search_replace', 'toolu_02'),
      c(T('09:00:15.000'), 'assistant', 'The fixture year was stale; it now reads 2026.', 5),
      c(T('09:00:15.000'), 'system', 'session name: Fix failing test', 1, 'session_name'),
      c(T('09:00:15.000'), 'system', 'session stats: +1 -1 files=1 archived=false', 1, 'session_stats'),
    ]);
    expect(JSON.stringify(rows)).not.toContain('eyJhbGciOiJIUzI1NiJ9');
  });

  it('gives no thinking row without --include-thinking', async () => {
    const { rows } = await parseFile(HOME, `${CU}/globalStorage/state.vscdb`, { includeThinking: false });
    expect(rows.filter((r) => r.turn_type === 'thinking')).toEqual([]);
    expect(rows).toHaveLength(14);
  });

  it('reports the project from composer.composerHeaders (best), the branch, the client, and the bubble workspace as of its time', async () => {
    const { ctx } = await parseFile(HOME, `${CU}/globalStorage/state.vscdb`);
    expect(ctx.facts).toEqual([
      { session_id: S, key: 'cwd', value: P, priority: 1 },
      { session_id: S, key: 'branch', value: 'main', priority: 1 },
      { session_id: S, key: 'client', value: 'Cursor', priority: 1 },
      { session_id: S, key: 'cwd', value: P, priority: 4, at: T('09:00:01.200') },
    ]);
    expect(ctx.unknowns).toEqual([]);
  });
});

describe('the spec fixture, secondary stores', () => {
  it('workspace state.vscdb: the session name and the generation prompt; the paired prompt gives none', async () => {
    const { rows, ctx } = await parseFile(HOME, `${CU}/workspaceStorage/9a8b7c6d5e4f30211203f4e5d6c7b8a9/state.vscdb`);
    expect(rows.map(view)).toEqual([
      [T('09:00:15.000'), S, P, '', '', 'system', '', '', 'session name: Fix failing test', 1, 'session_name'],
      [T('09:00:01.250'), '', '', '', '', 'user', '', '', 'fix the failing test', 1, ''],
    ]);
    expect(ctx.facts).toEqual([{ session_id: S, key: 'cwd', value: P, priority: 3 }]);
  });

  it('the transcript: five undated rows and the cut last line as a bad line', async () => {
    const { rows } = await parseFile(HOME, `.cursor/projects/srv-proj/agent-transcripts/${S}/${S}.jsonl`);
    const t = (turn: string, text: string, line: number, tool = '') => ['', S, '', '', '', turn, tool, '', text, line, ''];
    expect(rows.map(view)).toEqual([
      t('user', 'fix the failing test', 1),
      t('assistant', 'Running the tests first.', 2),
      t('tool_use', 'npm test', 2, 'Shell'),
      t('tool_use', '{"new_string":"2026","old_string":"2025","path":"/srv/proj/date.test.js"}', 3, 'StrReplace'),
      t('assistant', 'The fixture year was stale; it now reads 2026.', 4),
      ['', S, '', '', '', 'system', '', '', 'parser: unparseable line (cut line, no newline at end of file: invalid JSON): {"role":"user","message":{"content":[{"type":"text","text":"and ru', 5, 'bad_line'],
    ]);
  });

  it('ai-code-tracking.db: the summary and the composer hash; the tab hash gives none', async () => {
    const { rows } = await parseFile(HOME, '.cursor/ai-tracking/ai-code-tracking.db');
    expect(rows.map(view)).toEqual([
      [T('09:00:16.000'), S, '', '', M, 'system', '', '', 'session summary: Fix failing test: Updated the fixture year in date.test.js model=claude-4.5-sonnet mode=agent', 1, 'session_summary'],
      [T('09:00:08.500'), S, '', '', M, 'system', '', '', 'ai code: /srv/proj/date.test.js hashes=1 model=claude-4.5-sonnet', 1, 'ai_code'],
    ]);
  });

  it('secondary and tolerance as the spec sets them; sync unknown', () => {
    const cases: [string, boolean, number][] = [
      [`${CU}/globalStorage/state.vscdb`, false, 0],
      [`${CU}/globalStorage/state.vscdb.backup`, true, 60],
      [`${CU}/workspaceStorage/9a8b7c6d5e4f30211203f4e5d6c7b8a9/state.vscdb`, true, 3600],
      [`.cursor/projects/srv-proj/agent-transcripts/${S}/${S}.jsonl`, true, 3600],
      ['.cursor/ai-tracking/ai-code-tracking.db', true, 3600],
      ['.cursor/prompt_history.json', true, 0],
      ['.cursor/chats/0123456789abcdef0123456789abcdef/x/store.db', false, 0],
    ];
    for (const [rel, secondary, tol] of cases) {
      const p = parserFor(rel);
      expect([rel, p.secondary(rel), p.secondaryToleranceSeconds(rel), p.recordsSync]).toEqual([rel, secondary, tol, false]);
    }
  });
});
