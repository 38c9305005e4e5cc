import { describe, expect, it } from 'vitest';
import { HOMES, runFile, runText } from './test-helpers/run.js';

// The secondary stores and small files, on the variants home (hand-written expectations) and on
// inputs built here: state.vscdb, edit sessions, transcripts, debug logs, the session store,
// cloudSessions.json, settings.json, mcp.json, the extension log.

const U = '.config/Code/User';
const W1 = `${U}/workspaceStorage/1111aaaa1111aaaa1111aaaa1111aaaa`;
const A = 'a0000000-0000-4000-8000-00000000000a';
const D = 'd0000000-0000-4000-8000-00000000000d';
const E = 'e0000000-0000-4000-8000-00000000000e';
const F = 'f0000000-0000-4000-8000-00000000000f';
const MTIME = '2026-10-02T09:00:00.000Z';
const DPROMPT = 'remove the legacy date module and move every caller to src/date.js, keeping the public API exactly as it is today';

describe('state.vscdb', () => {
  it('workspace scope: the index (a deleted session marked file=missing), the input history, the view draft, foreign agent sessions, grants, legacy sessions', async () => {
    const r = await runFile(HOMES.variants, `${W1}/state.vscdb`);
    const rows = r.rows.map((x) => [x.session_id, x.turn_type, x.tag ?? '', x.text]);
    expect(rows.filter(([sid, , tag]) => sid === D || tag === 'session_metadata')).toEqual([
      [A, 'system', 'session_metadata', 'session metadata: created=2026-10-02T08:00:00.000Z location=panel state=1'],
      ['b0000000-0000-4000-8000-00000000000b', 'system', 'session_metadata', 'session metadata: location=panel'],
      ['c0000000-0000-4000-8000-00000000000c', 'system', 'session_metadata', 'session metadata: location=panel'],
      [D, 'system', 'session_name', 'session name: Remove legacy date module'],
      [D, 'system', 'session_metadata', 'session metadata: created=2026-10-02T08:06:39.000Z location=panel files=2 +10 -40 state=1 workdir=/srv/app file=missing'],
      ['copilotcli:/c1', 'system', 'session_metadata', 'session metadata: location=panel external=true'],
    ]);
    expect(rows.filter(([, t, tag]) => t === 'user' || tag === '' || tag === 'agent_session' || tag === 'permission_setting')).toEqual([
      ['', 'user', '', 'explain the build script'],
      ['', 'user', '', DPROMPT],
      ['', 'user', '', 'fix this'],
      [A, 'system', '', 'unsent draft: now push the branch'],
      ['', 'system', 'agent_session', 'agent session: copilotcli CLI run status=1 archived=true resource=copilotcli:/c1'],
      ['', 'system', 'permission_setting', 'permission setting: chat/autoconfirm.run_in_terminal=true'],
      [E, 'user', '', 'what does tsconfig paths do?'],
      [E, 'assistant', '', 'It maps import specifiers to folders.'],
    ]);
    expect(rows.find(([sid, , tag]) => sid === E && tag === 'session_name')?.[3]).toBe('session name: Legacy question');
    expect(r.ctx.facts).toContainEqual({ session_id: D, key: 'cwd', value: '/srv/app', priority: 3 });
    // Undated rows stay undated: the memento has no time.
    expect(r.rows.filter((x) => x.turn_type === 'user' && x.session_id === '').map((x) => x.timestamp_utc)).toEqual(['', '', '']);
  });

  it('global scope: the empty-window index and MCP grants; never a secret key or value; a value that is not JSON names its key', async () => {
    const r = await runFile(HOMES.variants, `${U}/globalStorage/state.vscdb`, { mtime: MTIME });
    expect(r.short).toEqual([
      [1, 'system', 'session_name', 'session name: Monorepos'],
      [1, 'system', 'session_metadata', 'session metadata: created=2026-10-02T08:08:20.000Z location=panel state=1'],
      [3, 'system', 'permission_setting', 'permission setting: chat/servers/autoconfirm.github=true'],
      [5, 'system', 'bad_line', `parser: unparseable line (ItemTable key memento/interactive-session: expected JSON, found text that is not (Unexpected token 'o', "not JSON {" is not valid JSON)): not JSON {`],
    ]);
    expect(JSON.stringify(r)).not.toMatch(/secret:|FAKE|github\.auth/);
    expect(r.rows[0].session_id).toBe(F);
  });

  it('is the one parser for state.vscdb and its .backup, opted in to the flagged global file', async () => {
    const { parserFor } = await import('./test-helpers/run.js');
    for (const rel of [`${U}/globalStorage/state.vscdb`, `${U}/globalStorage/state.vscdb.backup`, `${W1}/state.vscdb.backup`]) {
      const p = parserFor(rel);
      expect([p.name, p.readsSecretFile?.(rel), p.secondary(rel)]).toEqual(['state-vscdb', true, true]);
    }
  });

  it('gives one unreadable row for a file that is not SQLite', async () => {
    const r = await runText(`${U}/globalStorage/state.vscdb`, 'not a database');
    expect(r.short).toEqual([[null, 'system', 'unreadable', `parser: unreadable file (expected a private copy of ${U}/globalStorage/state.vscdb to open as SQLite, but it could not be made (not on disk))`]]);
  });
});

describe('edit sessions', () => {
  it('state.json version 2: baselines, states (rejected, a deleted file), operations, undated', async () => {
    const r = await runFile(HOMES.variants, `${W1}/chatEditingSessions/${D}/state.json`);
    expect(r.short).toEqual([
      [0, 'system', 'edit_baseline', 'edit baseline: /srv/app/src/date.js before=contents/1a2b3c4'],
      [0, 'system', 'edit_state', 'edit state: Rejected /srv/app/src/date.js request=request_d-1 model=copilot/gpt-5 before=contents/1a2b3c4 after=contents/5d6e7f8'],
      [1, 'system', 'edit_state', 'edit state: Accepted /srv/app/src/legacy.js deleted=true request=request_d-1 model=copilot/gpt-5 before=contents/9a8b7c6 after=contents/e3b0c44'],
      [0, 'system', 'edit_operation', 'edit operation: delete /srv/app/src/legacy.js request=request_d-1 epoch=1'],
    ]);
    expect(new Set(r.rows.map((x) => `${x.session_id} ${x.project_path} ${x.timestamp_utc}`))).toEqual(new Set([`${D} /srv/app `]));
  });

  it('the older linearHistory form (real: an empty one in harrybirdnz/dev) gives its snapshot entries', async () => {
    const entry = { resource: 'file:///srv/x.js', languageId: 'javascript', originalHash: '1111111', currentHash: '2222222', state: 0, telemetryInfo: { requestId: 'rq', modelId: 'copilot/gpt-4.1' } };
    const state = JSON.stringify({ version: 2, sessionId: 's', linearHistory: [{ requestId: 'rq', startIndex: 0, stops: [{ stopId: undefined, entries: [entry] }], postEdit: { entries: [{ ...entry, state: 1 }] } }], linearHistoryIndex: 1, initialFileContents: [], recentSnapshot: { entries: [] } });
    const r = await runText(`${W1}/chatEditingSessions/s/state.json`, state);
    expect(r.short).toEqual([
      [0, 'system', 'edit_state', 'edit snapshot: Modified /srv/x.js request=rq model=copilot/gpt-4.1 before=contents/1111111 after=contents/2222222 stop=-'],
      [0, 'system', 'edit_state', 'edit snapshot: Accepted /srv/x.js request=rq model=copilot/gpt-4.1 before=contents/1111111 after=contents/2222222 stop=postEdit'],
    ]);
    expect((await runText(`${W1}/chatEditingSessions/s/state.json`, '{"version":2')).short[0][3]).toMatch(/^parser: unreadable file \(expected JSON edit-session state .*, found invalid JSON: .* at line 1\)$/);
  });
});

describe('the extension stores', () => {
  it('transcript: rows as the Copilot CLI event types give them, __vscode suffixes removed, unknown types counted', async () => {
    const r = await runFile(HOMES.variants, `${W1}/GitHub.copilot-chat/transcripts/${D}.jsonl`);
    expect(r.rows.map((x) => [x.source_line, x.turn_type, x.tool_name, x.tool_use_id, x.text])).toEqual([
      [1, 'system', '', '', 'session start: copilot-agent 0.42.0 vscode 1.111.0 cwd=/srv/app'],
      [2, 'user', '', '', DPROMPT],
      [4, 'tool_use', 'apply_patch', 'toolu_d1', '{"input":"*** Begin Patch\\n*** Delete File: /srv/app/src/legacy.js\\n*** End Patch"}'],
      [7, 'tool_result', 'apply_patch', 'toolu_d1', 'Deleted /srv/app/src/legacy.js'],
      [8, 'assistant', '', '', 'legacy.js is gone; every caller imports src/date.js.'],
    ]);
    expect(r.ctx.unknowns).toEqual([{ kind: 'transcript session.compaction', line: 9 }]);
  });

  it('debug log: user, reply, tool call and result; a [truncated] value tagged; llm requests and child logs give no rows', async () => {
    const r = await runFile(HOMES.variants, `${W1}/GitHub.copilot-chat/debug-logs/${D}/main.jsonl`);
    expect(r.rows.map((x) => [x.source_line, x.turn_type, x.tool_name, x.tag ?? '', x.text.slice(0, 60)])).toEqual([
      [1, 'user', '', '', DPROMPT.slice(0, 60)],
      [3, 'tool_use', 'apply_patch', '', '{"input":"*** Begin Patch\\n*** Delete File: /srv/app/src/legacy.js\\n*** End Patch"}'.slice(0, 60)],
      [3, 'tool_result', 'apply_patch', '', 'Deleted /srv/app/src/legacy.js'],
      [4, 'assistant', '', '', 'legacy.js is gone; every caller imports src/date.js.'],
      [6, 'tool_use', 'read_file', '', '{"filePath":"/srv/app/src/date.js"}'],
      [6, 'tool_result', 'read_file', 'truncated', 'x'.repeat(60)],
    ]);
    expect(r.ctx.unknowns).toEqual([{ kind: 'debug log span_kind_from_the_future', line: 7 }]);
    expect((await runFile(HOMES.variants, `${W1}/GitHub.copilot-chat/debug-logs/${D}/title-title-child-1.jsonl`)).rows).toEqual([]);
  });

  it('debug log: a reply cut mid-JSON keeps its text up to the marker', async () => {
    const { responseText } = await import('./debug-log-parser.js');
    expect(responseText('[{"role":"assistant","parts":[{"type":"text","content":"Line one\\nline tw[truncated]')).toBe('Line one\nline tw[truncated]');
    expect(responseText('[{"role":"assistant","parts":[{"type":"text","content":"a"},{"type":"tool_call"},{"type":"text","content":"b"}]}]')).toBe('a\nb');
  });

  it('session store: names, turns (cut text tagged truncated), file changes, references, checkpoints; project and branch from sessions', async () => {
    const r = await runFile(HOMES.variants, `${U}/globalStorage/github.copilot-chat/session-store.db`);
    expect(r.rows.map((x) => [x.session_id.slice(0, 1), x.turn_type, x.tag ?? '', x.text])).toEqual([
      ['a', 'system', 'session_name', 'session name: Build, clean and test'],
      ['d', 'system', 'session_name', 'session name: Remove legacy date module'],
      ['a', 'user', 'truncated', 'run the whole test suite, then open an issue on example/app for every failure you cannot fix your...'],
      ['a', 'assistant', '', 'Opened issue #42 for the date test.'],
      ['d', 'user', 'truncated', `${DPROMPT.slice(0, 97)}...`],
      ['d', 'assistant', '', 'legacy.js is gone; every caller imports src/date.js.'],
      ['d', 'system', 'file_changed', 'file changed: /srv/app/src/legacy.js tool=apply_patch'],
      ['a', 'system', 'reference', 'reference: issue 42'],
      ['d', 'system', 'checkpoint', 'checkpoint 1: Legacy removal\noverview: Deleted legacy.js\nnext_steps: Update the changelog'],
    ]);
    expect(new Set(r.rows.map((x) => `${x.project_path} ${x.git_branch}`))).toEqual(new Set(['/srv/app feature/clean', '/srv/app main']));
  });

  it('cloudSessions.json: a sync row per entry at the file mtime; bad JSON is one unreadable row', async () => {
    const r = await runFile(HOMES.variants, `${U}/globalStorage/github.copilot-chat/cloudSessions.json`, { mtime: MTIME });
    expect(r.rows.map((x) => [x.session_id, x.timestamp_utc, x.tag, x.text])).toEqual([[A, MTIME, 'sync', 'session synced: remote session cs-00a task task-00a']]);
    expect((await runText(`${U}/globalStorage/github.copilot-chat/cloudSessions.json`, '[1]')).short[0][3]).toBe('parser: unreadable file (expected JSON {"<session id>": {"cloudSessionId": ..., "cloudTaskId": ...}}, found an array)');
  });
});

describe('configuration and logs', () => {
  it('settings.json: one row per auto-approve entry, MCP servers of mcp.servers, nothing else of the file printed', async () => {
    const r = await runFile(HOMES.variants, `${U}/settings.json`, { mtime: MTIME });
    expect(r.short).toEqual([
      [null, 'system', 'permission_setting', 'permission setting: chat.tools.terminal.autoApprove.npm test=true'],
      [null, 'system', 'permission_setting', 'permission setting: chat.tools.terminal.autoApprove.rm=false'],
      [null, 'system', 'permission_setting', 'permission setting: chat.tools.terminal.autoApprove./^git (status|log)\\b/=true'],
      [null, 'system', 'permission_setting', 'permission setting: chat.tools.global.autoApprove=false'],
    ]);
    expect(JSON.stringify(r.rows)).not.toMatch(/FAKE|proxy/);
    expect(r.ctx.mcpServers).toEqual([{ name: 'jira', scope: 'user', transport: 'stdio', command: 'npx', args: ['-y', 'jira-mcp'], env_keys: ['JIRA_TOKEN'], secrets: [{ where: 'env:JIRA_TOKEN', value: 'FAKE-jira-token-0000' }] }]);
  });

  it('mcp.json: the user file and a project .vscode/mcp.json give servers, no rows, header values only as secrets', async () => {
    const r = await runFile(HOMES.variants, `${U}/mcp.json`);
    expect(r.rows).toEqual([]);
    expect(r.ctx.mcpServers).toEqual([{ name: 'github', scope: 'user', transport: 'http', url: 'https://api.githubcopilot.com/mcp/', header_keys: ['Authorization'], secrets: [{ where: 'header:Authorization', value: 'Bearer FAKE-github-pat-0000' }] }]);
    const p = await runText('.vscode/mcp.json', '{ // comment\n "servers": { "db": { "command": "uvx", "args": ["mcp-db"] } } }', { scope: 'project', projectRoot: '/srv/app' });
    expect(p.ctx.mcpServers).toEqual([{ name: 'db', scope: 'project', project_path: '/srv/app', transport: 'stdio', command: 'uvx', args: ['mcp-db'] }]);
    expect((await runText(`${U}/mcp.json`, '{"servers": {"x": ')).short[0][3]).toMatch(/^parser: unreadable file \(expected JSON MCP configuration .*, found invalid JSON: .* at line 1\)$/);
  });

  it('the extension log: sign-in and failed sign-in lines, undated, with their local log time; the remote server layout too', async () => {
    const local = await runFile(HOMES.variants, '.config/Code/logs/20261002T100000/window1/exthost/GitHub.copilot-chat/GitHub Copilot Chat.log');
    expect(local.rows.map((x) => [x.timestamp_utc, x.source_line, x.tag, x.text])).toEqual([
      ['', 1, 'sign_in_failed', 'sign-in failed (log time 2026-10-02 10:00:01.000)'],
      ['', 2, 'signed_in', 'signed in: octo-user (log time 2026-10-02 10:00:09.500)'],
    ]);
    const remote = await runFile(HOMES.variants, '.vscode-server/data/logs/20261002T080500/exthost1/GitHub.copilot-chat/GitHub Copilot Chat.log');
    expect(remote.short).toEqual([[1, 'system', 'signed_in', 'signed in: octo-user (log time 2026-10-02 08:05:03.000)']]);
  });
});
