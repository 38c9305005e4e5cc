import { describe, expect, it } from 'vitest';
import { both, texts } from './test-helpers/events-both.js';
import { event as ev } from './test-helpers/events-run.js';

// Focused tests for the notice-like rows of the Parser plan table (compaction, abort/error/warning,
// `<type>: <text>` records, hooks) and for the types it skips, each in both encodings.

describe('notices', () => {
  it('session.compaction_complete: compaction summary', async () => {
    const run = await both([ev('session.compaction_complete', { success: true, summaryContent: '<overview>x</overview>', checkpointNumber: 1 })]);
    expect(run.rows[0]).toMatchObject({ turn_type: 'system', text: 'compaction summary: <overview>x</overview>', tag: 'compaction' });
  });

  it('abort, session.error, session.warning: <type>: <reason or message>', async () => {
    const run = await both([
      ev('abort', { reason: 'user_initiated' }),
      ev('session.error', { errorType: 'query', message: 'Execution failed', statusCode: 503 }),
      ev('session.warning', { warningType: 'mcp', message: 'slow MCP' }),
      ev('session.error', { errorType: 'query', statusCode: 503 }),
    ]);
    expect(texts(run)).toEqual(['abort: user_initiated', 'session.error: Execution failed', 'session.warning: slow MCP', 'session.error: {"errorType":"query","statusCode":"503"}']);
  });

  it.each([
    ['session.task_complete', { summary: 'Done: both features', success: true }, 'session.task_complete: Done: both features'],
    ['system.notification', { kind: { type: 'agent_completed' }, content: '<system_notification>Agent done</system_notification>' }, 'system.notification: <system_notification>Agent done</system_notification>'],
    ['session.schedule_created', { prompt: 'check CI', cron: '0 * * * *' }, 'session.schedule_created: check CI'],
    ['skill.invoked', { name: 'deploy', path: '/s/SKILL.md' }, 'skill.invoked: deploy'],
    ['subagent.started', { toolCallId: 'tc', agentName: 'explore', agentDisplayName: 'Explore Agent' }, 'subagent.started: explore'],
    ['subagent.completed', { toolCallId: 'tc', agentName: 'explore', totalToolCalls: 47 }, 'subagent.completed: explore'],
    ['subagent.failed', { toolCallId: 'tc', agentName: 'explore', error: 'timed out' }, 'subagent.failed: timed out'],
    ['subagent.selected', { agentDisplayName: 'Explore Agent' }, 'subagent.selected: Explore Agent'],
    ['session.handoff', { target: 'remote', n: 2 }, 'session.handoff: {"n":"2","target":"remote"}'],
  ])('%s: <type>: <main text>, else compact JSON of data', async (type, data, want) => {
    const run = await both([ev(type, data)]);
    expect(run.rows[0]).toMatchObject({ turn_type: 'system', text: want });
  });

  it('subagent rows carry the tool call that started the subagent', async () => {
    const run = await both([
      ev('assistant.message', { content: '', toolRequests: [{ name: 'task', toolCallId: 'tc', arguments: { prompt: 'p' } }] }),
      ev('subagent.started', { toolCallId: 'tc', agentName: 'explore' }),
    ]);
    expect(run.rows[1]).toMatchObject({ tool_use_id: 'tc', tool_name: 'task' });
  });
});

describe('hooks', () => {
  it('hook.start / hook.end pair: input and output as compact JSON, never shortened; tool_use_id the parent call', async () => {
    const long = 'x'.repeat(5000);
    const run = await both([
      ev('hook.start', { hookInvocationId: 'h', hookType: 'preToolUse', input: { toolName: 'bash', b: long }, parentToolCallId: 'call_9' }),
      ev('hook.end', { hookInvocationId: 'h', hookType: 'preToolUse', success: true, output: { decision: 'allow' }, parentToolCallId: 'call_9' }),
    ]);
    expect(run.rows.map((r) => [r.text, r.tool_use_id, r.tool_name, r.tag])).toEqual([
      [`hook preToolUse start: {"b":"${long}","toolName":"bash"}`, 'call_9', '', 'hook'],
      ['hook preToolUse end: success=true output={"decision":"allow"}', 'call_9', '', 'hook'],
    ]);
  });

  it('missing input and output print {}, a missing hookType and a non-boolean success print -, an error is appended', async () => {
    const run = await both([
      ev('hook.start', { hookInvocationId: 'h' }),
      ev('hook.end', { hookType: 'postToolUseFailure', success: 'maybe', error: { message: 'exit 2' } }),
      ev('hook.end', { hookType: 'agentStop', success: false, error: null }),
    ]);
    expect(texts(run)).toEqual(['hook - start: {}', 'hook postToolUseFailure end: success=- output={} error={"message":"exit 2"}', 'hook agentStop end: success=false output={}']);
    expect(run.rows.map((r) => r.tool_use_id)).toEqual(['', '', '']);
  });
});

describe('types with no row', () => {
  it.each([
    'assistant.turn_start',
    'assistant.turn_end',
    'session.usage_record',
    'session.usage_checkpoint',
    'model.messages_snapshot',
  ])('%s is a counted skip the table names, not an unknown type', async (type) => {
    const run = await both([ev(type, { turnId: '0', tokenLimit: 168000 })]);
    expect(run.rows).toEqual([]);
    expect(run.skips).toEqual([{ line: 1, reason: expect.stringContaining(type) }]);
    expect(run.unknowns).toEqual([]);
  });

  it.each(['some.future_type', 'session.context_cleared', 'assistant.message_delta'])('%s, a type no handler knows, is a counted skip and an unknown record kind', async (type) => {
    const run = await both([ev(type, { turnId: '0' }), ev(type, {})]);
    expect(run.rows).toEqual([]);
    expect(run.skips.map((s) => s.line)).toEqual([1, 2]);
    expect(run.unknowns).toEqual([
      { kind: type, line: 1 },
      { kind: type, line: 2 },
    ]);
  });
});
