import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { artifactFromFile } from '../../sdk/fs-artifact.js';
import { collectRows, recordingContext } from '../../sdk/recording-context.js';
import type { Row } from '../../sdk/types.js';
import { vscodeCopilotChatPlugin } from './index.js';

// The spec's Fixtures section, row by row: every expected row below is written by hand from the
// spec's "Expected rows" and "Other files" paragraphs (additions of this parser are marked).

const HOME = join(import.meta.dirname, '../../../../../fixtures/homes/vscode-copilot-chat');
const SID = '5e55c0de-0000-4000-8000-000000000001';
const U = '.config/Code/User';
const WS = `${U}/workspaceStorage/0f1e2d3c4b5a69788796a5b4c3d2e1f0`;
const MTIME = '2026-10-01T09:00:16.000Z';

type Line = [number | null, string, Row['turn_type'], string, string, string, string, string];

async function run(rel: string, includeThinking = true) {
  const ctx = recordingContext(includeThinking);
  const a = artifactFromFile(HOME, rel, { mtime: MTIME });
  const ps = vscodeCopilotChatPlugin.parsers.filter((p) => p.wants(rel));
  expect(ps.map((p) => p.name), `one parser wants ${rel}`).toHaveLength(1);
  const rows = await collectRows(ps[0], a, ctx);
  const lines = rows.map((r): Line => [r.source_line, r.timestamp_utc, r.turn_type, r.tool_name, r.tool_use_id, r.model, r.tag ?? '', r.text]);
  return { rows, lines, ctx, parser: ps[0] };
}

const t = (s: string) => `2026-10-01T09:00:${s}Z`;

describe('the spec fixture, row by row', () => {
  it('chatSessions/<id>.jsonl gives the spec session-log rows in order', async () => {
    const { rows, lines, ctx } = await run(`${WS}/chatSessions/${SID}.jsonl`);
    const m = 'gpt-6.1-sol';
    expect(lines).toEqual([
      // The cut last line is reported as soon as it is read: before the replayed session's rows.
      [10, '', 'system', '', '', '', 'bad_line', `parser: unparseable line (cut line, no newline at end of file: invalid JSON): {"kind":2,"k":["requests"],"v":[{"requestId":"request_5e55-0002","timestamp":1790845260000,"message":{"text":"and run`],
      [1, t('00.000'), 'system', '', '', 'copilot/gpt-6.1-sol', 'session_start', 'session start: vscode chat location=panel responder=GitHub Copilot repo=https://github.com/example/proj branch=main head=0123456789abcdef0123456789abcdef01234567'],
      [2, t('01.200'), 'system', '', '', m, 'model', 'model: copilot/gpt-6.1-sol resolved=gpt-6.1-sol'],
      [2, t('01.200'), 'system', '', '', m, 'permission_mode', 'permission mode: default agent=agent'],
      [2, t('01.200'), 'user', '', '', m, '', 'fix the failing test'],
      [3, t('02.000'), 'thinking', '', '', m, '', 'Run the tests first.'],
      [3, t('02.000'), 'tool_use', 'run_in_terminal', 'call_01', m, '', 'npm test'],
      [3, t('02.000'), 'system', 'run_in_terminal', 'call_01', m, 'permission_decision', 'permission decision: approved source=user'],
      [3, t('05.000'), 'tool_result', 'run_in_terminal', 'call_01', m, '', '1 failing'],
      [3, t('05.000'), 'system', 'run_in_terminal', 'call_01', m, 'terminal_exit', 'terminal exit: 1 duration=2000ms'],
      [4, t('08.000'), 'tool_use', 'copilot_replaceString', 'call_02', m, '', '{"filePath":"/srv/proj/date.test.js","newString":"2026","oldString":"2025"}'],
      [4, t('08.000'), 'system', 'copilot_replaceString', 'call_02', m, 'permission_decision', 'permission decision: not-needed'],
      [4, t('14.000'), 'tool_result', 'copilot_replaceString', 'call_02', m, '', 'The following files were successfully edited:\n/srv/proj/date.test.js'],
      [4, t('08.000'), 'system', '', '', m, 'file_changed', 'file changed: /srv/proj/date.test.js tool=replace_string_in_file'],
      [5, t('14.000'), 'assistant', '', '', m, '', 'The fixture year was stale; it now reads 2026.'],
      [9, t('15.000'), 'system', '', '', m, 'edited_file_event', 'edited file event: keep /srv/proj/date.test.js'],
      [8, t('15.000'), 'system', '', '', '', 'session_name', 'session name: Fix failing test'],
    ]);
    for (const r of rows) expect([r.session_id, r.project_path]).toEqual([SID, '/srv/proj']);
    // The branch: every row but the bad line (read before the session object) has it; the
    // analyzer fills that one from the branch fact.
    expect(rows.filter((r) => r.git_branch !== 'main').map((r) => r.tag)).toEqual(['bad_line']);
    expect(ctx.facts).toEqual([
      { session_id: SID, key: 'name', value: 'Fix failing test', priority: 1 },
      { session_id: SID, key: 'branch', value: 'main', priority: 1 },
      { session_id: SID, key: 'cwd', value: '/srv/proj', priority: 1 },
      { session_id: SID, key: 'client', value: 'Visual Studio Code', priority: 1 },
    ]);
    expect([ctx.warnings, ctx.unknowns]).toEqual([[], []]);
  });

  it('gives no thinking row without include_thinking', async () => {
    const { lines } = await run(`${WS}/chatSessions/${SID}.jsonl`, false);
    expect(lines.filter((l) => l[2] === 'thinking')).toEqual([]);
    expect(lines).toHaveLength(16);
  });

  it('state.vscdb gives the index name and metadata, the undated memento prompt, nothing for the local agent session or the explorer key', async () => {
    const { rows, lines, parser } = await run(`${WS}/state.vscdb`);
    expect(lines).toEqual([
      [1, t('15.000'), 'system', '', '', '', 'session_name', 'session name: Fix failing test'],
      [1, t('00.000'), 'system', '', '', '', 'session_metadata', 'session metadata: created=2026-10-01T09:00:00.000Z location=panel files=1 +1 -1 state=1 pendingEdits=false external=false permission=default'],
      [0, '', 'user', '', '', '', '', 'fix the failing test'],
    ]);
    expect(rows.map((r) => r.session_id)).toEqual([SID, SID, '']);
    expect(parser.secondary(`${WS}/state.vscdb`)).toBe(true);
    expect(parser.secondaryToleranceSeconds(`${WS}/state.vscdb`)).toBe(60);
  });

  it('state.json gives the edit state and the edit operation, undated (the baseline row and the before/after hashes are additions)', async () => {
    const { rows, lines } = await run(`${WS}/chatEditingSessions/${SID}/state.json`);
    expect(lines).toEqual([
      [0, '', 'system', '', '', '', 'edit_baseline', 'edit baseline: /srv/proj/date.test.js before=contents/a1b2c3d'],
      [0, '', 'system', '', '', 'copilot/gpt-6.1-sol', 'edit_state', 'edit state: Accepted /srv/proj/date.test.js deleted=false request=request_5e55-0001 model=copilot/gpt-6.1-sol before=contents/a1b2c3d after=contents/e4f5a6b'],
      [0, '', 'system', '', '', '', 'edit_operation', 'edit operation: textEdit /srv/proj/date.test.js request=request_5e55-0001 epoch=2'],
    ]);
    for (const r of rows) expect([r.session_id, r.project_path]).toEqual([SID, '/srv/proj']);
  });

  it('the transcript gives its session start, user, thinking, tool_use, tool_result and reply at the lines times', async () => {
    const { lines, ctx } = await run(`${WS}/GitHub.copilot-chat/transcripts/${SID}.jsonl`);
    expect(lines).toEqual([
      [1, t('01.100'), 'system', '', '', '', 'session_start', 'session start: copilot-agent 0.66.0 vscode 1.138.0 cwd=/srv/proj'],
      [2, t('01.250'), 'user', '', '', '', '', 'fix the failing test'],
      [4, t('02.000'), 'thinking', '', '', '', '', 'Run the tests first.'],
      [4, t('02.000'), 'tool_use', 'run_in_terminal', 'call_01', '', '', 'npm test'],
      [6, t('05.000'), 'tool_result', 'run_in_terminal', 'call_01', '', '', '1 failing'],
      [7, t('15.000'), 'assistant', '', '', '', '', 'The fixture year was stale; it now reads 2026.'],
    ]);
    expect(ctx.facts).toEqual([{ session_id: SID, key: 'cwd', value: '/srv/proj', priority: 3 }]);
  });

  it('the session store gives the name, the turn and the file change', async () => {
    const { rows, lines } = await run(`${U}/globalStorage/github.copilot-chat/session-store.db`);
    expect(lines).toEqual([
      [1, t('01.300'), 'system', '', '', '', 'session_name', 'session name: Fix failing test'],
      [1, t('15.100'), 'user', '', '', '', '', 'fix the failing test'],
      [1, t('15.100'), 'assistant', '', '', '', '', 'The fixture year was stale; it now reads 2026.'],
      [1, t('08.100'), 'system', '', '', '', 'file_changed', 'file changed: /srv/proj/date.test.js tool=replace_string_in_file'],
    ]);
    for (const r of rows) expect([r.session_id, r.project_path, r.git_branch]).toEqual([SID, '/srv/proj', 'main']);
  });

  it('cloudSessions.json gives the sync row at the file mtime', async () => {
    const { rows, lines } = await run(`${U}/globalStorage/github.copilot-chat/cloudSessions.json`);
    expect(lines).toEqual([[1, t('16.000'), 'system', '', '', '', 'sync', 'session synced: remote session cs-0001 task task-0001']]);
    expect(rows[0].session_id).toBe(SID);
  });

  it('the extension log gives the sign-in row, undated, with the local log time in its text', async () => {
    const { lines } = await run('.config/Code/logs/20261001T105959/window1/exthost/GitHub.copilot-chat/GitHub Copilot Chat.log');
    expect(lines).toEqual([[1, '', 'system', '', '', '', 'signed_in', 'signed in: octo-user (log time 2026-10-01 10:59:59.400)']]);
  });

  it('wants none of the noise files, and mcp.json only for its servers', async () => {
    for (const rel of [`${U}/globalStorage/storage.json`, `${WS}/chatEditingSessions/${SID}/contents/e4f5a6b`, `${WS}/GitHub.copilot-chat/debug-logs/${SID}/models.json`, `${WS}/workspace.json`]) {
      expect(vscodeCopilotChatPlugin.parsers.filter((p) => p.wants(rel)).map((p) => p.name), rel).toEqual([]);
    }
    const { rows, ctx } = await run(`${U}/mcp.json`);
    expect(rows).toEqual([]);
    expect(ctx.mcpServers).toEqual([{ name: 'github', scope: 'user', transport: 'http', url: 'https://api.githubcopilot.com/mcp/' }]);
  });
});
