import { copyFileSync, mkdirSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { parseFile, scratchHome } from './test-helpers/build.js';

// Hostile bytes at every path a Cursor parser wants: the parser never throws, and a file it cannot
// read is rows that say so (bad or unreadable), never a silent nothing for a database.
const { dir, done } = scratchHome('robust');
afterAll(done);
const SPEC = fileURLToPath(new URL('../../../../../fixtures/homes/cursor-spec/', import.meta.url));

const PATHS = [
  '.config/Cursor/User/globalStorage/state.vscdb',
  '.config/Cursor/User/workspaceStorage/w/state.vscdb',
  '.config/Cursor/User/workspaceStorage/w/workspace.json',
  '.cursor/chats/0123456789abcdef0123456789abcdef/a/store.db',
  '.cursor/ai-tracking/ai-code-tracking.db',
  '.cursor/projects/p/agent-transcripts/x.txt',
  '.cursor/projects/p/agent-transcripts/x.jsonl',
  '.cursor/projects/p/agent-transcripts/x.json',
  '.cursor/prompt_history.json',
  '.cursor/cli-config.json',
  '.cursor/permissions.json',
  '.cursor/mcp.json',
  '.cursor/hooks.json',
  '.cursor/projects/p/mcp-approvals.json',
  '.cursor/projects/p/.workspace-trusted',
  '.cursor/projects/p/mcp-cache.json',
  '.cursor/projects/p/mcps/s/tools/t.json',
  '.cursor/projects/p/terminals/1.txt',
];
const DATABASES = PATHS.filter((p) => /\.(?:vscdb|db)$/.test(p));
let n = 0;

async function parseBytes(rel: string, bytes: Uint8Array) {
  const home = join(dir, `h${++n}`);
  mkdirSync(dirname(join(home, rel)), { recursive: true });
  writeFileSync(join(home, rel), bytes);
  return parseFile(home, rel);
}

describe('hostile bytes', () => {
  it('random bytes at any wanted path never throw; a database that is not one is one unreadable row', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...PATHS), fc.uint8Array({ maxLength: 600 }), async (rel, bytes) => {
        const { rows } = await parseBytes(rel, bytes);
        for (const r of rows) expect(typeof r.text).toBe('string');
        if (DATABASES.includes(rel)) expect(rows.map((r) => r.tag)).toEqual(['unreadable']);
      }),
      { numRuns: 120 },
    );
  });

  it('empty files: databases say so; text files give nothing or one row that says why', async () => {
    for (const rel of PATHS) {
      const { rows } = await parseBytes(rel, new Uint8Array());
      if (DATABASES.includes(rel)) expect([rel, rows.map((r) => r.text)]).toEqual([rel, [expect.stringMatching(/found an empty file/)]]);
      // An empty terminal is still a terminal the agent had open.
      else if (rel.includes('/terminals/')) expect(rows.map((r) => r.text)).toEqual(['terminal: 1.txt lines=0']);
      else expect([rel, rows.every((r) => r.tag === 'unreadable' || r.tag === 'bad_line')]).toEqual([rel, true]);
    }
  });

  it('a global database cut short (a partial copy) is one row saying it is truncated', async () => {
    const home = join(dir, 'cut');
    const rel = '.config/Cursor/User/globalStorage/state.vscdb';
    mkdirSync(dirname(join(home, rel)), { recursive: true });
    copyFileSync(join(SPEC, rel), join(home, rel));
    truncateSync(join(home, rel), Math.floor(readFileSync(join(home, rel)).length / 2));
    const { rows } = await parseFile(home, rel);
    expect(rows.map((r) => [r.tag, r.text])).toEqual([['unreadable', expect.stringMatching(/it is truncated: collect it again/)]]);
  });

  it('JSON files of the wrong shape are said, never quoting a flagged file', async () => {
    for (const rel of ['.cursor/cli-config.json', '.cursor/mcp.json']) {
      const { rows } = await parseBytes(rel, Buffer.from('["FAKE-secret-in-an-array-0123456789"]'));
      expect(JSON.stringify(rows)).not.toContain('FAKE');
    }
    for (const [rel, body] of [
      ['.cursor/projects/p/mcp-approvals.json', '{"a":1}'],
      ['.cursor/prompt_history.json', '"x"'],
      ['.cursor/hooks.json', '[]'],
    ]) {
      const { rows } = await parseBytes(rel, Buffer.from(body));
      expect([rel, rows.map((r) => r.tag)]).toEqual([rel, ['unreadable']]);
    }
  });

  it('a .txt transcript of one huge line and CRLF line ends reads as text', async () => {
    const big = `user:\r\n<user_query>\r\n${'y'.repeat(2_000_000)}\r\n</user_query>\r\n`;
    const { rows } = await parseBytes('.cursor/projects/p/agent-transcripts/big.txt', Buffer.from(big));
    expect(rows.map((r) => [r.turn_type, r.text.length])).toEqual([['user', 2_000_000]]);
  });
});
