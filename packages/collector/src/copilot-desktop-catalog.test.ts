import { describe, expect, it } from 'vitest';
import { loadCatalogs } from './catalog.js';
import { classifyRel, type Disposition } from './classify.js';

const catalogs = loadCatalogs();
const desk = catalogs.find((c) => c.agent === 'copilot-desktop')!;
const cli = catalogs.find((c) => c.agent === 'copilot-cli')!;

// The paths of shared/agents/copilot-desktop.md (Collection: Known, Candidates, Credentials,
// Exclusions) → what collect must do with them.
const HOME: [string, Disposition][] = [
  // The SDK-managed CLI copies: the version directories stay (their names and times), the binaries are skipped.
  ['AppData/Local/github-copilot-sdk/cli/1.0.99-2/copilot.exe', 'exclude'],
  ['AppData/Local/github-copilot-sdk/cli/1.0.99-2/prebuilds/x.node', 'collect'],
  ['AppData/Local/github-copilot-sdk/cli/1.0.99-2/runtime.node', 'exclude'],
  ['AppData/Local/github-copilot-sdk/cli/1.0.99-2/package.json', 'collect'],
  ['Library/Caches/github-copilot-sdk/cli/1.0.98/copilot', 'exclude'],
  ['.cache/github-copilot-sdk/cli/1.0.98/copilot-runtime', 'exclude'],
  ['.cache/github-copilot-sdk/cli/1.0.98/VERSION', 'collect'],
  // Candidate app data directories.
  ['AppData/Roaming/GitHub Copilot/logs/main.log', 'collect'],
  ['AppData/Roaming/GitHub Copilot/settings.json', 'secret'],
  ['AppData/Roaming/GitHub Copilot/Network/Cookies', 'secret'],
  ['AppData/Roaming/GitHub Copilot/Local Storage/leveldb/000003.log', 'secret'],
  ['AppData/Roaming/GitHub Copilot/Cache/Cache_Data/data_0', 'exclude'],
  ['AppData/Local/GitHub Copilot/data.db', 'collect'],
  ['AppData/Local/com.github.copilot/EBWebView/Default/Cache/f_000001', 'exclude'],
  ['AppData/Local/com.github.copilot/EBWebView/Default/Network/Cookies', 'secret'],
  ['AppData/Local/com.github.copilot/data.db', 'collect'],
  ['Library/Application Support/GitHub Copilot/data.db', 'collect'],
  ['Library/Application Support/com.github.copilot/state.json', 'collect'],
  ['Library/Logs/GitHub Copilot/app.log', 'collect'],
  ['Library/WebKit/com.github.copilot/WebsiteData/x', 'collect'],
  ['Library/Preferences/com.github.copilot.plist', 'collect'],
  ['.config/GitHub Copilot/settings.json', 'secret'],
  ['.local/share/com.github.copilot/data.db', 'collect'],
  ['.config/com.github.copilot/config.toml', 'collect'],
  // The ~/.copilot files the app writes: claimed with copilot-cli.
  ['.copilot/data.db', 'collect'],
  ['.copilot/data.db-wal', 'collect'],
  ['.copilot/mcp-config.json', 'secret'],
  ['.copilot/.mcp-writer.binding', 'collect'],
  ['.copilot/.mcp-writer.lock', 'collect'],
  // The sessions the app drives are the CLI's, not the app's.
  ['.copilot/session-state/s/events.jsonl', 'none'],
  ['.copilot/session-store.db', 'none'],
  ['AppData/Local/copilot/mcp-tools/abc.json', 'none'],
];

describe('copilot-desktop catalog against its spec', () => {
  it.each(HOME)('home %s → %s', (rel, want) => {
    expect(classifyRel(desk, rel, false)).toBe(want);
  });

  it('every ~/.copilot file it claims is collected by copilot-cli too, with the same secret flag (a file two agents claim)', () => {
    for (const [rel, want] of HOME.filter(([r, d]) => r.startsWith('.copilot/') && d !== 'none')) expect(classifyRel(cli, rel, false), rel).toBe(want);
  });

  it('matches Windows and macOS homes case-insensitively', () => {
    expect(classifyRel(desk, 'appdata/local/GitHub-Copilot-SDK/cli/1.0.99-2/COPILOT.EXE', true)).toBe('exclude');
    expect(classifyRel(desk, 'appdata/roaming/github copilot/Settings.json', true)).toBe('secret');
  });
});
