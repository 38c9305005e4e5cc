import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import type { Artifact } from '../../sdk/types.js';
import { type Kv, parseFile, scratchHome, writeStateDb } from './test-helpers/build.js';

const { dir, done } = scratchHome('stores');
afterAll(done);
let n = 0;

async function parse(files: Record<string, string>, fields: Partial<Artifact> = {}) {
  const home = join(dir, `h${++n}`);
  for (const [rel, body] of Object.entries(files)) {
    mkdirSync(dirname(join(home, rel)), { recursive: true });
    writeFileSync(join(home, rel), body);
  }
  return parseFile(home, Object.keys(files)[0], { fields });
}
const texts = (rows: { text: string }[]) => rows.map((r) => r.text);

describe('settings and permissions', () => {
  it('cli-config.json: allow and deny entries, approval mode, sandbox; an account key is never read', async () => {
    const { rows } = await parse({ '.cursor/cli-config.json': JSON.stringify({ permissions: { allow: ['Shell(git status)', 7], deny: ['Write(**/.env)'] }, approvalMode: 'unrestricted', sandbox: { mode: 'enabled' }, apiKey: 'key_FAKE0123456789abcdef', authInfo: { accessToken: 'FAKE-jwt-0123456789' } }) });
    expect(rows.map((r) => [r.text, r.tag, r.timestamp_utc])).toEqual([
      ['permission setting: permissions.allow=Shell(git status)', 'permission_setting', '2026-12-01T00:00:00.000Z'],
      ['permission setting: permissions.deny=Write(**/.env)', 'permission_setting', '2026-12-01T00:00:00.000Z'],
      ['permission setting: approvalMode=unrestricted', 'permission_setting', '2026-12-01T00:00:00.000Z'],
      ['permission setting: sandbox={"mode":"enabled"}', 'permission_setting', '2026-12-01T00:00:00.000Z'],
    ]);
    expect(JSON.stringify(rows)).not.toMatch(/FAKE/);
  });

  it('a cli-config.json that is not JSON says so without quoting a byte of it', async () => {
    const { rows } = await parse({ '.cursor/cli-config.json': '{"apiKey": "key_FAKEcut' });
    expect(texts(rows)).toEqual(['parser: unreadable file (invalid JSON; the parse error is not printed: the file may hold keys)']);
  });

  it('permissions.json: one row per list entry, scalars as JSON', async () => {
    const { rows } = await parse({ '.cursor/permissions.json': JSON.stringify({ terminalAllowlist: ['npm test', 'ls'], mcpAllowlist: ['gh:*'], yolo: true }) });
    expect(texts(rows)).toEqual(['permission setting: terminalAllowlist=npm test', 'permission setting: terminalAllowlist=ls', 'permission setting: mcpAllowlist=gh:*', 'permission setting: yolo=true']);
  });

  it('mcp-approvals.json and .workspace-trusted name their workspace', async () => {
    const trusted = JSON.stringify({ trustedAt: '2026-10-01T08:00:00.000Z', workspacePath: '/srv/proj' });
    const a = await parse({ '.cursor/projects/srv-proj/mcp-approvals.json': '["gh-0123456789abcdef"]', '.cursor/projects/srv-proj/.workspace-trusted': trusted });
    expect(a.rows.map((r) => [r.text, r.project_path])).toEqual([['permission setting: mcp server approved: gh-0123456789abcdef', '/srv/proj']]);
    const t = await parse({ '.cursor/projects/srv-proj/.workspace-trusted': trusted });
    expect(t.rows.map((r) => [r.text, r.project_path, r.timestamp_utc])).toEqual([['permission setting: workspace trusted: /srv/proj', '/srv/proj', '2026-10-01T08:00:00.000Z']]);
  });

  it('hooks.json in the home, a project and the system: one row per command, its scope said', async () => {
    const body = JSON.stringify({ version: 1, hooks: { beforeShellExecution: [{ command: './audit.sh' }, { command: 'x', timeout: 5 }], afterFileEdit: 'echo edited' } });
    expect(texts((await parse({ '.cursor/hooks.json': body })).rows)).toEqual(['hook (user) beforeShellExecution: ./audit.sh', 'hook (user) beforeShellExecution: x', 'hook (user) afterFileEdit: echo edited']);
    const p = await parse({ '.cursor/hooks.json': body }, { scope: 'project', projectRoot: '/srv/proj' });
    expect(p.rows.map((r) => [r.text.split(':')[0], r.project_path])[0]).toEqual(['hook (project) beforeShellExecution', '/srv/proj']);
    const s = await parse({ 'etc/cursor/hooks.json': body }, { scope: 'system' });
    expect(texts(s.rows)[0]).toBe('hook (system) beforeShellExecution: ./audit.sh');
    expect(texts((await parse({ '.cursor/hooks.json': '{"version":1}' })).rows)).toEqual(['parser: unreadable file (expected {"hooks": {<event>: [{"command": ...}]}})']);
  });
});

describe('MCP', () => {
  it('mcp.json: user servers with key names; a project file is project scope; values only as secrets', async () => {
    const body = JSON.stringify({ mcpServers: { gh: { command: 'npx', args: ['gh-mcp'], env: { GITHUB_TOKEN: 'ghp_FAKE0000000000000000000000000000000000' } }, web: { url: 'https://x.example/mcp', headers: { Authorization: 'Bearer FAKE1234567890' } } } });
    const u = await parse({ '.cursor/mcp.json': body });
    expect(u.rows).toEqual([]);
    expect(u.ctx.mcpServers.map((s) => [s.name, s.scope, s.transport, s.env_keys ?? [], s.header_keys ?? [], s.secrets?.length])).toEqual([
      ['gh', 'user', 'stdio', ['GITHUB_TOKEN'], [], 1],
      ['web', 'user', 'http', [], ['Authorization'], 1],
    ]);
    const p = await parse({ '.cursor/mcp.json': body }, { scope: 'project', projectRoot: '/srv/proj' });
    expect(p.ctx.mcpServers.map((s) => [s.scope, s.project_path])).toEqual([
      ['project', '/srv/proj'],
      ['project', '/srv/proj'],
    ]);
    expect(texts((await parse({ '.cursor/mcp.json': '{"mcpServers": {"x": {"env": {"K": "FAKE' })).rows)).toEqual(['parser: unreadable file (invalid JSON; the parse error is not printed: the file may hold keys)']);
  });

  it('mcp-cache.json and the mcps/ descriptors give each server its tools', async () => {
    const c = await parse({ '.cursor/projects/p/mcp-cache.json': JSON.stringify({ gh: { tools: [{ name: 'a' }, { name: 'b' }, { noName: 1 }] } }) });
    expect(c.ctx.mcpServers).toEqual([{ name: 'gh', scope: '', tools: [{ name: 'a' }, { name: 'b' }] }]);
    const d = await parse({ '.cursor/projects/p/mcps/user-gh/tools/a.json': JSON.stringify({ name: 'a', arguments: {} }), '.cursor/projects/p/mcps/user-gh/SERVER_METADATA.json': JSON.stringify({ serverIdentifier: 'user-gh', serverName: 'gh' }) });
    expect(d.ctx.mcpServers).toEqual([{ name: 'gh', scope: '', tools: [{ name: 'a' }] }]);
    const m = await parse({ '.cursor/projects/p/mcps/user-gh/SERVER_METADATA.json': '{}' });
    expect([m.rows, m.ctx.mcpServers]).toEqual([[], []]);
  });
});

describe('prompt history, terminals, workspace files', () => {
  it('prompt_history.json: strings and objects, 1-based positions; not an array is one row', async () => {
    const { rows } = await parse({ '.cursor/prompt_history.json': JSON.stringify(['a', { text: 'b', timestamp: 1790845200000 }, { prompt: 'c' }, 5, null]) });
    expect(rows.map((r) => [r.text, r.source_line, r.timestamp_utc, r.session_id])).toEqual([
      ['a', 1, '', ''],
      ['b', 2, '2026-10-01T09:00:00.000Z', ''],
      ['c', 3, '', ''],
      ['parser: unparseable line (expected prompt 4 to be a string or an object with text, found a number): 5', 4, '', ''],
      ['parser: unparseable line (expected prompt 5 to be a string or an object with text, found null): null', 5, '', ''],
    ]);
    expect(texts((await parse({ '.cursor/prompt_history.json': '{}' })).rows)).toEqual(['parser: unreadable file (expected a JSON array of prompts, found an object with keys [])']);
  });

  it('terminals: front matter or none; broken YAML is said and the snapshot row still given', async () => {
    const plain = await parse({ '.cursor/projects/p/terminals/2.txt': '$ ls\na\n' });
    expect(plain.rows.map((r) => [r.text, r.project_path, r.tag])).toEqual([['terminal: 2.txt lines=2', '', 'time_file']]);
    const broken = await parse({ '.cursor/projects/p/terminals/3.txt': '---\npid: [\n---\nout\n' });
    expect(texts(broken.rows)).toEqual([expect.stringMatching(/^parser: unreadable file \(front matter is not YAML: /), 'terminal: 3.txt lines=1']);
  });

  it('workspace.json: a folder, a .code-workspace, a remote folder; an empty window gives no row', async () => {
    const W = '.config/Cursor/User/workspaceStorage/w1/workspace.json';
    const one = async (body: string) => (await parse({ [W]: body })).rows.map((r) => [r.text, r.project_path]);
    expect(await one('{"folder":"file:///home/a/my%20app"}')).toEqual([['workspace: /home/a/my app (folder w1)', '/home/a/my app']]);
    expect(await one('{"workspace":"file:///home/a/x.code-workspace"}')).toEqual([['workspace: /home/a (folder w1)', '/home/a']]);
    expect(await one('{"folder":"vscode-remote://ssh-remote%2Bbox/srv/api"}')).toEqual([['workspace: vscode-remote://ssh-remote%2Bbox/srv/api (folder w1)', 'vscode-remote://ssh-remote%2Bbox/srv/api']]);
    expect(await one('{}')).toEqual([]);
    expect(await one('["/home/a"]')).toEqual([['parser: unreadable file (expected {"folder": "<URI>"} or {"workspace": "<URI>"}, found an array)', '']]);
    expect((await one('nope'))[0][0]).toMatch(/^parser: unreadable file \(expected \{"folder"/);
  });
});

describe('workspace state.vscdb', () => {
  const WS = '.config/Cursor/User/workspaceStorage/w9/state.vscdb';
  async function ws(items: Kv[], kv: Kv[] = [], folder = '{"folder":"file:///srv/w9"}') {
    const home = join(dir, `w${++n}`);
    writeStateDb(home, WS, items, kv);
    writeFileSync(join(home, '.config/Cursor/User/workspaceStorage/w9/workspace.json'), folder);
    return parseFile(home, WS);
  }

  it('pane keys name composers of the folder; other generation types are system rows; a prompt the generations lack stays', async () => {
    const { rows, ctx } = await ws([
      ['workbench.panel.composerChatViewPane.p1', { 'workbench.panel.aichat.view.cx': {}, other: 1 }],
      ['aiService.generations', [{ unixMs: 1790845200000, type: 'cmdk', textDescription: 'rename x' }, { unixMs: 1790845201000, type: 'apply', textDescription: 'a.ts' }]],
      ['aiService.prompts', [{ text: 'rename x' }, { text: 'rename x' }, 'bare string']],
      ['anysphere.cursor-retrieval', { k: { pathEncryptionKey: 'FAKEKEY0123456789' } }],
    ]);
    expect(rows.map((r) => [r.turn_type, r.text, r.timestamp_utc, r.source_line])).toEqual([
      ['user', 'rename x', '2026-10-01T09:00:00.000Z', 1],
      ['system', 'apply: a.ts', '2026-10-01T09:00:01.000Z', 2],
      ['user', 'rename x', '', 2],
      ['user', 'bare string', '', 3],
    ]);
    expect(ctx.facts).toEqual([{ session_id: 'cx', key: 'cwd', value: '/srv/w9', priority: 3 }]);
    expect(JSON.stringify(rows)).not.toContain('FAKEKEY');
  });

  it('a value that is not JSON is one row naming its key; composer records kept in the folder are read too', async () => {
    const { rows } = await ws([['aiService.generations', '[{"cut']], [['composerData:old', { composerId: 'old', createdAt: 1790845200000, conversation: [{ type: 1, text: 'kept here' }] }]]);
    expect(rows.map((r) => [r.text, r.session_id, r.project_path])).toEqual([
      ['parser: unparseable value for aiService.generations', '', ''],
      ['session start: cursor composer', 'old', '/srv/w9'],
      ['kept here', 'old', '/srv/w9'],
    ]);
  });
});

describe('ai-code-tracking.db variations', () => {
  it('older tables without timestamp, model or summaries; several models; an unknown source counted', async () => {
    const home = join(dir, 'ai');
    const rel = '.cursor/ai-tracking/ai-code-tracking.db';
    mkdirSync(dirname(join(home, rel)), { recursive: true });
    const db = new Database(join(home, rel));
    db.exec("CREATE TABLE ai_code_hashes (hash TEXT PRIMARY KEY, source TEXT, fileName TEXT, conversationId TEXT, model TEXT, createdAt INTEGER); INSERT INTO ai_code_hashes VALUES ('1','composer','/a.ts','c1','gpt-5',1790845200000),('2','composer','/a.ts','c1','claude',1790845260000),('3','cli','/b.ts','c2',NULL,1790845200000),('4','tab','/a.ts',NULL,NULL,1790845200000)");
    db.close();
    const { rows, ctx } = await parseFile(home, rel);
    expect(rows.map((r) => [r.text, r.timestamp_utc, r.session_id])).toEqual([['ai code: /a.ts hashes=2 model=gpt-5,claude', '2026-10-01T09:01:00.000Z', 'c1']]);
    expect(ctx.unknowns).toEqual([{ kind: 'ai_code_hashes source cli', line: 3 }]);
  });
});
