import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import type { Parser } from '../../sdk/types.js';
import { codexCliPlugin } from './index.js';
import { collectRows, diskArtifact, memoryArtifact, recordingContext } from './test-helpers/artifact.js';

const root = mkdtempSync(join(tmpdir(), 'aitrail-codex-stores-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const parser = (name: string): Parser => codexCliPlugin.parsers.find((p) => p.name === name)!;

/** A real SQLite file made with better-sqlite3, in WAL mode as Codex keeps its stores. */
function makeDb(name: string, sql: string, fill: (db: Database.Database) => void): string {
  mkdirSync(join(root, name), { recursive: true });
  const p = join(root, name, name);
  const db = new Database(p);
  db.pragma('journal_mode = WAL');
  db.exec(sql);
  fill(db);
  db.close();
  return p;
}

const T1 = '019a4444-0000-7000-8000-000000000001';
const T2 = '019a4444-0000-7000-8000-000000000002';

describe('state_<n>.sqlite', () => {
  // The threads columns of the real 0.118.0 file (22 migrations) and security_events as migration 0038 creates it.
  const path = makeDb(
    'state_5.sqlite',
    `CREATE TABLE threads (id TEXT PRIMARY KEY, rollout_path TEXT NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, source TEXT NOT NULL, model_provider TEXT NOT NULL, cwd TEXT NOT NULL, title TEXT NOT NULL, sandbox_policy TEXT NOT NULL, approval_mode TEXT NOT NULL, tokens_used INTEGER NOT NULL DEFAULT 0, has_user_event INTEGER NOT NULL DEFAULT 0, archived INTEGER NOT NULL DEFAULT 0, archived_at INTEGER, git_sha TEXT, git_branch TEXT, git_origin_url TEXT, cli_version TEXT NOT NULL DEFAULT '', first_user_message TEXT NOT NULL DEFAULT '', agent_nickname TEXT, agent_role TEXT, memory_mode TEXT NOT NULL DEFAULT 'enabled', model TEXT, reasoning_effort TEXT, agent_path TEXT, created_at_ms INTEGER);
     CREATE TABLE security_events (id INTEGER PRIMARY KEY AUTOINCREMENT, created_at INTEGER NOT NULL, kind TEXT NOT NULL, thread_id TEXT, turn_id TEXT, call_id TEXT, tool_name TEXT, resource TEXT, sandbox_backend TEXT, reason TEXT, path TEXT, host TEXT, port INTEGER, protocol TEXT, method TEXT, network_mode TEXT, decision TEXT, source TEXT, review_id TEXT, reviewer TEXT, review_decision TEXT, details_json TEXT);`,
    (db) => {
      const ins = db.prepare('INSERT INTO threads (id, rollout_path, created_at, updated_at, source, model_provider, cwd, title, sandbox_policy, approval_mode, tokens_used, archived, archived_at, git_branch, cli_version, first_user_message, model, created_at_ms) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)');
      ins.run(T1, '/h/.codex/sessions/x.jsonl', 1790845200, 1790845300, 'cli', 'openai', '/srv/proj', 'fix the test', '{"type":"workspace-write","writable_roots":[]}', 'on-request', 940, 0, null, 'main', '0.118.0', 'fix the test', 'gpt-5.4', null);
      ins.run(T2, '/h/.codex/archived_sessions/y.jsonl', 1790841600, 1790841700, 'vscode', 'openai', '/srv/other', 'explain', '{"type":"danger-full-access"}', 'never', 0, 1, 1790900000, null, '0.118.0', '', null, 1790841600123);
      db.prepare('INSERT INTO security_events (created_at, kind, thread_id, call_id, tool_name, resource, sandbox_backend, reason, path, decision) VALUES (?,?,?,?,?,?,?,?,?,?)').run(1790845210, 'sandbox_violation', T1, 'call_9', 'exec_command', 'filesystem', 'seatbelt', 'write outside writable roots', '/etc/hosts', 'denied');
      db.prepare('INSERT INTO security_events (created_at, kind, thread_id, call_id, tool_name, reviewer, review_decision, reason) VALUES (?,?,?,?,?,?,?,?)').run(1790845220, 'auto_review_decision', T1, 'call_10', 'exec_command', 'guardian', 'approved', 'read-only command');
    },
  );

  it('a thread: metadata, its first prompt and its title as name; an archived thread says so; facts at priority 3', async () => {
    const ctx = recordingContext();
    const rows = await collectRows(parser('state-db'), diskArtifact(path, '.codex/state_5.sqlite'), ctx);
    const threads = rows.filter((r) => r.tag !== 'permission_decision');
    expect(threads.map((r) => [r.timestamp_utc, r.session_id.slice(-1), r.turn_type, r.text, r.project_path, r.git_branch, r.model])).toEqual([
      ['2026-10-01T09:00:00.000Z', '1', 'system', 'session metadata: title=fix the test source=cli provider=openai cli=0.118.0 approval=on-request sandbox=workspace-write tokens=940 archived=0', '/srv/proj', 'main', 'gpt-5.4'],
      ['2026-10-01T09:00:00.000Z', '1', 'user', 'fix the test', '/srv/proj', 'main', 'gpt-5.4'],
      ['2026-10-01T09:01:40.000Z', '1', 'system', 'session name: fix the test', '/srv/proj', 'main', 'gpt-5.4'],
      ['2026-10-01T08:00:00.123Z', '2', 'system', 'session metadata: title=explain source=vscode provider=openai cli=0.118.0 approval=never sandbox=danger-full-access tokens=0 archived=1 archived_at=2026-10-02T00:13:20.000Z', '/srv/other', '', ''],
      ['2026-10-01T08:01:40.000Z', '2', 'system', 'session name: explain', '/srv/other', '', ''],
    ]);
    expect(ctx.facts).toContainEqual({ session_id: T1, key: 'cwd', value: '/srv/proj', priority: 3 });
    expect(parser('state-db').secondary('.codex/state_5.sqlite')).toBe(true);
  });

  it('security events: sandbox denials and automatic reviews as permission decisions of their thread and call', async () => {
    const rows = (await collectRows(parser('state-db'), diskArtifact(path, '.codex/state_5.sqlite'), recordingContext())).filter((r) => r.tag === 'permission_decision');
    expect(rows.map((r) => [r.timestamp_utc, r.session_id, r.tool_use_id, r.text])).toEqual([
      ['2026-10-01T09:00:10.000Z', T1, 'call_9', 'permission decision: denied source=sandbox_violation tool=exec_command resource=filesystem target=/etc/hosts backend=seatbelt reason=write outside writable roots'],
      ['2026-10-01T09:00:20.000Z', T1, 'call_10', 'permission decision: approved source=auto_review_decision reviewer=guardian tool=exec_command reason=read-only command'],
    ]);
  });

  it('a file that is not SQLite is one unreadable row saying so', async () => {
    const rows = await collectRows(parser('state-db'), diskArtifact(__filename, '.codex/state_5.sqlite'), recordingContext());
    expect(rows).toHaveLength(1);
    expect(rows[0].text).toMatch(/^parser: unreadable file \(expected a SQLite database/);
  });
});

describe('thread_history_<n>.sqlite', () => {
  const path = makeDb(
    'thread_history_1.sqlite',
    `CREATE TABLE thread_turns (thread_id TEXT NOT NULL, turn_id TEXT NOT NULL, rollout_ordinal INTEGER NOT NULL, status TEXT NOT NULL, started_at INTEGER, PRIMARY KEY (thread_id, turn_id));
     CREATE TABLE thread_items (thread_id TEXT NOT NULL, turn_id TEXT NOT NULL, item_id TEXT NOT NULL, rollout_ordinal INTEGER NOT NULL, created_at_ms INTEGER NOT NULL, item_json TEXT NOT NULL, PRIMARY KEY (thread_id, turn_id, item_id));`,
    (db) => {
      db.prepare('INSERT INTO thread_turns VALUES (?,?,?,?,?)').run(T1, 'u1', 1, 'completed', 1790845200);
      const ins = db.prepare('INSERT INTO thread_items VALUES (?,?,?,?,?,?)');
      ins.run(T1, 'u1', 'i1', 8, 1790845205000, '{"type":"userMessage","id":"i1","content":[{"type":"text","text":"fix the test"}]}');
      ins.run(T1, 'u1', 'i2', 9, 1790845206000, '{"type":"reasoning","id":"i2","summary":["Look first."]}');
      ins.run(T1, 'u1', 'i3', 10, 1790845207000, '{"type":"commandExecution","id":"i3","command":"npm test"}');
      ins.run(T1, 'u1', 'i4', 11, 1790845208000, '{"type":"agentMessage","id":"i4","text":"Fixed."}');
      ins.run(T1, 'u1', 'i5', 12, 0, 'not json');
    },
  );

  it('prompts, replies and reasoning at their own times (secondary); commands skipped; a broken item is a bad row', async () => {
    const rows = await collectRows(parser('thread-history-db'), diskArtifact(path, '.codex/thread_history_1.sqlite'), recordingContext(true));
    expect(rows.map((r) => [r.timestamp_utc, r.turn_type, r.text.slice(0, 40), r.tag])).toEqual([
      ['2026-10-01T09:00:05.000Z', 'user', 'fix the test', 'thread_history'],
      ['2026-10-01T09:00:06.000Z', 'thinking', 'Look first.', 'thread_history'],
      ['2026-10-01T09:00:08.000Z', 'assistant', 'Fixed.', 'thread_history'],
      ['2026-10-01T09:00:00.000Z', 'system', 'parser: unparseable thread item (expecte', 'bad_line'],
    ]);
  });
});

describe('logs: the TUI log and logs_<n>.sqlite', () => {
  const TUI = [
    '2026-04-08T14:04:25.710274Z  INFO session_loop{thread_id=019d6d67-1952-7e83-93ef-94497e3c15b6}:submission_dispatch{otel.name="op.dispatch.user_input" submission.id="x" codex.op="user_input"}:turn{otel.name="session_task.turn" thread.id=019d6d67-1952-7e83-93ef-94497e3c15b6 turn.id=t model=gpt-5.4}: codex_core::stream_events_utils: ToolCall: exec_command {"cmd":"brew install x","sandbox_permissions":"require_escalated"} thread_id=019d6d67-1952-7e83-93ef-94497e3c15b6',
    '2026-04-08T14:06:51.126719Z  INFO session_loop{thread_id=019d6d67-1952-7e83-93ef-94497e3c15b6}:submission_dispatch{otel.name="op.dispatch.exec_approval" submission.id="019d6d6a-d4f6-7fc1-95b5-8efc5b16a32b" codex.op="exec_approval"}: codex_core::codex: new',
    '2026-04-08T14:06:51.126941Z  INFO session_loop{thread_id=019d6d67-1952-7e83-93ef-94497e3c15b6}:submission_dispatch{otel.name="op.dispatch.exec_approval" submission.id="019d6d6a-d4f6-7fc1-95b5-8efc5b16a32b" codex.op="exec_approval"}: codex_core::codex: close time.busy=201µs time.idle=22.2µs',
    "2026-04-08T14:08:29.764316Z ERROR codex_core::tools::router: error=exec_command failed for `/bin/zsh -lc 'ps -p 1'`: CreateProcess { message: \"Codex(Sandbox(Denied { output: ExecToolCallOutput { exit_code: 127, stdout:",
    '  a continuation line of the same record',
    '2026-04-08T14:09:00.000000Z  WARN codex_core::codex: failed to load discoverable tool suggestions',
  ].join('\n');

  it('codex-tui.log: tool calls (secondary copies), approvals answered, sandbox denials; other records give nothing', async () => {
    const rows = await collectRows(parser('logs'), memoryArtifact('.codex/log/codex-tui.log', TUI), recordingContext());
    expect(rows.map((r) => [r.source_line, r.timestamp_utc, r.session_id.slice(-4), r.turn_type, r.text, r.tag])).toEqual([
      [1, '2026-04-08T14:04:25.710Z', '15b6', 'tool_use', 'brew install x', 'log_tool_call'],
      [2, '2026-04-08T14:06:51.126Z', '15b6', 'system', 'permission decision: answered op=exec_approval submission=019d6d6a-d4f6-7fc1-95b5-8efc5b16a32b (the log does not record the choice)', 'permission_decision'],
      [4, '2026-04-08T14:08:29.764Z', '', 'system', "permission decision: denied source=sandbox tool=exec_command command=/bin/zsh -lc 'ps -p 1' exit=127", 'permission_decision'],
    ]);
    expect(parser('logs').secondary('.codex/log/codex-tui.log')).toBe(true);
  });

  it('logs_<n>.sqlite: the same evidence from the rows, with the thread column and nanoseconds', async () => {
    const path = makeDb('logs_2.sqlite', 'CREATE TABLE logs (id INTEGER PRIMARY KEY AUTOINCREMENT, ts INTEGER NOT NULL, ts_nanos INTEGER NOT NULL, level TEXT NOT NULL, target TEXT NOT NULL, feedback_log_body TEXT, thread_id TEXT)', (db) => {
      const ins = db.prepare('INSERT INTO logs (ts, ts_nanos, level, target, feedback_log_body, thread_id) VALUES (?,?,?,?,?,?)');
      ins.run(1775657050, 145409000, 'INFO', 'codex_core::stream_events_utils', 'turn{}: ToolCall: exec_command {"cmd":"ls"} thread_id=019d6d67-1952-7e83-93ef-94497e3c15b6', '019d6d67-1952-7e83-93ef-94497e3c15b6');
      ins.run(1775657051, 0, 'INFO', 'codex_core::plugins::manager', 'starting remote plugin sync', null);
    });
    const rows = await collectRows(parser('logs'), diskArtifact(path, '.codex/logs_2.sqlite'), recordingContext());
    expect(rows.map((r) => [r.source_line, r.timestamp_utc, r.session_id, r.text])).toEqual([[1, '2026-04-08T14:04:10.145Z', '019d6d67-1952-7e83-93ef-94497e3c15b6', 'ls']]);
  });

  it('logs_<n>.sqlite: nanoseconds that are not a number or past the range of a date keep the second, and the rows after are read', async () => {
    // toISOString threw on them, and the throw ended the table: every later row was lost.
    const path = makeDb('logs_3.sqlite', 'CREATE TABLE logs (id INTEGER PRIMARY KEY AUTOINCREMENT, ts INTEGER, ts_nanos, level TEXT, target TEXT, feedback_log_body TEXT, thread_id TEXT)', (db) => {
      const ins = db.prepare('INSERT INTO logs (ts, ts_nanos, level, target, feedback_log_body, thread_id) VALUES (?,?,?,?,?,?)');
      for (const [i, nanos] of (['not a number', 1e300, -1e300, 145409000] as const).entries()) ins.run(1775657050 + i, nanos, 'INFO', 't', `turn{}: ToolCall: exec_command {"cmd":"ls ${i}"} thread_id=019d6d67-1952-7e83-93ef-94497e3c15b6`, '019d6d67-1952-7e83-93ef-94497e3c15b6');
    });
    const rows = await collectRows(parser('logs'), diskArtifact(path, '.codex/logs_3.sqlite'), recordingContext());
    expect(rows.map((r) => [r.source_line, r.timestamp_utc, r.text])).toEqual([
      [1, '2026-04-08T14:04:10.000Z', 'ls 0'],
      [2, '2026-04-08T14:04:11.000Z', 'ls 1'],
      [3, '2026-04-08T14:04:12.000Z', 'ls 2'],
      [4, '2026-04-08T14:04:13.145Z', 'ls 3'],
    ]);
  });
});

describe('config.toml, hooks.json and rules', () => {
  const CONFIG = `approval_policy = "never"
sandbox_mode = "danger-full-access"
notify = ["python3", "/home/u/notify.py", "--token", "tok_FAKE_1", "API_KEY=key_FAKE_2", "Authorization: Bearer hdr_FAKE_3"]

[history]
persistence = "none"

[profiles.ci]
approval_policy = "on-failure"

[projects."/srv/proj"]
trust_level = "trusted"

[projects]
"/srv/untrusted" = { trust_level = "untrusted" }

[model_providers.corp]
base_url = "https://user:pw@llm.corp.example/v1?api-key=abc123"
env_key = "CORP_KEY"

[mcp_servers.gh]
command = "npx"
args = ["-y", "@modelcontextprotocol/server-github"]
env = { GITHUB_TOKEN = "ghp_FAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKE0000" }

[mcp_servers.remote]
url = "https://mcp.example.org/mcp"
bearer_token = "sk-FAKE-inline-bearer"
env_http_headers = { "X-Api-Key" = "REMOTE_KEY" }
enabled = false
`;

  it('standing settings as rows, never a value that could be a credential; MCP servers to the inventory with secrets aside', async () => {
    const ctx = recordingContext();
    const rows = await collectRows(parser('config'), memoryArtifact('.codex/config.toml', CONFIG), ctx);
    expect(rows.map((r) => [r.text, r.project_path])).toEqual([
      ['permission setting: projects./srv/proj.trust_level=trusted', '/srv/proj'],
      ['permission setting: projects./srv/untrusted.trust_level=untrusted', '/srv/untrusted'],
      ['permission setting: approval_policy=never', ''],
      ['permission setting: sandbox_mode=danger-full-access', ''],
      ['permission setting: profiles.ci.approval_policy=on-failure', ''],
      ['provider setting: model_providers.corp base_url=https://llm.corp.example/v1 env_key=CORP_KEY', ''],
      ['hook setting: notify command=["python3","/home/u/notify.py","--token","<redacted>","API_KEY=<redacted>","Authorization: <redacted>"]', ''],
      ['retention setting: history.persistence=none', ''],
    ]);
    const all = rows.map((r) => r.text).join('\n');
    for (const secret of ['ghp_FAKE', 'sk-FAKE', 'abc123', 'pw@', 'tok_FAKE', 'key_FAKE', 'hdr_FAKE']) expect(all).not.toContain(secret);
    expect(ctx.mcpServers).toEqual([
      { name: 'gh', scope: 'user', transport: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], env_keys: ['GITHUB_TOKEN'], secrets: [{ where: 'env:GITHUB_TOKEN', value: 'ghp_FAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKE0000' }] },
      { name: 'remote', scope: 'user', transport: 'http', url: 'https://mcp.example.org/mcp', header_keys: ['Authorization', 'X-Api-Key'], disabled: true, secrets: [{ where: 'bearer_token', value: 'sk-FAKE-inline-bearer' }] },
    ]);
    expect(parser('config').readsSecretFile?.('.codex/config.toml')).toBe(true);
  });

  it('a Windows key in its verbatim form names the project without the \\\\?\\ prefix; the text keeps the key', async () => {
    const body = "[projects.'\\\\?\\C:\\Users\\me\\repo']\ntrust_level = \"trusted\"\n[projects.'C:\\Users\\me']\ntrust_level = \"trusted\"\n";
    const rows = await collectRows(parser('config'), memoryArtifact('.codex/config.toml', body), recordingContext());
    expect(rows.map((r) => [r.text, r.project_path])).toEqual([
      ['permission setting: projects.\\\\?\\C:\\Users\\me\\repo.trust_level=trusted', 'C:\\Users\\me\\repo'],
      ['permission setting: projects.C:\\Users\\me.trust_level=trusted', 'C:\\Users\\me'],
    ]);
  });

  it('a project’s .codex/config.toml: its servers are project-scoped, its rows name the project', async () => {
    const ctx = recordingContext();
    const rows = await collectRows(parser('config'), memoryArtifact('.codex/config.toml', 'sandbox_mode = "read-only"\n[mcp_servers.db]\ncommand = "db-mcp"\n', {}, { scope: 'project', projectRoot: '/srv/proj' }), ctx);
    expect(rows.map((r) => [r.text, r.project_path])).toEqual([['permission setting: sandbox_mode=read-only', '/srv/proj']]);
    expect(ctx.mcpServers[0]).toMatchObject({ name: 'db', scope: 'project', project_path: '/srv/proj' });
  });

  it('/etc/codex files: managed settings and servers, the requirements an administrator imposes', async () => {
    const ctx = recordingContext();
    const body = 'allowed_approval_policies = ["untrusted", "on-request"]\nallowed_sandbox_modes = ["read-only"]\n[mcp_servers.corp]\nurl = "https://mcp.corp.example"\n';
    const rows = await collectRows(parser('config'), memoryArtifact('etc/codex/requirements.toml', body, {}, { scope: 'system' }), ctx);
    expect(rows.map((r) => r.text)).toEqual(['permission setting: managed.allowed_approval_policies=["untrusted","on-request"]', 'permission setting: managed.allowed_sandbox_modes=["read-only"]']);
    expect(ctx.mcpServers[0]).toMatchObject({ name: 'corp', scope: 'managed', transport: 'http' });
    expect(parser('config').wants('private/etc/codex/config.toml')).toBe(true);
  });

  it('invalid TOML: one unreadable row that says where, never quoting the file', async () => {
    const rows = await collectRows(parser('config'), memoryArtifact('.codex/config.toml', 'a = 1\nb = "sk-secret-value\n'), recordingContext());
    expect(rows).toHaveLength(1);
    expect(rows[0].text).toMatch(/expected TOML, found a syntax error at line 2, column \d+; the message is not printed/);
    expect(rows[0].text).not.toContain('sk-secret');
  });

  it('hooks.json: one row per hook command', async () => {
    const rows = await collectRows(parser('config'), memoryArtifact('.codex/hooks.json', JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'node guard.js' }] }] } })), recordingContext());
    expect(rows.map((r) => r.text)).toEqual(['hook setting: PreToolUse matcher=Bash command=node guard.js']);
  });

  it('rules: multi-line calls, nested patterns, decisions and justifications; comments and broken calls', async () => {
    const rules = ['# prefix_rule(pattern=["rm"], decision="allow")', 'prefix_rule(', '    pattern = ["git", ["push", "fetch"]],', '    decision = "prompt",', '    justification = "network",', ')', "prefix_rule(pattern=['curl'], decision='forbidden')", 'prefix_rule(pattern=["x"'].join('\n');
    const rows = await collectRows(parser('rules'), memoryArtifact('.codex/rules/default.rules', rules), recordingContext());
    expect(rows.map((r) => [r.source_line, r.text])).toEqual([
      [2, 'permission setting: prefix_rule pattern=["git",["push","fetch"]] decision=prompt justification=network (from rules/default.rules)'],
      [7, 'permission setting: prefix_rule pattern=["curl"] decision=forbidden (from rules/default.rules)'],
      [8, 'parser: unparseable rule (expected prefix_rule(...), found an unclosed call): prefix_rule(pattern=["x"'],
    ]);
  });

  it('rules: a call left open ends at the next rule, an open quote at its line; a rule named in a justification is text', async () => {
    const rules = ['prefix_rule(pattern=["a"], decision="allow"', 'prefix_rule(pattern=["b"], decision="prompt")', 'prefix_rule(pattern=["c], decision="allow")', 'prefix_rule(pattern=["d"], justification="not prefix_rule(pattern=[\'e\'])")'].join('\n');
    const rows = await collectRows(parser('rules'), memoryArtifact('.codex/rules/default.rules', rules), recordingContext());
    const bad = 'parser: unparseable rule (expected prefix_rule(...), found an unclosed call): ';
    expect(rows.map((r) => [r.source_line, r.tag, r.text])).toEqual([
      [1, 'bad_line', `${bad}${rules.slice(0, 200)}`],
      [2, 'permission_setting', 'permission setting: prefix_rule pattern=["b"] decision=prompt (from rules/default.rules)'],
      [3, 'bad_line', `${bad}${rules.slice(rules.indexOf('prefix_rule(pattern=["c]'), rules.indexOf('prefix_rule(pattern=["c]') + 200)}`],
      [4, 'permission_setting', "permission setting: prefix_rule pattern=[\"d\"] decision=allow justification=not prefix_rule(pattern=['e']) (from rules/default.rules)"],
    ]);
  });

  it('rules: escapes in strings, and a long value read whole', async () => {
    const long = 'v'.repeat(2_000_000);
    const rules = `prefix_rule(pattern=["a\\"b", 'c\\'d', "${long}"], justification="x\\\\y")`;
    const rows = await collectRows(parser('rules'), memoryArtifact('.codex/rules/default.rules', rules, {}, { stream: async function* () { yield Buffer.from(rules); } }), recordingContext());
    expect(rows.map((r) => r.text)).toEqual([`permission setting: prefix_rule pattern=${JSON.stringify(['a"b', "c'd", long])} decision=allow justification=x\\y (from rules/default.rules)`]);
  });

  it('rules: hostile files (one long line of open calls, deep lists, a file past the size bound) give rows that say so', async () => {
    // The first made the reader rescan the file for every call (its length squared); the second
    // ran it out of stack. Read in 64 KiB chunks: the 7-byte ones of memoryArtifact take seconds here.
    const bigArtifact = (body: string) => memoryArtifact('.codex/rules/default.rules', body, {}, { stream: async function* () { const b = Buffer.from(body); for (let i = 0; i < b.length; i += 65536) yield b.subarray(i, i + 65536); } });
    const oneLine = 'prefix_rule(pattern=["x"], decision="allow") '.repeat(20_000) + 'prefix_rule("'.repeat(20_000);
    const rows = await collectRows(parser('rules'), bigArtifact(oneLine), recordingContext());
    expect(rows.filter((r) => r.tag === 'permission_setting')).toHaveLength(20_000);
    expect(rows.filter((r) => r.tag === 'bad_line').length).toBeGreaterThan(0);
    expect(rows.every((r) => r.source_line === 1)).toBe(true);

    const deep = await collectRows(parser('rules'), bigArtifact(`prefix_rule(pattern=${'['.repeat(100_000)})`), recordingContext());
    expect(deep.map((r) => r.tag)).toEqual(['permission_setting']);
    expect(deep[0].text).toContain('pattern=- decision=allow');

    const first = 'prefix_rule(pattern=["ok"])';
    const filler = `${'#'.repeat(1023)}\n`;
    const big = `${first}\n${filler.repeat(17_000)}prefix_rule(pattern=["late"])\n`;
    const cut = await collectRows(parser('rules'), bigArtifact(big), recordingContext());
    // The first line whose text (and newline) takes the total past 16 MiB characters.
    const bound = 16 * 1024 * 1024;
    const cutLine = 2 + Math.floor((bound - first.length - 1) / filler.length);
    expect(cut.map((r) => [r.tag, r.source_line])).toEqual([
      ['permission_setting', 1],
      ['bad_line', cutLine],
    ]);
    expect(cut[1].text).toBe(`parser: rules file longer than ${bound} characters (expected a few KB of prefix_rule calls): line ${cutLine} and after not read`);
  });
});

describe('history.json, imports and processes', () => {
  it('the TypeScript CLI history.json: user rows at their epoch-ms time, no session', async () => {
    const rows = await collectRows(parser('history'), memoryArtifact('.codex/history.json', JSON.stringify([{ command: 'explain this repo', timestamp: 1746180000000 }, { nope: 1 }])), recordingContext());
    expect(rows.map((r) => [r.timestamp_utc, r.text, r.session_id])).toEqual([['2025-05-02T10:00:00.000Z', 'explain this repo', '']]);
  });

  it('history.jsonl written with conversation_id (an interim build) is read the same', async () => {
    const rows = await collectRows(parser('history'), memoryArtifact('.codex/history.jsonl', '{"conversation_id":"ABC","ts":1790845205,"text":"hi"}\n'), recordingContext());
    expect(rows.map((r) => [r.session_id, r.text])).toEqual([['abc', 'hi']]);
  });

  it('external_agent_session_imports.json and chat_processes.json: imported sessions and background processes', async () => {
    const imports = await collectRows(parser('desktop-stores'), memoryArtifact('.codex/external_agent_session_imports.json', JSON.stringify({ records: [{ source_path: '/Users/u/.claude/projects/-x/a.jsonl', content_sha256: 'c186', imported_thread_id: T1, imported_at: 1779786297 }] })), recordingContext());
    expect(imports.map((r) => [r.session_id, r.text])).toEqual([[T1, 'session imported: from claude-code /Users/u/.claude/projects/-x/a.jsonl sha256=c186']]);
    const procs = await collectRows(parser('desktop-stores'), memoryArtifact('.codex/process_manager/chat_processes.json', JSON.stringify([{ command: 'npm run dev', conversationId: T2, cwd: '/srv/p', itemId: 'call_1', osPid: 42, processId: '7', startedAtMs: 1783131869284 }])), recordingContext());
    expect(procs.map((r) => [r.session_id, r.tool_use_id, r.project_path, r.text])).toEqual([[T2, 'call_1', '/srv/p', 'background process: pid=42 process=7 cwd=/srv/p command=npm run dev']]);
  });
});
