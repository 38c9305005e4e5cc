import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RecordingContext } from './sdk/recording-context.js';
import type { Row } from './sdk/types.js';
import { parseFile, parserByKey } from './test-helpers/parse-file.js';

// Valid JSON nested 100,000 deep, which JSON.parse builds without limit: JSON.stringify, an
// array's toString and the JSONC reader recurse and overflow the call stack on it. Found by a
// sweep that put such a value, in turn, at every key path of each parser's fixture files: one
// deep value threw out of parse(), or lost the whole file (a session log, a config) to one
// unreadable row. Each case is the parser's file with one deep value, and what must come out.

const DEPTH = 100_000;
const ARR = '['.repeat(DEPTH) + ']'.repeat(DEPTH);
const OBJ = '{"a":'.repeat(DEPTH) + '1' + '}'.repeat(DEPTH);

interface Case {
  name: string;
  parser: string;
  rel: string;
  text: string;
  check(rows: Row[], ctx: RecordingContext): void;
}

const brief = (rows: Row[]) => rows.map((r) => [r.source_line ?? null, r.turn_type, r.tag ?? '', r.text.slice(0, 60)]);

const CASES: Case[] = [
  {
    name: 'a Gemini CLI prompt log entry that is a deep array: a bad line, the next entry read',
    parser: 'gemini-cli/prompt-log',
    rel: '.gemini/tmp/abc/logs.json',
    text: `[${ARR},{"sessionId":"s1","messageId":0,"type":"user","message":"after","timestamp":"2026-01-01T00:00:00.000Z"}]`,
    check: (rows) => {
      expect(brief(rows)).toEqual([
        [1, 'system', 'bad_line', `parser: unparseable line (not a JSON object): ${'['.repeat(14)}`],
        [2, 'user', 'history', 'after'],
      ]);
    },
  },
  {
    name: 'a VS Code chat session log line whose kind is a deep array: a bad line, the lines after it replayed',
    parser: 'vscode-copilot-chat/chat-session',
    rel: '.config/Code/User/workspaceStorage/53b6c388ab63f1f38dff78b483c76ba8/chatSessions/57354b3e-3103-4bae-8ae7-bc7897834d59.jsonl',
    text: ['{"kind":0,"v":{"version":3,"sessionId":"s","requests":[]}}', `{"kind":${ARR},"v":1}`, `{"kind":2,"k":["requests"],"v":[],"i":${ARR}}`, '{"kind":1,"k":["customTitle"],"v":"after the deep lines"}'].join('\n'),
    check: (rows) => {
      const byLine = [...rows].sort((a, b) => (a.source_line ?? 0) - (b.source_line ?? 0));
      expect(byLine.map((r) => [r.source_line, r.tag])).toEqual([
        [1, 'session_start'],
        [2, 'bad_line'],
        [3, 'bad_line'],
        [4, 'session_name'],
      ]);
      expect(byLine[3].text).toBe('session name: after the deep lines');
    },
  },
  {
    name: 'a strict-JSON VS Code edit session with a deep value: read, not unreadable',
    parser: 'vscode-copilot-chat/editing-session',
    rel: '.config/Code/User/workspaceStorage/53b6c388ab63f1f38dff78b483c76ba8/chatEditingSessions/57354b3e-3103-4bae-8ae7-bc7897834d59/state.json',
    text: `{"version":2,"sessionId":"57354b3e-3103-4bae-8ae7-bc7897834d59","linearHistory":[],"extra":${OBJ}}`,
    check: (rows) => {
      expect(rows.filter((r) => r.tag === 'unreadable')).toEqual([]);
    },
  },
  {
    name: 'a Cursor MCP server whose env value is a deep array: the server reported, its value flagged',
    parser: 'cursor/mcp-config',
    rel: '.cursor/mcp.json',
    text: `{"mcpServers":{"github":{"command":"npx","env":{"TOKEN":${ARR}}}}}`,
    check: (_rows, ctx) => {
      expect(ctx.mcpServers.map((s) => [s.name, s.transport, s.command])).toEqual([['github', 'stdio', 'npx']]);
    },
  },
  {
    name: 'JSON with a comment around a deep value: one unreadable row saying why',
    parser: 'copilot-cli/settings',
    rel: '.copilot/settings.json',
    text: `// user settings\n{"model":${ARR}}`,
    check: (rows) => {
      expect(rows.map((r) => r.tag)).toEqual(['unreadable']);
      expect(rows[0].text).toContain('not plain JSON, and nested too deep for the reader of JSON with comments');
    },
  },
];

const root = mkdtempSync(join(tmpdir(), 'aitrail-deep-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('a value nested 100,000 deep', () => {
  for (const [i, c] of CASES.entries()) {
    it(c.name, async () => {
      const parser = parserByKey(c.parser);
      expect(parser, c.parser).toBeDefined();
      expect(parser!.wants(c.rel)).toBe(true);
      const { rows, ctx } = await parseFile(parser!, join(root, String(i)), c.rel, c.text);
      c.check(rows, ctx);
    });
  }
});
