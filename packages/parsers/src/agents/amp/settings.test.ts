import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Row } from '../../sdk/types.js';
import { copyHome, HOMES, run, tempHomes, writeFiles } from '../opencode/test-helpers/harness.js';
import { ampPlugin } from './index.js';

// fixtures/homes/amp-spec's user and workspace settings, read against shared/agents/amp.md's
// plan ("permission setting: <compact JSON of amp.permissions / allowlist / dangerouslyAllowAll>")
// and the ampcode.com manual's keys; then a managed file, the credentials a rule may carry, damage.

const settings = ampPlugin.parsers.find((p) => p.name === 'settings')!;
const homes = tempHomes('amp-settings');
const MTIME = '2026-10-05T08:00:00.000Z';
const USER = '.config/amp/settings.json';
const line = (r: Row) => [r.timestamp_utc, r.turn_type, r.project_path, r.text, r.tag ?? ''];
const P = 'permission_setting';
const M = 'mcp_setting';

/** Every string value under an `env` or `headers` object of a settings file: what no row may print. */
function secretValues(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/"(?:env|headers)"\s*:\s*\{([^}]*)\}/g)) for (const v of m[1].matchAll(/:\s*"([^"]+)"/g)) out.push(v[1]);
  return out;
}

describe('amp settings (the fixture home)', () => {
  it('user settings: allow-all, each rule in compact JSON, a disabled tool, then each MCP server; secrets only in the reports', async () => {
    const home = copyHome('amp-spec', homes.make());
    const { rows, ctx } = await run(settings, home, USER, { fields: { mtime: MTIME } });
    expect(rows.map(line)).toEqual([
      [MTIME, 'system', '', 'permission setting: dangerouslyAllowAll=true', P],
      [MTIME, 'system', '', 'permission setting: permissions={"action":"allow","matches":{"cmd":"git *"},"tool":"Bash"}', P],
      [MTIME, 'system', '', 'permission setting: permissions={"action":"reject","matches":{"cmd":["*git push --force*","*rm -rf /*"]},"message":"Not in this repository.","tool":"Bash"}', P],
      [MTIME, 'system', '', 'permission setting: permissions={"action":"ask","context":"subagent","tool":"mcp__*"}', P],
      [MTIME, 'system', '', 'permission setting: tools.disable=read_web_page', P],
      [MTIME, 'system', '', 'mcp server configured: github', M],
      [MTIME, 'system', '', 'mcp server configured: sentry', M],
    ]);
    const text = readFileSync(join(HOMES, 'amp-spec', USER), 'utf8');
    const [token, bearer] = secretValues(text);
    expect(token).toMatch(/^ghp_FAKE[A-Za-z0-9]{32}$/);
    expect(ctx.mcpServers).toEqual([
      { name: 'github', scope: 'user', transport: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env_keys: ['GITHUB_PERSONAL_ACCESS_TOKEN'], secrets: [{ where: 'env:GITHUB_PERSONAL_ACCESS_TOKEN', value: token }] },
      { name: 'sentry', scope: 'user', transport: 'http', url: 'https://mcp.example.invalid/sentry', header_keys: ['Authorization'], secrets: [{ where: 'header:Authorization', value: bearer }] },
    ]);
    const printed = JSON.stringify([rows, ctx.warnings, ctx.unknowns]);
    for (const s of [token, bearer, bearer.replace(/^Bearer /, '')]) expect(printed.includes(s), s).toBe(false);
    expect([ctx.warnings, ctx.unknowns]).toEqual([[], []]);
  });

  it('workspace settings.jsonc (a comment, trailing commas): project rows and a project server', async () => {
    const root = join(copyHome('amp-spec', homes.make()), 'src/amp-app');
    const { rows, ctx } = await run(settings, root, '.amp/settings.jsonc', { fields: { mtime: MTIME, scope: 'project', projectRoot: '/home/dev/src/amp-app' } });
    expect(rows.map(line)).toEqual([
      [MTIME, 'system', '/home/dev/src/amp-app', 'permission setting: permissions={"action":"allow","context":"thread","matches":{"cmd":"npm test*"},"tool":"Bash"}', P],
      [MTIME, 'system', '/home/dev/src/amp-app', 'mcp server configured: pg', M],
    ]);
    expect(ctx.mcpServers).toEqual([{ name: 'pg', scope: 'project', project_path: '/home/dev/src/amp-app', transport: 'stdio', command: 'pg-mcp', args: ['--db', 'amp_app'], env_keys: ['PGPASSWORD'], secrets: [{ where: 'env:PGPASSWORD', value: 'FAKEampProjPw' }] }]);
    expect(JSON.stringify(rows).includes('FAKEampProjPw')).toBe(false);
  });
});

describe('amp settings: managed files, the other keys, credentials in rules', () => {
  it('a managed file: every row says managed, its servers are managed; false allow-all gives no row', async () => {
    const home = homes.make();
    const rel = 'etc/ampcode/managed-settings.json';
    const pw = 'FAKEcorpPw00001';
    const qs = 'FAKEcorpQs00001';
    writeFiles(home, {
      [rel]: JSON.stringify({
        'amp.dangerouslyAllowAll': false,
        'amp.permissions': [{ tool: 'Bash', matches: { cmd: 'curl *' }, action: 'reject' }],
        'amp.mcpPermissions': [{ matches: { url: '*' }, action: 'reject' }],
        'amp.commands.allowlist': ['npm test'],
        'amp.mcpServers': { corp: { url: `https://svc:${pw}@mcp.corp.invalid/mcp?token=${qs}`, disabled: true } },
      }),
    });
    const { rows, ctx } = await run(settings, home, rel, { fields: { mtime: MTIME, scope: 'system' } });
    expect(rows.map((r) => [r.text, r.tag])).toEqual([
      ['permission setting: managed.permissions={"action":"reject","matches":{"cmd":"curl *"},"tool":"Bash"}', P],
      ['permission setting: managed.mcpPermissions={"action":"reject","matches":{"url":"*"}}', P],
      ['permission setting: managed.commands.allowlist=npm test', P],
      ['mcp server configured: corp (managed) (disabled)', M],
    ]);
    expect(ctx.mcpServers.map((s) => [s.name, s.scope, s.transport, s.disabled, s.secrets?.map((x) => x.where)])).toEqual([['corp', 'managed', 'http', true, ['url:password', 'url:?token']]]);
    for (const s of [pw, qs]) expect(JSON.stringify([rows, ctx.warnings]).includes(s), s).toBe(false);
    writeFiles(home, { [rel]: '{"amp.dangerouslyAllowAll": true}' });
    expect((await run(settings, home, rel, { fields: { scope: 'system' } })).rows.map((r) => r.text)).toEqual(['permission setting: managed.dangerouslyAllowAll=true']);
  });

  it('a value under a secret-named key, URL user info, Bearer values and secret query values in a rule are never printed', async () => {
    const home = homes.make();
    const rule = { tool: 'Bash', action: 'allow', matches: { cmd: "curl -H 'Authorization: Bearer FAKEbearer000001' https://u:FAKEurlpw000001@api.invalid/x?api_key=FAKEqs000000001&v=2", token: 'FAKEtoken0000001' }, env: { K: 'FAKEenv00000001' } };
    writeFiles(home, { [USER]: JSON.stringify({ 'amp.permissions': [rule], 'amp.commands.allowlist': ['git push https://bot:FAKEallowpw0001@git.invalid/r'] }) });
    const { rows } = await run(settings, home, USER);
    expect(rows.map((r) => r.text)).toEqual([
      `permission setting: permissions={"action":"allow","env":"<redacted>","matches":{"cmd":"curl -H 'Authorization: Bearer <redacted>' https://<redacted>@api.invalid/x?api_key=<redacted>&v=2","token":"<redacted>"},"tool":"Bash"}`,
      'permission setting: commands.allowlist=git push https://<redacted>@git.invalid/r',
    ]);
    expect(JSON.stringify(rows)).not.toMatch(/FAKE/);
  });
});

describe('amp settings: which files, and damage', () => {
  it('wants the user, workspace and managed settings by path, and flags them as secret files it reads', () => {
    const yes = [USER, '.config/amp/settings.jsonc', '.amp/settings.json', '.amp/settings.jsonc', 'etc/ampcode/managed-settings.json', 'private/etc/ampcode/managed-settings.json', 'Library/Application Support/ampcode/managed-settings.json', 'C:/ProgramData/ampcode/managed-settings.json'];
    const no = ['.config/amp/AGENTS.md', '.config/amp/settings.json.bak', '.local/share/amp/secrets.json', '.local/share/amp/threads/T-1.json', 'src/app/.amp/settings.json', 'etc/ampcode/settings.json', 'etc/claude-code/managed-settings.json', '.config/Code/User/settings.json'];
    for (const rel of yes) expect([rel, settings.wants(rel), settings.readsSecretFile?.(rel)]).toEqual([rel, true, true]);
    for (const rel of no) expect([rel, settings.wants(rel), settings.readsSecretFile?.(rel)]).toEqual([rel, false, false]);
    expect(ampPlugin.parsers.find((p) => p.name === 'threads')!.wants(USER)).toBe(false);
  });

  it('invalid JSON or a document that is not an object: one unreadable row at the file time, never the text', async () => {
    const home = homes.make();
    const token = 'ghp_FAKEcutFileToken00000000000000000000';
    for (const [body, want] of [
      [`{"amp.mcpServers": {"gh": {"env": {"T": "${token}"`, /^parser: unreadable file \(expected JSON, found invalid JSON: \w+ at offset \d+\)$/],
      [`["${token}"]`, /^parser: unreadable file \(expected a JSON object of settings, found an array\)$/],
      [`"${token}"`, /^parser: unreadable file \(expected a JSON object of settings, found a string\)$/],
    ] as const) {
      writeFiles(home, { [USER]: body });
      const { rows, ctx } = await run(settings, home, USER, { fields: { mtime: MTIME } });
      expect(rows.map((r) => [r.timestamp_utc, r.tag, want.test(r.text)])).toEqual([[MTIME, 'unreadable', true]]);
      expect(JSON.stringify([rows, ctx.warnings]).includes(token)).toBe(false);
      expect(ctx.mcpServers).toEqual([]);
    }
  });

  it('a key of the wrong shape is warned by its kind, never its value; the rest of the file is still read', async () => {
    const home = homes.make();
    const key = 'sk-FAKEpastedKey000000001';
    writeFiles(home, {
      [USER]: JSON.stringify({
        'amp.dangerouslyAllowAll': 'yes',
        'amp.permissions': [{ tool: 'Read', action: 'allow' }, key, null],
        'amp.mcpPermissions': { tool: 'x' },
        'amp.tools.disable': ['Bash', 7],
        'amp.mcpServers': [{ command: 'x' }],
      }),
    });
    const { rows, ctx } = await run(settings, home, USER);
    expect(rows.map((r) => r.text)).toEqual(['permission setting: permissions={"action":"allow","tool":"Read"}', 'permission setting: tools.disable=Bash']);
    expect(ctx.mcpServers).toEqual([]);
    expect(ctx.warnings.map((w) => w.message)).toEqual([
      `${USER}: expected amp.dangerouslyAllowAll to be true or false, found a string`,
      `${USER}: expected amp.permissions entry 2 to be a rule object, found a string`,
      `${USER}: expected amp.permissions entry 3 to be a rule object, found null`,
      `${USER}: expected amp.mcpPermissions to be a list, found an object with keys ["tool"]`,
      `${USER}: expected amp.tools.disable entry 2 to be a name, found a number`,
      `${USER}: expected amp.mcpServers to be an object of servers by name, found an array`,
    ]);
    writeFiles(home, { [USER]: JSON.stringify({ 'amp.mcpServers': { pasted: key, ok: { command: 'ok-mcp' } } }) });
    const second = await run(settings, home, USER);
    expect(second.rows.map((r) => r.text)).toEqual(['mcp server configured: ok']);
    expect(second.ctx.mcpServers.map((s) => s.name)).toEqual(['ok']);
    expect(second.ctx.warnings.map((w) => w.message)).toEqual([`${USER}: expected amp.mcpServers entry "pasted" to be an object, found a string`]);
    expect(JSON.stringify([rows, ctx.warnings, second.rows, second.ctx.warnings]).includes(key)).toBe(false);
  });

  it('an empty settings object gives no row and no warning', async () => {
    const home = homes.make();
    writeFiles(home, { [USER]: '{}' });
    const { rows, ctx } = await run(settings, home, USER);
    expect([rows, ctx.warnings, ctx.mcpServers]).toEqual([[], [], []]);
  });
});
