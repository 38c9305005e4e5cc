import { statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyHome, run, tempHomes, writeFiles } from '../opencode/test-helpers/harness.js';
import { windsurfPlugin } from './index.js';

// fixtures/homes/windsurf-spec: Cascade's encrypted stores (random bytes standing in for
// ciphertext) give one inventory row each, never their bytes; the plan, rules and workflow in the
// clear give their text. shared/agents/windsurf.md, Parser plan.

const [stores, plans, rules, mcp] = windsurfPlugin.parsers;
const homes = tempHomes('windsurf');
const W = '.codeium/windsurf';
const C1 = 'a1b2c3d4-0000-4000-8000-000000000001';
const MTIME = new Date('2026-10-02T09:30:00Z');
const T = MTIME.toISOString();

function home(): string {
  const h = copyHome('windsurf-spec', homes.make());
  for (const rel of [`${W}/cascade/${C1}.pb`, `${W}/implicit/${C1}.pb`, `${W}/memories/5e5e5e5e-0000-4000-8000-000000000001.pb`, `${W}/brain/${C1}/plan.md`, `${W}/memories/global_rules.md`, `${W}/global_workflows/release.md`, `${W}/mcp_config.json`]) utimesSync(join(h, rel), MTIME, MTIME);
  return h;
}

describe('windsurf (the fixture home)', () => {
  it('an encrypted store: one row with its name, size and time, in its conversation when it is one', async () => {
    const h = home();
    // Never read: a stream that throws proves the row comes from the path, size and time alone.
    const unread = { fields: { stream: () => { throw new Error('an encrypted store was read'); } } };
    const rows = [...(await run(stores, h, `${W}/cascade/${C1}.pb`, unread)).rows, ...(await run(stores, h, `${W}/implicit/${C1}.pb`)).rows, ...(await run(stores, h, `${W}/memories/5e5e5e5e-0000-4000-8000-000000000001.pb`)).rows];
    expect(rows.map((r) => [r.session_id, r.timestamp_utc, r.turn_type, r.text.replace(/\d+ bytes/, 'N bytes'), r.tag])).toEqual([
      [C1, T, 'system', `cascade conversation ${C1}: encrypted, N bytes (its content cannot be read)`, 'time_file'],
      ['', T, 'system', `windsurf implicit ${C1}: encrypted, N bytes (its content cannot be read)`, 'time_file'],
      ['', T, 'system', 'windsurf memories 5e5e5e5e-0000-4000-8000-000000000001: encrypted, N bytes (its content cannot be read)', 'time_file'],
    ]);
    // The size is the file's as collected, never a byte of it.
    expect(rows[0].text).toContain(`encrypted, ${statSync(join(h, `${W}/cascade/${C1}.pb`)).size} bytes`);
  });

  it('the plan in its conversation; the global rules and a workflow as rules rows', async () => {
    const h = home();
    expect((await run(plans, h, `${W}/brain/${C1}/plan.md`)).rows.map((r) => [r.session_id, r.turn_type, r.text, r.timestamp_utc])).toEqual([[C1, 'assistant', 'plan:\n# Plan\n\n1. Reproduce the flaky test\n2. Fix the temp folder race\n', T]]);
    const r1 = (await run(rules, h, `${W}/memories/global_rules.md`)).rows;
    const r2 = (await run(rules, h, `${W}/global_workflows/release.md`)).rows;
    expect([...r1, ...r2].map((r) => [r.turn_type, r.text.split('\n')[0], r.tag])).toEqual([
      ['system', 'global rules (global_rules.md):', 'rules'],
      ['system', 'workflow (release.md):', 'rules'],
    ]);
    expect(r1[0].text).toContain('Always run the tests before committing.');
  });

  it('wants its stores, plans and rules in both homes, nothing else', () => {
    for (const rel of [`${W}/cascade/x.pb`, '.codeium/windsurf-next/chat_state/y.pb', `${W}/brain/x/plan.md`, `${W}/memories/global_rules.md`, `${W}/global_workflows/a.md`]) expect(stores.wants(rel) || plans.wants(rel) || rules.wants(rel), rel).toBe(true);
    for (const rel of [`${W}/user_settings.pb`, `${W}/database/idx/embeddings.bin`, `${W}/brain/x/notes.md`]) expect(stores.wants(rel) || plans.wants(rel) || rules.wants(rel), rel).toBe(false);
  });
});

// mcp_config.json (shared/agents/windsurf.md, Parser plan: "mcp servers: <names> (values not
// printed)"): one row per server, as every other agent's MCP config gives, names only; the
// servers to the inventory with their env and header values as secrets.
describe('windsurf mcp_config.json', () => {
  const TOKEN = 'ghp_FAKEwindsurfFixtureToken000000000000';
  const BEARER = 'Bearer FAKE-windsurf-bearer-0000';

  it('one mcp_setting row per server at the file\'s mtime, the disabled one and disabled tools marked', async () => {
    const { rows, ctx } = await run(mcp, home(), `${W}/mcp_config.json`);
    expect(rows.map((r) => [r.turn_type, r.text, r.timestamp_utc, r.tag])).toEqual([
      ['system', 'mcp server configured: github (disabled tools: push_files, fork_repository)', T, 'mcp_setting'],
      ['system', 'mcp server configured: docs', T, 'mcp_setting'],
      ['system', 'mcp server configured: postgres (disabled)', T, 'mcp_setting'],
    ]);
    expect(ctx.unknowns).toEqual([]);
    expect(ctx.warnings).toEqual([]);
  });

  it('every server to the inventory, user scope: command or serverUrl, key names, values only as secrets', async () => {
    const { rows, ctx } = await run(mcp, home(), `${W}/mcp_config.json`);
    expect(ctx.mcpServers.map((s) => [s.name, s.scope, s.transport, s.command ?? s.url, s.env_keys, s.header_keys, s.disabled, s.secrets?.map((x) => x.where)])).toEqual([
      ['github', 'user', 'stdio', 'npx', ['GITHUB_PERSONAL_ACCESS_TOKEN'], undefined, undefined, ['env:GITHUB_PERSONAL_ACCESS_TOKEN']],
      ['docs', 'user', 'http', 'https://mcp.example.invalid/mcp', undefined, ['Authorization'], undefined, ['header:Authorization']],
      // `${env:DATABASE_URL}` names where the value comes from: not a secret.
      ['postgres', 'user', 'stdio', 'npx', ['DATABASE_URL'], undefined, true, undefined],
    ]);
    expect(ctx.mcpServers[0].args).toEqual(['-y', '@modelcontextprotocol/server-github']);
    expect(ctx.mcpServers.flatMap((s) => s.secrets ?? []).map((x) => x.value)).toEqual([TOKEN, BEARER]);
    const text = JSON.stringify(rows);
    for (const v of [TOKEN, 'FAKE-windsurf-bearer', 'ghp_', 'Bearer', 'mcp.example.invalid', 'DATABASE_URL']) expect(text, v).not.toContain(v);
  });

  it('Windsurf Next\'s config too; wants the config by its path only', async () => {
    const h = homes.make();
    writeFiles(h, { '.codeium/windsurf-next/mcp_config.json': '{"mcpServers": {"n": {"serverUrl": "https://x.invalid/sse"}}}' });
    const { rows, ctx } = await run(mcp, h, '.codeium/windsurf-next/mcp_config.json');
    expect(rows.map((r) => r.text)).toEqual(['mcp server configured: n']);
    expect(ctx.mcpServers).toEqual([{ name: 'n', scope: 'user', transport: 'sse', url: 'https://x.invalid/sse' }]);
    for (const rel of [`${W}/mcp_config.json`, '.codeium/windsurf-next/mcp_config.json']) expect(mcp.wants(rel), rel).toBe(true);
    for (const rel of ['.codeium/windsurf-nightly/mcp_config.json', `${W}/mcp_config.json.bak`, `${W}/x/mcp_config.json`, '.codeium/mcp_config.json', 'src/.windsurf/mcp_config.json', `home/${W}/mcp_config.json`]) expect(mcp.wants(rel), rel).toBe(false);
    expect(mcp.readsSecretFile?.(`${W}/mcp_config.json`)).toBe(true);
    for (const p of [stores, plans, rules]) expect(p.wants(`${W}/mcp_config.json`)).toBe(false);
  });

  it('damage: one unreadable row that never quotes the file, or nothing; never a throw', async () => {
    const h = homes.make();
    const cases: [string, string, string[]][] = [
      ['{"mcpServers": {"x": {"env": {"K": "FAKEsecretValue0000"', 'broken', ['parser: unreadable file (expected JSON, found invalid JSON: ']],
      ['[{"name": "x", "env": {"K": "FAKEsecretValue0000"}}]', 'array', ['parser: unreadable file (expected a JSON object with mcpServers, found an array)']],
      ['{"mcpServers": [{"name": "x", "env": {"K": "FAKEsecretValue0000"}}]}', 'list', ['parser: unreadable file (expected mcpServers to be an object of servers by name, found an array)']],
      ['{"mcpServers": "FAKEsecretValue0000"}', 'string', ['parser: unreadable file (expected mcpServers to be an object of servers by name, found a string)']],
      ['', 'empty', ['parser: unreadable file (expected JSON, found an empty file)']],
      // Nested past the JSONC reader's stack: the row says so without the reader's own message.
      [`{"mcpServers": ${'['.repeat(200_000)}"FAKEsecretValue0000",`, 'deep', ['parser: unreadable file (expected JSON, found text that cannot be parsed)']],
      ['{}', 'no servers', []],
      ['// comments and trailing commas, as the editor writes them\n{"mcpServers": {},}', 'jsonc', []],
    ];
    for (const [body, label, want] of cases) {
      writeFiles(h, { [`${W}/mcp_config.json`]: body });
      const { rows, ctx } = await run(mcp, h, `${W}/mcp_config.json`);
      expect(rows.map((r) => r.text.slice(0, want[0]?.length ?? 0)), label).toEqual(want);
      expect(rows.every((r) => r.tag === 'unreadable'), label).toBe(true);
      expect(JSON.stringify(rows), label).not.toContain('FAKEsecret');
      expect(ctx.mcpServers, label).toEqual([]);
    }
  });

  it('an entry that is not an object is left out, named by its kind, its value never read out', async () => {
    const h = homes.make();
    writeFiles(h, { [`${W}/mcp_config.json`]: '{"mcpServers": {"pasted": "FAKEsecretValue0000", "empty": null, "ok": {"command": "uvx", "args": ["mcp-server-time"]}}}' });
    const { rows, ctx } = await run(mcp, h, `${W}/mcp_config.json`);
    expect(rows.map((r) => r.text)).toEqual(['mcp server configured: ok']);
    expect(ctx.mcpServers.map((s) => s.name)).toEqual(['ok']);
    expect(ctx.unknowns).toEqual([{ kind: 'mcp server entry that is not an object (pasted: a string)' }, { kind: 'mcp server entry that is not an object (empty: null)' }]);
    expect(JSON.stringify([rows, ctx.unknowns, ctx.warnings])).not.toContain('FAKEsecret');
  });
});
