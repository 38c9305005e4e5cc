import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { artifactFromFile } from '../../sdk/fs-artifact.js';
import { copilotMcpConfigParser } from './mcp-config-parser.js';
import { CORPUS_ROOT, makeHome, parseText, removeHome, runParser } from './test-helpers/harness.js';

// FAKE credential-shaped values, built so no token literal sits in the source.
const PAT = `ghp_${'T0k3n'.repeat(7)}x`;
const BEARER = `Bearer ${'h3ad3r'.repeat(5)}`;
// A VS Code-style reference to a variable: names where the value comes from, is not one.
const ENV_REF = ['$', '{env:TEAM}'].join('');

// The shape observed on Windows through Copilot Desktop (seed: Transcript stores, Credentials):
// mcpServers{<name>{type local, command, args, tools, env}}, a PAT in env.
const USER = JSON.stringify(
  {
    mcpServers: {
      github: { type: 'local', command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], tools: ['*'], env: { GITHUB_PERSONAL_ACCESS_TOKEN: PAT } },
      playwright: { type: 'local', command: 'npx', args: ['@playwright/mcp@latest'], tools: ['*'] },
      remote: { type: 'http', url: 'https://mcp.example.com/mcp', headers: { Authorization: BEARER, 'X-Env': ENV_REF } },
    },
  },
  null,
  2,
);

describe('mcp-config parser', () => {
  it('JSON nested a million deep: one unreadable row, no throw (the tree reader recursed past the stack)', async () => {
    for (const text of ['['.repeat(1_000_000), '{"a":'.repeat(200_000)]) {
      const { rows, mcpServers } = await parseText(copilotMcpConfigParser, '.copilot/mcp-config.json', text);
      expect(mcpServers).toEqual([]);
      expect(rows.map((r) => [r.tag, r.text])).toEqual([['unreadable', expect.stringMatching(/^parser: unreadable file \(expected JSON \{"mcpServers": \{\.\.\.\}\}, found /)]]);
    }
  });

  it('a config of 20,000 servers names the line of each, in one pass (each lookup once walked the keys and counted the lines before it)', async () => {
    const servers = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`s${i}`, { command: 'node', args: [`${i}.js`] }]));
    const text = JSON.stringify({ mcpServers: servers }, null, 2);
    const { mcpServers } = await parseText(copilotMcpConfigParser, '.copilot/mcp-config.json', text);
    expect(mcpServers).toHaveLength(20_000);
    const lines = text.split('\n');
    const keyLine = (name: string) => lines.findIndex((l) => l.startsWith(`    "${name}": {`)) + 1;
    for (const name of ['s0', 's1', 's9999', 's19999']) expect(mcpServers.find((m) => m.name === name)?.line).toBe(keyLine(name));
    // A list of servers: each named `#n` by position, its line that of its `{`, the line above its
    // command (whose 0-based index is that 1-based line).
    const listText = JSON.stringify({ servers: [{ command: 'first' }, { command: 'second' }] }, null, 2);
    const listed = (await parseText(copilotMcpConfigParser, '.copilot/mcp-config.json', listText)).mcpServers;
    const elementLine = (command: string) => listText.split('\n').findIndex((l) => l.includes(`"command": "${command}"`));
    expect(listed.map((m) => [m.name, m.line])).toEqual([
      ['#1', elementLine('first')],
      ['#2', elementLine('second')],
    ]);
  });

  it("reports the user's servers with their transport, command, key names and line, values only as secrets, and gives no row", async () => {
    const { rows, mcpServers, warnings } = await parseText(copilotMcpConfigParser, '.copilot/mcp-config.json', USER);
    expect(rows).toEqual([]);
    expect(warnings).toEqual([]);
    expect(mcpServers).toEqual([
      { name: 'github', scope: 'user', transport: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env_keys: ['GITHUB_PERSONAL_ACCESS_TOKEN'], secrets: [{ where: 'env:GITHUB_PERSONAL_ACCESS_TOKEN', value: PAT }], line: 3 },
      { name: 'playwright', scope: 'user', transport: 'stdio', command: 'npx', args: ['@playwright/mcp@latest'], line: 17 },
      // A `${env:X}` reference is not a secret; the Authorization value is.
      { name: 'remote', scope: 'user', transport: 'http', url: 'https://mcp.example.com/mcp', header_keys: ['Authorization', 'X-Env'], secrets: [{ where: 'header:Authorization', value: BEARER }], line: 27 },
    ]);
  });

  it('reads a project file as project scope with its root, and a settings file only by its mcpServers', async () => {
    const home = makeHome({
      '.github/mcp.json': JSON.stringify({ servers: { jira: { command: 'jira-mcp', env: { JIRA_TOKEN: 'abc' } } } }),
      '.github/copilot/settings.json': '// repo settings\n{"model": "x", "servers": {"not": {"command": "no"}}, "mcpServers": {"db": {"command": "db-mcp"}}}',
    });
    try {
      const read = (rel: string) => runParser(copilotMcpConfigParser, { ...artifactFromFile(home, rel, { scope: 'project' }), projectRoot: '/work/proj' });
      expect((await read('.github/mcp.json')).mcpServers).toEqual([
        { name: 'jira', scope: 'project', project_path: '/work/proj', transport: 'stdio', command: 'jira-mcp', env_keys: ['JIRA_TOKEN'], secrets: [{ where: 'env:JIRA_TOKEN', value: 'abc' }], line: 1 },
      ]);
      expect((await read('.github/copilot/settings.json')).mcpServers).toEqual([{ name: 'db', scope: 'project', project_path: '/work/proj', transport: 'stdio', command: 'db-mcp', line: 2 }]);
    } finally {
      removeHome(home);
    }
  });

  it('an empty server list reports nothing (the Kaijon corpus file)', async () => {
    const { rows, mcpServers } = await parseText(copilotMcpConfigParser, '.copilot/mcp-config.json', '{\n  "mcpServers": {\n  }\n}\n');
    expect([rows, mcpServers]).toEqual([[], []]);
  });

  it('a file cut mid-write gives the servers complete before the cut, and warns without quoting the file', async () => {
    const cut = USER.slice(0, USER.indexOf('"remote"') + 40);
    const { rows, mcpServers, warnings } = await parseText(copilotMcpConfigParser, '.copilot/mcp-config.json', cut);
    expect(rows).toEqual([]);
    expect(mcpServers.map((s) => s.name)).toEqual(['github', 'playwright', 'remote']);
    expect(warnings).toHaveLength(1);
    expect(warnings[0].message).toMatch(/^MCP config is invalid JSON \(\w+\) at line \d+: the servers complete before it were read$/);
  });

  it('garbage, an empty file and a JSON array are one unreadable row each, naming no content', async () => {
    for (const [body, why] of [
      [`{"mcpServers": ${PAT}`, /found invalid JSON \(\w+\) at line 1\)$/],
      ['', /found an empty file\)$/],
      [`["${PAT}"]`, /found an array\)$/],
    ] as const) {
      const { rows } = await parseText(copilotMcpConfigParser, '.copilot/mcp-config.json', body);
      expect(rows.map((r) => r.tag)).toEqual(['unreadable']);
      expect(rows[0].text).toMatch(why);
      expect(rows[0].text).not.toContain(PAT.slice(4, 12));
    }
  });
});

describe('mcp-config parser on the real corpus', () => {
  it('reads every corpus mcp-config.json: one server per mcpServers key, nothing unreadable', async () => {
    // The two copilot homes of shared/corpus/real that hold one (PROVENANCE.md).
    for (const home of ['XEFF09__dotfiles', 'Kaijon__little-hou-claw'].map((d) => join(CORPUS_ROOT, d))) {
      const keys = Object.keys(JSON.parse(readFileSync(join(home, '.copilot/mcp-config.json'), 'utf8')).mcpServers);
      const { rows, mcpServers, warnings } = await runParser(copilotMcpConfigParser, artifactFromFile(home, '.copilot/mcp-config.json'));
      expect([rows, warnings]).toEqual([[], []]);
      expect(mcpServers.map((s) => [s.name, s.scope])).toEqual(keys.map((k) => [k, 'user']));
    }
  });
});
