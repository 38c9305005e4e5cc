import { describe, expect, it } from 'vitest';
import { checkCatalog } from '../opencode/test-helpers/catalog-check.js';
import { copyHome, run, tempHomes, writeFiles } from '../opencode/test-helpers/harness.js';
import { amazonQPlugin } from './index.js';

const [db, session, sidecar, history, mcp, agent, settings] = amazonQPlugin.parsers;
const homes = tempHomes('amazon-q-config');

describe('amazon-q prompt history, configs and settings', () => {
  it('.cli_bash_history: one undated user row per prompt (#V2 escapes undone), secondary, so copies of conversation prompts drop', async () => {
    const { rows } = await run(history, copyHome('amazon-q-kiro', homes.make()), '.aws/amazonq/.cli_bash_history');
    expect(rows.map((r) => [r.source_line, r.turn_type, r.text, r.timestamp_utc])).toEqual([
      [2, 'user', 'why does the svc container restart every hour?', ''],
      [3, 'user', 'fix it in infra/task.json', ''],
      [4, 'user', 'write a haiku\nabout logs', ''],
      [5, 'user', 'no, do not touch that file; explain instead', ''],
    ]);
    expect(history.secondary('.aws/amazonq/.cli_bash_history')).toBe(true);
    expect(history.readsSecretFile?.('.aws/amazonq/.cli_bash_history')).toBe(true);
    const home = homes.make();
    writeFiles(home, { '.aws/amazonq/.cli_bash_history': 'plain \\n kept\n' });
    expect((await run(history, home, '.aws/amazonq/.cli_bash_history')).rows.map((r) => r.text)).toEqual(['plain \\n kept']);
  });

  it('mcp.json: servers to the inventory with env keys and secret args set aside; rows name them only', async () => {
    const { rows, ctx } = await run(mcp, copyHome('amazon-q-kiro', homes.make()), '.aws/amazonq/mcp.json');
    expect(rows.map((r) => r.text)).toEqual(['mcp server configured: aws-docs', 'mcp server configured: jira (disabled)']);
    expect(ctx.mcpServers.map((s) => [s.name, s.scope, s.command, s.env_keys, s.secrets?.map((x) => x.where)])).toEqual([
      ['aws-docs', 'user', 'uvx', ['FASTMCP_LOG_LEVEL'], ['env:FASTMCP_LOG_LEVEL']],
      ['jira', 'user', 'npx', ['JIRA_TOKEN'], ['env:JIRA_TOKEN', 'arg:--api-token']],
    ]);
    const p = await run(mcp, `${copyHome('amazon-q-kiro', homes.make())}/svc`, '.amazonq/mcp.json', { fields: { scope: 'project', projectRoot: '/home/dev/svc' } });
    expect(p.ctx.mcpServers[0]).toMatchObject({ name: 'svc-db', scope: 'project', project_path: '/home/dev/svc' });
    expect(JSON.stringify([rows, p.rows])).not.toContain('FAKE');
  });

  it('an agent config: tools, allowed tools and per-tool settings as permission rows, its model, its MCP servers', async () => {
    const { rows, ctx } = await run(agent, copyHome('amazon-q-kiro', homes.make()), '.aws/amazonq/cli-agents/ops.json');
    expect(rows.map((r) => [r.text, r.tag])).toEqual([
      ['agent ops: tools=*', 'permission_setting'],
      ['permission setting: agent ops allowedTools=fs_read, execute_bash', 'permission_setting'],
      ['permission setting: agent ops execute_bash={"allowedCommands":["aws ecs describe-.*"],"autoAllowReadonly":true}', 'permission_setting'],
      ['permission setting: agent ops fs_write={"allowedPaths":["/home/dev/svc/infra/**"]}', 'permission_setting'],
      ['model setting: agent ops claude-sonnet-4', 'model_setting'],
      ['mcp server configured: aws-cost (agent ops)', 'mcp_setting'],
    ]);
    expect(ctx.mcpServers.map((s) => s.name)).toEqual(['aws-cost']);
  });

  it('settings.json: the model, agent, trust and telemetry keys only', async () => {
    const { rows } = await run(settings, copyHome('amazon-q-kiro', homes.make()), '.local/share/amazon-q/settings.json');
    expect(rows.map((r) => [r.text, r.tag])).toEqual([
      ['setting: chat.defaultModel=claude-sonnet-4', 'model_setting'],
      ['setting: telemetry.enabled=false', 'permission_setting'],
    ]);
  });

  it('a broken mcp.json is one unreadable row that never quotes it', async () => {
    const home = homes.make();
    writeFiles(home, { '.aws/amazonq/mcp.json': '{"mcpServers": {"x": {"env": {"K": "FAKEsecret' });
    const { rows } = await run(mcp, home, '.aws/amazonq/mcp.json');
    expect(rows.map((r) => r.tag)).toEqual(['unreadable']);
    expect(rows[0].text).not.toContain('FAKE');
  });
});

describe('amazon-q catalog', () => {
  it('collects Q CLI, Kiro CLI and Kiro IDE paths on the three OSes, flags the mixed stores and tokens, excludes checkouts; the parsers want each spelling', () => {
    const dbs = ['.local/share/amazon-q/data.sqlite3', 'Library/Application Support/amazon-q/data.sqlite3', 'AppData/Local/amazon-q/data.sqlite3', '.local/share/kiro-cli/data.sqlite3', 'Library/Application Support/kiro-cli/data.sqlite3', 'AppData/Local/kiro-cli/data.sqlite3'];
    for (const rel of dbs) expect(db.wants(rel), rel).toBe(true);
    expect(session.wants('.kiro/sessions/cli/x.jsonl') && sidecar.wants('.kiro/sessions/cli/x.json')).toBe(true);
    expect(settings.wants('AppData/Local/amazon-q/settings.json')).toBe(true);
    checkCatalog(amazonQPlugin, {
      collected: [...dbs, ...dbs.map((d) => `${d}-wal`), '.aws/amazonq/.cli_bash_history', '.aws/amazonq/cli-agents/ops.json', '.aws/amazonq/prompts/p.md', '.aws/amazonq/mcp.json', '.kiro/sessions/cli/x.jsonl', '.kiro/sessions/cli/x.json', '.kiro/settings/mcp.json', '.kiro/steering/a.md', '.local/share/amazon-q/settings.json'],
      secrets: [...dbs, '.aws/amazonq/mcp.json', '.aws/amazonq/.cli_bash_history', '.aws/amazonq/cli-agents/ops.json', '.kiro/settings/mcp.json', '.kiro/agents/a.json', '.aws/sso/cache/8f1e2d.json'],
      excluded: ['.aws/amazonq/cli-checkouts/svc/HEAD', '.aws/amazonq/knowledge_bases/kb/index.bin'],
      project: ['.amazonq/mcp.json', '.amazonq/cli-agents/a.json', '.amazonq/rules/r.md', 'AmazonQ.md', 'AGENTS.md', '.kiro/steering/product.md', '.kiro/specs/a/design.md', '.kiro/settings/mcp.json'],
    });
  });
});
