import { utimesSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Row } from '../../sdk/types.js';
import { catalogOf, checkCatalog, matches } from '../opencode/test-helpers/catalog-check.js';
import { copyHome, run, tempHomes, writeFiles } from '../opencode/test-helpers/harness.js';
import { zedPlugin } from './index.js';

// Zed's settings.json (user and project), read from fixtures/homes/zed-spec: the rows written from
// zed-industries/zed crates/settings_content/src/{agent,project,language_model}.rs and
// docs/src/ai/tool-permissions.md, then damaged files.

const settings = zedPlugin.parsers.find((p) => p.name === 'settings')!;
const homes = tempHomes('zed-settings');
const MTIME = new Date('2026-09-30T12:00:00Z');
const T = MTIME.toISOString();
const at = (home: string, rel: string) => {
  utimesSync(join(home, rel), MTIME, MTIME);
  return rel;
};
const line = (r: Row) => [r.timestamp_utc, r.turn_type, r.text, r.tag ?? '', r.project_path];
// Every credential value the fixture's settings files hold.
const SECRETS = ['ghp_FAKEzedSpecFixture000000000000000000', 'lin_api_FAKEzedFixtureKey0000', 'Bearer FAKEzedSentryToken000000', 'FAKEzedSentryToken000000', 'FAKEzedProxyPassword00', 'FAKEzedProjPw'];

describe('zed settings.json', () => {
  it('the user file (JSON with comments, trailing commas): models, grants, tool permissions, profiles, endpoints without credentials, then each context server', async () => {
    const home = copyHome('zed-spec', homes.make());
    const { rows, ctx } = await run(settings, home, at(home, '.config/zed/settings.json'));
    expect(rows.map(line)).toEqual(
      [
        ['model setting: default_model=anthropic/claude-sonnet-4-5', 'model_setting'],
        ['model setting: thread_summary_model=ollama/qwen2.5-coder:7b', 'model_setting'],
        ['permission setting: always_allow_tool_actions=true', 'permission_setting'],
        ['permission setting: tool_permissions.default=confirm', 'permission_setting'],
        ['permission setting: tool_permissions.terminal.default=confirm', 'permission_setting'],
        ['permission setting: tool_permissions.terminal.always_allow=^cargo\\s+(build|test|check)', 'permission_setting'],
        ['permission setting: tool_permissions.terminal.always_deny=rm\\s+-rf\\s+(/|~)', 'permission_setting'],
        ['permission setting: tool_permissions.mcp:github:create_issue.default=allow', 'permission_setting'],
        ['profile setting: default_profile=write', 'setting'],
        ['profile setting: profiles.reviewer name=Reviewer tools=read_file,grep off=terminal', 'setting'],
        ['permission setting: agent_servers.claude.default_mode=bypassPermissions', 'permission_setting'],
        ['provider setting: language_models.ollama.api_url=http://localhost:11434/', 'provider_setting'],
        ['provider setting: language_models.openai.api_url=https://llm-proxy.example.com/v1', 'provider_setting'],
        ['mcp server configured: github', 'mcp_setting'],
        ['mcp server configured: linear', 'mcp_setting'],
        ['mcp server configured: sentry', 'mcp_setting'],
        ['mcp server configured: puppeteer (disabled)', 'mcp_setting'],
        ['mcp server configured: postgres-context-server', 'mcp_setting'],
      ].map(([text, tag]) => [T, 'system', text, tag, '']),
    );
    expect(ctx.mcpServers.map((s) => ({ ...s, secrets: s.secrets?.map((x) => x.where) }))).toEqual([
      { name: 'github', scope: 'user', transport: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env_keys: ['GITHUB_PERSONAL_ACCESS_TOKEN'], secrets: ['env:GITHUB_PERSONAL_ACCESS_TOKEN'] },
      { name: 'linear', scope: 'user', transport: 'stdio', command: 'npx', args: ['-y', 'linear-mcp'], env_keys: ['LINEAR_API_KEY'], secrets: ['env:LINEAR_API_KEY'] },
      { name: 'sentry', scope: 'user', transport: 'http', url: 'https://mcp.sentry.dev/mcp', header_keys: ['Authorization'], secrets: ['header:Authorization'] },
      { name: 'puppeteer', scope: 'user', transport: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-puppeteer'], disabled: true, secrets: undefined },
      // An extension's server: the extension starts it, so the settings name no command or URL.
      { name: 'postgres-context-server', scope: 'user', transport: '', secrets: undefined },
    ]);
    // The values go to the report's secrets (the analyzer redacts them), never to a row.
    expect(ctx.mcpServers[0].secrets?.[0].value).toBe(SECRETS[0]);
    const text = JSON.stringify(rows);
    for (const s of SECRETS) expect(text, s).not.toContain(s);
    expect(text).not.toMatch(/FAKE|ghp_|lin_api|Bearer/);
    expect(ctx.unknowns).toEqual([]);
  });

  it('a project .zed/settings.json: its servers in project scope, named by the project root', async () => {
    const home = copyHome('zed-spec', homes.make());
    const root = join(home, 'src/zed-app');
    const { rows, ctx } = await run(settings, root, at(root, '.zed/settings.json'), { fields: { scope: 'project', projectRoot: '/home/dev/src/zed-app' } });
    expect(rows.map(line)).toEqual([[T, 'system', 'mcp server configured: db', 'mcp_setting', '/home/dev/src/zed-app']]);
    expect(ctx.mcpServers).toEqual([
      expect.objectContaining({ name: 'db', scope: 'project', project_path: '/home/dev/src/zed-app', transport: 'stdio', command: 'pg-mcp', args: ['--read-only'], env_keys: ['PGPASSWORD'], secrets: [{ where: 'env:PGPASSWORD', value: 'FAKEzedProjPw' }] }),
    ]);
    expect(JSON.stringify(rows)).not.toContain('FAKE');
  });

  it('the Windows file; an older build\'s "assistant" block; an openai_compatible provider and a Bedrock endpoint', async () => {
    const home = copyHome('zed-spec', homes.make());
    expect((await run(settings, home, 'AppData/Roaming/Zed/settings.json')).rows.map((r) => [r.text, r.tag])).toEqual([['permission setting: always_allow_tool_actions=true', 'permission_setting']]);
    writeFiles(home, {
      '.var/app/dev.zed.Zed/config/zed/settings.json': JSON.stringify({
        assistant: { version: '2', default_model: { provider: 'zed.dev', model: 'claude-3-5-sonnet-latest' }, always_allow_tool_actions: false },
        agent_servers: { gemini: { env: { GEMINI_API_KEY: 'FAKEgeminiKey00000000' } } },
        language_models: { bedrock: { endpoint_url: 'https://bedrock.example.com', region: 'us-east-1' }, openai_compatible: { together: { api_url: 'https://api.together.xyz/v1?key=FAKEquery0000' } }, lmstudio: { api_key: 'FAKElmstudio00000000' } },
      }),
    });
    const { rows } = await run(settings, home, '.var/app/dev.zed.Zed/config/zed/settings.json');
    expect(rows.map((r) => r.text)).toEqual([
      'model setting: default_model=zed.dev/claude-3-5-sonnet-latest',
      'provider setting: language_models.bedrock.endpoint_url=https://bedrock.example.com/',
      'provider setting: language_models.openai_compatible.together.api_url=https://api.together.xyz/v1',
    ]);
    expect(JSON.stringify(rows)).not.toContain('FAKE');
  });

  it('wants the user file at each OS place and .zed/settings.json at a project root, by path only', () => {
    for (const rel of ['.config/zed/settings.json', '.var/app/dev.zed.Zed/config/zed/settings.json', 'AppData/Roaming/Zed/settings.json', '.zed/settings.json']) {
      expect(settings.wants(rel), rel).toBe(true);
      expect(settings.readsSecretFile?.(rel), rel).toBe(true);
    }
    for (const rel of ['.config/zed/keymap.json', '.config/zed/tasks.json', '.zed/tasks.json', 'src/zed-app/.zed/settings.json', '.local/share/zed/settings.json', 'AppData/Local/Zed/settings.json', '.config/zed/settings.json.bak', '.config/Code/User/settings.json']) {
      expect(settings.wants(rel), rel).toBe(false);
    }
  });

  it('the catalog collects and flags every settings file the parser wants, the project one too; the parser declares it reads them', () => {
    const user = ['.config/zed/settings.json', '.var/app/dev.zed.Zed/config/zed/settings.json', 'AppData/Roaming/Zed/settings.json'];
    checkCatalog(zedPlugin, { collected: user, secrets: user, excluded: [], project: ['.zed/settings.json'] });
    const project = catalogOf('zed').project as Record<string, string[]>;
    expect(matches(project.secrets, '.zed/settings.json')).toBe(true);
    expect(settings.readsSecretFile?.('.zed/settings.json')).toBe(true);
  });

  it('damage: invalid JSON, a JSON array, an empty file are one unreadable row that quotes nothing; context_servers not an object is one row; an entry not an object is counted', async () => {
    const home = homes.make();
    const bad = '{"context_servers": {"x": {"env": {"TOKEN": "FAKEcut00000000"';
    writeFiles(home, {
      'a/.config/zed/settings.json': bad,
      'b/.config/zed/settings.json': '["FAKEarray0000000"]',
      'c/.config/zed/settings.json': '',
      'd/.config/zed/settings.json': '{"agent": {"always_allow_tool_actions": true}, "context_servers": ["FAKElist00000000"]}',
      'e/.config/zed/settings.json': '{"context_servers": {"pasted": "FAKEpasted0000000", "ok": {"command": "uvx", "args": ["mcp-server-time"]}, "agent": 7}}',
    });
    const one = async (d: string) => run(settings, join(home, d), '.config/zed/settings.json');
    const a = await one('a');
    expect(a.rows.map((r) => [r.text, r.tag])).toEqual([[expect.stringMatching(/^parser: unreadable file \(expected JSON, found invalid JSON: \w+ at offset \d+\)$/), 'unreadable']]);
    expect((await one('b')).rows.map((r) => [r.text, r.tag])).toEqual([['parser: unreadable file (expected a JSON object of Zed settings, found an array)', 'unreadable']]);
    expect((await one('c')).rows.map((r) => r.tag)).toEqual(['unreadable']);
    const d = await one('d');
    expect(d.rows.map((r) => [r.text, r.tag])).toEqual([
      ['permission setting: always_allow_tool_actions=true', 'permission_setting'],
      ['parser: unreadable context_servers (expected an object of servers by name, found an array)', 'bad_line'],
    ]);
    expect(d.ctx.mcpServers).toEqual([]);
    const e = await one('e');
    expect(e.rows.map((r) => r.text)).toEqual(['mcp server configured: ok']);
    expect(e.ctx.mcpServers.map((s) => [s.name, s.transport, s.command])).toEqual([['ok', 'stdio', 'uvx']]);
    expect(e.ctx.unknowns.map((u) => u.kind)).toEqual(['context server entry that is not an object (pasted: a string)', 'context server entry that is not an object (agent: a number)']);
    const all = JSON.stringify([a, await one('b'), d, e].flatMap((x) => [x.rows, x.ctx.unknowns, x.ctx.warnings]));
    expect(all).not.toContain('FAKE');
  });

  it('settings of unexpected shapes give no row and never throw: only scalars are printed; the first builds\' per-tool default_mode', async () => {
    const home = homes.make();
    writeFiles(home, {
      '.config/zed/settings.json': JSON.stringify({
        agent: { default_model: { provider: { token: 'FAKEobj0000000000' }, model: ['FAKEarr000000000'] }, always_allow_tool_actions: 'true', tool_permissions: { default: { x: 'FAKEdef000000000' }, tools: { terminal: { always_allow: [{ pattern: { p: 'FAKEpat00000000' } }, 'git status', 5, null], default: null }, edit_file: { default_mode: 'allow' } } }, profiles: ['x'] },
        agent_servers: 'FAKEservers00000',
        language_models: { ollama: 'http://x', openai: { api_url: { u: 'FAKEurl000000000' } } },
      }),
    });
    const { rows } = await run(settings, home, '.config/zed/settings.json');
    expect(rows.map((r) => r.text)).toEqual(['permission setting: tool_permissions.terminal.always_allow=git status', 'permission setting: tool_permissions.terminal.always_allow=5', 'permission setting: tool_permissions.edit_file.default=allow']);
    expect(JSON.stringify(rows)).not.toContain('FAKE');
  });
});
