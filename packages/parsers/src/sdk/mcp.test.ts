import { describe, expect, it } from 'vitest';
import { mcpServerFromEntry, mcpServersFromConfig } from './mcp.js';

const user = { scope: 'user' as const };

describe('MCP server configs of every agent, read by one helper', () => {
  it('reads the common mcpServers map (Claude Code, Copilot, Cursor, Gemini): key names kept, values kept apart as secrets', () => {
    const [s] = mcpServersFromConfig({ mcpServers: { gh: { command: 'npx', args: ['-y', 'gh-mcp'], env: { GITHUB_TOKEN: 'ghp_x', LOG: 'info' } } } }, user);
    expect(s).toEqual({ name: 'gh', scope: 'user', transport: 'stdio', command: 'npx', args: ['-y', 'gh-mcp'], env_keys: ['GITHUB_TOKEN', 'LOG'], secrets: [{ where: 'env:GITHUB_TOKEN', value: 'ghp_x' }, { where: 'env:LOG', value: 'info' }] });
  });

  it("reads VS Code's servers map and settings' nested mcp.servers, with http transport and headers", () => {
    const a = mcpServersFromConfig({ servers: { web: { type: 'http', url: 'https://h/mcp', headers: { Authorization: 'Bearer abc' } } } }, { scope: 'project', project_path: '/p' });
    expect(a).toEqual([{ name: 'web', scope: 'project', project_path: '/p', transport: 'http', url: 'https://h/mcp', header_keys: ['Authorization'], secrets: [{ where: 'header:Authorization', value: 'Bearer abc' }] }]);
    const b = mcpServersFromConfig({ 'editor.fontSize': 12, mcp: { servers: { s: { command: 'srv' } } } }, user);
    expect(b.map((s) => s.name)).toEqual(['s']);
  });

  it("reads OpenCode's command array with environment, and its local/remote types", () => {
    const [local, remote] = mcpServersFromConfig({ mcp: { l: { type: 'local', command: ['bun', 'x', 'srv'], environment: { K: 'v' }, enabled: false }, r: { type: 'remote', url: 'https://r/sse' } } }, user);
    expect(local).toMatchObject({ command: 'bun', args: ['x', 'srv'], transport: 'stdio', env_keys: ['K'], disabled: true });
    expect(remote).toMatchObject({ transport: 'http', url: 'https://r/sse' });
  });

  it("reads Zed's nested command, Continue's list with names, Goose's cmd/envs/uri, Codex's TOML table", () => {
    expect(mcpServersFromConfig({ context_servers: { z: { command: { path: '/bin/z', args: ['--x'], env: { A: 'b' } } } } }, user)[0]).toMatchObject({ command: '/bin/z', args: ['--x'], env_keys: ['A'] });
    expect(mcpServersFromConfig({ mcpServers: [{ name: 'c', command: 'uvx', args: ['c'] }, 'junk', { command: 'nameless' }] }, user).map((s) => s.name)).toEqual(['c', '#3']);
    expect(mcpServersFromConfig({ extensions: { g: { type: 'stdio', cmd: 'goose-x', envs: { T: 'v' } }, w: { type: 'sse', uri: 'http://w/sse' } } }, user)).toMatchObject([{ command: 'goose-x', env_keys: ['T'] }, { transport: 'sse', url: 'http://w/sse' }]);
    expect(mcpServersFromConfig({ mcp_servers: { cx: { command: 'codex-mcp', env: { OPENAI_API_KEY: 'sk-x' } } } }, user)[0]).toMatchObject({ name: 'cx', env_keys: ['OPENAI_API_KEY'] });
  });

  // biome-ignore lint/suspicious/noTemplateCurlyInString: literal references, as configs hold them
  it('takes no reference for a secret (${env:X}, ${input:x}, $VAR, {env:X}, %VAR%)', () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: literal references, as configs hold them
    const s = mcpServerFromEntry('r', { command: 'x', env: { A: '${env:TOKEN}', B: '${input:pat}', C: '$GITHUB_TOKEN', D: '{env:KEY}', E: '%APPDATA%' } }, user);
    expect(s.secrets).toBeUndefined();
    expect(s.env_keys).toEqual(['A', 'B', 'C', 'D', 'E']);
  });

  it('finds secrets in arguments and URLs: --token v, --api-key=v, a password, a secret-named query value', () => {
    const s = mcpServerFromEntry('a', { command: 'srv', args: ['--token', 't1', '--api-key=k2', '--verbose', '--port', '80'], url: 'https://u:p4ss@h/mcp?access_token=q3&page=2' }, user);
    expect(s.secrets).toEqual([
      { where: 'arg:--token', value: 't1' },
      { where: 'arg:--api-key', value: 'k2' },
      { where: 'url:password', value: 'p4ss' },
      { where: 'url:?access_token', value: 'q3' },
    ]);
  });

  it("finds secrets in a Zed extension server's settings: a secret-named value, a URL's password, nested ones; not plain settings or references", () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal reference, as configs hold them
    const s = mcpServerFromEntry('postgres-context-server', { source: 'extension', settings: { database_url: 'postgresql://app:FAKEpw1@db.internal/app', api_key: 'FAKEkey2', region: 'eu-west-1', token: '${env:PG_TOKEN}', pool: { auth_token: 'FAKEtok3', size: 4 } } }, { scope: 'user' });
    expect(s.secrets).toEqual([
      { where: 'setting:database_url:url:password', value: 'FAKEpw1' },
      { where: 'setting:api_key', value: 'FAKEkey2' },
      { where: 'setting:pool.auth_token', value: 'FAKEtok3' },
    ]);
    expect(mcpServerFromEntry('x', { source: 'extension', settings: { database_url: 'postgresql://localhost/app' } }, { scope: 'user' }).secrets).toBeUndefined();
  });

  it('never throws on junk: non-objects, missing containers, odd values', () => {
    for (const junk of [null, 1, 'x', [], { mcpServers: 'x' }, { mcpServers: { a: null, b: 7 } }, { servers: { a: { command: ['', 1, null], env: ['x'] } } }]) {
      expect(() => mcpServersFromConfig(junk, user)).not.toThrow();
    }
    expect(mcpServersFromConfig({ mcpServers: { a: null } }, user)).toEqual([{ name: 'a', scope: 'user', transport: '' }]);
  });

  it('keeps a URL password whose percent escapes are malformed as it is (decodeURIComponent threw, and every MCP parser with it)', () => {
    expect(mcpServerFromEntry('a', { url: 'https://u:%E0%A4%A@h/mcp' }, user).secrets).toEqual([{ where: 'url:password', value: '%E0%A4%A' }]);
    expect(mcpServerFromEntry('b', { url: 'https://u:p%40ss@h/mcp' }, user).secrets).toEqual([{ where: 'url:password', value: 'p@ss' }]);
  });
});
