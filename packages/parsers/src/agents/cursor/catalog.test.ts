import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { editorDataDirs } from '../../sdk/editors.js';
import { cursorParsers, cursorPlugin } from './index.js';

// The catalog is the collector's; this checks it from the parsers' side: every file a parser reads
// is collected in every Cursor data folder, the flagged files are the ones the parsers opt in to,
// and the exclusions the spec lists hold.
const FILE = fileURLToPath(new URL('../../../../collector/catalog/cursor.yaml', import.meta.url));
const cat = parse(readFileSync(FILE, 'utf8')) as Record<string, unknown>;
const list = (k: string) => (cat[k] ?? []) as string[];
const DIRS = (editorDataDirs('cursor') ?? []).map((d) => d.dir);

// @cursor/<rest> stands for <rest> under each Cursor data folder (docs/catalog.md, "Anchors").
const expand = (globs: string[]) => globs.flatMap((g) => (g.startsWith('@cursor/') ? DIRS.map((d) => `${d}/${g.slice('@cursor/'.length)}`) : [g]));

function globRe(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      re += glob[i + 2] === '/' ? '(?:.*/)?' : '.*';
      i += glob[i + 2] === '/' ? 2 : 1;
    } else if (c === '*') re += '[^/]*';
    else re += c.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  }
  // Case-sensitive, as on a Linux home: there `.config/cursor` (the CLI's) is not `.config/Cursor` (the editor's).
  return new RegExp(`^${re}$`);
}
const any = (globs: string[], rel: string) => expand(globs).some((g) => globRe(g).test(rel));
const collected = (rel: string) => any(list('collect'), rel) && !any(list('exclude'), rel);

describe('cursor catalog', () => {
  it('agent id = file name = parser folder; only documented keys; the anchor reaches every place', () => {
    expect([cat.agent, cursorPlugin.agent]).toEqual(['cursor', 'cursor']);
    const documented = ['agent', 'name', 'version', 'references', 'env_homes', 'collect', 'exclude', 'secrets', 'collect_if', 'project', 'system', 'project_hints'];
    expect(Object.keys(cat).filter((k) => !documented.includes(k))).toEqual([]);
    expect(DIRS).toEqual(['.config/Cursor', 'Library/Application Support/Cursor', 'AppData/Roaming/Cursor', '.cursor-server/data']);
  });

  it('collects every file a parser reads, in every data folder, with its SQLite sidecars', () => {
    for (const d of DIRS) {
      for (const rest of ['User/globalStorage/state.vscdb', 'User/globalStorage/state.vscdb-wal', 'User/globalStorage/state.vscdb-shm', 'User/globalStorage/state.vscdb-journal', 'User/globalStorage/state.vscdb.backup', 'User/workspaceStorage/a1/state.vscdb', 'User/workspaceStorage/a1/state.vscdb-journal', 'User/workspaceStorage/a1/workspace.json']) {
        const rel = `${d}/${rest}`;
        expect([rel, collected(rel)]).toEqual([rel, true]);
      }
    }
    const home = [
      '.cursor/chats/0123456789abcdef0123456789abcdef/x/store.db',
      '.cursor/chats/0123456789abcdef0123456789abcdef/x/store.db-wal',
      '.config/cursor/chats/0123456789abcdef0123456789abcdef/x/store.db',
      '.cursor/projects/p/agent-transcripts/x.txt',
      '.cursor/projects/p/agent-transcripts/x/subagents/y.jsonl',
      '.cursor/projects/p/terminals/1.txt',
      '.cursor/projects/p/mcps/s/tools/t.json',
      '.cursor/projects/p/.workspace-trusted',
      '.cursor/ai-tracking/ai-code-tracking.db',
      '.cursor/ai-tracking/ai-code-tracking.db-wal',
      '.cursor/prompt_history.json',
      '.cursor/cli-config.json',
      '.cursor/permissions.json',
      '.cursor/hooks.json',
      '.cursor/mcp.json',
      '.cursor/extensions/extensions.json',
    ];
    for (const rel of home) expect([rel, collected(rel)]).toEqual([rel, true]);
  });

  it('excludes the installed extensions, agent worktrees, canvas node_modules and the remote server binaries', () => {
    for (const rel of ['.cursor/extensions/ms-python.python-1/x.js', '.cursor/worktrees/repo/1/README.md', '.cursor/projects/p/canvases/c/node_modules/a/b.js', '.cursor-server/bin/abc/node']) {
      expect([rel, collected(rel)]).toEqual([rel, false]);
    }
    expect(collected('.config/Cursor/CachedData/x/y.bin')).toBe(false);
    expect(collected('.config/Cursor/User/History/x/entries.json')).toBe(false);
  });

  it('flags the mixed stores and the files with keys; the parsers opt in to exactly the flagged files they read', () => {
    const flagged = (rel: string) => any(list('secrets'), rel);
    const samples = ['.config/Cursor/User/globalStorage/state.vscdb', 'Library/Application Support/Cursor/User/globalStorage/state.vscdb.backup', '.cursor-server/data/User/workspaceStorage/a/state.vscdb', '.cursor/mcp.json', '.cursor/cli-config.json', '.config/cursor/cli-config.json'];
    for (const rel of samples) {
      expect([rel, flagged(rel)]).toEqual([rel, true]);
      expect([rel, cursorParsers.some((p) => p.wants(rel) && p.readsSecretFile?.(rel))]).toEqual([rel, true]);
    }
    for (const rel of ['.cursor/projects/p/agent-transcripts/x.txt', '.cursor/prompt_history.json', '.cursor/ai-tracking/ai-code-tracking.db', '.cursor/permissions.json']) {
      expect([rel, flagged(rel), cursorParsers.some((p) => p.wants(rel) && p.readsSecretFile?.(rel))]).toEqual([rel, false, false]);
    }
    expect((cat.project as Record<string, string[]>).secrets).toEqual(['.cursor/mcp.json', '.cursor/environment.json']);
    expect(list('system')).toEqual(['/etc/cursor/hooks.json', '/Library/Application Support/Cursor/hooks.json', 'C:/ProgramData/Cursor/hooks.json']);
  });
});
