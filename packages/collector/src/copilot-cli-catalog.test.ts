import { describe, expect, it } from 'vitest';
import { loadCatalogs } from './catalog.js';
import { classifyRel, type Disposition } from './classify.js';

const cop = loadCatalogs().find((c) => c.agent === 'copilot-cli')!;

// Every path the seed names (Collection, Credentials, Exclusions) → what collect must do with it.
const HOME: [string, Disposition][] = [
  ['.copilot/session-state/5e55a0a1-0000-4000-8000-000000000001/events.jsonl', 'collect'],
  ['.copilot/session-state/5e55a0a1-0000-4000-8000-000000000001/workspace.yaml', 'collect'],
  ['.copilot/session-state/s/plan.md', 'collect'],
  ['.copilot/session-state/s/autopilot-objective.json', 'collect'],
  ['.copilot/session-state/s/checkpoints/index.md', 'collect'],
  ['.copilot/session-state/s/files/a.txt', 'collect'],
  ['.copilot/session-state/s/research/r.md', 'collect'],
  ['.copilot/session-state/s/rewind-file-snapshots/index.json', 'collect'],
  ['.copilot/session-state/s/rewind-file-snapshots/tracking.json', 'collect'],
  ['.copilot/session-state/s/.workspace-fork.lock', 'collect'],
  ['.copilot/session-state/s/inuse.2868.hold', 'collect'],
  ['.copilot/session-state/s/session.db', 'collect'],
  ['.copilot/session-state/s/vscode.metadata.json', 'collect'],
  ['.copilot/session-state/s.jsonl', 'collect'],
  ['.copilot/session-state/.session-operation-locks/u.lock', 'collect'],
  ['.copilot/session-store.db', 'collect'],
  ['.copilot/session-store.db-wal', 'collect'],
  ['.copilot/session-store.db-shm', 'collect'],
  ['.copilot/command-history-state.json', 'collect'],
  ['.copilot/open-sessions-state.json', 'collect'],
  ['.copilot/sidebar-sessions-state/6b9af143446a411aefa3edb76e4693799bd7513e7ed8d919962d6713d3d3b972.json', 'collect'],
  ['.copilot/installed-plugins.lock', 'collect'],
  ['.copilot/plugin-data/x', 'collect'],
  ['.copilot/providers.json', 'collect'],
  ['.copilot/logs/process-1792273608752-2868.log', 'collect'],
  ['.copilot/logs/.copilot-log.lock', 'collect'],
  ['.copilot/ide/u.lock', 'collect'],
  ['.copilot/permissions-config.json', 'collect'],
  ['.copilot/lsp-config.json', 'collect'],
  ['.copilot/copilot-instructions.md', 'collect'],
  ['.copilot/instructions/a.instructions.md', 'collect'],
  ['.copilot/agents/a.agent.md', 'collect'],
  ['.copilot/skills/s/SKILL.md', 'collect'],
  ['.copilot/hooks/h.json', 'collect'],
  ['.copilot/.mcp-writer.binding', 'collect'],
  ['.copilot/.mcp-writer.lock', 'collect'],
  ['.copilot/config.json', 'secret'],
  ['.copilot/settings.json', 'secret'],
  ['.copilot/mcp-config.json', 'secret'],
  ['.copilot/mcp-config', 'secret'],
  ['.copilot/mcp-oauth-config', 'secret'],
  ['.copilot/mcp-oauth-config.json', 'secret'],
  ['.copilot/mcp-secrets/index.json', 'secret'],
  ['.copilot/pkg/linux-x64/1.0.98/cli-main.js', 'exclude'],
  ['.copilot/installed-plugins/market/plugin/plugin.json', 'exclude'],
  ['.local/state/.copilot/session-state/s/events.jsonl', 'collect'],
  ['.local/state/.copilot/session-store.db', 'collect'],
  ['.local/state/.copilot/command-history-state.json', 'collect'],
  ['.config/.copilot/config.json', 'secret'],
  ['.config/.copilot/mcp-config.json', 'secret'],
  ['.config/.copilot/mcp-oauth-config', 'secret'],
  ['.config/.copilot/permissions-config.json', 'collect'],
  ['.config/.copilot/copilot-instructions.md', 'collect'],
  ['.config/gh/hosts.yml', 'secret'],
  ['.cache/copilot/copilot-user-cache.json', 'collect'],
  ['.cache/copilot/exp-cache.json', 'collect'],
  ['.cache/copilot/managed-settings/abc.json', 'collect'],
  ['.cache/copilot/memory-enablement-cache-config.json', 'collect'],
  ['.cache/copilot/pkg/linux-arm64/1.0.98/prebuilds/linux-arm64/runtime.node', 'exclude'],
  ['.cache/copilot/marketplaces/.auto-update.lock', 'exclude'],
  ['Library/Caches/copilot/copilot-user-cache.json', 'collect'],
  ['Library/Caches/copilot/pkg/darwin-arm64/1.0.98/app.js', 'exclude'],
  ['Library/Caches/copilot/marketplaces/.auto-update.lock', 'exclude'],
  ['AppData/Local/copilot/copilot-user-cache.json', 'collect'],
  ['AppData/Local/copilot/exp-cache.json', 'collect'],
  ['AppData/Local/copilot/managed-settings.abc.order.json', 'collect'],
  ['AppData/Local/copilot/managed-settings.abc.fence', 'collect'],
  ['AppData/Local/copilot/mcp-tools/abc.json', 'collect'],
  ['AppData/Local/copilot/tgrep-serve.lock', 'collect'],
  ['AppData/Local/copilot/pkg/win32-arm64/1.0.98/copilot.exe', 'exclude'],
  ['AppData/Local/copilot/marketplaces/github-awesome-copilot/README.md', 'exclude'],
  ['AppData/Local/copilot/marketplaces/freshness.json', 'exclude'],
  // Outside the catalog (seed: "Outside the catalog", Credentials).
  ['.cache/Microsoft/DeveloperTools/deviceid', 'none'],
  ['.local/share/keyrings/login.keyring', 'none'],
  ['AppData/Local/Microsoft/WinGet/Packages/GitHub.Copilot_Microsoft.Winget.Source_8wekyb3d8bbwe/copilot.exe', 'none'],
  ['AppData/Roaming/Microsoft/Credentials/ABC', 'none'],
  ['AppData/Local/github-copilot-sdk/cli/1.0.99-2/copilot.exe', 'none'],
  ['.config/github-copilot/hosts.json', 'none'],
];

const PROJECT: [string, Disposition][] = [
  ['.github/copilot-instructions.md', 'collect'],
  ['.github/instructions/a.instructions.md', 'collect'],
  ['.github/git-commit-instructions.md', 'collect'],
  ['AGENTS.md', 'collect'],
  ['CLAUDE.md', 'collect'],
  ['GEMINI.md', 'collect'],
  ['.claude/rules/a/b.md', 'collect'],
  ['.github/lsp.json', 'collect'],
  ['.github/hooks/pre.json', 'collect'],
  ['.github/skills/s/SKILL.md', 'collect'],
  ['.github/agents/a.agent.md', 'collect'],
  ['.github/copilot/settings.json', 'secret'],
  ['.github/copilot/settings.local.json', 'secret'],
  ['.github/mcp.json', 'secret'],
  ['.mcp.json', 'secret'],
  ['src/index.ts', 'none'],
  ['README.md', 'none'],
];

describe('copilot-cli catalog against the seed', () => {
  it.each(HOME)('home %s → %s', (rel, want) => {
    expect(classifyRel(cop, rel, false)).toBe(want);
  });
  it.each(PROJECT)('project %s → %s', (rel, want) => {
    expect(classifyRel(cop, rel, false, 'project')).toBe(want);
  });
  it('matches Windows and macOS homes case-insensitively', () => {
    expect(classifyRel(cop, 'appdata/local/Copilot/PKG/win32-arm64/x', true)).toBe('exclude');
    expect(classifyRel(cop, 'AppData/Local/Copilot/copilot-user-cache.json', true)).toBe('collect');
    expect(classifyRel(cop, '.Copilot/Config.json', true)).toBe('secret');
    expect(classifyRel(cop, '.Copilot/Config.json', false)).toBe('none');
  });
  it('names the system policy paths, the env home and the project hints', () => {
    expect(cop.system).toEqual(['/etc/github-copilot/managed-settings.json', '/etc/github-copilot/policy.d/**']);
    expect(cop.env_homes[0]).toEqual({ var: 'COPILOT_HOME', rel: '.copilot' });
    // Every variable the seed names for a moved place (Collection: XDG handling, Package cache).
    expect(new Set(cop.env_homes.map((e) => e.var))).toEqual(
      new Set(['COPILOT_HOME', 'XDG_STATE_HOME', 'XDG_CONFIG_HOME', 'GH_CONFIG_DIR', 'XDG_CACHE_HOME', 'COPILOT_CACHE_HOME', 'COPILOT_PKG_CACHE_HOME']),
    );
    expect(cop.project_hints.map((h) => h.file)).toContain('.copilot/permissions-config.json');
    // Every cwd of an event log (session.start, resumes, session.context_changed), not the first line only.
    const events = cop.project_hints.find((h) => h.file === '.copilot/session-state/*/events.jsonl')!;
    expect(events).toMatchObject({ path: ['data.context.cwd', 'data.cwd'], max_lines: 'all', where: [{ path: 'type', values: ['session.start', 'session.resume', 'session.context_changed'] }] });
  });
});
