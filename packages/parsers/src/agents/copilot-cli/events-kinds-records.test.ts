import { describe, expect, it } from 'vitest';
import { both, texts } from './test-helpers/events-both.js';
import { event as ev, SID } from './test-helpers/events-run.js';

// One focused test per row kind issue 11 adds (seed 001's types the Parser plan table lacked), the
// selectedModel rule and the timed working-directory facts; each run in both encodings.

const CALL = { type: 'function', name: 'jira', toolCallId: 'c1', arguments: { q: 'x' } };

describe('external tool calls', () => {
  it('an external request no toolRequests[] announced is the call: tool_use, then its completion is the tool_result', async () => {
    const run = await both([
      ev('external_tool.requested', { requestId: 'r1', toolCallId: 'c1', toolName: 'jira', arguments: { query: 'assignee = me' }, workingDirectory: '/w' }),
      ev('tool.execution_start', { toolCallId: 'c1', toolName: 'jira', arguments: { query: 'assignee = me' } }),
      ev('external_tool.completed', { requestId: 'r1' }),
    ]);
    expect(run.rows.map((r) => [r.turn_type, r.text, r.tool_name, r.tool_use_id, r.project_path, r.tag])).toEqual([
      ['tool_use', 'assignee = me', 'jira', 'c1', '/w', 'external_tool'],
      ['tool_result', 'external tool completed', 'jira', 'c1', '', 'external_tool'],
    ]);
    expect(run.skips.map((s) => s.line)).toEqual([2]);
  });

  it('a call already announced and already answered gets system rows: no second tool_use or tool_result', async () => {
    const run = await both([
      ev('assistant.message', { content: '', toolRequests: [CALL] }),
      ev('external_tool.requested', { requestId: 'r1', toolCallId: 'c1', toolName: 'jira', arguments: { q: 'x' } }),
      ev('tool.execution_complete', { toolCallId: 'c1', success: true, result: { content: 'found 3' } }),
      ev('external_tool.completed', { requestId: 'r1' }),
    ]);
    expect(run.rows.map((r) => [r.turn_type, r.text, r.tool_name, r.tool_use_id])).toEqual([
      ['tool_use', '{"q":"x"}', 'jira', 'c1'],
      ['system', 'external tool requested: jira', 'jira', 'c1'],
      ['tool_result', 'found 3', 'jira', 'c1'],
      ['system', 'external tool completed: jira', 'jira', 'c1'],
    ]);
  });

  it('a completion whose request is not in the log still gives a row', async () => {
    const run = await both([ev('external_tool.completed', { requestId: 'r9' })]);
    expect(texts(run)).toEqual(['external tool completed: request r9 (no request seen)']);
  });
});

describe('workspace, plan, compaction start and truncation', () => {
  it('session.workspace_file_changed and session.plan_changed', async () => {
    const run = await both([ev('session.workspace_file_changed', { path: 'notes/a.md', operation: 'update' }), ev('session.plan_changed', { operation: 'delete' }), ev('session.plan_changed', {})]);
    expect(run.rows.map((r) => [r.text, r.tag])).toEqual([
      ['workspace file update: notes/a.md', 'workspace_file'],
      ['plan changed: delete', 'plan'],
      ['plan changed: -', 'plan'],
    ]);
  });

  it('session.compaction_start: the counts present in the schema order, else the data as compact JSON', async () => {
    const run = await both([
      ev('session.compaction_start', { conversationTokens: 113044, trigger: 'threshold', tokenLimit: 168000, compactionAttemptId: 'a1' }),
      ev('session.compaction_start', { somethingNew: 1 }),
    ]);
    expect(texts(run)).toEqual(['compaction start: trigger=threshold tokenLimit=168000 conversationTokens=113044', 'compaction start: {"somethingNew":"1"}']);
  });

  it('session.truncation: a missing count prints -', async () => {
    const run = await both([ev('session.truncation', { tokenLimit: 1000, messagesRemovedDuringTruncation: 3, performedBy: 'BasicTruncator' })]);
    expect(texts(run)).toEqual(['history truncated by BasicTruncator: 3 messages and - tokens removed (- -> - messages, - -> - tokens, limit 1000)']);
    expect(run.rows[0].tag).toBe('truncation');
  });
});

describe('selectedModel', () => {
  it("gives the model of the rows before the first change, and is never a change row's <old>", async () => {
    const run = await both([
      ev('session.start', { sessionId: SID, selectedModel: 'm-start', context: { cwd: '/a' } }),
      ev('user.message', { content: 'q' }),
      ev('session.model_change', { newModel: 'm-start', cause: 'initial_resolution' }),
      ev('session.resume', { resumeTime: 't', eventCount: 3, selectedModel: 'm-resume' }),
      ev('user.message', { content: 'r' }),
      ev('session.model_change', { newModel: 'm2' }),
    ]);
    expect(run.rows.map((r) => [r.text, r.model])).toEqual([
      ['session start: copilot - producer=- cwd=/a', 'm-start'],
      ['q', 'm-start'],
      ['model: m-start cause=initial_resolution', 'm-start'],
      ['session resumed', 'm-resume'],
      ['r', 'm-resume'],
      ['model: m-start -> m2', 'm2'],
    ]);
  });

  it('auto_mode_resolved names the selected model as the one it resolved from', async () => {
    const run = await both([ev('session.start', { selectedModel: 'auto' }), ev('session.auto_mode_resolved', { chosenModel: 'gpt-x', routingMethod: 'router' })]);
    expect(texts(run)[1]).toBe('model: auto -> gpt-x (auto, router)');
  });
});

describe('working directory facts', () => {
  it('carry the time of the line that set them; an undated line reports without a time and no empty branch', async () => {
    const run = await both([
      ev('session.start', { context: { cwd: '/a', branch: 'main' } }, { timestamp: '2026-10-01T09:00:00.000Z' }),
      ev('session.context_changed', { cwd: '/a', branch: 'main' }, { timestamp: '2026-10-01T09:01:00.000Z' }),
      ev('session.context_changed', { cwd: '/b' }, { timestamp: '2026-10-01T09:02:00.000Z' }),
      ev('session.context_changed', { cwd: '/c', branch: 'x' }, { timestamp: 17 }),
      ev('session.context_changed', { cwd: '/d' }, { timestamp: 17 }),
    ]);
    expect(run.facts.filter((f) => f.key !== 'has_log').map((f) => [f.key, f.value, f.at])).toEqual([
      ['cwd', '/a', '2026-10-01T09:00:00.000Z'],
      ['branch', 'main', '2026-10-01T09:00:00.000Z'],
      ['cwd', '/b', '2026-10-01T09:02:00.000Z'],
      ['branch', '', '2026-10-01T09:02:00.000Z'],
      ['cwd', '/c', undefined],
      ['branch', 'x', undefined],
      ['cwd', '/d', undefined],
    ]);
    expect(run.facts.filter((f) => f.at === undefined && f.key !== 'has_log').every((f) => !('at' in f))).toBe(true);
  });
});
