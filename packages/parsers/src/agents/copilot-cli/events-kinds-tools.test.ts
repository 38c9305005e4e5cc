import { describe, expect, it } from 'vitest';
import { both, texts } from './test-helpers/events-both.js';
import { event as ev } from './test-helpers/events-run.js';

// Focused tests for the conversation, tool and permission rows of the Parser plan table, each
// in both encodings. Expected texts are the table's forms.

const call = (id: string, name: string, args: unknown) => ({ type: 'function', name, toolCallId: id, arguments: args });

describe('assistant rows', () => {
  it('reply, then thinking from the joined block summaries (no reasoningText), then tool_use rows', async () => {
    const data = {
      content: 'Looking.',
      model: 'm',
      reasoningBlocks: { provider: 'p', blocks: [{ summary: [{ type: 'summary_text', text: 'one' }, { text: 'two' }] }, { summary: [{ text: 'three' }] }] },
      toolRequests: [call('c1', 'view', { path: '/a/b.ts' })],
    };
    const run = await both([ev('assistant.message', data)], { includeThinking: true });
    expect(run.rows.map((r) => [r.turn_type, r.text, r.model, r.tool_name, r.tool_use_id])).toEqual([
      ['assistant', 'Looking.', 'm', '', ''],
      ['thinking', 'one\ntwo\nthree', 'm', '', ''],
      ['tool_use', '/a/b.ts', 'm', 'view', 'c1'],
    ]);
    const plain = await both([ev('assistant.message', data)]);
    expect(plain.rows.map((r) => r.turn_type)).toEqual(['assistant', 'tool_use']);
  });

  it('an empty message with nothing to show is a counted skip', async () => {
    const run = await both([ev('assistant.message', { content: '', reasoningText: 'hidden', toolRequests: [] })]);
    expect(run.rows).toEqual([]);
    expect(run.skips.map((s) => s.line)).toEqual([1]);
  });

  it('tool_use text rule: the arguments string, else command, url, query, path or input, else compact JSON', async () => {
    const reqs = [
      call('a', 'apply_patch', '*** Begin Patch'),
      call('b', 'bash', { description: 'd', command: 'ls -la' }),
      call('c', 'web_fetch', { url: 'https://x.test' }),
      call('d', 'web_search', { query: 'q?' }),
      call('e', 'view', { path: '/p' }),
      call('f', 'edit', { input: 'in' }),
      call('g', 'task', { z: 1, a: { y: [true] } }),
      call('h', 'noargs', undefined),
    ];
    const run = await both([ev('assistant.message', { content: '', model: 'm', toolRequests: reqs })]);
    expect(texts(run)).toEqual(['*** Begin Patch', 'ls -la', 'https://x.test', 'q?', '/p', 'in', '{"a":{"y":[true]},"z":1}', '']);
  });

  it('assistant.reasoning: a thinking row only with includeThinking', async () => {
    const lines = [ev('assistant.reasoning', { reasoningId: 'r', content: 'hmm' })];
    expect(texts(await both(lines, { includeThinking: true }))).toEqual(['hmm']);
    const off = await both(lines);
    expect(off.rows).toEqual([]);
    expect(off.skips).toHaveLength(1);
  });
});

describe('tool rows', () => {
  it('tool.execution_start: no row after toolRequests[], a tool_use row otherwise (user-requested or subagent call)', async () => {
    const run = await both([
      ev('assistant.message', { content: '', model: 'm', toolRequests: [call('c1', 'bash', { command: 'ls' })] }),
      ev('tool.execution_start', { toolCallId: 'c1', toolName: 'bash', arguments: { command: 'ls' }, model: 'm' }),
      ev('tool.execution_start', { toolCallId: 'c2', toolName: 'grep', arguments: { query: 'TODO' }, model: 'm2' }),
      ev('tool.execution_complete', { toolCallId: 'c2', success: true, result: { content: '3 hits' } }),
    ]);
    expect(run.rows.map((r) => [r.source_line, r.turn_type, r.tool_name, r.tool_use_id, r.text, r.model])).toEqual([
      [1, 'tool_use', 'bash', 'c1', 'ls', 'm'],
      [3, 'tool_use', 'grep', 'c2', 'TODO', 'm2'],
      [4, 'tool_result', 'grep', 'c2', '3 hits', ''],
    ]);
    expect(run.skips.map((s) => s.line)).toEqual([2]);
  });

  it('tool.user_requested: user requested: <arguments>', async () => {
    const run = await both([ev('tool.user_requested', { toolCallId: 'u1', toolName: 'bash', arguments: { command: 'git status' } })]);
    expect(run.rows[0]).toMatchObject({ turn_type: 'tool_use', text: 'user requested: git status', tool_name: 'bash', tool_use_id: 'u1' });
  });

  const result = (data: Record<string, unknown>) => ev('tool.execution_complete', { toolCallId: 'x', ...data });
  it.each([
    ['detailedContent longer', { success: true, result: { content: 'short', detailedContent: 'longer text' } }, 'longer text'],
    ['content longer (a skill puts the concise text in detailedContent)', { success: true, result: { content: 'the whole skill text', detailedContent: 'ok' } }, 'the whole skill text'],
    ['a tie goes to detailedContent', { success: true, result: { content: 'aaaa', detailedContent: 'bbbb' } }, 'bbbb'],
    ['only content', { success: true, result: { content: 'c' } }, 'c'],
    ['non-zero exit code', { success: true, result: { content: 'out' }, shellExecution: { exitCode: 2 } }, '[exit 2] out'],
    ['exit code 0: no prefix', { success: true, result: { content: 'out' }, shellExecution: { exitCode: 0 } }, 'out'],
    ['failure: error.message on a new line', { success: false, result: { content: 'partial' }, error: { code: 'failure', message: 'boom' } }, 'partial\nboom'],
    ['failure without output', { success: false, error: { message: 'Parent directory does not exist' } }, 'Parent directory does not exist'],
    ['failure with exit code', { success: false, result: { content: 'x' }, error: { message: 'e' }, shellExecution: { exitCode: 1 } }, '[exit 1] x\ne'],
    ['success true: error ignored', { success: true, result: { content: 'fine' }, error: { message: 'stale' } }, 'fine'],
    ['no result at all', { success: true }, ''],
  ])('tool_result: %s', async (_name, data, want) => {
    const run = await both([result(data)]);
    expect(run.rows[0]).toMatchObject({ turn_type: 'tool_result', tool_use_id: 'x', text: want });
  });
});

describe('permission rows', () => {
  const req = (permissionRequest: unknown, extra: Record<string, unknown> = {}) => ev('permission.requested', { requestId: 'r', permissionRequest, ...extra });

  it('request subjects: url, path, mcp server/tool, none; tool_name remembered for the call', async () => {
    const run = await both([
      ev('assistant.message', { content: '', toolRequests: [call('t1', 'web_fetch', { url: 'https://a.test' })] }),
      req({ kind: 'url', toolCallId: 't1', url: 'https://a.test', intention: 'Fetch' }),
      req({ kind: 'read', path: '/etc' }),
      req({ kind: 'mcp', serverName: 'github', toolName: 'list_issues', args: {} }),
      req({ kind: 'memory' }),
    ]);
    expect(run.rows.slice(1).map((r) => [r.text, r.tool_name, r.tool_use_id])).toEqual([
      ['permission request: url https://a.test intention=Fetch', 'web_fetch', 't1'],
      ['permission request: read /etc', '', ''],
      ['permission request: mcp github/list_issues', '', ''],
      ['permission request: memory', '', ''],
    ]);
  });

  it('subject and intention from promptRequest when permissionRequest lacks them', async () => {
    const run = await both([req({ kind: 'shell', toolCallId: 't' }, { promptRequest: { kind: 'commands', fullCommandText: 'Get-Location', intention: 'Where am I' } })]);
    expect(texts(run)).toEqual(['permission request: shell Get-Location intention=Where am I']);
  });

  it('permission mode rows: the first time, then only on a change', async () => {
    const run = await both([
      req({ kind: 'read', path: '/a' }, { permissionMode: 'manual', agentMode: 'interactive' }),
      req({ kind: 'read', path: '/b' }, { permissionMode: 'manual', agentMode: 'interactive' }),
      req({ kind: 'read', path: '/c' }, { permissionMode: 'assisted', agentMode: 'plan' }),
    ]);
    expect(run.rows.map((r) => [r.source_line, r.text, r.tag, r.timestamp_utc !== ''])).toEqual([
      [1, 'permission request: read /a', 'permission_request', true],
      [1, 'permission mode: manual agent=interactive', 'permission_mode', true],
      [2, 'permission request: read /b', 'permission_request', true],
      [3, 'permission request: read /c', 'permission_request', true],
      [3, 'permission mode: manual -> assisted', 'permission_mode', true],
      [3, 'agent mode: interactive -> plan', 'agent_mode', true],
    ]);
  });

  const done = (result: unknown, extra: Record<string, unknown> = {}) => ev('permission.completed', { requestId: 'r', toolCallId: 't', result, ...extra });
  it.each([
    ['denied-by-rules', { kind: 'denied-by-rules', rules: [{ kind: 'shell', argument: 'rm' }] }, 'permission decision: denied-by-rules source=host_policy rules=[{"argument":"rm","kind":"shell"}]'],
    ['denied-interactively-by-user', { kind: 'denied-interactively-by-user', feedback: 'not now', forceReject: true }, 'permission decision: denied-interactively-by-user source=host_policy feedback=not now'],
    [
      'denied-by-content-exclusion-policy',
      { kind: 'denied-by-content-exclusion-policy', path: '/s/.env', message: 'excluded' },
      'permission decision: denied-by-content-exclusion-policy source=host_policy path=/s/.env message=excluded',
    ],
    ['denied-by-permission-request-hook', { kind: 'denied-by-permission-request-hook', message: 'hook said no', interrupt: false }, 'permission decision: denied-by-permission-request-hook source=host_policy message=hook said no'],
    ['cancelled', { kind: 'cancelled', reason: 'user_abort' }, 'permission decision: cancelled source=host_policy reason=user_abort'],
    ['approved-for-session', { kind: 'approved-for-session', approval: { kind: 'mcp', serverName: 'gh', toolName: 'x' } }, 'permission decision: approved-for-session source=host_policy approval={"kind":"mcp","serverName":"gh","toolName":"x"}'],
    ['approved-read-only-for-session', { kind: 'approved-read-only-for-session', directories: ['/a', '/b'] }, 'permission decision: approved-read-only-for-session source=host_policy directories=["/a","/b"]'],
    ['denied-no-approval-rule-and-could-not-request-from-user', { kind: 'denied-no-approval-rule-and-could-not-request-from-user' }, 'permission decision: denied-no-approval-rule-and-could-not-request-from-user source=host_policy'],
  ])('permission.completed %s', async (_k, res, want) => {
    const run = await both([done(res, { decisionSource: 'host_policy' })]);
    expect(run.rows[0]).toMatchObject({ text: want, tool_use_id: 't', tag: 'permission_decision' });
  });

  it('permission.completed: every suffix in the table order; decisionSource inside result (Windows); absent source prints -', async () => {
    const all = { kind: 'k', message: 'm', path: 'p', reason: 'r', rules: [1], feedback: 'f', directories: ['d'], approval: { kind: 'write' }, locationKey: '/l' };
    const run = await both([done({ ...all, decisionSource: 'assisted_approval' }), done({ kind: 'approved' })]);
    expect(texts(run)).toEqual(['permission decision: k source=assisted_approval location=/l approval={"kind":"write"} directories=["d"] feedback=f rules=[1] reason=r path=p message=m', 'permission decision: approved source=-']);
  });

  it('permission.carriedForward', async () => {
    const run = await both([ev('permission.carriedForward', { toolCallId: 't9', decisionSource: 'authorization_carry_forward' })]);
    expect(run.rows[0]).toMatchObject({ text: 'permission decision: carried-forward source=authorization_carry_forward', tool_use_id: 't9', tag: 'permission_decision' });
  });
});
