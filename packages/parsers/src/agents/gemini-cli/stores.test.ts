import { describe, expect, it } from 'vitest';
import type { Parser } from '../../sdk/types.js';
import { geminiCliPlugin } from './index.js';
import { brief, type Home, run } from './test-helpers/memory.js';

// The stores beside the chats: prompt log, shell history, checkpoints, settings, trust, policies,
// account, shadow-repository reflog; each with its hostile variants.

const parser = (name: string): Parser => geminiCliPlugin.parsers.find((p) => p.name === name)!;
const P = '.gemini/tmp/shop';
const base: Home = { [`${P}/.project_root`]: '/srv/shop' };
const parse = (name: string, rel: string, body: string, extra: Home = {}, includeThinking = true) => run(parser(name), { ...base, ...extra, [rel]: body }, rel, { includeThinking });

describe('logs.json', () => {
  it('an entry of another type is kept as a system row and reported; an entry without a message is a warning', async () => {
    const body = JSON.stringify([{ sessionId: 's', messageId: 0, timestamp: '2026-01-01T00:00:00.000Z', type: 'user', message: 'hi' }, { sessionId: 's', messageId: 1, timestamp: '2026-01-01T00:00:01.000Z', type: 'model', message: 'x' }, { sessionId: 's', messageId: 2 }]);
    const { rows, ctx } = await parse('prompt-log', `${P}/logs.json`, body);
    expect(brief(rows)).toEqual([
      [1, 'user', 'hi'],
      [2, 'system', 'model: x'],
    ]);
    expect(ctx.unknowns).toEqual([{ kind: 'prompt log entry type model', line: 2 }]);
    expect(ctx.warnings).toEqual([{ message: 'entry 3: no message', line: 3 }]);
    expect(ctx.facts).toEqual([{ session_id: 's', key: 'cwd', value: '/srv/shop', priority: 3 }]);
  });

  it('a log cut mid-write keeps its complete entries and says so; a broken entry is a bad line', async () => {
    const whole = JSON.stringify([{ sessionId: 's', message: 'one', timestamp: '2026-01-01T00:00:00.000Z' }, 7, { sessionId: 's', message: 'two', timestamp: '2026-01-01T00:00:01.000Z' }], null, 2);
    const { rows } = await parse('prompt-log', `${P}/logs.json`, whole.slice(0, whole.lastIndexOf('two')));
    expect(rows.map((r) => [r.source_line, r.turn_type, r.text.slice(0, 60), r.tag ?? ''])).toEqual([
      [1, 'user', 'one', 'history'],
      [2, 'system', 'parser: unparseable line (not a JSON object): 7', 'bad_line'],
      [null, 'system', 'parser: unparseable prompt log (the document ends inside 2 o', 'bad_line'],
    ]);
  });
});

describe('shell_history', () => {
  it('rejoins a command continued with a trailing backslash; an escaped backslash ends the line', async () => {
    const { rows } = await parse('shell-history', `${P}/shell_history`, 'echo a \\\n  b\ndir C:\\\\\n\nls\n');
    expect(rows.map((r) => [r.source_line, r.text])).toEqual([
      [1, 'echo a \n  b'],
      [2, 'dir C:\\\\'],
      [3, 'ls'],
    ]);
  });
});

describe('checkpoints', () => {
  it('checkpoint-<tag>.json of the oldest builds is a bare Content[]; tags are URL-decoded; model turns give replies and calls', async () => {
    const body = JSON.stringify([
      { role: 'user', parts: [{ text: 'This is the Gemini CLI. We are setting up the context for our chat.' }] },
      { role: 'model', parts: [{ text: 'Got it.' }] },
      { role: 'user', parts: [{ text: 'fix it' }] },
      { role: 'model', parts: [{ text: 'plan', thought: true }, { text: 'ok' }, { functionCall: { id: 'c1', name: 'read_file', args: { absolute_path: '/srv/shop/a.js' } } }] },
      { role: 'user', parts: [{ functionResponse: { id: 'c1', name: 'read_file', response: { output: 'body' } } }] },
    ]);
    const { rows } = await parse('checkpoints', `${P}/checkpoint-my%20tag.json`, body);
    expect(rows.map((r) => [r.source_line, r.timestamp_utc, r.turn_type, r.text])).toEqual([
      [1, '', 'system', 'session context: This is the Gemini CLI. We are setting up the context for our chat.'],
      [2, '', 'assistant', 'Got it.'],
      [3, '', 'user', 'fix it'],
      [4, '', 'thinking', 'plan'],
      [4, '', 'assistant', 'ok'],
      [4, '', 'tool_use', '/srv/shop/a.js'],
      [5, '', 'tool_result', 'body'],
      [null, '2026-10-02T00:00:00.000Z', 'system', 'chat checkpoint saved: my tag (5 messages, authType=-)'],
    ]);
    expect(rows.every((r) => r.session_id === '' && r.project_path === '/srv/shop')).toBe(true);
  });

  it('a restore checkpoint: one row at the time in its name, then its client history undated', async () => {
    const body = JSON.stringify({ history: [{ type: 'user', text: 'edit' }], clientHistory: [{ role: 'user', parts: [{ text: 'edit a.js' }] }], commitHash: 'abc123', toolCall: { name: 'replace', args: { file_path: '/srv/shop/a.js' } }, messageId: 'p-1' });
    const rel = `${P}/checkpoints/2025-06-22T10-00-00_000Z-a.js-replace.json`;
    const { rows } = await parse('checkpoints', rel, body);
    expect(rows.map((r) => [r.timestamp_utc, r.turn_type, r.text, r.tool_name])).toEqual([
      ['', 'user', 'edit a.js', ''],
      ['2025-06-22T10:00:00.000Z', 'system', 'restore checkpoint: replace /srv/shop/a.js commit=abc123 prompt=p-1', 'replace'],
    ]);
    expect(parser('checkpoints').secondary(rel)).toBe(true);
  });

  it('a checkpoint that is not JSON says so and still gives its saved row', async () => {
    const { rows } = await parse('checkpoints', `${P}/checkpoint-x.json`, '{"history": [{"role": "user", "parts": [{"text": "a"}]}, {"ro');
    expect(rows.map((r) => r.text.slice(0, 48))).toEqual(['a', 'parser: unparseable checkpoint (the document end', 'chat checkpoint saved: x (1 messages, authType=-']);
  });
});

describe('settings.json', () => {
  const settings = (s: object | string, extra: Home = {}) => parse('settings', '.gemini/settings.json', typeof s === 'string' ? s : JSON.stringify(s), extra);

  it('reads v1 flat keys, lists one row per allowed tool, and names MCP servers without their secrets', async () => {
    const { rows, ctx } = await settings({
      selectedAuthType: 'gemini-api-key',
      coreTools: ['read_file', 'run_shell_command(git)'],
      excludeTools: ['web_fetch'],
      model: 'gemini-2.5-pro',
      checkpointing: { enabled: true },
      mcpServers: { github: { command: 'npx', args: ['-y', 'gh-mcp'], env: { GITHUB_TOKEN: 'ghp_secretvalue123456' } }, remote: { httpUrl: 'https://mcp.example/api', headers: { Authorization: 'Bearer sk-abc' } } },
    });
    expect(rows.map((r) => [r.text, r.tag])).toEqual([
      ['auth: selectedType=gemini-api-key', 'auth'],
      ['permission setting: coreTools=read_file', 'permission_setting'],
      ['permission setting: coreTools=run_shell_command(git)', 'permission_setting'],
      ['permission setting: excludeTools=web_fetch', 'permission_setting'],
      ['permission setting: checkpointing.enabled=true', 'permission_setting'],
      ['model setting: gemini-2.5-pro', 'model_setting'],
      ['mcp server configured: github', 'mcp_setting'],
      ['mcp server configured: remote', 'mcp_setting'],
    ]);
    expect(ctx.mcpServers.map((m) => [m.name, m.scope, m.transport, m.env_keys ?? m.header_keys])).toEqual([
      ['github', 'user', 'stdio', ['GITHUB_TOKEN']],
      ['remote', 'user', 'http', ['Authorization']],
    ]);
    expect(JSON.stringify(rows)).not.toMatch(/ghp_|sk-abc/);
  });

  it('a project settings file names its project; a system one is system-wide', async () => {
    const { rows } = await run(parser('settings'), { '.gemini/settings.json': '{"general": {"defaultApprovalMode": "plan"}}' }, '.gemini/settings.json', { fields: { scope: 'project', projectRoot: '/srv/shop' } });
    expect(rows.map((r) => [r.text, r.project_path, r.tag])).toEqual([['permission setting: general.defaultApprovalMode=plan', '/srv/shop', 'permission_mode']]);
    expect(parser('settings').wants('etc/gemini-cli/system-defaults.json')).toBe(true);
  });

  it('invalid settings give one unreadable row that never quotes the file (it may hold credentials)', async () => {
    const { rows } = await settings('{"security": {"auth": {"apiKey": "AIzaSECRETSECRET"}}, oops}');
    expect(rows.map((r) => r.tag)).toEqual(['unreadable']);
    expect(rows[0].text).toMatch(/^parser: unreadable file \(expected JSON, found invalid JSON: \w+ at offset \d+\)$/);
    expect(rows[0].text).not.toContain('AIza');
    expect(parser('settings').readsSecretFile?.('.gemini/settings.json')).toBe(true);
  });
});

describe('trust, policies and account', () => {
  it('policy rules: arrays joined, the optional keys in order, other tables reported', async () => {
    const toml = '[[rule]]\ntoolName = ["run_shell_command"]\ndecision = "deny"\npriority = 10\nargsPattern = "rm -rf"\nmodes = ["yolo", "autoEdit"]\n\n[[rule]]\nmcpName = "github"\ndecision = "allow"\n\n[meta]\nowner = "it"\n';
    const { rows, ctx } = await parse('config', '.gemini/policies/admin.toml', toml);
    expect(rows.map((r) => [r.source_line, r.text])).toEqual([
      [1, 'permission setting: policy rule toolName=run_shell_command decision=deny argsPattern=rm -rf modes=yolo,autoEdit (from policies/admin.toml)'],
      [2, 'permission setting: policy rule toolName=- decision=allow mcpName=github (from policies/admin.toml)'],
    ]);
    expect(ctx.unknowns).toEqual([{ kind: 'policy table meta' }]);
  });

  it('invalid TOML, a trust file that is not an object and an account file with no active account', async () => {
    expect((await parse('config', '.gemini/policies/x.toml', 'rule = [')).rows.map((r) => r.text)).toEqual([expect.stringMatching(/^parser: unreadable file \(expected TOML policy rules, found invalid TOML: /)]);
    expect((await parse('config', '.gemini/trustedFolders.json', '[]')).rows.map((r) => r.tag)).toEqual(['unreadable']);
    expect((await parse('config', '.gemini/google_accounts.json', '{"active": null, "old": ["a@example.org"]}')).rows.map((r) => r.text)).toEqual(['previous account: a@example.org (google_accounts.json)']);
  });
});

describe('shadow repository reflog', () => {
  it('one dated row per snapshot commit; a line that is not a reflog line says so', async () => {
    const line = `${'0'.repeat(40)} ${'a'.repeat(40)} Gemini CLI <gemini-cli@google.com> 1750586400 +0000\tcommit: Snapshot for replace`;
    const { rows } = await parse('snapshots', '.gemini/history/shop/.git/logs/HEAD', `${line}\ngarbage\n`, { '.gemini/history/shop/.project_root': '/srv/shop' });
    expect(rows.map((r) => [r.source_line, r.timestamp_utc, r.text.slice(0, 60), r.project_path])).toEqual([
      [1, '2025-06-22T10:00:00.000Z', `file snapshot: commit: Snapshot for replace commit=${'a'.repeat(40)}`.slice(0, 60), '/srv/shop'],
      [2, '', 'parser: unparseable line (not a git reflog line): garbage', '/srv/shop'],
    ]);
  });
});
