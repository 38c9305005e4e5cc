import { describe, expect, it } from 'vitest';
import { globalStateParser } from './global-state.js';
import { mcpConfigParser, mcpLogParser, serverOfLog } from './mcp.js';
import { settingsParser } from './settings.js';
import { parseText } from './test-helpers/context.js';

// MCP servers of Claude Code into the cross-agent inventory shape (issue 11 item 4). Tokens here
// are made up; none may reach a row or a report outside `secrets`.
const TOKEN = 'ghp_0123456789abcdefghijABCDEFGHIJ012345';
const BEARER = 'Bearer sk-ant-api03-FAKEFAKEFAKEFAKE';
const MTIME = '2026-10-01T10:00:00.000Z';
const server = (extra: Record<string, unknown> = {}) => ({ command: 'npx', args: ['-y', 'gh-mcp'], env: { GITHUB_TOKEN: TOKEN }, ...extra });

describe('.claude.json: user and local-scope servers, MCP approvals', () => {
  const state = {
    mcpServers: { github: server(), remote: { type: 'http', url: 'https://mcp.example/api', headers: { Authorization: BEARER } } },
    projects: {
      '/srv/app': { hasTrustDialogAccepted: true, mcpServers: { db: { type: 'stdio', command: 'db-mcp', env: { DB_URL: '\u0024{DB_URL}' } } }, enabledMcpjsonServers: ['linear'], disabledMcpjsonServers: ['shady'] },
      '/srv/empty': { mcpServers: {} },
    },
  };

  it('reports each server with key names, values only as secrets; rows for the approvals', async () => {
    const { rows, ctx } = await parseText(globalStateParser, '.claude.json', JSON.stringify(state), { fields: { mtime: MTIME } });
    expect(ctx.mcpServers).toEqual([
      { name: 'github', scope: 'user', transport: 'stdio', command: 'npx', args: ['-y', 'gh-mcp'], env_keys: ['GITHUB_TOKEN'], secrets: [{ where: 'env:GITHUB_TOKEN', value: TOKEN }] },
      { name: 'remote', scope: 'user', transport: 'http', url: 'https://mcp.example/api', header_keys: ['Authorization'], secrets: [{ where: 'header:Authorization', value: BEARER }] },
      // A `${VAR}` reference names where the secret lives; it is not one.
      { name: 'db', scope: 'user', project_path: '/srv/app', transport: 'stdio', command: 'db-mcp', env_keys: ['DB_URL'] },
    ]);
    expect(rows.map((r) => [r.text, r.project_path])).toEqual([
      ['project trust: accepted', '/srv/app'],
      ['permission setting: projects.enabledMcpjsonServers=linear', '/srv/app'],
      ['permission setting: projects.disabledMcpjsonServers=shady', '/srv/app'],
    ]);
    for (const r of rows) expect(r.text).not.toContain(TOKEN);
  });
});

describe('.mcp.json and managed-mcp.json', () => {
  it('wants the project file and the managed file only', () => {
    expect(['.mcp.json', 'etc/claude-code/managed-mcp.json', 'Library/Application Support/ClaudeCode/managed-mcp.json'].map((r) => mcpConfigParser.wants(r))).toEqual([true, true, true]);
    expect(['sub/.mcp.json', '.claude/mcp.json', 'managed-mcp.json', '.mcp.json.bak'].map((r) => mcpConfigParser.wants(r))).toEqual([false, false, false, false]);
    expect(mcpConfigParser.readsSecretFile?.('.mcp.json')).toBe(true);
  });

  it('project servers carry the project root; managed servers the managed scope; no row', async () => {
    const body = JSON.stringify({ mcpServers: { linear: { type: 'sse', url: `https://mcp.linear.app/sse?api_key=${TOKEN}` }, local: server({ disabled: true }) } });
    const proj = await parseText(mcpConfigParser, '.mcp.json', body, { fields: { scope: 'project', projectRoot: '/srv/app' } });
    expect(proj.rows).toEqual([]);
    expect(proj.ctx.mcpServers.map((s) => [s.name, s.scope, s.project_path, s.transport, s.disabled ?? false, s.secrets?.map((x) => x.where)])).toEqual([
      ['linear', 'project', '/srv/app', 'sse', false, ['url:?api_key']],
      ['local', 'project', '/srv/app', 'stdio', true, ['env:GITHUB_TOKEN']],
    ]);
    const managed = await parseText(mcpConfigParser, 'etc/claude-code/managed-mcp.json', body, { fields: { scope: 'system' } });
    expect(managed.ctx.mcpServers.map((s) => [s.name, s.scope, s.project_path])).toEqual([
      ['linear', 'managed', undefined],
      ['local', 'managed', undefined],
    ]);
  });

  it('a broken file is one unreadable row that does not quote it; an empty or foreign one gives nothing', async () => {
    const bad = await parseText(mcpConfigParser, '.mcp.json', `{"mcpServers":{"x":{"env":{"T":"${TOKEN}"}`);
    expect(bad.rows.map((r) => [r.tag, r.text.includes(TOKEN)])).toEqual([['unreadable', false]]);
    for (const body of ['{}', '[]', '{"mcpServers":5}', '{"servers":{"x":{"command":"y"}}}']) {
      const r = await parseText(mcpConfigParser, '.mcp.json', body);
      expect(r.ctx.mcpServers, body).toEqual([]);
    }
  });
});

describe('settings: MCP approvals and policies', () => {
  it('rows for enableAllProjectMcpServers and each listed server; command args and URL queries never printed', async () => {
    const s = {
      enableAllProjectMcpServers: false,
      enabledMcpjsonServers: ['linear'],
      allowedMcpServers: [{ serverName: 'github' }, { serverCommand: ['npx', '--token', TOKEN] }, { serverUrl: `https://x.example/mcp?key=${TOKEN}` }],
      deniedMcpServers: [{ serverName: 'evil' }],
    };
    const { rows } = await parseText(settingsParser, 'etc/claude-code/managed-settings.json', JSON.stringify(s), { fields: { scope: 'system', mtime: MTIME } });
    expect(rows.map((r) => [r.text, r.tag])).toEqual([
      ['permission setting: managed.enableAllProjectMcpServers=false', 'permission_setting'],
      ['permission setting: managed.enabledMcpjsonServers=linear', 'permission_setting'],
      ['permission setting: managed.allowedMcpServers=github', 'permission_setting'],
      ['permission setting: managed.allowedMcpServers=command=npx', 'permission_setting'],
      ['permission setting: managed.allowedMcpServers=url=https://x.example/mcp', 'permission_setting'],
      ['permission setting: managed.deniedMcpServers=evil', 'permission_setting'],
    ]);
  });
});

describe('MCP server logs (claude-cli-nodejs)', () => {
  const rel = (name: string, file = '2026-12-01T01-36-28-135Z.jsonl') => `.cache/claude-cli-nodejs/-srv-app/mcp-logs-${name}/${file}`;
  const entry = (o: Record<string, unknown>) => JSON.stringify({ timestamp: '2026-12-01T01:36:28.532Z', sessionId: 's1', cwd: '/srv/app', ...o });

  it('wants the log files on Linux, macOS and Windows and names the server from the directory', () => {
    const rels = [rel('gh'), 'Library/Caches/claude-cli-nodejs/-Users-me-app/mcp-logs-gh/2025-06-01T10-00-00-000Z.txt', 'AppData/Local/claude-cli-nodejs/Cache/C--app/mcp-logs-gh/x.jsonl'];
    expect(rels.map((r) => [mcpLogParser.wants(r), serverOfLog(r)])).toEqual([
      [true, 'gh'],
      [true, 'gh'],
      [true, 'gh'],
    ]);
    expect(['.cache/claude-cli-nodejs/-srv-app/errors/x.txt', '.cache/claude-cli-nodejs/mcp-logs-gh/x.jsonl'].map((r) => mcpLogParser.wants(r))).toEqual([false, false]);
  });

  it('JSONL: a failure row and report per error, a row when a server connected, other debug counted; cut and foreign lines reported', async () => {
    const body = [
      entry({ debug: 'Starting connection with timeout of 30000ms' }),
      entry({ debug: 'Successfully connected (transport: stdio) in 3180ms', timestamp: '2026-12-01T01:36:31.213Z' }),
      entry({ error: 'Connection failed (ENOENT): spawn x' }),
      entry({ error: { code: 'E1' } }),
      entry({ info: 'what is this' }),
      '{"error":"cut',
    ].join('\n');
    const { rows, ctx } = await parseText(mcpLogParser, rel('gh'), body);
    expect(rows.map((r) => [r.source_line, r.tag, r.session_id, r.project_path, r.timestamp_utc, r.text])).toEqual([
      [2, 'mcp_connected', 's1', '/srv/app', '2026-12-01T01:36:31.213Z', 'mcp server gh connected: Successfully connected (transport: stdio) in 3180ms'],
      [3, 'mcp_failure', 's1', '/srv/app', '2026-12-01T01:36:28.532Z', 'mcp server gh failed: Connection failed (ENOENT): spawn x'],
      [4, 'mcp_failure', 's1', '/srv/app', '2026-12-01T01:36:28.532Z', 'mcp server gh failed: {"code":"E1"}'],
      [6, 'bad_line', 's1', '/srv/app', '2026-12-01T01:36:28.532Z', 'parser: unparseable line (cut line, no newline at end of file: invalid JSON): {"error":"cut'],
    ]);
    expect(ctx.mcpServers).toEqual([
      { name: 'gh', scope: '', failure: { timestamp_utc: '2026-12-01T01:36:28.532Z', message: 'Connection failed (ENOENT): spawn x' }, line: 3 },
      { name: 'gh', scope: '', failure: { timestamp_utc: '2026-12-01T01:36:28.532Z', message: '{"code":"E1"}' }, line: 4 },
    ]);
    expect(ctx.unknowns).toEqual([{ kind: 'mcp log entry cwd,info,sessionId,timestamp', line: 5 }]);
  });

  it('the older JSON-array form gives the same rows; a cut array warns and keeps its complete entries', async () => {
    const body = `  [${entry({ error: 'Connection failed: timed out after 5000ms' })},\n${entry({ debug: 'x' })}, 5`;
    const { rows, ctx } = await parseText(mcpLogParser, rel('asana', '2025-03-01T10-00-00-000Z.txt'), body);
    expect(rows.map((r) => [r.source_line, r.tag, r.text])).toEqual([[1, 'mcp_failure', 'mcp server asana failed: Connection failed: timed out after 5000ms']]);
    expect(ctx.unknowns).toEqual([]);
    expect(ctx.warnings.map((w) => w.message)).toEqual([expect.stringMatching(/^MCP log cut or broken after 2 entries/)]);
  });
});
