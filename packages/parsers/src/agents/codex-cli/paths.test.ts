import { describe, expect, it } from 'vitest';
import { codexCliPlugin } from './index.js';
import { notParsedReason, sessionIdFromPath } from './paths.js';

const who = (rel: string) => codexCliPlugin.parsers.filter((p) => p.wants(rel)).map((p) => p.name);
const ID = '019d688b-3b5f-72c0-8028-4a4af562b9f5';

describe('which parser wants which path', () => {
  it.each([
    [`.codex/sessions/2026/04/07/rollout-2026-04-07T23-24-08-${ID}.jsonl`, 'rollout'],
    [`.codex/archived_sessions/rollout-2026-04-07T23-24-08-${ID}.jsonl`, 'rollout'],
    [`.codex/archived_sessions/rollout-2026-04-07T23-24-08-${ID}.jsonl.zst`, 'rollout'],
    [`.Codex/Sessions/2026/04/07/rollout-2026-04-07T23-24-08-${ID}.JSONL`, 'rollout'],
    [`.codex/main_codex.back/sessions/2025/08/19/rollout-2025-08-19T08-25-08-${ID}.jsonl`, 'rollout'],
    [`.codex/sessions/rollout-2025-08-23-${ID}.json`, 'legacy-session'],
    [`.codex/sessions/${ID}.json`, 'legacy-session'],
    ['.codex/history.jsonl', 'history'],
    ['.codex/history.json', 'history'],
    ['.codex/session_index.jsonl', 'session-index'],
    ['.codex/state_5.sqlite', 'state-db'],
    ['.codex/state.sqlite', 'state-db'],
    ['.codex/thread_history_1.sqlite', 'thread-history-db'],
    ['.codex/logs_2.sqlite', 'logs'],
    ['.codex/log/codex-tui.log', 'logs'],
    ['.codex/config.toml', 'config'],
    ['.codex/config.toml.backup.2026-04-08T14-13-31Z', 'config'],
    ['.codex/hooks.json', 'config'],
    ['.codex/rules/default.rules', 'rules'],
    ['.codex/policy/default.codexpolicy', 'rules'],
    ['.codex/external_agent_session_imports.json', 'desktop-stores'],
    ['.codex/process_manager/chat_processes.json', 'desktop-stores'],
  ])('%s → %s', (rel, name) => {
    expect(who(rel)).toEqual([name]);
  });

  it.each([
    '.codex/auth.json',
    '.codex/.credentials.json',
    `.codex/shell_snapshots/${ID}.1775656966489519000.sh`,
    '.codex/logs_1.sqlite-wal',
    '.codex/state_5.sqlite-shm',
    '.codex/goals_1.sqlite',
    '.codex/skills/pdf/config.toml',
    '.codex/plugins/cache/x/config.toml',
    `.codex/sessions/2026/04/07/notes-${ID}.txt`,
    '.codex/sessions/2026/04/07/rollout-x.json',
    '.claude/history.jsonl',
    'history.jsonl',
  ])('%s is not wanted', (rel) => {
    expect(who(rel)).toEqual([]);
  });
});

describe('path helpers', () => {
  it('the thread id a file name ends with, lowercased; none for other names', () => {
    expect(sessionIdFromPath(`.codex/sessions/2026/04/07/rollout-2026-04-07T23-24-08-${ID.toUpperCase()}.jsonl.zst`)).toBe(ID);
    expect(sessionIdFromPath(`.codex/sessions/rollout-2025-08-23-${ID}.json`)).toBe(ID);
    expect(sessionIdFromPath('.codex/sessions/2026/04/07/rollout-x.jsonl')).toBe('');
  });

  it('a reason for every Codex file no parser reads; none for a file one does or a file not Codex’s', () => {
    expect(notParsedReason('.codex/auth.json')).toMatch(/credentials/);
    expect(notParsedReason(`.codex/shell_snapshots/${ID}.sh`)).toMatch(/shell snapshot/);
    expect(notParsedReason('.codex/logs_1.sqlite-wal')).toMatch(/sidecar/);
    expect(notParsedReason('.codex/memories_1.sqlite')).toMatch(/not timeline evidence yet/);
    expect(notParsedReason('.codex/version.json')).toMatch(/bookkeeping/);
    expect(notParsedReason('.codex/attachments/a/pasted-text.txt')).toMatch(/attachments/);
    expect(notParsedReason('.claude/auth.json')).toBe('');
  });
});
