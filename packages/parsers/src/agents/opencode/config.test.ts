import { describe, expect, it } from 'vitest';
import { checkCatalog } from './test-helpers/catalog-check.js';
import { openCodePlugin } from './index.js';
import { copyHome, run, tempHomes, writeFiles } from './test-helpers/harness.js';

const [, , config, modelState] = openCodePlugin.parsers;
const homes = tempHomes('opencode-config');

describe('opencode config parser', () => {
  it('gives the permission rules (global and per agent), models, share mode and providers; MCP servers to the inventory, their secrets never in a row', async () => {
    const home = copyHome('opencode-live', homes.make());
    const { rows, ctx } = await run(config, home, '.config/opencode/opencode.json');
    expect(rows.map((r) => [r.text, r.tag])).toEqual([
      ['permission setting: bash=allow', 'permission_setting'],
      ['permission setting: agent plan edit=deny', 'permission_setting'],
      ['permission setting: agent plan bash={"*":"ask","git status":"allow"}', 'permission_setting'],
      ['model setting: model=stub/stub-model', 'model_setting'],
      ['model setting: small_model=stub/stub-model', 'model_setting'],
      ['share setting: disabled', 'sync_setting'],
      ['provider configured: stub baseURL=http://127.0.0.1:8765/v1', 'provider_setting'],
      ['mcp server configured: github', 'mcp_setting'],
      ['mcp server configured: docs', 'mcp_setting'],
    ]);
    expect(ctx.mcpServers.map((s) => [s.name, s.scope, s.transport, s.command, s.args, s.url, s.env_keys, s.header_keys, s.disabled])).toEqual([
      ['github', 'user', 'stdio', 'npx', ['-y', '@modelcontextprotocol/server-github'], undefined, ['GITHUB_PERSONAL_ACCESS_TOKEN'], undefined, undefined],
      ['docs', 'user', 'http', undefined, undefined, 'https://mcp.example.com/mcp', undefined, ['Authorization'], true],
    ]);
    expect(JSON.stringify(rows)).not.toMatch(/FAKE|dummy/);
  });

  it('a project opencode.json names its project; JSONC comments are read; a broken file is one row that never quotes it', async () => {
    const home = homes.make();
    writeFiles(home, { 'opencode.jsonc': '// project\n{"permission": "ask", /* all */ "mcp": {"db": {"type": "local", "command": ["pg-mcp"], "environment": {"PGPASSWORD": "FAKEpw"}}}}', '.opencode/opencode.json': '{"provider": {"x": {"options": {"apiKey": "FAKEkey-' });
    const p = await run(config, home, 'opencode.jsonc', { fields: { scope: 'project', projectRoot: '/srv/app' } });
    expect(p.rows.map((r) => [r.text, r.project_path])).toEqual([
      ['permission setting: *=ask', '/srv/app'],
      ['mcp server configured: db', '/srv/app'],
    ]);
    expect(p.ctx.mcpServers[0]).toMatchObject({ name: 'db', scope: 'project', project_path: '/srv/app', env_keys: ['PGPASSWORD'] });
    const bad = await run(config, home, '.opencode/opencode.json');
    expect(bad.rows.map((r) => r.tag)).toEqual(['unreadable']);
    expect(bad.rows[0].text).not.toContain('FAKE');
  });

  it('model.json: each list of models at the file time; another shape is counted as unknown', async () => {
    const home = copyHome('opencode-live', homes.make());
    const { rows } = await run(modelState, home, '.local/state/opencode/model.json');
    expect(rows.map((r) => r.text)).toEqual(['recent models: stub/stub-model, anthropic/claude-sonnet-4-5', 'favorite models: openai/gpt-5']);
    writeFiles(home, { '.local/state/opencode/model.json': '{"variant": {"a": 1}}' });
    expect((await run(modelState, home, '.local/state/opencode/model.json')).ctx.unknowns).toEqual([{ kind: 'model.json key variant' }]);
  });
});

describe('opencode catalog', () => {
  it('collects the spec paths (one spelling on every OS: xdg-basedir), flags the mixed store and credential files, excludes snapshots and downloads', () => {
    checkCatalog(openCodePlugin, {
      collected: ['.local/share/opencode/opencode.db', '.local/share/opencode/opencode.db-wal', '.local/share/opencode/opencode-beta.db', '.local/share/opencode/storage/part/m/p.json', '.local/share/opencode/project/x/storage/session/info/s.json', '.local/share/opencode/log/opencode.log', '.config/opencode/opencode.jsonc', '.config/opencode/agent/review.md', '.local/state/opencode/model.json', '.opencode/opencode.json'],
      secrets: ['.local/share/opencode/auth.json', '.local/share/opencode/mcp-auth.json', '.local/share/opencode/opencode.db', '.local/share/opencode/opencode.db-wal', '.config/opencode/opencode.json', '.config/opencode/config.json', '.local/share/opencode/storage/session_share/s.json'],
      excluded: ['.local/share/opencode/snapshot/abc/def/HEAD', '.local/share/opencode/bin/rg', '.local/share/opencode/repos/x/a.ts', '.config/opencode/node_modules/a/index.js'],
      project: ['opencode.json', 'opencode.jsonc', '.opencode/command/ship.md', 'AGENTS.md'],
    });
  });
});
