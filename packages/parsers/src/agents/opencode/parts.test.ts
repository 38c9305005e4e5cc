import { describe, expect, it } from 'vitest';
import { recordingContext } from '../../sdk/recording-context.js';
import type { Row } from '../../sdk/types.js';
import { type MessageInfo, messageInfo } from './message-info.js';
import { messageRows } from './message-rows.js';
import { partRows } from './parts.js';

// One focused test per part kind of message-v2.ts, and per message-level row.

const user: MessageInfo = { ...messageInfo({}), id: 'msg_u', sessionId: 'ses_1', role: 'user', created: '2026-09-14T10:00:00.000Z', model: 'gpt-5' };
const asst: MessageInfo = { ...user, id: 'msg_a', role: 'assistant', model: 'claude-sonnet-4-5', cwd: '/p' };
const base = { session_id: 'ses_1', project_path: '/p', source_line: 7 };
const one = (part: Record<string, unknown>, msg = asst, thinking = true) => {
  const ctx = recordingContext(thinking);
  const rows = partRows(part, msg, base, ctx);
  return { rows, ctx, pick: rows.map((r: Row) => [r.turn_type, r.text, r.timestamp_utc, r.tool_name, r.tool_use_id, r.model, r.tag ?? '']) };
};
const T = (ms: number) => new Date(ms).toISOString();

describe('opencode parts', () => {
  it('text of a user message is the prompt, at the message time, with the requested model', () => {
    expect(one({ type: 'text', text: 'fix it' }, user).pick).toEqual([['user', 'fix it', user.created, '', '', 'gpt-5', '']]);
  });

  it('synthetic text (injected file contents, "the following tool was executed by the user") is context, not typed', () => {
    expect(one({ type: 'text', text: 'Called the Read tool', synthetic: true }, user).pick).toEqual([['system', 'context: Called the Read tool', user.created, '', '', '', 'context']]);
  });

  it('ignored text is said to be ignored', () => {
    expect(one({ type: 'text', text: 'skip me', ignored: true }, user).pick[0].slice(0, 2)).toEqual(['system', 'ignored text: skip me']);
  });

  it('assistant text takes its own start time, else the message time; an empty text gives nothing', () => {
    expect(one({ type: 'text', text: 'done', time: { start: 1789380000000 } }).pick).toEqual([['assistant', 'done', T(1789380000000), '', '', 'claude-sonnet-4-5', '']]);
    expect(one({ type: 'text', text: 'done' }).pick[0][2]).toBe(asst.created);
    expect(one({ type: 'text', text: '' }).rows).toEqual([]);
  });

  it('the text of a summary message (compaction) is a context summary', () => {
    expect(one({ type: 'text', text: 'we fixed X' }, { ...asst, summary: true }).pick[0].slice(0, 2)).toEqual(['system', 'context summary: we fixed X']);
  });

  it('text of a message whose file was not collected says its role is unknown', () => {
    expect(one({ type: 'text', text: 'who?' }, { ...asst, role: '' }).pick[0].slice(0, 2)).toEqual(['system', 'text (role unknown): who?']);
  });

  it('reasoning is a thinking row only with --include-thinking', () => {
    expect(one({ type: 'reasoning', text: 'hmm', time: { start: 1789380001000 } }).pick).toEqual([['thinking', 'hmm', T(1789380001000), '', '', 'claude-sonnet-4-5', '']]);
    expect(one({ type: 'reasoning', text: 'hmm' }, asst, false).rows).toEqual([]);
  });

  it('a completed tool call: bash gives its command, the result its output at the end time', () => {
    const r = one({ type: 'tool', tool: 'bash', callID: 'c1', state: { status: 'completed', input: { command: 'ls', description: 'list' }, output: 'a\n', time: { start: 1789380002000, end: 1789380003000 } } });
    expect(r.pick).toEqual([
      ['tool_use', 'ls', T(1789380002000), 'bash', 'c1', 'claude-sonnet-4-5', ''],
      ['tool_result', 'a\n', T(1789380003000), 'bash', 'c1', '', ''],
    ]);
  });

  it('another tool gives its input as compact JSON; a compacted output says when it was cleared from context', () => {
    const r = one({ type: 'tool', tool: 'read', callID: 'c2', state: { status: 'completed', input: { filePath: '/p/a', offset: 1 }, output: 'x', time: { start: 1, end: 2, compacted: 1789380009000 } } });
    expect(r.pick.map((p) => p[1])).toEqual(['{"filePath":"/p/a","offset":1}', `x\n[output compacted at ${T(1789380009000)}]`]);
  });

  it('a failed call is an [error] result; the user\'s refusal (PermissionRejectedError, CorrectedError) is also a permission decision', () => {
    const rejected = one({ type: 'tool', tool: 'bash', callID: 'c3', state: { status: 'error', input: { command: 'rm -rf /' }, error: 'The user rejected permission to use this specific tool call.', time: { start: 1789380004000, end: 1789380005000 } } });
    expect(rejected.pick.slice(1)).toEqual([
      ['tool_result', '[error] The user rejected permission to use this specific tool call.', T(1789380005000), 'bash', 'c3', '', ''],
      ['system', 'permission denied: bash', T(1789380005000), 'bash', 'c3', '', 'permission_decision'],
    ]);
    const corrected = one({ type: 'tool', tool: 'edit', callID: 'c4', state: { status: 'error', input: {}, error: 'The user rejected permission to use this specific tool call with the following feedback: use tabs' } });
    expect(corrected.rows.at(-1)?.tag).toBe('permission_decision');
    const other = one({ type: 'tool', tool: 'edit', callID: 'c5', state: { status: 'error', input: {}, error: { name: 'Error', data: { message: 'file not found' } } } });
    expect(other.pick.map((p) => p[1])).toEqual(['{}', '[error] Error: file not found']);
  });

  it('a call still pending or running when the store was written is said to be unfinished', () => {
    expect(one({ type: 'tool', tool: 'bash', callID: 'c6', state: { status: 'running', input: { command: 'sleep 9' } } }).pick.map((p) => p[1])).toEqual(['sleep 9', 'tool call not finished (running): bash']);
  });

  it('file, agent, subtask, compaction, patch and retry parts', () => {
    expect(one({ type: 'file', mime: 'text/plain', filename: 'src/a.ts', url: 'file:///p/src/a.ts' }, user).pick[0].slice(0, 2)).toEqual(['system', 'attachment: [file: src/a.ts] text/plain']);
    expect(one({ type: 'agent', name: 'docs' }, user).pick[0][1]).toBe('agent mention: @docs');
    expect(one({ id: 'prt_9', type: 'subtask', prompt: 'review', agent: 'general', command: 'review' }, user).pick).toEqual([['tool_use', 'review (agent=general command=review)', user.created, 'task', 'prt_9', 'gpt-5', '']]);
    expect(one({ type: 'compaction', auto: true }, user).pick[0].slice(0, 2)).toEqual(['system', 'context compacted (auto=true)']);
    expect(one({ type: 'patch', hash: 'abc', files: ['/p/a', '/p/b'] }).pick[0].slice(0, 2)).toEqual(['system', 'files changed: /p/a, /p/b (abc)']);
    expect(one({ type: 'retry', attempt: 2, error: { name: 'APIError', data: { message: 'Overloaded' } }, time: { created: 1789380006000 } }).pick[0].slice(0, 3)).toEqual(['system', 'retry 2: APIError: Overloaded', T(1789380006000)]);
  });

  it('step-start, step-finish and snapshot give no row on purpose; an unknown type is counted, never dropped silently', () => {
    for (const type of ['step-start', 'step-finish', 'snapshot']) {
      const r = one({ type });
      expect(r.rows).toEqual([]);
      expect(r.ctx.unknowns).toEqual([]);
    }
    expect(one({ type: 'hologram' }).ctx.unknowns).toEqual([{ kind: 'part hologram', line: 7 }]);
  });
});

describe('opencode message-level rows', () => {
  it('a model row for the first model of a session and for each change, with the provider', () => {
    const models = new Map<string, string>();
    const b = { ...base };
    expect(messageRows({ ...asst, provider: 'anthropic' }, b, models).map((r) => r.text)).toEqual(['model: claude-sonnet-4-5 (anthropic)']);
    expect(messageRows({ ...asst, provider: 'anthropic' }, b, models)).toEqual([]);
    expect(messageRows({ ...user, provider: 'openai' }, b, models).map((r) => [r.text, r.model, r.tag])).toEqual([['model: claude-sonnet-4-5 -> gpt-5 (openai)', 'gpt-5', 'model']]);
  });

  it("an assistant's error is a row; without the session's order (legacy files) no model row is guessed", () => {
    const err = messageInfo({ role: 'assistant', modelID: 'm', error: { name: 'ProviderAuthError', data: { providerID: 'x', message: 'bad key' } }, time: { created: 1789380007000 } });
    expect(messageRows(err, base).map((r) => [r.text, r.tag])).toEqual([['error: ProviderAuthError: bad key', 'error']]);
  });
});
