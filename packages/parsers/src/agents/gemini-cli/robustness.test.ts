import { describe, expect, it } from 'vitest';
import { geminiCliPlugin } from './index.js';
import { parseChat } from './chat-parser.js';
import { FamilyPaths } from './paths.js';
import { GEMINI_PROFILE } from './profile.js';
import { brief, jsonl, run } from './test-helpers/memory.js';

// Hostile chats: wrong types in every field, NUL runs, a huge line, a BOM, CRLF. Nothing throws,
// every line is accounted for, and a line that cannot be read is a row that says so.

const chats = geminiCliPlugin.parsers.find((p) => p.name === 'chats')!;
const REL = '.gemini/tmp/app/chats/session-2026-10-01T10-00-44444444.jsonl';
const meta = { sessionId: '44444444-0000-4000-8000-000000000004', projectHash: 'cd'.repeat(32), startTime: '2026-10-01T10:00:00.000Z', lastUpdated: '2026-10-01T10:00:00.000Z' };

describe('gemini-cli chats: hostile input', () => {
  it('wrong types give what can be read and never throw', async () => {
    const lines = [
      meta,
      { id: 'a', type: 'user', timestamp: 12, content: 42 },
      { id: 'b', type: 'gemini', timestamp: 'yesterday', content: { parts: 'x' }, thoughts: 'none', toolCalls: 'many', model: 7 },
      { id: 'c', type: 'gemini', content: [null, 1, 'text part', { text: 5 }], toolCalls: [null, { id: 3, name: null, args: 'ls', status: {} }] },
      { id: 'd', type: ['user'], content: [{ functionResponse: 'x' }] },
      { $set: 'not an object' },
      { $set: { messages: 'nope', summary: 9, directories: [1, '/srv/x'] } },
      { $rewindTo: 5 },
      { id: 'e', type: 'user', content: [{ text: 'ok' }], displayContent: 3 },
    ];
    const paths = new FamilyPaths(GEMINI_PROFILE);
    const { rows, ctx, skips } = await run((a, c, hooks) => parseChat(a, c, paths, hooks), { [REL]: jsonl(...lines) }, REL);
    expect(brief(rows)).toEqual([
      [1, 'system', `session start: kind=main projectHash=${'cd'.repeat(32)}`],
      [3, 'system', 'model: 7'],
      [4, 'assistant', 'text part'],
      [4, 'tool_use', '"ls"'],
      [7, 'system', 'session name: 9'],
      [7, 'system', 'workspace directories: /srv/x'],
      [9, 'user', 'ok'],
    ]);
    expect(skips).toEqual([
      { line: 2, reason: 'empty user message' },
      { line: 5, reason: 'message of unknown type (none) without text' },
      { line: 6, reason: 'record of unknown shape' },
      { line: 8, reason: 'record of unknown shape' },
    ]);
    expect(rows.every((r) => typeof r.text === 'string' && typeof r.turn_type === 'string')).toBe(true);
    // Every line gave a row or a counted skip.
    const lined = new Set([...rows.map((r) => r.source_line), ...skips.map((s) => s.line)]);
    expect([...Array(lines.length)].map((_, i) => i + 1).filter((l) => !lined.has(l))).toEqual([]);
    expect(ctx.unknowns.map((u) => u.kind)).toEqual(['message type (none)', 'record without id, uuid, $set, $rewindTo or metadata', 'record without id, uuid, $set, $rewindTo or metadata']);
  });

  it('a BOM, CRLF line ends, a run of NULs and an over-long line', async () => {
    const body = Buffer.concat([Buffer.from('\uFEFF' + JSON.stringify(meta) + '\r\n'), Buffer.alloc(64, 0), Buffer.from('\n' + JSON.stringify({ id: 'u', type: 'user', timestamp: '2026-10-01T10:00:01.000Z', content: [{ text: 'x'.repeat(300_000) }] }) + '\r\n')]);
    const { rows } = await run(chats, { [REL]: body }, REL);
    expect(brief(rows).map(([l, t, text]) => [l, t, text.slice(0, 50)])).toEqual([
      [1, 'system', 'session start: kind=main projectHash=cdcdcdcdcdcdc'],
      [2, 'system', 'parser: unparseable line (only NUL bytes (64)): '],
      [3, 'user', 'x'.repeat(50)],
    ]);
    expect(rows[2].text.length).toBe(300_000);
  });
});
