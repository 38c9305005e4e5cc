import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseFile, parserByKey } from './test-helpers/parse-file.js';

// A config or store whose top level is valid JSON or YAML of the wrong kind (a list where a
// mapping belongs, a bare string or number) gave no row at all: these parsers took it as an empty
// mapping, so the file was read and nothing said. Found by a sweep that replaced each parser's
// fixture files with such documents. Each must now say what it expected and what it found.

interface Case {
  parser: string;
  rel: string;
  text: string;
  /** The rows' texts, in order. */
  want: (string | RegExp)[];
}

const CASES: Case[] = [
  { parser: 'cline/mcp-settings', rel: '.config/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json', text: '[1, 2]', want: ['parser: unreadable file (expected a JSON object with "mcpServers", found an array)'] },
  { parser: 'roo-code/mcp-settings', rel: '.config/Code/User/globalStorage/rooveterinaryinc.roo-cline/settings/mcp_settings.json', text: '42', want: ['parser: unreadable file (expected a JSON object with "mcpServers", found a number)'] },
  { parser: 'cline/providers', rel: '.cline/data/settings/providers.json', text: '"openai"', want: ['parser: unreadable file (expected a JSON object with "providers", found a string)'] },
  { parser: 'cursor/permissions', rel: '.cursor/permissions.json', text: '["Shell(ls)"]', want: ['parser: unreadable file (expected a JSON object of permission lists, found an array)'] },
  {
    parser: 'cursor/mcp-approvals',
    rel: '.cursor/projects/Users-dana-api/mcp-approvals.json',
    text: '["github-1a2b", 7]',
    want: ['permission setting: mcp server approved: github-1a2b', 'parser: unparseable line (expected entry 2 to be a server name, found a number): 7'],
  },
  { parser: 'opencode/model-state', rel: '.local/state/opencode/model.json', text: '[{"providerID": "openai"}]', want: ['parser: unreadable file (expected a JSON object of model lists, found an array)'] },
  { parser: 'opencode/storage', rel: '.local/share/opencode/storage/todo/ses_6aade4081ffeLegacyOnly0001.json', text: '{"content": "x"}', want: ['parser: unreadable file (expected a JSON array of todo items, found an object with keys ["content"])'] },
  { parser: 'goose/config', rel: '.config/goose/config.yaml', text: '- GOOSE_MODE\n- auto\n', want: ['parser: unreadable file (expected a YAML mapping of settings, found an array)'] },
  { parser: 'goose/permissions', rel: '.config/goose/permission.yaml', text: 'always allow everything\n', want: ['parser: unreadable file (expected a YAML mapping of settings, found a string)'] },
  { parser: 'aider/config', rel: '.aider.conf.yml', text: '- model: gpt-4o\n', want: ['parser: unreadable file (expected a YAML mapping of options, found an array)'] },
  { parser: 'continue/config', rel: '.continue/config.yaml', text: '42\n', want: ['parser: unreadable file (expected a mapping of settings, found a number)'] },
  { parser: 'continue/session', rel: '.continue/sessions/3f0c1a52-7d4e-4b8a-9c61-2e5f8a7b9d10.json', text: '[{"message": {"role": "user"}}]', want: ['parser: unreadable file (expected a session object {"history": [...]}, found no history array)'] },
  // An empty YAML config (or one of comments) sets nothing, and says nothing: it is not wrong.
  { parser: 'goose/config', rel: '.config/goose/config.yaml', text: '# nothing yet\n', want: [] },
  { parser: 'aider/config', rel: '.aider.conf.yml', text: '', want: [] },
];

const root = mkdtempSync(join(tmpdir(), 'aitrail-shape-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('a document of the wrong kind says so', () => {
  for (const [i, c] of CASES.entries()) {
    it(`${c.parser}: ${JSON.stringify(c.text)}`, async () => {
      const parser = parserByKey(c.parser);
      expect(parser, c.parser).toBeDefined();
      expect(parser!.wants(c.rel)).toBe(true);
      const { rows } = await parseFile(parser!, join(root, String(i)), c.rel, c.text);
      expect(rows.map((r) => r.text)).toEqual(c.want);
    });
  }
});
