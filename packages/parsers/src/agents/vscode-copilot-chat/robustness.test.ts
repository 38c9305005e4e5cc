import { describe, expect, it } from 'vitest';
import { log, runText, SESSION_REL } from './test-helpers/run.js';

// Hostile and malformed input: every parser gives rows that say what was wrong and never throws.

const SID = '0e000000-0000-4000-8000-000000000001';
const U = '.config/Code/User';
const W = `${U}/workspaceStorage/0f1e`;
const GARBAGE = Buffer.from([0xff, 0xfe, 0x00, 0x41, 0x0a, 0xc3, 0x28, 0x0a, 0x7b, 0x0a]);

describe('hostile input', () => {
  it('a session of wrong types everywhere gives the rows it can and no exception', async () => {
    const weird = [
      null,
      'a string request',
      { requestId: 'r1', message: null, response: 5, result: 'x', modelState: [], timestamp: 'not a time', variableData: { variables: 'x' }, editedFileEvents: {}, modelId: 42 },
      { requestId: 'r2', message: { text: 'ok' }, response: [null, 3, 'plain markdown string', { kind: 7 }, { kind: 'toolInvocationSerialized', toolId: { bad: 1 }, isConfirmed: 'yes', toolSpecificData: { kind: 'terminal', commandLine: 5, terminalCommandState: { exitCode: { a: 1 }, timestamp: 'x' } } }, { kind: 'textEditGroup', uri: 12 }, { kind: 'inlineReference', inlineReference: null }], result: { metadata: { toolCallRounds: 'x', toolCallResults: [] } } },
      { requestId: 'r3', message: { text: 'deep' }, result: { metadata: { toolCallRounds: [{ toolCalls: [null, { id: 5, name: null, arguments: { not: 'a string' } }], timestamp: 1e20 }] } } },
    ];
    const r = await runText(SESSION_REL(SID), log({ kind: 0, v: { version: 3, sessionId: SID, creationDate: 'yesterday', requests: weird, inputState: 'x', repoData: [1] } }));
    expect(r.rows.filter((x) => x.turn_type === 'user').map((x) => x.text)).toEqual(['ok', 'deep']);
    expect(r.ctx.warnings.map((w) => w.message)).toEqual(['expected a request object, found null; skipped', 'expected a request object, found string; skipped']);
    expect(r.ctx.unknowns).toEqual([{ kind: 'response part 7', line: 1 }]);
    expect(r.rows.find((x) => x.turn_type === 'assistant')?.text).toBe('plain markdown string');
    for (const x of r.rows) expect(typeof x.text).toBe('string');
  });

  it('garbage bytes are bad lines, an unreadable file, or an unreadable row: never an exception', async () => {
    const targets = [SESSION_REL(SID), SESSION_REL(SID, 'json'), `${W}/GitHub.copilot-chat/transcripts/${SID}.jsonl`, `${W}/GitHub.copilot-chat/debug-logs/${SID}/main.jsonl`, `${W}/chatEditingSessions/${SID}/state.json`, `${U}/globalStorage/github.copilot-chat/cloudSessions.json`, `${U}/settings.json`, `${U}/mcp.json`, '.config/Code/logs/1/window1/exthost/GitHub.copilot-chat/GitHub Copilot Chat.log'];
    for (const rel of targets) {
      const r = await runText(rel, GARBAGE);
      expect(r.rows.every((x) => x.tag === 'bad_line' || x.tag === 'unreadable'), rel).toBe(true);
      if (!rel.endsWith('.log')) expect(r.rows.length, rel).toBeGreaterThan(0);
    }
  });

  it('a settings or MCP file that does not parse says so without quoting it (it may hold credentials)', async () => {
    for (const rel of [`${U}/settings.json`, `${U}/mcp.json`]) {
      const r = await runText(rel, '{"http.proxy": "http://u:FAKE-secret@x", "mcp": {');
      expect(r.rows).toHaveLength(1);
      expect(r.rows[0].text).not.toContain('FAKE');
    }
  });

  it('a prompt-tsx tree nested 100,000 levels deep renders without exhausting the stack', async () => {
    const { tsxText } = await import('./tools.js');
    let node: Record<string, unknown> = { text: 'leaf' };
    for (let i = 0; i < 100_000; i++) node = { children: [node] };
    expect(tsxText(node)).toBe('leaf');
  });

  it('a huge Markdown reply and a huge prompt are kept whole', async () => {
    const big = 'x'.repeat(5_000_000);
    const r = await runText(SESSION_REL(SID), log({ kind: 0, v: { version: 3, sessionId: SID, requests: [{ requestId: 'r', message: { text: big }, response: [{ value: big }] }] } }));
    expect(r.rows.filter((x) => x.text === big).map((x) => x.turn_type)).toEqual(['user', 'assistant']);
  });

  it('transcript and debug-log lines of the wrong shape are read as far as they go', async () => {
    const t = await runText(`${W}/GitHub.copilot-chat/transcripts/${SID}.jsonl`, log({ type: 'user.message', data: { content: 5 } }, { type: 'assistant.message', data: { toolRequests: 'x', content: ['a'] } }, { type: 'tool.execution_complete', data: { toolCallId: 9, result: { content: [{ type: 'text', text: 'r' }] }, success: false } }, [], { type: 7 }));
    expect(t.short).toEqual([
      // A number where text is expected is printed, as the SDK's asString does.
      [1, 'user', '', '5'],
      [3, 'tool_result', '', '[{"text":"r","type":"text"}] [error]'],
      [4, 'system', 'bad_line', 'parser: unparseable line (not a JSON object: an array): []'],
    ]);
    expect(t.ctx.unknowns).toEqual([{ kind: 'transcript 7', line: 5 }]);
    const d = await runText(`${W}/GitHub.copilot-chat/debug-logs/${SID}/main.jsonl`, log({ type: 'tool_call', name: 'x', attrs: { args: { a: 1 }, result: { b: 2 } }, status: 'error' }, { type: 'agent_response', attrs: { response: 'not json at all' } }, { type: 'user_message', attrs: 'x' }));
    expect(d.short).toEqual([
      [1, 'tool_use', '', '{"a":1}'],
      [1, 'tool_result', '', '{"b":2} [error]'],
      [2, 'assistant', '', 'not json at all'],
    ]);
  });
});
