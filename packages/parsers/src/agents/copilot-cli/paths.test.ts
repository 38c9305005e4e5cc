import { describe, expect, it } from 'vitest';
import { copilotCliPlugin } from './index.js';
import { COPILOT_PATTERNS, matcher, sessionIdFromRel } from './paths.js';

const SID = '5e55a0a1-0000-4000-8000-000000000001';
const SHA = '6b9af143446a411aefa3edb76e4693799bd7513e7ed8d919962d6713d3d3b972';
const HOMES = ['.copilot', '.local/state/.copilot', '.config/.copilot'];

// [path under a config home, the parser that must want it]
const WANTED: [string, string][] = [
  [`session-state/${SID}/workspace.yaml`, 'workspace'],
  [`session-state/${SID}/rewind-file-snapshots/index.json`, 'rewind-snapshots'],
  [`session-state/${SID}/rewind-snapshots/index.json`, 'rewind-snapshots'],
  ['session-store.db', 'session-store'],
  ['command-history-state.json', 'command-history'],
  ['permissions-config.json', 'permissions-config'],
  ['settings.json', 'settings'],
  [`sidebar-sessions-state/${SHA}.json`, 'sidebar-sessions'],
  ['logs/process-1790845199000-4242.log', 'process-log'],
  ['logs/process-1792273608752-2868.1.log', 'process-log'],
  ['logs/process-1792273608752-2868.4.log', 'process-log'],
  ['mcp-config.json', 'mcp-config'],
  ['mcp-config', 'mcp-config'],
  [`session-state/${SID}/vscode.metadata.json`, 'vscode-metadata'],
];

// Noise and secrets: no copilot-cli parser may want them, under any home.
const REFUSED = [
  'config.json',
  'mcp-oauth-config.json',
  '.mcp-writer.binding',
  'vscode.session.metadata.cache.json',
  'open-sessions-state.json',
  `session-state/${SID}/rewind-file-snapshots/tracking.json`,
  `session-state/${SID}/checkpoints/index.md`,
  `session-state/${SID}/session.db`,
  `session-state/${SID}/plan.md`,
  'session-store.db-wal',
  'session-store.db-shm',
  'logs/.copilot-log.lock',
  'logs/process-1790845199000-4242.log.bak',
  'logs/process-abc-4242.log',
  'sidebar-sessions-state/short.json',
  `session-state/not-a-session/workspace.yaml`,
  `session-state/${SID}/files/workspace.yaml`,
];

function wantedBy(rel: string): string[] {
  return copilotCliPlugin.parsers.filter((p) => p.wants(rel)).map((p) => p.name);
}

describe('copilot-cli wants()', () => {
  for (const home of HOMES) {
    for (const [rel, parser] of WANTED) {
      it(`${home}/${rel} is wanted by ${parser} alone`, () => {
        expect(wantedBy(`${home}/${rel}`)).toEqual([parser]);
      });
    }
    for (const rel of REFUSED) {
      it(`${home}/${rel} is refused`, () => {
        expect(wantedBy(`${home}/${rel}`)).toEqual([]);
      });
    }
    it(`${home} events.jsonl is wanted by the events parser alone`, () => {
      const rel = `${home}/session-state/${SID}/events.jsonl`;
      expect(matcher(COPILOT_PATTERNS.events)(rel)).toBe(true);
      expect(wantedBy(rel)).toEqual(['events']);
    });
  }

  it('wants the project MCP files (rel from the project root) and the MCP tool caches of every OS', () => {
    for (const rel of ['.mcp.json', '.github/mcp.json', '.github/copilot/settings.json', '.github/copilot/settings.local.json']) expect(wantedBy(rel)).toEqual(['mcp-config']);
    for (const dir of ['AppData/Local/copilot', 'Library/Caches/copilot', '.cache/copilot']) expect(wantedBy(`${dir}/mcp-tools/${SHA}.json`)).toEqual(['mcp-tools']);
    for (const rel of ['x/.mcp.json', '.github/copilot/settings.json.bak', 'AppData/Local/copilot/mcp-tools/a/b.json', '.copilot/mcp-tools/x.json', `session-state/${SID}/vscode.metadata.json`]) {
      expect(wantedBy(rel)).toEqual([]);
    }
  });

  it('refuses paths outside the three config homes', () => {
    for (const rel of ['copilot/session-store.db', 'x/.copilot/session-store.db', '.cache/copilot/settings.json', 'AppData/Local/copilot/settings.json', '.copilot']) {
      expect(wantedBy(rel)).toEqual([]);
    }
  });

  it('declares every pattern it matches with', () => {
    for (const p of copilotCliPlugin.parsers) {
      expect(p.agent).toBe('copilot-cli');
      expect(p.patterns.length).toBeGreaterThan(0);
      for (const src of p.patterns) expect(() => new RegExp(src)).not.toThrow();
    }
    expect(new Set(copilotCliPlugin.parsers.map((p) => p.name)).size).toBe(copilotCliPlugin.parsers.length);
  });

  it('marks the store, the history and the snapshots secondary, with their tolerances', () => {
    const by = (name: string) => copilotCliPlugin.parsers.find((p) => p.name === name)!;
    expect(by('session-store').secondary('.copilot/session-store.db')).toBe(true);
    expect(by('session-store').secondaryToleranceSeconds('.copilot/session-store.db')).toBe(3600);
    expect(by('command-history').secondary('.copilot/command-history-state.json')).toBe(true);
    expect(by('command-history').secondaryToleranceSeconds('.copilot/command-history-state.json')).toBe(0);
    const snap = `.copilot/session-state/${SID}/rewind-file-snapshots/index.json`;
    expect(by('rewind-snapshots').secondary(snap)).toBe(true);
    expect(by('rewind-snapshots').secondaryToleranceSeconds(snap)).toBe(3600);
    expect(by('workspace').secondary(`.copilot/session-state/${SID}/workspace.yaml`)).toBe(false);
    for (const p of copilotCliPlugin.parsers) expect(p.recordsSync).toBe(true);
  });

  it('reads the session id from the session directory', () => {
    expect(sessionIdFromRel(`.copilot/session-state/${SID}/workspace.yaml`)).toBe(SID);
    expect(sessionIdFromRel('.copilot/session-store.db')).toBe('');
  });
});
