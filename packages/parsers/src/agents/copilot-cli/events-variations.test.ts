import { describe, expect, it } from 'vitest';
import { both, texts } from './test-helpers/events-both.js';
import { event as ev } from './test-helpers/events-run.js';

// Variations of the event shapes the seed's Record schema allows and the fixtures do not show,
// each in both encodings. Expected texts follow the Parser plan table's forms.

describe('tool_result from the other result keys (Record schema: result{content, detailedContent, structuredContent, contents})', () => {
  const result = (data: Record<string, unknown>) => ev('tool.execution_complete', { toolCallId: 'x', success: true, ...data });

  it('a result with only contents (an MCP tool) prints them as compact JSON, not an empty row', async () => {
    const run = await both([result({ result: { contents: [{ type: 'text', text: '3 open issues' }] } })]);
    expect(run.rows[0]).toMatchObject({ turn_type: 'tool_result', tool_use_id: 'x', text: '[{"text":"3 open issues","type":"text"}]' });
  });

  it('a result with only structuredContent prints it as compact JSON', async () => {
    const run = await both([result({ result: { structuredContent: { open: 3, repo: 'o/r' } } })]);
    expect(texts(run)).toEqual(['{"open":3,"repo":"o/r"}']);
  });

  it('content or detailedContent, when present, still win over contents and structuredContent', async () => {
    const run = await both([result({ result: { content: 'short', contents: [{ type: 'text', text: 'a much longer text' }], structuredContent: { a: 1 } } })]);
    expect(texts(run)).toEqual(['short']);
  });

  it('the exit prefix and the error message apply to the fallback text too', async () => {
    const run = await both([result({ success: false, result: { structuredContent: { ok: false } }, error: { message: 'boom' }, shellExecution: { exitCode: '3' } })]);
    expect(texts(run)).toEqual(['[exit 3] {"ok":false}\nboom']);
  });
});

describe('tool_use arguments of a custom (grammar) tool', () => {
  it('toolRequests[] of type custom: the arguments string as is, even when it reads as JSON', async () => {
    const raw = '{"command": "rm -rf /tmp/x",  "note": 1}';
    const run = await both([
      ev('assistant.message', {
        content: '',
        toolRequests: [
          { type: 'custom', name: 'my_grammar_tool', toolCallId: 'custom_1', arguments: raw },
          { type: 'function', name: 'bash', toolCallId: 'call_2', arguments: { command: 'ls' } },
        ],
      }),
    ]);
    expect(run.rows.map((r) => [r.tool_name, r.tool_use_id, r.text])).toEqual([
      ['my_grammar_tool', 'custom_1', raw],
      ['bash', 'call_2', 'ls'],
    ]);
  });
});

describe('permission request intention', () => {
  const req = (permissionRequest: unknown, extra: Record<string, unknown> = {}) => ev('permission.requested', { requestId: 'r', permissionRequest, ...extra });

  it('seed 001 names it intent in promptRequest: printed as intention=', async () => {
    const run = await both([req({ kind: 'shell', toolCallId: 't' }, { promptRequest: { kind: 'commands', fullCommandText: 'Get-Location', intent: 'Find the folder' } })]);
    expect(texts(run)).toEqual(['permission request: shell Get-Location intention=Find the folder']);
  });

  it('intention wins over intent', async () => {
    const run = await both([req({ kind: 'read', path: '/a', intention: 'Read it', intent: 'other' })]);
    expect(texts(run)).toEqual(['permission request: read /a intention=Read it']);
  });
});

describe('compact JSON of a whole payload', () => {
  it('keeps a key named __proto__ (JSON allows it; an object literal would swallow it)', async () => {
    const line = JSON.stringify({ id: 'e', parentId: null, timestamp: '2026-10-01T09:00:00.000Z', type: 'session.task_complete', data: JSON.parse('{"__proto__":{"x":1},"success":true}') });
    const run = await both([line]);
    expect(texts(run)).toEqual(['session.task_complete: {"__proto__":{"x":1},"success":"true"}']);
  });
});
