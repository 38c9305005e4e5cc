import { describe, expect, it } from 'vitest';
import { makeRow } from '../../sdk/row.js';
import { globalStateParser } from './global-state.js';
import { historyParser } from './history.js';
import { settingsParser } from './settings.js';
import { processParser, sessionsIndexParser, todosParser } from './small-stores.js';
import { parseText } from './test-helpers/context.js';

const S = '5e55a0a1-0000-4000-8000-000000000001';
const MTIME = '2026-10-01T10:00:00.000Z';

describe('history.jsonl', () => {
  it('pastes: inline content and the collected paste-cache file replace their placeholders; a missing one stays', async () => {
    const line = {
      display: 'look at [Pasted text #1 +3 lines] and [Pasted text #2 +900 lines] and [Pasted text #3 +2 lines]',
      pastedContents: { '1': { id: 1, type: 'text', content: 'a\nb\nc' }, '2': { id: 2, type: 'text', contentHash: 'abcdef0123456789' }, '3': { id: 3, type: 'text', contentHash: 'ffffffffffffffff' } },
      timestamp: 1790845201150,
      project: '/srv/proj',
      sessionId: S,
    };
    const { rows } = await parseText(historyParser, '.claude/history.jsonl', `${JSON.stringify(line)}\n`, { files: { '.claude/paste-cache/abcdef0123456789.txt': 'BIG PASTE' } });
    expect(rows.map((r) => r.text)).toEqual(['look at a\nb\nc and BIG PASTE and [Pasted text #3 +2 lines]']);
  });

  it('a line without sessionId keeps an empty session; a bad line is a bad-line row; the project is a cwd fact', async () => {
    const { rows, ctx } = await parseText(historyParser, '.claude/history.jsonl', '{"display":"/model sonnet","pastedContents":{},"timestamp":1790845201150,"project":"C:\\\\Users\\\\me\\\\app"}\n{bad\n{"display":"x","timestamp":1790845202000,"project":"/srv/proj","sessionId":"s1"}\n');
    expect(rows.map((r) => [r.turn_type, r.text, r.session_id, r.project_path, r.source_line, r.tag])).toEqual([
      ['user', '/model sonnet', '', 'C:\\Users\\me\\app', 1, 'history'],
      ['system', 'parser: unparseable line (invalid JSON): {bad', '', '', 2, 'bad_line'],
      ['user', 'x', 's1', '/srv/proj', 3, 'history'],
    ]);
    expect(ctx.facts).toEqual([{ session_id: 's1', key: 'cwd', value: '/srv/proj', priority: 3 }]);
  });
});

describe('.claude.json', () => {
  it('allowed tools, untrusted projects, legacy history (undated, newest first); never the API key or MCP env', async () => {
    const state = {
      primaryApiKey: 'sk-ant-SECRET',
      customApiKeyResponses: { approved: ['SECRETFRAG'], rejected: [] },
      mcpServers: { gh: { command: 'x', env: { GITHUB_TOKEN: 'ghp_SECRET' } } },
      projects: {
        '/srv/a': { allowedTools: ['Bash(git status)', 'Edit'], hasTrustDialogAccepted: false, history: [{ display: 'newest', pastedContents: {} }, { display: 'older', pastedContents: {} }], mcpServers: { x: { headers: { Authorization: 'Bearer SECRET' } } } },
      },
    };
    const { rows } = await parseText(globalStateParser, '.claude.json', JSON.stringify(state), { fields: { mtime: MTIME } });
    expect(rows).toEqual([
      makeRow('system', 'project trust: not accepted', { timestamp_utc: MTIME, project_path: '/srv/a', tag: 'project_trust' }),
      makeRow('system', 'permission setting: projects.allowedTools=Bash(git status)', { timestamp_utc: MTIME, project_path: '/srv/a', tag: 'permission_setting' }),
      makeRow('system', 'permission setting: projects.allowedTools=Edit', { timestamp_utc: MTIME, project_path: '/srv/a', tag: 'permission_setting' }),
      makeRow('user', 'newest', { project_path: '/srv/a', source_line: 1, tag: 'history' }),
      makeRow('user', 'older', { project_path: '/srv/a', source_line: 2, tag: 'history' }),
    ]);
    expect(rows.some((r) => r.text.includes('SECRET'))).toBe(false);
  });

  it('invalid JSON is one unreadable row that quotes nothing of the file', async () => {
    for (const [p, rel] of [[globalStateParser, '.claude.json'], [settingsParser, '.claude/settings.json']] as const) {
      const { rows } = await parseText(p, rel, '{"primaryApiKey":"sk-ant-SECRET",');
      expect(rows.map((r) => [r.tag, r.text])).toEqual([['unreadable', 'parser: unreadable file (invalid JSON; the parse error is not printed: the file may hold credentials)']]);
    }
  });

  it('opts in to the flagged files it reads, and to no other', () => {
    expect(globalStateParser.readsSecretFile?.('.claude.json')).toBe(true);
    expect(globalStateParser.readsSecretFile?.('.claude/.claude.json')).toBe(true);
    expect(settingsParser.readsSecretFile?.('.claude/settings.local.json')).toBe(true);
    expect(settingsParser.readsSecretFile?.('etc/claude-code/managed-settings.json')).toBe(true);
    for (const rel of ['.claude/.credentials.json', '.claude/ide/1.lock', '.claude.json.backup']) {
      expect(globalStateParser.readsSecretFile?.(rel), rel).toBe(false);
      expect(settingsParser.readsSecretFile?.(rel), rel).toBe(false);
    }
  });
});

describe('settings', () => {
  const settings = {
    permissions: { allow: ['Bash(npm test *)'], deny: ['Read(./.env)'], ask: ['WebFetch(domain:example.com)'], defaultMode: 'acceptEdits', additionalDirectories: ['/srv/shared'] },
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '/usr/local/bin/audit.sh', timeout: 5 }] }], SessionStart: [{ hooks: [{ type: 'command', command: 'echo hi' }] }] },
    cleanupPeriodDays: 7,
    desktopSessionCleanupPeriodDays: 90,
    env: { ANTHROPIC_API_KEY: 'sk-ant-SECRET' },
    apiKeyHelper: '/bin/print-key',
  };

  it('every rule kind, hooks, both retention keys and env names, labelled by scope', async () => {
    for (const [scope, label] of [['home', 'user'], ['project', 'project'], ['system', 'managed']] as const) {
      const rel = scope === 'system' ? 'etc/claude-code/managed-settings.json' : '.claude/settings.local.json';
      const { rows } = await parseText(settingsParser, rel, JSON.stringify(settings), { fields: { scope, mtime: MTIME } });
      expect(rows.map((r) => r.text)).toEqual([
        `permission setting: ${label}.permissions.allow=Bash(npm test *)`,
        `permission setting: ${label}.permissions.deny=Read(./.env)`,
        `permission setting: ${label}.permissions.ask=WebFetch(domain:example.com)`,
        `permission setting: ${label}.permissions.defaultMode=acceptEdits`,
        `permission setting: ${label}.permissions.additionalDirectories=/srv/shared`,
        `hook setting: ${label}.PreToolUse matcher=Bash command=/usr/local/bin/audit.sh`,
        `hook setting: ${label}.SessionStart matcher=- command=echo hi`,
        `retention setting: ${label}.cleanupPeriodDays=7`,
        `retention setting: ${label}.desktopSessionCleanupPeriodDays=90`,
        `env setting: ${label}.ANTHROPIC_API_KEY`,
      ]);
      expect(rows.every((r) => r.timestamp_utc === MTIME && r.session_id === '')).toBe(true);
      expect(rows.some((r) => r.text.includes('SECRET'))).toBe(false);
    }
  });
});

describe('todos, process registry, sessions index', () => {
  it('a non-empty todo list is a TodoWrite tool_use with the compact {"todos":[...]} text, at the mtime', async () => {
    const todos = [{ content: 'Run tests', status: 'in_progress', activeForm: 'Running tests' }];
    const { rows } = await parseText(todosParser, `.claude/todos/${S}-agent-${S}.json`, JSON.stringify(todos, null, 2), { fields: { mtime: MTIME } });
    expect(rows).toEqual([
      makeRow('tool_use', '{"todos":[{"activeForm":"Running tests","content":"Run tests","status":"in_progress"}]}', { timestamp_utc: MTIME, session_id: S, tool_name: 'TodoWrite', tag: 'todo_state' }),
    ]);
    expect(todosParser.secondary('x')).toBe(true);
    expect(todosParser.secondaryToleranceSeconds('x')).toBe(3600);
  });

  it('sessions/<pid>.json: a session process row at startedAt; cwd and client facts', async () => {
    const body = JSON.stringify({ pid: 4242, cwd: '/srv/proj', startedAt: 1790845199000, kind: 'interactive', sessionId: S, status: 'busy', entrypoint: 'cli' });
    const { rows, ctx } = await parseText(processParser, '.claude/sessions/4242.json', body);
    expect(rows).toEqual([
      makeRow('system', 'session process: pid=4242 kind=interactive status=busy entrypoint=cli', { timestamp_utc: '2026-10-01T08:59:59.000Z', session_id: S, project_path: '/srv/proj', tag: 'session_process' }),
    ]);
    expect(ctx.facts).toEqual([
      { session_id: S, key: 'cwd', value: '/srv/proj', priority: 3 },
      { session_id: S, key: 'client', value: 'cli', priority: 3 },
    ]);
  });

  it('sessions-index.json gives no rows, only project and branch facts', async () => {
    const body = JSON.stringify({ version: 1, entries: [{ sessionId: S, projectPath: '/srv/proj', gitBranch: 'main', firstPrompt: 'x' }] });
    const { rows, ctx } = await parseText(sessionsIndexParser, '.claude/projects/-srv-proj/sessions-index.json', body);
    expect(rows).toEqual([]);
    expect(ctx.facts).toEqual([
      { session_id: S, key: 'cwd', value: '/srv/proj', priority: 3 },
      { session_id: S, key: 'branch', value: 'main', priority: 3 },
    ]);
  });
});
