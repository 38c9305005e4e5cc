import { describe, expect, it } from 'vitest';
import { artifactFromFile } from '../../sdk/fs-artifact.js';
import { collectRows, recordingContext } from '../../sdk/recording-context.js';
import type { Row } from '../../sdk/types.js';
import { CORPUS, copyHome, HOMES, run, tempHomes, writeFiles } from '../opencode/test-helpers/harness.js';
import { parseApiHistory } from './api-parser.js';
import { clinePlugin } from './index.js';
import { parseUiMessages } from './ui-parser.js';

// Cline's parsers over fixtures/homes/cline-family (its README says what each file holds), the
// real Cline 3.51.0 tasks of the shared corpus, and hostile task files.

const HOME = `${HOMES}cline-family`;
const by = Object.fromEntries(clinePlugin.parsers.map((p) => [p.name, p]));
const EXT = '.config/Code/User/globalStorage/saoudrizwan.claude-dev';
const TASK = `${EXT}/tasks/1767225600000`;
const homes = tempHomes('cline');
const brief = (rows: Row[]) => rows.map((r) => [r.source_line, r.turn_type, r.tag ?? '', r.tool_name, r.text.split('\n')[0]]);
const at = (ms: number) => new Date(1767225600000 + ms).toISOString();

describe('cline: which parser wants which file', () => {
  it('claims the task files under every VS Code-family editor and the CLI store, and nothing of Roo or Kilo', () => {
    const cases: [string, string | undefined][] = [
      [`${TASK}/ui_messages.json`, 'ui-messages'],
      [`${TASK}/api_conversation_history.json`, 'api-history'],
      ['.config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks/1/claude_messages.json', 'api-history'],
      [`${TASK}/task_metadata.json`, 'task-metadata'],
      [`${EXT}/state/taskHistory.json`, 'task-index'],
      [`${EXT}/settings/cline_mcp_settings.json`, 'mcp-settings'],
      ['.config/Code/User/globalStorage/state.vscdb', 'global-state'],
      ['Library/Application Support/Cursor/User/globalStorage/saoudrizwan.claude-dev/tasks/9/ui_messages.json', 'ui-messages'],
      ['AppData/Roaming/Code - Insiders/User/globalStorage/saoudrizwan.claude-dev/tasks/9/ui_messages.json', 'ui-messages'],
      ['.vscode-server/data/User/globalStorage/saoudrizwan.claude-dev/tasks/9/ui_messages.json', 'ui-messages'],
      ['.cline/data/tasks/9/ui_messages.json', 'ui-messages'],
      ['.cline/data/sessions/1_a/1_a.messages.json', 'sdk-messages'],
      ['.cline/data/sessions/1_a/1_a.json', 'sdk-manifest'],
      ['.cline/data/db/sessions.db', 'sdk-db'],
      ['.cline/data/logs/hooks.jsonl', 'hooks-log'],
      ['.cline/data/settings/providers.json', 'providers'],
      ['.cline/data/globalState.json', 'global-state'],
      // Roo's TaskHistoryStore index: the family's code reads it wherever a member writes one.
      [`${EXT}/tasks/_index.json`, 'task-index'],
      [`${EXT}/checkpoints/4242424242/.git/HEAD`, undefined],
      ['.config/Code/User/globalStorage/rooveterinaryinc.roo-cline/tasks/x/ui_messages.json', undefined],
      ['.config/Code/User/globalStorage/kilocode.kilo-code/tasks/x/ui_messages.json', undefined],
    ];
    for (const [rel, name] of cases) expect(clinePlugin.parsers.filter((p) => p.wants(rel)).map((p) => p.name)[0], rel).toBe(name);
  });
});

describe('cline: the spec-shaped task 1767225600000', () => {
  it('ui_messages.json: one row per UI message the API history does not hold, in order, timed by ts', async () => {
    const { rows, ctx } = await run(by['ui-messages'], HOME, `${TASK}/ui_messages.json`);
    expect(brief(rows)).toEqual([
      [1, 'system', 'model', '', 'model: claude-sonnet-4-5-20250929 provider=anthropic'],
      [1, 'system', 'permission_mode', '', 'mode: act'],
      [1, 'user', '', '', 'Fix the failing test in src/math.test.ts and run the tests.'],
      [2, 'system', 'checkpoint', '', 'checkpoint 1111111111111111111111111111111111111111'],
      [3, 'system', 'api_request', '', 'api request: tokensIn=120 tokensOut=80 cacheWrites=0 cacheReads=0 cost=0.0012'],
      [4, 'thinking', '', '', 'I should read the test first.'],
      [5, 'assistant', '', '', 'Let me read the test file.'],
      // 6: say tool readFile, the API history's read_file tool_use
      [7, 'system', 'task_progress', '', 'task progress:'],
      [8, 'system', 'checkpoint', '', 'checkpoint 2222222222222222222222222222222222222222'],
      [9, 'system', 'api_request', '', 'api request: tokensIn=300 tokensOut=90 cacheWrites=0 cacheReads=0 cost=0.002'],
      [10, 'thinking', '', '', 'The add function subtracts.'],
      [11, 'system', 'permission_request', 'editedExistingFile', 'approval requested: editedExistingFile {"diff":"------- SEARCH\\n  return a - b;\\n=======\\n  return a + b;\\n+++++++ REPLACE","operationIsLocatedInWorkspace":true,"path":"src/math.ts","tool":"editedExistingFile"}'],
      [12, 'user', '', '', 'Use a named export instead.'],
      [13, 'system', 'api_request', '', 'api request: tokensIn=350 tokensOut=60 cacheWrites=0 cacheReads=0 cost=0.0015'],
      // the request that carries the tool's result says the user denied it
      [13, 'system', 'permission_decision', 'replace_in_file', 'denied: replace_in_file'],
      [14, 'system', 'error', '', "error: Cline tried to use replace_in_file without value for required parameter 'diff'. Retrying..."],
      [15, 'thinking', '', '', 'Keep the named export and fix the sign.'],
      // 16: say tool editedExistingFile, the API history's second replace_in_file
      [17, 'system', 'api_request', '', 'api request: tokensIn=400 tokensOut=40 cacheWrites=0 cacheReads=0 cost=0.0011'],
      [18, 'assistant', '', '', "Now I'll run the tests."],
      [19, 'system', 'permission_request', 'execute_command', 'approval requested: execute_command npm test'],
      // 20, 21: command_output, the API history's tool_result
      [22, 'system', 'api_request', '', 'api request: tokensIn=500 tokensOut=30 cacheWrites=0 cacheReads=0 cost=0.001'],
      [23, 'assistant', 'completion', '', 'add() now returns a + b and the tests pass.'],
      // 24: the empty ask completion_result
      [25, 'system', 'unknown', '', 'say quantum_notice: A kind no build of Cline writes.'],
      [26, 'system', 'session_resume', '', 'task reopened (resume_completed_task)'],
    ]);
    expect(rows.every((r) => r.session_id === '1767225600000')).toBe(true);
    expect(rows.find((r) => r.source_line === 1 && r.turn_type === 'user')?.timestamp_utc).toBe(at(43));
    expect(rows.find((r) => r.source_line === 23)?.timestamp_utc).toBe(at(40000));
    expect(rows.find((r) => r.turn_type === 'thinking')?.model).toBe('claude-sonnet-4-5-20250929');
    expect(ctx.unknowns).toEqual([{ kind: 'say quantum_notice', line: 25 }]);
    // The cwd comes from the environment details of the first request, at its time.
    expect(ctx.facts).toContainEqual({ session_id: '1767225600000', key: 'cwd', value: '/home/dev/calc', priority: 1, at: at(700) });
  });

  it('every UI message is a row or a counted skip', async () => {
    const skips: number[] = [];
    const rows = await collectRows((a, c) => parseUiMessages(a, c, '1767225600000', { onSkip: (l) => skips.push(l) }), artifactFromFile(HOME, `${TASK}/ui_messages.json`));
    expect(skips.sort((x, y) => x - y)).toEqual([6, 16, 20, 21, 24]);
    expect(new Set([...rows.map((r) => r.source_line), ...skips]).size).toBe(26);
  });

  it('api_conversation_history.json: tool calls with their ids and results, timed by the UI rows they match', async () => {
    const { rows } = await run(by['api-history'], HOME, `${TASK}/api_conversation_history.json`);
    expect(rows.map((r) => [r.source_line, r.turn_type, r.tool_name, r.tool_use_id, r.timestamp_utc, r.text.split('\n')[0]])).toEqual([
      [2, 'tool_use', 'read_file', 'toolu_01AAAA', at(3000), '{"path":"src/math.test.ts"}'],
      [3, 'tool_result', 'read_file', 'toolu_01AAAA', at(9100), "import { add } from './math';"],
      [4, 'tool_use', 'replace_in_file', 'toolu_01BBBB', at(12000), '{"diff":"------- SEARCH\\n  return a - b;\\n=======\\n  return a + b;\\n+++++++ REPLACE","path":"src/math.ts"}'],
      [5, 'tool_result', 'replace_in_file', 'toolu_01BBBB', at(20100), 'The user denied this operation and provided the following feedback:'],
      [6, 'tool_use', 'replace_in_file', 'toolu_01CCCC', at(23000), '{"diff":"------- SEARCH\\n  return a - b;\\n=======\\n  return a + b;\\n+++++++ REPLACE","path":"src/math.ts"}'],
      [7, 'tool_result', 'replace_in_file', 'toolu_01CCCC', at(30000), 'The content was successfully saved to src/math.ts.'],
      [8, 'tool_use', 'execute_command', 'toolu_01DDDD', at(32000), 'npm test'],
      [9, 'tool_result', 'execute_command', 'toolu_01DDDD', at(36000), 'Command executed.'],
    ]);
  });

  it('task_metadata.json: model, mode, environment and the files in context (secondary)', async () => {
    const { rows, ctx } = await run(by['task-metadata'], HOME, `${TASK}/task_metadata.json`);
    expect(rows.map((r) => [r.tag, r.text])).toEqual([
      ['model', 'model: claude-sonnet-4-5-20250929 provider=anthropic'],
      ['permission_mode', 'mode: act'],
      ['environment', 'environment: host=Visual Studio Code 1.108.1 extension=3.51.0 os=linux 6.8.0-1030-azure x64'],
      ['file_context', 'file read by the agent: src/math.test.ts (read_tool, active)'],
      ['file_context', 'file read by the agent: src/math.ts (cline_edited, active)'],
      ['file_context', 'file edited by the agent: src/math.ts (cline_edited, active)'],
    ]);
    expect(ctx.facts).toContainEqual({ session_id: '1767225600000', key: 'client', value: 'Visual Studio Code 1.108.1 (extension 3.51.0)', priority: 2 });
    expect(by['task-metadata'].secondary(`${TASK}/task_metadata.json`)).toBe(true);
  });

  it('state/taskHistory.json: the last activity and the task text of each task, the deleted one included', async () => {
    const { rows, ctx } = await run(by['task-index'], HOME, `${EXT}/state/taskHistory.json`);
    expect(rows.map((r) => [r.session_id, r.turn_type, r.tag, r.text.split(':')[0]])).toEqual([
      ['1767225600000', 'system', 'session_metadata', 'task 1767225600000 last activity'],
      ['1767225600000', 'user', 'history', 'Fix the failing test in src/math.test.ts and run the tests.'],
      ['1767139200000', 'system', 'session_metadata', 'task 1767139200000 last activity'],
      ['1767139200000', 'user', 'history', 'Rotate the staging credentials'],
    ]);
    expect(ctx.facts.map((f) => [f.session_id, f.key, f.value])).toEqual([
      ['1767225600000', 'cwd', '/home/dev/calc'],
      ['1767139200000', 'cwd', '/home/dev/ops'],
    ]);
  });
});

describe('cline: other layouts', () => {
  it('a 2.x task on a Remote-SSH server: say task, an ask command that is both the request and the call, denied by the next request', async () => {
    const rel = '.vscode-server/data/User/globalStorage/saoudrizwan.claude-dev/tasks/1767312000000/ui_messages.json';
    const { rows, ctx } = await run(by['ui-messages'], HOME, rel);
    expect(brief(rows)).toEqual([
      [1, 'user', '', '', 'Clean the build folder'],
      [2, 'system', 'api_request', '', 'api request: tokensIn=50 tokensOut=20 cacheWrites=0 cacheReads=0 cost=0.0004'],
      [3, 'assistant', '', '', 'I will remove the build folder.'],
      [4, 'system', 'permission_request', 'execute_command', 'approval requested: execute_command rm -rf build'],
      [4, 'tool_use', '', 'execute_command', 'rm -rf build'],
      [5, 'system', 'api_request', '', 'api request: tokensIn=60 tokensOut=15 cacheWrites=0 cacheReads=0 cost=0.0003'],
      [5, 'system', 'permission_decision', 'execute_command', 'denied: execute_command'],
      [6, 'assistant', 'completion', '', 'I left the build folder in place.'],
    ]);
    expect(ctx.facts.map((f) => [f.key, f.value])).toEqual([['cwd', '/srv/app']]);
  });

  it('an API history alone (Cursor): every block a row, timed by its ts, the interruption said', async () => {
    const { rows } = await run(by['api-history'], HOME, '.config/Cursor/User/globalStorage/saoudrizwan.claude-dev/tasks/1767398400000/api_conversation_history.json');
    expect(brief(rows)).toEqual([
      [1, 'user', '', '', 'List the files here'],
      [2, 'system', 'model', '', 'model: gpt-5 provider=openai'],
      [2, 'system', 'permission_mode', '', 'mode: act'],
      [2, 'assistant', '', '', 'Listing them.'],
      [2, 'tool_use', '', 'list_files', '{"path":"."}'],
      [3, 'tool_result', '', 'list_files', 'a.md'],
      [4, 'system', 'interrupted', '', 'response interrupted by user'],
    ]);
    expect(rows[0].timestamp_utc).toBe('2026-01-03T00:00:00.010Z');
    expect(rows[5].tool_use_id).toBe('toolu_01FFFF');
  });
});

describe('cline: settings and secrets', () => {
  it('cline_mcp_settings.json: both servers to the MCP inventory with key names only, auto-approved tools as a permission row', async () => {
    const { rows, ctx } = await run(by['mcp-settings'], HOME, `${EXT}/settings/cline_mcp_settings.json`);
    expect(rows.map((r) => [r.tag, r.text])).toEqual([['permission_setting', 'setting MCP github auto-approves: list_issues, get_issue']]);
    expect(ctx.mcpServers.map((s) => [s.name, s.transport, s.command ?? s.url, s.env_keys ?? s.header_keys, s.secrets?.map((x) => x.where)])).toEqual([
      ['github', 'stdio', 'npx', ['GITHUB_PERSONAL_ACCESS_TOKEN'], ['env:GITHUB_PERSONAL_ACCESS_TOKEN']],
      ['docs', 'sse', 'https://mcp.example.invalid/sse', ['Authorization'], ['header:Authorization']],
    ]);
    expect(JSON.stringify(rows)).not.toMatch(/ghp_|fixture-mcp-bearer/);
    expect(by['mcp-settings'].readsSecretFile?.(`${EXT}/settings/cline_mcp_settings.json`)).toBe(true);
  });

  it('state.vscdb: the approval settings and old task index of Cline\'s row only; the API key and secret rows never in a row', async () => {
    const home = copyHome('cline-family', homes.make());
    const { rows, ctx } = await run(by['global-state'], home, '.config/Code/User/globalStorage/state.vscdb');
    expect(rows.map((r) => r.text)).toEqual([
      'setting mode=act',
      'setting autoApprovalSettings.enabled=true',
      'setting autoApprovalSettings.actions={"editFiles":true,"executeCommands":false,"readFiles":true,"useBrowser":false,"useMcp":true}',
      'setting autoApprovalSettings.maxRequests=50',
      'task 1767052800000 last activity: totalCost=0.001',
      'Summarise the changelog',
    ]);
    expect(ctx.facts.map((f) => [f.session_id, f.key, f.value])).toEqual([['1767052800000', 'cwd', '/home/dev/legacy']]);
    expect(JSON.stringify(rows)).not.toContain('sk-ant');
  });

  it('.cline/data/globalState.json: mode, approvals and model; the header token not printed', async () => {
    const { rows } = await run(by['global-state'], HOME, '.cline/data/globalState.json');
    expect(rows.map((r) => [r.tag, r.text])).toEqual([
      ['permission_mode', 'setting mode=plan'],
      ['permission_setting', 'setting autoApprovalSettings.enabled=true'],
      ['permission_setting', 'setting autoApprovalSettings.actions={"editFiles":false,"executeCommands":true,"readFiles":true,"useBrowser":false,"useMcp":false}'],
      ['permission_setting', 'setting autoApprovalSettings.maxRequests=20'],
      ['permission_setting', 'setting yoloModeToggled=false'],
      ['model_setting', 'setting actModeApiProvider=anthropic'],
      ['model_setting', 'setting actModeApiModelId=claude-sonnet-4-5-20250929'],
    ]);
    expect(JSON.stringify(rows)).not.toContain('fixture-global-state-header');
  });
});

describe('cline: the real CLI 3.0.65 store (live run)', () => {
  const S = '.cline/data/sessions/1796096499418_md08x';
  it('messages.json: prompts, the shell call and its result, replies, the model change', async () => {
    const { rows } = await run(by['sdk-messages'], HOME, `${S}/1796096499418_md08x.messages.json`);
    expect(brief(rows)).toEqual([
      [1, 'system', 'permission_mode', '', 'mode: act'],
      [1, 'user', '', '', 'Run the shell command echo aitrail-live-marker and tell me what it printed.'],
      [2, 'system', 'model', '', 'model: stub-model provider=openai-compatible'],
      [2, 'assistant', '', '', 'I will run the marker command.'],
      [2, 'tool_use', '', 'run_commands', 'echo aitrail-live-marker'],
      [3, 'tool_result', '', 'run_commands', 'echo aitrail-live-marker'],
      [4, 'assistant', '', '', 'Done: aitrail-live-marker seen.'],
      [5, 'user', '', '', 'Thanks. Summarise in one line what you just did.'],
      [6, 'system', 'model', '', 'model: gpt-4o provider=openai-compatible'],
      [6, 'assistant', '', '', 'Hello from the stub model. Nothing to run for this one.'],
      [null, 'system', 'system_prompt', '', 'system prompt: You are Cline, an AI coding agent. Your primary goal is to assist users with various coding tasks by leveraging your knowledge and the tools at your disposal. Given the user\'s prompt, you should use the tools available to you to answer user\'s question.'],
    ]);
    expect(rows.find((r) => r.turn_type === 'tool_use')?.tool_use_id).toBe('call_stub_mx45hhlcwb6csa3i');
  });

  it('the manifest, the WAL-mode sessions.db and the hooks log agree on the session, its cwd and branch', async () => {
    const manifest = await run(by['sdk-manifest'], HOME, `${S}/1796096499418_md08x.json`);
    const db = await run(by['sdk-db'], copyHome('cline-family', homes.make()), '.cline/data/db/sessions.db');
    const hooks = await run(by['hooks-log'], HOME, '.cline/data/logs/hooks.jsonl');
    expect(manifest.rows.map((r) => r.tag ?? r.turn_type)).toEqual(['session_start', 'user', 'checkpoint', 'session_end']);
    expect(db.rows.filter((r) => r.session_id === '1796096499418_md08x').map((r) => r.text)).toEqual(manifest.rows.map((r) => r.text));
    expect(new Set(db.rows.map((r) => r.session_id))).toEqual(new Set(['1796096473182_9de1u', '1796096499418_md08x']));
    expect(hooks.rows.map((r) => r.text)).toEqual(['hook agent_start', 'hook agent_end iteration=1 status=completed', 'hook session_shutdown reason=failed_external_process_exit source=stale_session_reconciler']);
    for (const ctx of [manifest.ctx, hooks.ctx]) {
      expect(ctx.facts.filter((f) => f.key === 'cwd').map((f) => f.value)).toContain('/home/live-cline/proj');
      expect(ctx.facts.filter((f) => f.key === 'branch').map((f) => f.value)).toContain('feature/live-run');
    }
  });

  it('providers.json: the provider and model, never the key', async () => {
    const { rows } = await run(by.providers, HOME, '.cline/data/settings/providers.json');
    expect(rows.map((r) => r.text)).toEqual(['setting provider openai-compatible model=stub-model (last used)']);
    expect(JSON.stringify(rows)).not.toContain('dummy');
  });
});

describe('cline: the real Cline 3.51.0 tasks (shared corpus), every record accounted for', () => {
  const REAL = `${CORPUS}gmfstu__Online-Card-Architecture`;
  const cases = [
    ['exported_conversation_1769053680585', '1769053680585', 260, 94],
    ['exported_task_1769064454592', '1769064454592', 207, 72],
  ] as const;
  for (const [dir, id, uiCount, apiCount] of cases) {
    it(`${dir}: UI rows + skips = ${uiCount} messages, API rows + skips = ${apiCount} messages, every row timed, no unknown kind`, async () => {
      for (const [file, fn, count] of [
        ['ui_messages.json', parseUiMessages, uiCount],
        ['api_conversation_history.json', parseApiHistory, apiCount],
      ] as const) {
        const skipped: number[] = [];
        const ctx = recordingContext();
        const rows = await collectRows((a, c) => fn(a, c, id, { onSkip: (l) => skipped.push(l) }), artifactFromFile(REAL, `${dir}/${file}`), ctx);
        const lines = new Set(rows.map((r) => r.source_line));
        for (const l of skipped) expect(lines.has(l), `${file} line ${l} both skipped and a row`).toBe(false);
        expect(lines.size + skipped.length, file).toBe(count);
        expect(rows.filter((r) => !r.timestamp_utc || r.tag === 'bad_line' || r.tag === 'unknown'), file).toEqual([]);
        expect(ctx.unknowns, file).toEqual([]);
      }
    });
  }

  it('the first task: one typed prompt, its project from the environment details, every tool call with a result', async () => {
    const ctx = recordingContext();
    const ui = await collectRows((a, c) => parseUiMessages(a, c, '1769053680585'), artifactFromFile(REAL, 'exported_conversation_1769053680585/ui_messages.json'), ctx);
    const api = await collectRows((a, c) => parseApiHistory(a, c, '1769053680585'), artifactFromFile(REAL, 'exported_conversation_1769053680585/api_conversation_history.json'));
    expect(ui.filter((r) => r.turn_type === 'user')).toHaveLength(1);
    expect(ctx.facts.find((f) => f.key === 'cwd')?.value).toMatch(/^\/workspaces\//);
    const uses = api.filter((r) => r.turn_type === 'tool_use').map((r) => r.tool_use_id);
    expect(uses).toHaveLength(46);
    expect(api.filter((r) => r.turn_type === 'tool_result').map((r) => r.tool_use_id)).toEqual(uses);
  });
});

describe('cline: hostile task files', () => {
  const T = '.config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks/1767225600999';
  it('a cut UI log, a non-object message, a wrong-typed ts and a huge text: rows that say so, nothing lost before the cut', async () => {
    const home = homes.make();
    const big = 'x'.repeat(2_000_000);
    writeFiles(home, { [`${T}/ui_messages.json`]: `[{"ts":1767225601000,"type":"say","say":"text","text":"first prompt"},42,{"ts":"yesterday","type":"say","say":"text","text":"${big}"},{"ts":1767225603000,"type":"say","say":"text","text":"cut he` });
    const { rows } = await run(by['ui-messages'], home, `${T}/ui_messages.json`);
    expect(rows[0]).toMatchObject({ turn_type: 'user', text: 'first prompt', source_line: 1, timestamp_utc: '2026-01-01T00:00:01.000Z' });
    expect(rows.find((r) => r.source_line === 2)).toMatchObject({ tag: 'bad_line' });
    const third = rows.find((r) => r.source_line === 3);
    expect(third?.text.length).toBeGreaterThan(1000);
    // "yesterday" is not a time: the row keeps none rather than an invented one.
    expect(third?.timestamp_utc).toBe('');
    expect(rows.at(-1)?.tag).toBe('bad_line');
    expect(rows.at(-1)?.text).toMatch(/cut|truncated|end/i);
  });

  it('garbage and a JSON object where an array belongs: one row that says what was expected', async () => {
    const home = homes.make();
    writeFiles(home, { [`${T}/ui_messages.json`]: 'not json at all', [`${T}/api_conversation_history.json`]: '{"role":"user"}' });
    for (const [name, file] of [
      ['ui-messages', 'ui_messages.json'],
      ['api-history', 'api_conversation_history.json'],
    ]) {
      const { rows } = await run(by[name], home, `${T}/${file}`);
      expect(rows.length, file).toBeGreaterThan(0);
      expect(rows.every((r) => r.tag === 'bad_line' || r.tag === 'unreadable'), file).toBe(true);
    }
  });
});
