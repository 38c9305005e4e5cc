import { describe, expect, it } from 'vitest';
import type { Row } from '../../sdk/types.js';
import { HOMES, log, runFile, runText, SESSION_REL } from './test-helpers/run.js';

// One focused test per row kind of a request (spec, Parser plan "Per request"), on requests built
// here in the log's compacted form (one Initial line) and on the variants home.

const SID = '0d000000-0000-4000-8000-000000000001';
const REL = SESSION_REL(SID);
const T0 = 1790931600000;
const at = (s: number) => new Date(T0 + s * 1000).toISOString();
const req = (extra: object, text = 'do it') => ({ requestId: 'r1', timestamp: T0 + 1000, message: { text }, modelId: 'copilot/gpt-5', modeInfo: { kind: 'agent', permissionLevel: 'default' }, response: [], ...extra });
const one = (request: object, session: object = {}) => log({ kind: 0, v: { version: 3, sessionId: SID, creationDate: T0, initialLocation: 'panel', requests: [request], ...session } });
const pick = (rows: Row[], turn?: Row['turn_type']) => rows.filter((r) => r.tag !== 'session_start' && r.tag !== 'model' && r.tag !== 'permission_mode' && (!turn || r.turn_type === turn)).map((r) => [r.timestamp_utc, r.turn_type, r.tool_name, r.tool_use_id, r.tag ?? '', r.text]);
const tool = (toolId: string, isConfirmed: unknown, extra: object = {}) => ({ kind: 'toolInvocationSerialized', toolId, toolCallId: `vs-${toolId}`, invocationMessage: `Running ${toolId}`, isConfirmed, isComplete: true, source: { type: 'internal' }, ...extra });

describe('request rows', () => {
  it('model: the first model, a change, and resolved= when the service used another name', async () => {
    const text = log({ kind: 0, v: { version: 3, sessionId: SID, creationDate: T0, requests: [req({ result: { metadata: { resolvedModel: 'gpt-5-2026' } } }), { ...req({}), requestId: 'r2', modelId: 'copilot/claude-sonnet-4.5' }] } });
    const r = await runText(REL, text);
    expect(r.rows.filter((x) => x.tag === 'model').map((x) => [x.model, x.text])).toEqual([
      ['gpt-5-2026', 'model: copilot/gpt-5 resolved=gpt-5-2026'],
      ['copilot/claude-sonnet-4.5', 'model: copilot/gpt-5 -> copilot/claude-sonnet-4.5'],
    ]);
  });

  it('permission mode: modeInfo, else the participant read as its mode, else the session level', async () => {
    const agentOnly = (id: string, requestId: string) => ({ requestId, timestamp: T0, message: { text: id }, agent: { id }, response: [] });
    const r = await runText(REL, log({ kind: 0, v: { version: 3, sessionId: SID, inputState: { permissionLevel: 'autopilot' }, requests: [agentOnly('github.copilot.default', 'a'), agentOnly('github.copilot.editingSession', 'b'), agentOnly('github.copilot.editsAgent', 'c'), agentOnly('someone.else', 'd'), req({})] } }));
    expect(r.rows.filter((x) => x.tag === 'permission_mode').map((x) => x.text)).toEqual([
      'permission mode: autopilot agent=ask',
      'permission mode: autopilot agent=ask -> autopilot agent=edit',
      'permission mode: autopilot agent=edit -> autopilot agent=agent',
      'permission mode: autopilot agent=agent -> autopilot agent=someone.else',
      'permission mode: autopilot agent=someone.else -> default agent=agent',
    ]);
  });

  it('user: the prompt, a slash command put back, a system-initiated request as system', async () => {
    const r = await runText(REL, log({ kind: 0, v: { version: 3, sessionId: SID, requests: [req({ slashCommand: { name: 'fix' } }, 'the test'), { ...req({ slashCommand: { name: 'fix' } }, '/fix it'), requestId: 'r2' }, { ...req({ isSystemInitiated: true, systemInitiatedLabel: 'Terminal finished' }, 'the build passed'), requestId: 'r3' }] } }));
    expect(r.rows.filter((x) => x.turn_type === 'user' || x.tag === 'system_initiated').map((x) => [x.turn_type, x.text])).toEqual([
      ['user', '/fix the test'],
      ['user', '/fix it'],
      ['system', 'system-initiated Terminal finished: the build passed'],
    ]);
  });

  it('attachment: files, folders, images and symbols, not tools or prompt files', async () => {
    const v = (kind: string, name: string, value?: unknown) => ({ id: name, name, kind, value });
    const uri = { $mid: 1, scheme: 'file', path: '/srv/app/a.ts' };
    const r = await runText(REL, one(req({ variableData: { variables: [v('file', 'a.ts', { uri, range: {} }), v('directory', 'src', 'file:///srv/app/src'), v('image', 'shot.png', { data: 'AAAA' }), v('symbol', 'main', { uri, range: {} }), v('tool', 'Codebase'), v('promptFile', 'x.prompt.md', uri)] } })));
    expect(pick(r.rows).filter((x) => x[4] === 'attachment').map((x) => x[5])).toEqual(['attachment: a.ts /srv/app/a.ts', 'attachment: src /srv/app/src', 'attachment: shot.png (image)', 'attachment: main /srv/app/a.ts']);
  });

  it('assistant: consecutive Markdown, inline references and code-block URIs as one text, at the round that wrote it', async () => {
    const ref = { kind: 'inlineReference', inlineReference: { $mid: 1, scheme: 'file', path: '/srv/app/date.js' } };
    const rounds = { toolCallRounds: [{ id: 'a', response: 'See date.js now.', toolCalls: [], timestamp: T0 + 5000 }] };
    const r = await runText(REL, one(req({ response: [{ value: 'See ' }, ref, { kind: 'codeblockUri', uri: {} }, { kind: 'markdownContent', content: { value: ' now.' } }, { kind: 'undoStop', id: 'u' }, { value: '  ' }, { value: 'Unmatched text.' }], result: { metadata: rounds }, modelState: { value: 1, completedAt: T0 + 9000 } })));
    expect(pick(r.rows, 'assistant')).toEqual([
      [at(5), 'assistant', '', '', '', 'See date.js now.'],
      [at(9), 'assistant', '', '', '', 'Unmatched text.'],
    ]);
  });

  it('thinking: only with include_thinking, string or string[], at its round', async () => {
    const text = one(req({ response: [{ kind: 'thinking', value: ['a', 'b'] }, { kind: 'thinking', value: '' }], result: { metadata: { toolCallRounds: [{ thinking: { text: 'a\n\nb' }, timestamp: T0 + 3000, toolCalls: [] }] } } }));
    expect(pick((await runText(REL, text)).rows, 'thinking')).toEqual([[at(3), 'thinking', '', '', '', 'a\n\nb']]);
    expect(pick((await runText(REL, text, { thinking: false })).rows, 'thinking')).toEqual([]);
  });

  it('permission decision: every ToolConfirmKind and the boolean form, joined to its tool_use by id', async () => {
    const kinds: unknown[] = [{ type: 0 }, { type: 1 }, { type: 2, id: 'chat.tools.autoApprove' }, { type: 3, scope: 'session' }, { type: 4 }, { type: 4, selectedButton: 'allowAlways' }, { type: 5 }, true, false, { type: 42 }, undefined];
    const r = await runText(REL, one(req({ response: kinds.map((c, i) => tool(`t${i}`, c)) })));
    const decisions = r.rows.filter((x) => x.tag === 'permission_decision');
    expect(decisions.map((x) => [x.tool_use_id, x.text])).toEqual([
      ['vs-t0', 'permission decision: denied'],
      ['vs-t1', 'permission decision: not-needed'],
      ['vs-t2', 'permission decision: auto-approved source=setting id=chat.tools.autoApprove'],
      ['vs-t3', 'permission decision: auto-approved source=tool scope=session'],
      ['vs-t4', 'permission decision: approved source=user'],
      ['vs-t5', 'permission decision: approved source=user button=allowAlways'],
      ['vs-t6', 'permission decision: skipped'],
      ['vs-t7', 'permission decision: approved'],
      ['vs-t8', 'permission decision: denied'],
      ['vs-t9', 'permission decision: type=42'],
    ]);
  });

  it('tool_use and tool_result: paired with the rounds by order and name, ids without __vscode-<n>, arguments as compact JSON', async () => {
    const rounds = { toolCallRounds: [{ toolCalls: [{ id: 'c1__vscode-1', name: 'read_file', arguments: '{"filePath":"/a","startLine":1}' }, { id: 'c2__vscode-2', name: 'read_file', arguments: '{"filePath":"/b"}' }], timestamp: T0 + 2000 }, { toolCalls: [{ id: 'c3__vscode-3', name: 'list_dir', arguments: 'not json' }], timestamp: T0 + 4000 }, { toolCalls: [], timestamp: T0 + 6000 }], toolCallResults: { 'c1__vscode-1': { content: [{ value: 'A' }] }, 'c2__vscode-2': { content: [{ value: 'B1' }, { type: 'data', mimeType: 'image/png' }] }, 'c3__vscode-3': { content: [{ value: { node: { children: [{ text: 'x' }, { text: 'y', lineBreakBefore: true }] } } }] } } };
    const r = await runText(REL, one(req({ response: [tool('copilot_readFile', { type: 1 }), tool('copilot_readFile', { type: 1 }), tool('copilot_listDirectory', { type: 1 }, { resultDetails: { isError: true } })], result: { metadata: rounds } })));
    expect(pick(r.rows).filter((x) => x[1] === 'tool_use' || x[1] === 'tool_result')).toEqual([
      [at(2), 'tool_use', 'copilot_readFile', 'c1', '', '{"filePath":"/a","startLine":1}'],
      [at(4), 'tool_result', 'copilot_readFile', 'c1', '', 'A'],
      [at(2), 'tool_use', 'copilot_readFile', 'c2', '', '{"filePath":"/b"}'],
      [at(4), 'tool_result', 'copilot_readFile', 'c2', '', 'B1\n{"mimeType":"image/png","type":"data"}'],
      [at(4), 'tool_use', 'copilot_listDirectory', 'c3', '', 'not json'],
      [at(6), 'tool_result', 'copilot_listDirectory', 'c3', '', 'x\ny [error]'],
    ]);
  });

  it('a call of the rounds no part shows gives tool_use and tool_result from the round alone; a part with no call keeps its own id and message', async () => {
    const rounds = { toolCallRounds: [{ toolCalls: [{ id: 'k1__vscode-9', name: 'run_in_terminal', arguments: '{"command":"ls -la"}' }], timestamp: T0 + 2000 }], toolCallResults: { 'k1__vscode-9': { content: [{ value: 'total 0' }] } } };
    const r = await runText(REL, one(req({ response: [tool('copilot_searchCodebase', { type: 1 }, { pastTenseMessage: 'Searched' })], result: { metadata: rounds } })));
    expect(pick(r.rows).filter((x) => x[1] === 'tool_use' || x[1] === 'tool_result')).toEqual([
      [at(1), 'tool_use', 'copilot_searchCodebase', 'vs-copilot_searchCodebase', '', 'Running copilot_searchCodebase'],
      [at(1), 'tool_result', 'copilot_searchCodebase', 'vs-copilot_searchCodebase', '', 'Searched'],
      [at(2), 'tool_use', 'run_in_terminal', 'k1', '', 'ls -la'],
      [at(2), 'tool_result', 'run_in_terminal', 'k1', '', 'total 0'],
    ]);
  });

  it('a "Continue" request shows the calls the previous request rounds hold (real: Copilot Chat 0.33.2)', async () => {
    const r1 = req({ response: [], result: { metadata: { toolCallRounds: [{ toolCalls: [{ id: 'todo1__vscode-5', name: 'manage_todo_list', arguments: '{"operation":"write"}' }] }], toolCallResults: { 'todo1__vscode-5': { content: [{ value: 'Completed' }] } } } } });
    const r2 = { ...req({ response: [tool('manage_todo_list', { type: 1 })], result: { metadata: { toolCallRounds: [] } } }, '@agent Continue: "Continue to iterate?"'), requestId: 'r2', timestamp: T0 + 60000 };
    const r = await runText(REL, log({ kind: 0, v: { version: 3, sessionId: SID, requests: [r1, r2] } }));
    expect(pick(r.rows).filter((x) => x[1] === 'tool_use' || x[1] === 'tool_result')).toEqual([
      [at(60), 'tool_use', 'manage_todo_list', 'todo1', '', '{"operation":"write"}'],
      [at(60), 'tool_result', 'manage_todo_list', 'todo1', '', 'Completed'],
    ]);
  });

  it('terminal exit: the command line the user or tool edited, the exit code, duration and cwd', async () => {
    const data = { kind: 'terminal', commandLine: { original: 'rm -rf dist', userEdited: 'rm -rf dist/cache' }, cwd: 'file:///srv/app', terminalCommandState: { exitCode: 0, timestamp: T0 + 3000, duration: 1500 }, terminalCommandOutput: { text: '' } };
    const r = await runText(REL, one(req({ response: [tool('run_in_terminal', { type: 4 }, { toolSpecificData: data })] })));
    expect(pick(r.rows).filter((x) => x[1] === 'tool_use' || x[4] === 'terminal_exit' || x[1] === 'tool_result')).toEqual([
      [at(1), 'tool_use', 'run_in_terminal', 'vs-run_in_terminal', '', 'rm -rf dist/cache'],
      [at(4.5), 'tool_result', 'run_in_terminal', 'vs-run_in_terminal', '', ''],
      [at(4.5), 'system', 'run_in_terminal', 'vs-run_in_terminal', 'terminal_exit', 'terminal exit: 0 duration=1500ms cwd=/srv/app'],
    ]);
  });

  it('the variants home covers the other part kinds: MCP input and output, subagent, edits, confirmation, hook, auto model, warning, unknown kinds', async () => {
    const a = await runFile(HOMES.variants, `.config/Code/User/workspaceStorage/2222bbbb2222bbbb2222bbbb2222bbbb/chatSessions/a0000000-0000-4000-8000-00000000000a.jsonl`);
    expect(a.short.filter(([, , , x]) => /create_issue|example","repo|created issue/.test(x) || x.includes('scope=workspace'))).toEqual([
      [17, 'tool_use', '', '{"owner":"example","repo":"app","title":"date test fails"}'],
      [17, 'system', 'permission_decision', 'permission decision: auto-approved source=tool scope=workspace'],
      [17, 'tool_result', '', 'created issue #42'],
    ]);
    const b = await runFile(HOMES.variants, `.config/Code/User/workspaceStorage/1111aaaa1111aaaa1111aaaa1111aaaa/chatSessions/b0000000-0000-4000-8000-00000000000b.json`);
    const tags = ['subagent', 'file_changed', 'confirmation', 'hook', 'warning', 'error', 'request_state', 'edited_file_event', 'feedback'];
    expect(b.short.filter(([, , tag]) => tags.includes(tag) || tag === 'model').map(([, , , x]) => x)).toEqual([
      'model: copilot/gpt-4.1',
      'warning: Some files were too large to read.',
      'confirmation: Continue to iterate? Copilot has been working on this problem for a while. answer=used',
      'hook Stop: stop=blocked policy forbids network',
      'model: auto -> gpt-5 (complex 0.82)',
      'edited file event: undo /srv/app/esbuild.config.mjs',
      'edited file event: user modification /srv/app/build.mjs',
      'feedback: up',
      'subagent: Plan: list the breaking changes of esbuild 0.25',
      'file changed: /srv/app/new.mjs tool=runSubagent',
      'file changed: /srv/app/notes.ipynb tool=runSubagent',
      'error: rate_limited Rate limit exceeded',
      'request cancelled',
    ]);
    expect(b.short.find(([, t, , x]) => t === 'tool_use' && x.includes('agent=Plan'))?.[3]).toBe('Delegating to a subagent agent=Plan model=gpt-5-mini');
    // mcpServersStarting and prepareToolInvocation (real 0.33.2 parts) are known and silent; futurePart is counted.
    expect(b.ctx.unknowns).toEqual([{ kind: 'response part futurePart', line: 0 }]);
  });

  it('request state, edited file events and feedback take the completion time', async () => {
    const r = await runText(REL, one(req({ modelState: { value: 3, completedAt: T0 + 7000 }, editedFileEvents: [{ uri: 'file:///srv/a.js', eventKind: 1 }, { uri: 'file:///srv/b.js', eventKind: 9 }], vote: 0, voteDownReason: 'offensive' })));
    expect(pick(r.rows).filter((x) => x[1] === 'system')).toEqual([
      [at(7), 'system', '', '', 'request_state', 'request failed'],
      [at(7), 'system', '', '', 'edited_file_event', 'edited file event: keep /srv/a.js'],
      [at(7), 'system', '', '', 'edited_file_event', 'edited file event: kind 9 /srv/b.js'],
      [at(7), 'system', '', '', 'feedback', 'feedback: down offensive'],
    ]);
    const waiting = await runText(REL, one(req({ modelState: { value: 4 } })));
    expect(pick(waiting.rows).filter((x) => x[4] === 'request_state')).toEqual([[at(1), 'system', '', '', 'request_state', 'waiting for input']]);
  });

  it('queued prompts are undated user rows tagged queued; the unsent draft is a system row at the file mtime', async () => {
    const r = await runText(REL, one(req({}), { pendingRequests: [{ id: 'p', request: { message: { text: 'then commit' } } }], inputState: { inputText: 'half-typed' } }));
    expect(pick(r.rows).filter((x) => x[4] === 'queued' || x[4] === 'time_file')).toEqual([
      ['', 'user', '', '', 'queued', 'then commit'],
      ['2026-10-02T09:00:00.000Z', 'system', '', '', 'time_file', 'unsent draft: half-typed'],
    ]);
  });
});
