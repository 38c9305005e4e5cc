import { describe, expect, it } from 'vitest';
import { claudeCodePlugin } from './index.js';
import { sessionIdFromPath, toolResultSiblingPath } from './paths.js';

const S = '5e55a0a1-0000-4000-8000-000000000001';
const owner = (rel: string) => claudeCodePlugin.parsers.filter((p) => p.wants(rel)).map((p) => p.name);

describe('wants(): spec paths in, noise and secrets out', () => {
  const wanted: [string, string][] = [
    [`.claude/projects/-srv-proj/${S}.jsonl`, 'transcript'],
    [`.claude/projects/-srv-proj/${S}.orphaned-20261001T090000-ab12.jsonl`, 'transcript'],
    [`.claude/projects/-srv-proj/${S}.jsonl.superseded-20261001T090000`, 'transcript'],
    ['.claude/projects/-srv-proj/agent-a1b2c3d4.jsonl', 'transcript'],
    [`.claude/projects/-srv-proj/${S}/subagents/agent-a0f1e2d3c4b5a6978.jsonl`, 'transcript'],
    [`.claude/projects/-srv-proj/${S}/subagents/workflows/wf_1/agent-review-0a1b.jsonl`, 'transcript'],
    [`.claude-personal/projects/C--Users-me-my-app/${S}.jsonl`, 'transcript'],
    [`.config/claude/projects/-home-me/${S}.jsonl`, 'transcript'],
    [`.CLAUDE/Projects/-Users-me/${S}.jsonl`, 'transcript'],
    ['.claude/projects/-srv-proj/sessions-index.json', 'sessions-index'],
    ['.claude/history.jsonl', 'history'],
    ['.claude-work/history.jsonl', 'history'],
    [`.claude/todos/${S}-agent-${S}.json`, 'todos'],
    ['.claude/sessions/4242.json', 'process-registry'],
    ['.claude/settings.json', 'settings'],
    ['.claude/settings.local.json', 'settings'],
    ['etc/claude-code/managed-settings.json', 'settings'],
    ['/Library/Application Support/ClaudeCode/managed-settings.d/10-org.json', 'settings'],
    ['.claude.json', 'global-state'],
    ['.claude-custom-oauth.json', 'global-state'],
    ['.claude/.claude.json', 'global-state'],
    ['.mcp.json', 'mcp-config'],
    ['etc/claude-code/managed-mcp.json', 'mcp-config'],
    ['.cache/claude-cli-nodejs/-srv-proj/mcp-logs-github/2026-10-01T09-00-00-000Z.jsonl', 'mcp-logs'],
    ['.cache/claude-cli-nodejs/-srv-proj/mcp-logs-github/2026-10-01.txt', 'mcp-logs'],
  ];
  it.each(wanted)('%s → %s', (rel, name) => {
    expect(owner(rel)).toEqual([name]);
  });

  const unwanted = [
    '.claude/.credentials.json',
    '.claude-personal/.credentials.json',
    '.claude/ide/51234.lock',
    '.claude/sessions/4242.key',
    '.claude/.session_ingress_token',
    '.claude/hfi-auth.json',
    '.claude/.device-keys.json',
    '.claude.json.backup',
    '.claude.json.backup.1790845200000',
    '.claude/backups/.claude.json.backup.1790845200000',
    `.claude/projects/-srv-proj/${S}/subagents/agent-a0f1e2d3c4b5a6978.meta.json`,
    `.claude/projects/-srv-proj/${S}/subagents/workflows/wf_1/journal.jsonl`,
    `.claude/projects/-srv-proj/${S}/tool-results/toolu_01.txt`,
    '.claude/projects/-srv-proj/memory/MEMORY.md',
    '.claude/projects/-srv-proj/.session-aliases',
    `.claude/file-history/${S}/0123456789abcdef@v1`,
    '.claude/paste-cache/0123456789abcdef.txt',
    '.claude/shell-snapshots/snapshot-bash-1790845199000-ab12cd.sh',
    '.claude/statsig/statsig.stable_id.2656274335',
    `.claude/debug/${S}.txt`,
    '.claude/plans/steady-napping-oasis.md',
    '.claude/stats-cache.json',
    '.claude/plugins/installed_plugins.json',
    '.claude/CLAUDE.md',
    '.claude/mcp.json',
    '.cache/claude-cli-nodejs/-srv-proj/errors/2026-10-01.txt',
    `.claude/todos/${S}-agent-${S}.json.bak`,
    '.claude/sessions/abc.json',
    'history.jsonl',
  ];
  it.each(unwanted)('%s → none', (rel) => {
    expect(owner(rel)).toEqual([]);
  });

  it('only history, todos and the global state (legacy history) are secondary', () => {
    const secondary = claudeCodePlugin.parsers.filter((p) => p.secondary('x')).map((p) => p.name);
    expect(secondary.sort()).toEqual(['global-state', 'history', 'todos']);
    expect(claudeCodePlugin.parsers.every((p) => p.recordsSync === false && p.agent === 'claude-code')).toBe(true);
  });
});

describe('session ids and sibling paths from the path, never from the slug', () => {
  it('main, set-aside, subagent and flat agent files', () => {
    expect(sessionIdFromPath(`.claude/projects/-srv-proj/${S}.jsonl`)).toBe(S);
    expect(sessionIdFromPath(`.claude/projects/-srv-proj/${S}.jsonl.superseded-x`)).toBe(S);
    expect(sessionIdFromPath(`.claude/projects/-srv-proj/${S}/subagents/workflows/wf/agent-x.jsonl`)).toBe(S);
    expect(sessionIdFromPath('.claude/projects/-srv-proj/agent-x.jsonl')).toBe('');
  });

  it('tool-results sibling from a main transcript and from a nested subagent file', () => {
    expect(toolResultSiblingPath(`.claude/projects/p/${S}.jsonl`, S, 'a.txt')).toBe(`${S}/tool-results/a.txt`);
    expect(toolResultSiblingPath(`.claude/projects/p/${S}/subagents/wf/agent-x.jsonl`, S, 'a.txt')).toBe('../../tool-results/a.txt');
    expect(toolResultSiblingPath(`.claude/projects/p/${S}.jsonl`, S, '../../.credentials.json')).toBeUndefined();
  });
});
