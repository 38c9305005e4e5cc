import { describe, expect, it } from 'vitest';
import { log, runText, SESSION_REL } from './test-helpers/run.js';

// The operation-log replay (objectMutationLog.ts @047238f9): entry kinds, the lines rows point to,
// requests a Push with `i` takes away, compaction, the truncation marker, and lines VS Code could
// not have written.

const SID = '0b000000-0000-4000-8000-000000000001';
const REL = SESSION_REL(SID);
const init = (requests: unknown[] = [], extra: object = {}) => ({ kind: 0, v: { version: 3, sessionId: SID, creationDate: 1790931600000, initialLocation: 'panel', responderUsername: 'GitHub Copilot', requests, ...extra } });
const req = (id: string, text: string, extra: object = {}) => ({ requestId: id, timestamp: 1790931601000, message: { text }, modelId: 'copilot/gpt-5-mini', modeInfo: { kind: 'ask' }, response: [], ...extra });
const WS = { '../workspace.json': '{"folder":"file:///srv/app"}' };

describe('operation log replay', () => {
  it('applies Initial, Set, Push and Delete, each row pointing at the line that last wrote its record', async () => {
    const r = await runText(
      REL,
      log(
        init(),
        { kind: 2, k: ['requests'], v: [req('r1', 'first')] },
        { kind: 2, k: ['requests', 0, 'response'], v: [{ value: 'Hel' }] },
        { kind: 2, k: ['requests', 0, 'response'], v: [{ value: 'Hello there.' }], i: 0 },
        { kind: 1, k: ['requests', 0, 'message'], v: { text: 'first, edited in place' } },
        { kind: 1, k: ['customTitle'], v: 'Greeting' },
        { kind: 3, k: ['customTitle'] },
        { kind: 1, k: ['customTitle'], v: 'Greeting again' },
      ),
      { siblings: WS },
    );
    expect(r.short).toEqual([
      [1, 'system', 'session_start', 'session start: vscode chat location=panel responder=GitHub Copilot'],
      [2, 'system', 'model', 'model: copilot/gpt-5-mini'],
      [2, 'system', 'permission_mode', 'permission mode: default agent=ask'],
      [5, 'user', '', 'first, edited in place'],
      [4, 'assistant', '', 'Hello there.'],
      [8, 'system', 'session_name', 'session name: Greeting again'],
    ]);
    expect(new Set(r.rows.map((x) => x.project_path))).toEqual(new Set(['/srv/app']));
  });

  it('gives the requests a Push with i took away, tagged removed_request, without model or mode rows of their own', async () => {
    const r = await runText(REL, log(init(), { kind: 2, k: ['requests'], v: [req('r1', 'keep me'), req('r2', 'delete dist')] }, { kind: 2, k: ['requests'], v: [req('r2b', 'clean dist')], i: 1 }));
    expect(r.short.filter(([, t]) => t === 'user')).toEqual([
      [2, 'user', '', 'keep me'],
      [3, 'user', '', 'clean dist'],
      [2, 'user', 'removed_request', 'delete dist'],
    ]);
    expect(r.rows.filter((x) => x.tag === 'removed_request')).toHaveLength(1);
  });

  it('treats a Set of a whole request with another requestId as a replacement, and a Push cutting the array to nothing', async () => {
    const r = await runText(REL, log(init(), { kind: 2, k: ['requests'], v: [req('r1', 'one'), req('r2', 'two')] }, { kind: 1, k: ['requests', 1], v: req('r3', 'three') }, { kind: 2, k: ['requests'], i: 0 }));
    expect(r.short.filter(([, t]) => t === 'user')).toEqual([
      [2, 'user', 'removed_request', 'two'],
      [2, 'user', 'removed_request', 'one'],
      [3, 'user', 'removed_request', 'three'],
    ]);
  });

  it('does not report a request that was cut away and written again as removed', async () => {
    const r = await runText(REL, log(init(), { kind: 2, k: ['requests'], v: [req('r1', 'one')] }, { kind: 2, k: ['requests'], i: 0 }, { kind: 2, k: ['requests'], v: [req('r1', 'one')] }));
    expect(r.short.filter(([, t]) => t === 'user')).toEqual([[4, 'user', '', 'one']]);
  });

  it('reads a compacted log (one Initial) and a second Initial mid-file as a fresh state, reporting the requests it dropped', async () => {
    const compacted = await runText(REL, log(init([req('r1', 'one', { response: [{ value: 'A reply.' }] })])));
    expect(compacted.short.map(([l, t]) => [l, t])).toEqual([
      [1, 'system'],
      [1, 'system'],
      [1, 'system'],
      [1, 'user'],
      [1, 'assistant'],
    ]);
    const twice = await runText(REL, log(init([req('r1', 'one'), req('r2', 'two')]), init([req('r2', 'two')])));
    expect(twice.short.filter(([, t]) => t === 'user')).toEqual([
      [2, 'user', '', 'two'],
      [1, 'user', 'removed_request', 'one'],
    ]);
  });

  it('keeps a value an earlier line held whole where the oversize fallback wrote its truncation marker, and warns', async () => {
    const marker = '[VS Code: value truncated for persistence; original 2097152 chars]';
    const r = await runText(REL, log(init([req('r1', 'one')]), { kind: 2, k: ['requests', 0, 'response'], v: [{ value: 'the whole reply' }] }, { kind: 2, k: ['requests', 0, 'response'], v: [{ value: marker }], i: 0 }, { kind: 1, k: ['requests', 0, 'message', 'text'], v: '[VS Code: value truncated for persistence; entry exceeded size budget]' }));
    expect(r.short.filter(([, t]) => t === 'user' || t === 'assistant')).toEqual([
      // Line 4 last wrote the prompt (with the marker); the text is the whole one line 1 held.
      [4, 'user', '', 'one'],
      [3, 'assistant', '', 'the whole reply'],
    ]);
    expect(r.ctx.warnings).toEqual([{ message: '2 value(s) VS Code wrote as its truncation marker were read from an earlier line that held them whole' }]);
  });

  it('keeps a marker no earlier line can replace, as written', async () => {
    const marker = '[Code - OSS: value truncated for persistence; original 1048577 chars]';
    const r = await runText(REL, log(init([req('r1', 'one', { response: [{ value: marker }] })])));
    expect(r.short.find(([, t]) => t === 'assistant')?.[3]).toBe(marker);
  });

  it('reports every line it cannot apply as a bad line and goes on (VS Code stops at the first)', async () => {
    const lines = [
      JSON.stringify({ kind: 1, k: ['customTitle'], v: 'too early' }),
      JSON.stringify(init([req('r1', 'one')])),
      JSON.stringify({ kind: 9, k: [] }),
      JSON.stringify({ kind: 1, k: 'requests', v: 1 }),
      JSON.stringify({ kind: 1, k: ['requests', 3, 'result'], v: {} }),
      JSON.stringify({ kind: 1, k: ['__proto__', 'polluted'], v: true }),
      JSON.stringify({ kind: 1, k: ['constructor', 'prototype', 'polluted'], v: true }),
      JSON.stringify({ kind: 1, k: ['requests', 1e9], v: {} }),
      JSON.stringify({ kind: 2, k: ['requests', 0, 'message'], v: ['x'] }),
      JSON.stringify({ kind: 2, k: ['requests'], v: 'not an array' }),
      JSON.stringify({ kind: 2, k: ['requests'], i: -1 }),
      JSON.stringify({ kind: 0, v: 'not an object' }),
      '[1, 2, 3]',
      '{"kind": 1, "k": ["customTitle"], "v": "cut',
    ];
    const r = await runText(REL, lines.join('\n'));
    const bad = r.rows.filter((x) => x.tag === 'bad_line').map((x) => [x.source_line, x.text.replace(/\): .*$/s, ')')]);
    expect(bad).toEqual([
      [1, 'parser: unparseable line (a Set, Push or Delete before any Initial entry)'],
      [3, 'parser: unparseable line (expected kind 0 (Initial), 1 (Set), 2 (Push) or 3 (Delete), found 9)'],
      [4, 'parser: unparseable line (expected k to be a path of keys and indexes)'],
      [5, 'parser: unparseable line (path ["requests",3] does not exist in the session)'],
      [6, 'parser: unparseable line (path ["__proto__"] does not exist in the session)'],
      [7, 'parser: unparseable line (path ["constructor"] does not exist in the session)'],
      [8, 'parser: unparseable line (index 1000000000 is past the end of the array (length 1))'],
      [9, 'parser: unparseable line (expected an array at ["requests",0,"message"], found object)'],
      [10, 'parser: unparseable line (expected v to be an array of items to push)'],
      [11, 'parser: unparseable line (expected i to be an array length, found -1)'],
      [12, 'parser: unparseable line (expected the Initial entry\'s v to be the session object, found string)'],
      [13, expect.stringMatching(/^parser: unparseable line \(.*array.*\)$/)],
      [14, expect.stringMatching(/^parser: unparseable line \(cut line, no newline at end of file/)],
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(r.short.filter(([, t]) => t === 'user')).toEqual([[2, 'user', '', 'one']]);
  });

  it('gives one unreadable row for an empty file, and reads blank lines as nothing', async () => {
    expect((await runText(REL, '')).short).toEqual([[null, 'system', 'unreadable', 'parser: unreadable file (expected a chat session operation log (one JSON entry per line), found an empty file)']]);
    const r = await runText(REL, `\n${log(init([req('r1', 'one')]))}\n\n`);
    expect(r.short.filter(([, t]) => t === 'user')).toEqual([[2, 'user', '', 'one']]);
  });

  it('reads the same rows whatever the chunking of the bytes', async () => {
    const text = log(init(), { kind: 2, k: ['requests'], v: [req('r1', 'héllo — ünïcode ✓')] }, { kind: 2, k: ['requests', 0, 'response'], v: [{ value: 'réponse ✓' }] });
    const whole = await runText(REL, text);
    for (const chunk of [1, 3, 7]) expect((await runText(REL, text, { chunk })).rows).toEqual(whole.rows);
  });
});

describe('long lines', () => {
  it('streams an Initial line longer than 16 MiB request by request, reads a long Set whole, and goes on', async () => {
    const big = 'x'.repeat(9 * 1024 * 1024);
    const result = { metadata: { toolCallRounds: [{ toolCalls: [{ id: 'c1__vscode-1', name: 'read_file', arguments: '{}' }] }], toolCallResults: { 'c1__vscode-1': { content: [{ value: `${big}${big}` }] } } } };
    const r1 = req('r1', 'one', { result: { metadata: { renderedUserMessage: big } } });
    const r2 = req('r2', 'two', { result: { metadata: { renderedUserMessage: big } }, response: [{ kind: 'toolInvocationSerialized', toolId: 'copilot_readFile', toolCallId: 'v1', isConfirmed: { type: 1 } }] });
    const text = log(init([r1, r2]), { kind: 1, k: ['requests', 1, 'result'], v: result }, { kind: 1, k: ['customTitle'], v: 'Long' });
    expect(text.split('\n')[0].length).toBeGreaterThan(16 * 1024 * 1024);
    const r = await runText(REL, text, { chunk: 1024 * 1024 });
    expect(r.rows.map((x) => [x.source_line, x.turn_type, x.tag ?? '', x.text.length > 100 ? `(${x.text.length} chars)` : x.text])).toEqual([
      [1, 'system', 'session_start', 'session start: vscode chat location=panel responder=GitHub Copilot'],
      [1, 'system', 'model', 'model: copilot/gpt-5-mini'],
      [1, 'system', 'permission_mode', 'permission mode: default agent=ask'],
      [1, 'user', '', 'one'],
      [1, 'user', '', 'two'],
      [1, 'tool_use', '', '{}'],
      [1, 'system', 'permission_decision', 'permission decision: not-needed'],
      [1, 'tool_result', '', `(${2 * big.length} chars)`],
      [3, 'system', 'session_name', 'session name: Long'],
    ]);
    expect(r.ctx.warnings).toEqual([]);
  });

  it('reports a long Initial line cut mid-write, keeping its complete requests', async () => {
    const big = 'y'.repeat(17 * 1024 * 1024);
    const line = JSON.stringify(init([req('r1', 'one', { response: [{ value: big }] }), req('r2', 'two')]));
    const r = await runText(REL, line.slice(0, line.indexOf('"two"')));
    expect(r.short.filter(([, t, tag]) => t === 'user' || tag === 'bad_line')).toEqual([
      [1, 'system', 'bad_line', expect.stringMatching(/^parser: unparseable line \(the Initial entry is cut after 1 complete request\(s\): the document ends inside \d+ open containers/)],
      [1, 'user', '', 'one'],
    ]);
  });

  it('finds the bytes of one line across chunks and CRLF endings', async () => {
    const { lineBytes } = await import('./oplog-long.js');
    const open = () =>
      (async function* () {
        for (const c of ['a\r\nbb', 'b\r\n', '\nccc']) yield Buffer.from(c);
      })();
    const line = async (n: number) => {
      const parts: Buffer[] = [];
      for await (const b of lineBytes(open, n)) parts.push(b);
      return Buffer.concat(parts).toString();
    };
    expect([await line(1), await line(2), await line(3), await line(4), await line(5)]).toEqual(['a\r', 'bbb\r', '', 'ccc', '']);
  });

  it('slims what no row reads from a stored request', async () => {
    const { slimRequest } = await import('./slim.js');
    const r = slimRequest({ requestId: 'r', agent: { id: 'a', description: 'long' }, message: { text: 't', parts: [1] }, contentReferences: [1], result: { metadata: { renderedUserMessage: 'x', toolCallRounds: [] } }, response: [{ kind: 'textEditGroup', uri: 'u', edits: [[{ text: 'x' }]] }], variableData: { variables: [{ name: 'f', value: { uri: { path: '/f' }, range: {}, content: 'whole file' } }, { name: 'i', value: { data: 'AAAA' } }] } });
    expect(r).toEqual({ requestId: 'r', agent: { id: 'a' }, message: { text: 't' }, result: { metadata: { toolCallRounds: [] } }, response: [{ kind: 'textEditGroup', uri: 'u' }], variableData: { variables: [{ name: 'f', value: { uri: { path: '/f' } } }, { name: 'i', value: undefined }] } });
  });
});
