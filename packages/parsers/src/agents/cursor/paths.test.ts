import { describe, expect, it } from 'vitest';
import { cursorParsers } from './index.js';
import { cliStoreIds, cursorFileOf, projectSlugOf, slugOf, transcriptFormat, transcriptIds, workspaceIdOf } from './paths.js';

const wanted = (rel: string) => cursorParsers.filter((p) => p.wants(rel)).map((p) => p.name);

describe('cursor paths', () => {
  it('the state databases in every Cursor data folder: Linux, macOS, Windows, a Remote-SSH server', () => {
    for (const cd of ['.config/Cursor', 'Library/Application Support/Cursor', 'AppData/Roaming/Cursor', 'appdata/roaming/cursor', '.cursor-server/data']) {
      expect([cd, wanted(`${cd}/User/globalStorage/state.vscdb`)]).toEqual([cd, ['state-db']]);
      expect([cd, wanted(`${cd}/User/globalStorage/state.vscdb.backup`)]).toEqual([cd, ['state-db']]);
      expect([cd, wanted(`${cd}/User/workspaceStorage/abc/state.vscdb`)]).toEqual([cd, ['workspace-db']]);
      expect([cd, wanted(`${cd}/User/workspaceStorage/abc/workspace.json`)]).toEqual([cd, ['workspace-json']]);
      // Sidecars are read with their database, never alone.
      for (const s of ['-wal', '-shm', '-journal']) expect(wanted(`${cd}/User/globalStorage/state.vscdb${s}`)).toEqual([]);
    }
  });

  it("other editors' state databases and Cursor's other files are not Cursor's to parse", () => {
    for (const rel of [
      '.config/Code/User/globalStorage/state.vscdb',
      '.config/Windsurf/User/globalStorage/state.vscdb',
      '.vscode-server/data/User/globalStorage/state.vscdb',
      // On Linux `.config/cursor` (lower case) is the CLI's folder, not the editor's.
      '.config/cursor/User/globalStorage/state.vscdb',
      '.config/Cursor/User/globalStorage/storage.json',
      '.config/Cursor/User/settings.json',
      '.config/Cursor/logs/20261001T090000/main.log',
      '.config/Cursor/User/History/abc/entries.json',
      '.cursor/argv.json',
      '.cursor/ide_state.json',
      '.cursor/extensions/extensions.json',
      '.cursor/plans/x.plan.md',
      '.cursor/projects/p/worker.log',
      '.cursor/projects/p/repo.json',
      '.cursor/projects/p/agent-tools/x.txt',
      '.cursor/projects/p/agent-transcripts/a/b/c.jsonl',
      '.cursor/chats/not-a-hash/x/store.db',
      '.cursor/chats/0123456789abcdef0123456789abcdef/x/store.db-wal',
      '.cursor/rules/x.mdc',
    ]) {
      expect([rel, wanted(rel)]).toEqual([rel, []]);
    }
  });

  it('~/.cursor and ~/.config/cursor files, each to one parser', () => {
    const cases: [string, string][] = [
      ['.cursor/chats/0123456789abcdef0123456789abcdef/5c5c/store.db', 'cli-store'],
      ['.config/cursor/chats/0123456789abcdef0123456789abcdef/5c5c/store.db', 'cli-store'],
      ['.cursor/projects/Users-a-b/agent-transcripts/x.txt', 'transcripts'],
      ['.cursor/projects/Users-a-b/agent-transcripts/x.jsonl', 'transcripts'],
      ['.cursor/projects/Users-a-b/agent-transcripts/x.json', 'transcripts'],
      ['.cursor/projects/Users-a-b/agent-transcripts/x/x.jsonl', 'transcripts'],
      ['.cursor/projects/Users-a-b/agent-transcripts/x/subagents/task-1.jsonl', 'transcripts'],
      ['.cursor/prompt_history.json', 'prompt-history'],
      ['.config/cursor/prompt_history.json', 'prompt-history'],
      ['.cursor/ai-tracking/ai-code-tracking.db', 'ai-tracking'],
      ['.cursor/cli-config.json', 'cli-config'],
      ['.config/cursor/cli-config.json', 'cli-config'],
      ['.cursor/permissions.json', 'permissions'],
      ['.cursor/mcp.json', 'mcp-config'],
      ['.cursor/projects/p/mcp-approvals.json', 'mcp-approvals'],
      ['.cursor/projects/p/.workspace-trusted', 'workspace-trusted'],
      ['.cursor/projects/p/mcp-cache.json', 'mcp-cache'],
      ['.cursor/projects/p/mcps/user-gh/tools/t.json', 'mcp-cache'],
      ['.cursor/projects/p/mcps/user-gh/SERVER_METADATA.json', 'mcp-cache'],
      ['.cursor/hooks.json', 'hooks'],
      ['etc/cursor/hooks.json', 'hooks'],
      ['Library/Application Support/Cursor/hooks.json', 'hooks'],
      ['C:/ProgramData/Cursor/hooks.json', 'hooks'],
      ['.cursor/projects/p/terminals/3.txt', 'terminals'],
      ['.CURSOR/PROJECTS/P/TERMINALS/3.TXT', 'terminals'],
    ];
    for (const [rel, name] of cases) expect([rel, wanted(rel)]).toEqual([rel, [name]]);
  });

  it('only the mixed stores, cli-config.json and mcp.json are read although flagged', () => {
    const secretReaders = cursorParsers.filter((p) => p.readsSecretFile).map((p) => p.name);
    expect(secretReaders.length).toBe(cursorParsers.length);
    const reads = (rel: string) => cursorParsers.some((p) => p.wants(rel) && p.readsSecretFile?.(rel));
    expect(reads('.config/Cursor/User/globalStorage/state.vscdb')).toBe(true);
    expect(reads('.config/Cursor/User/globalStorage/state.vscdb.backup')).toBe(true);
    expect(reads('.config/Cursor/User/workspaceStorage/a/state.vscdb')).toBe(true);
    expect(reads('.cursor/cli-config.json')).toBe(true);
    expect(reads('.cursor/mcp.json')).toBe(true);
    expect(reads('.cursor/permissions.json')).toBe(false);
    expect(reads('.cursor/projects/p/agent-transcripts/x.txt')).toBe(false);
  });

  it('ids from paths', () => {
    expect(transcriptIds('.cursor/projects/p/agent-transcripts/abc.txt')).toEqual({ session: 'abc', parent: '' });
    expect(transcriptIds('.cursor/projects/p/agent-transcripts/abc/abc.jsonl')).toEqual({ session: 'abc', parent: '' });
    expect(transcriptIds('.cursor/projects/p/agent-transcripts/abc/subagents/task-1.jsonl')).toEqual({ session: 'task-1', parent: 'abc' });
    expect(['a.TXT', 'a.json', 'a.jsonl'].map(transcriptFormat)).toEqual(['txt', 'json', 'jsonl']);
    expect(cliStoreIds('.cursor/chats/9f6a/90786f14/store.db')).toEqual({ cwdHash: '9f6a', agentId: '90786f14' });
    expect(workspaceIdOf('.config/Cursor/User/workspaceStorage/abc/state.vscdb')).toBe('abc');
    expect(projectSlugOf('.cursor/projects/Users-a-b/terminals/1.txt')).toBe('Users-a-b');
    expect(cursorFileOf('.cursor/projects/p/agent-transcripts/x.txt')).toBe('transcript');
  });

  it('the slug rule: the leading separator dropped, every other non-alphanumeric a dash', () => {
    expect(slugOf('/srv/proj')).toBe('srv-proj');
    expect(slugOf('/Users/tomb/Documents/interviewing')).toBe('Users-tomb-Documents-interviewing');
    expect(slugOf('/home/a/my.app v2')).toBe('home-a-my-app-v2');
  });
});
