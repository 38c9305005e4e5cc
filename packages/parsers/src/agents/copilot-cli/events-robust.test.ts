import { describe, expect, it } from 'vitest';
import type { ParseContext, Row } from '../../sdk/types.js';
import { EVENT_HANDLERS } from './events-handlers.js';
import { copilotEventsParser } from './events-parser.js';
import type { Handler } from './events-state.js';
import { event as ev, jsonl, runEvents, SID } from './test-helpers/events-run.js';

// Bad data: every line is accounted for (a row whose source_line is the line, or a counted skip),
// nothing throws, and the rows around a bad line are unaffected.

function accounted(run: { rows: Row[]; skips: { line: number }[] }, lines: number): void {
  const seen = new Set([...run.rows.map((r) => r.source_line), ...run.skips.map((s) => s.line)]);
  for (let i = 1; i <= lines; i++) expect(seen.has(i), `line ${i} accounted for`).toBe(true);
}

describe('bad lines', () => {
  it('each unreadable line is its own bad-line row with the line in full; reading goes on', async () => {
    const lines = ['{"type":"user.message", oops', '[1,2]', '42', 'null', '"text"', ev('user.message', { content: 'after' })];
    const run = await runEvents(jsonl(lines));
    expect(run.rows.map((r) => [r.source_line, r.tag, r.text])).toEqual([
      [1, 'bad_line', 'parser: unparseable line (invalid JSON): {"type":"user.message", oops'],
      [2, 'bad_line', 'parser: unparseable line (not a JSON object: an array): [1,2]'],
      [3, 'bad_line', 'parser: unparseable line (not a JSON object: a number): 42'],
      [4, 'bad_line', 'parser: unparseable line (not a JSON object: null): null'],
      [5, 'bad_line', 'parser: unparseable line (not a JSON object: a string): "text"'],
      [6, undefined, 'after'],
    ]);
    expect(run.rows[0]).toMatchObject({ turn_type: 'system', session_id: SID, timestamp_utc: '' });
  });

  it('a JSON object without a string type is a bad-line row', async () => {
    const lines = ['{"timestamp":"2026-10-01T09:00:00.000Z","data":{}}', '{"type":7,"data":{}}', '{"type":null}'];
    const run = await runEvents(jsonl(lines));
    expect(run.rows.map((r) => r.text)).toEqual([
      `parser: unparseable line (JSON object without a "type" key): ${lines[0]}`,
      `parser: unparseable line ("type" is not a string: number): ${lines[1]}`,
      `parser: unparseable line ("type" is not a string: null): ${lines[2]}`,
    ]);
  });

  it('an invalid, missing or non-string timestamp keeps the row undated and warns with the line number', async () => {
    const lines = [
      ev('user.message', { content: 'a' }, { timestamp: '2026-13-45T99:00:00Z' }),
      ev('user.message', { content: 'b' }, { timestamp: 1790845201400 }),
      ev('user.message', { content: 'c' }, { timestamp: undefined }),
      ev('user.message', { content: 'd' }, { timestamp: '2026-10-01T11:00:00+02:00' }),
    ];
    const run = await runEvents(jsonl(lines));
    expect(run.rows.map((r) => [r.text, r.timestamp_utc])).toEqual([
      ['a', ''],
      ['b', ''],
      ['c', ''],
      ['d', '2026-10-01T09:00:00.000Z'],
    ]);
    expect(run.warnings.map((w) => w.line)).toEqual([1, 2, 3]);
  });

  it('blank lines, CRLF and a BOM: blank lines are counted skips, the rest parse', async () => {
    const text = `\uFEFF${ev('user.message', { content: 'x' })}\r\n\r\n   \n${ev('user.message', { content: 'y' })}\r\n`;
    const run = await runEvents(text);
    expect(run.rows.map((r) => [r.source_line, r.text])).toEqual([
      [1, 'x'],
      [4, 'y'],
    ]);
    expect(run.skips.map((s) => s.line)).toEqual([2, 3]);
  });

  it('odd shapes never throw and every line is accounted for', async () => {
    const lines = [
      ev('session.start', 'not an object'),
      ev('session.start', { context: 'C:\\not json', copilotVersion: { v: 1 } }),
      ev('user.message', { content: { parts: ['a'] }, isAutopilotContinuation: 3 }),
      ev('assistant.message', { content: 5, toolRequests: { not: 'an array' }, reasoningBlocks: 'x' }, { agentId: 4 }),
      ev('assistant.message', { toolRequests: [1, null, 'x', [], { arguments: [1, 2] }], reasoningBlocks: [{ summary: 'plain' }] }),
      ev('tool.execution_complete', { result: 7, success: 'nope', shellExecution: { exitCode: 'x' }, error: [1] }),
      ev('tool.execution_complete', { result: [1], success: false, error: 'plain error' }),
      ev('permission.requested', { permissionRequest: [1], permissionMode: {}, agentMode: [] }),
      ev('permission.completed', { result: 'approved', decisionSource: 9 }),
      ev('permission.completed', { result: null }),
      ev('session.model_change', { newModel: { id: 'm' }, reasoningEffort: [] }),
      ev('session.shutdown', { codeChanges: { filesModified: 'not a list' } }),
      ev('hook.end', { input: 1, output: '{"broken', success: 'true' }),
      ev('session.info', null),
      ev('model.message', { message: 'x', modelCall: 3 }),
      ev('session.permissions_changed', []),
      ev('subagent.completed', { toolCallId: { x: 1 } }),
    ];
    const run = await runEvents(jsonl(lines), { includeThinking: true });
    accounted(run, lines.length);
    expect(run.rows.filter((r) => r.tag === 'bad_line')).toEqual([]);
    expect(run.rows.find((r) => r.source_line === 9)?.text).toBe('permission decision: approved source=9');
    expect(run.rows.find((r) => r.source_line === 7)?.text).toBe('[1]\nplain error');
  });

  it('a handler that throws turns its line into a bad-line row naming the error; the next line still parses', async () => {
    const table = EVENT_HANDLERS as Record<string, Handler>;
    const original = table['session.info'];
    table['session.info'] = (c) => {
      c.emit('system', 'partial');
      throw new Error('boom');
    };
    try {
      const lines = [ev('session.info', { message: 'm' }), ev('user.message', { content: 'ok' })];
      const run = await runEvents(jsonl(lines));
      expect(run.rows.map((r) => [r.source_line, r.text])).toEqual([
        [1, `parser: unparseable line (parser error: boom): ${lines[0]}`],
        [2, 'ok'],
      ]);
    } finally {
      table['session.info'] = original;
    }
  });

  it('bytes fed in small chunks give the same rows', async () => {
    const lines = [ev('session.start', { context: { cwd: '/é' } }), ev('user.message', { content: 'ünïcödé ✓' }), '{"cut'];
    const whole = await runEvents(lines.join('\n'));
    const chunked = await runEvents(lines.join('\n'), { chunkSize: 3 });
    expect(chunked.rows).toEqual(whole.rows);
    expect(whole.rows).toHaveLength(3);
  });

  it('invalid UTF-8 inside a JSON line: the row is kept and a warning names the line', async () => {
    const bytes = Buffer.concat([Buffer.from('{"type":"user.message","timestamp":"2026-10-01T09:00:00Z","data":{"content":"a'), Buffer.from([0xff]), Buffer.from('b"}}\n')]);
    const run = await runEvents(bytes);
    expect(run.rows.map((r) => [r.turn_type, r.text])).toEqual([['user', 'a\uFFFDb']]);
    expect(run.warnings.map((w) => w.line)).toEqual([1]);
  });
});

describe('legacy flat transcript', () => {
  it('records the table knows parse; records it does not are bad-line rows, not dropped', async () => {
    const lines = [ev('user.message', { content: 'old prompt' }), JSON.stringify({ role: 'assistant', content: 'old reply' }), ev('some.old_type', { x: 1 }), ev('assistant.turn_end', {})];
    const run = await runEvents(jsonl(lines), { legacy: true });
    expect(run.rows.map((r) => [r.source_line, r.tag, r.text])).toEqual([
      [1, undefined, 'old prompt'],
      [2, 'bad_line', `parser: unparseable line (JSON object without a "type" key): ${lines[1]}`],
      [3, 'bad_line', `parser: unparseable line (legacy flat transcript: record type "some.old_type" not recognized): ${lines[2]}`],
    ]);
    expect(run.skips.map((s) => s.line)).toEqual([4]);
  });

  it('the session id is the file basename', async () => {
    const text = jsonl([ev('user.message', { content: 'p' })]);
    const artifact = {
      rel: `.copilot/session-state/${SID}.jsonl`,
      user: 'u',
      host: 'h',
      scope: 'home' as const,
      size: text.length,
      mtime: '',
      sha256: '',
      stream: async function* () {
        yield Buffer.from(text);
      },
      localPath: async () => '',
      sibling: () => undefined,
    };
    const ctx: ParseContext = { options: { includeThinking: false }, fact: () => {}, warn: () => {}, unknown: () => {}, mcp: () => {} };
    const rows: Row[] = [];
    for await (const r of copilotEventsParser.parse(artifact, ctx)) rows.push(r);
    expect(rows.map((r) => [r.session_id, r.text])).toEqual([[SID, 'p']]);
  });
});

describe('unreadable input', () => {
  it('a stream that fails mid-way ends with one unreadable row; the rows before it stay', async () => {
    const artifact = {
      rel: `.copilot/session-state/${SID}/events.jsonl`,
      user: 'u',
      host: 'h',
      scope: 'home' as const,
      size: 0,
      mtime: '',
      sha256: '',
      stream: async function* () {
        yield Buffer.from(`${ev('user.message', { content: 'first' })}\n`);
        throw new Error('EIO: i/o error');
      },
      localPath: async () => '',
      sibling: () => undefined,
    };
    const ctx: ParseContext = { options: { includeThinking: false }, fact: () => {}, warn: () => {}, unknown: () => {}, mcp: () => {} };
    const rows: Row[] = [];
    for await (const r of copilotEventsParser.parse(artifact, ctx)) rows.push(r);
    expect(rows.map((r) => [r.text, r.tag])).toEqual([
      ['first', undefined],
      ['parser: unreadable file (reading stopped: EIO: i/o error)', 'unreadable'],
    ]);
  });
});
