import { describe, expect, it } from 'vitest';
import { checkCatalog } from '../opencode/test-helpers/catalog-check.js';
import { copyHome, run, tempHomes, writeFiles } from '../opencode/test-helpers/harness.js';
import { crushPlugin } from './index.js';

const [db, projects, config] = crushPlugin.parsers;
const homes = tempHomes('crush-config');

describe('crush config and projects', () => {
  it('the global crush.json: allowed and disabled tools, models, providers (never a key; a base URL without its credentials), MCP servers', async () => {
    const { rows, ctx } = await run(config, copyHome('crush-source', homes.make()), '.config/crush/crush.json');
    expect(rows.map((r) => [r.text, r.tag])).toEqual([
      ['permission setting: allowed_tools=view', 'permission_setting'],
      ['permission setting: allowed_tools=ls', 'permission_setting'],
      ['permission setting: allowed_tools=grep', 'permission_setting'],
      ['permission setting: disabled_tools=sourcegraph', 'permission_setting'],
      ['model setting: large=anthropic/claude-sonnet-4-5', 'model_setting'],
      ['model setting: small=openai/gpt-5-mini', 'model_setting'],
      ['provider configured: anthropic', 'provider_setting'],
      ['provider configured: local base_url=http://127.0.0.1:11434/v1', 'provider_setting'],
      ['mcp server configured: filesystem', 'mcp_setting'],
      ['mcp server configured: linear', 'mcp_setting'],
    ]);
    expect(ctx.mcpServers.map((s) => [s.name, s.scope, s.transport, s.header_keys])).toEqual([
      ['filesystem', 'user', 'stdio', undefined],
      ['linear', 'user', 'http', ['Authorization']],
    ]);
    expect(JSON.stringify(rows)).not.toMatch(/FAKE/);
  });

  it('a project crush.json names its project; the data-home crush.json gives the recent models', async () => {
    const home = copyHome('crush-source', homes.make());
    const p = await run(config, `${home}/app`, 'crush.json', { fields: { scope: 'project', projectRoot: '/home/dev/app' } });
    expect(p.rows.map((r) => [r.text, r.project_path])).toEqual([
      ['permission setting: allowed_tools=bash', '/home/dev/app'],
      ['mcp server configured: db', '/home/dev/app'],
    ]);
    expect(p.ctx.mcpServers[0]).toMatchObject({ name: 'db', scope: 'project', project_path: '/home/dev/app', env_keys: ['DATABASE_URL'] });
    expect((await run(config, home, '.local/share/crush/crush.json')).rows.map((r) => r.text)).toEqual(['recent models: large=openai/gpt-5-mini, anthropic/claude-sonnet-4-5']);
  });

  it('projects.json: every project Crush ran in, at its last access, deleted ones included; another shape is one row', async () => {
    const home = copyHome('crush-source', homes.make());
    const { rows } = await run(projects, home, '.local/share/crush/projects.json');
    expect(rows.map((r) => [r.timestamp_utc, r.project_path, r.text])).toEqual([
      ['2026-09-16T09:06:40.000Z', '/home/dev/app', 'project seen: /home/dev/app data_dir=/home/dev/app/.crush'],
      ['2026-02-01T11:00:00.000Z', '/home/dev/old-prototype', 'project seen: /home/dev/old-prototype data_dir=/home/dev/old-prototype/.crush'],
    ]);
    writeFiles(home, { '.local/share/crush/projects.json': '{"projects": {"a": 1}}' });
    expect((await run(projects, home, '.local/share/crush/projects.json')).rows.map((r) => r.tag)).toEqual(['unreadable']);
  });
});

describe('crush catalog', () => {
  it('collects the spec paths on Linux/macOS and Windows, the project store, flags the configs; the parsers want each spelling', () => {
    for (const rel of ['.crush/crush.db', 'src/app/.crush/crush.db']) expect(db.wants(rel), rel).toBe(true);
    expect(projects.wants('AppData/Local/crush/projects.json')).toBe(true);
    checkCatalog(crushPlugin, {
      collected: ['.local/share/crush/projects.json', '.local/share/crush/crush.json', '.config/crush/crush.json', '.config/crush/commands/review.md', 'AppData/Local/crush/projects.json', 'AppData/Local/crush/crush.json'],
      secrets: ['.config/crush/crush.json', '.local/share/crush/crush.json', 'AppData/Local/crush/crush.json'],
      excluded: ['AppData/Local/crush/cache/providers.json', '.cache/crush/providers.json'],
      project: ['.crush/crush.db', '.crush/crush.db-wal', '.crush/logs/crush.log', 'CRUSH.md', 'AGENTS.md', 'crush.json', '.crush.json', '.crushignore'],
    });
  });
});
