import { describe, expect, it } from 'vitest';
import { vscodeCopilotChatPlugin } from './index.js';
import { locate } from './paths.js';
import { clientOf } from './common.js';

// wants() by path alone, across the editor family's data folders (Linux, macOS, Windows, Flatpak,
// remote servers), profiles, and the files that are not this agent's.

const wanted = (rel: string) => vscodeCopilotChatPlugin.parsers.filter((p) => p.wants(rel)).map((p) => p.name);
const S = 'workspaceStorage/0f1e/chatSessions/5e55.jsonl';

describe('wants', () => {
  it('takes every kind of file below <U> and <D> of every editor data folder', () => {
    for (const d of ['.config/Code', '.config/Code - Insiders', '.config/VSCodium', 'Library/Application Support/Code', 'AppData/Roaming/Code', '.var/app/com.visualstudio.code/config/Code', '.vscode-server/data', '.vscode-remote/data', '.config/Cursor', 'AppData/Roaming/Windsurf']) {
      expect(wanted(`${d}/User/${S}`), d).toEqual(['chat-session']);
    }
    const cases: [string, string][] = [
      ['.config/Code/User/workspaceStorage/x/chatSessions/a.json', 'chat-session'],
      ['.config/Code/User/globalStorage/emptyWindowChatSessions/a.jsonl', 'chat-session'],
      ['.config/Code/User/globalStorage/transferredChatSessions/a.json', 'chat-session'],
      ['.config/Code/User/workspaceStorage/no-workspace/chatSessions/a.json', 'chat-session'],
      ['.config/Code/User/workspaceStorage/x/state.vscdb', 'state-vscdb'],
      ['.config/Code/User/globalStorage/state.vscdb.backup', 'state-vscdb'],
      ['.config/Code/User/workspaceStorage/x/chatEditingSessions/a/state.json', 'editing-session'],
      ['.config/Code/User/workspaceStorage/x/GitHub.copilot-chat/transcripts/a.jsonl', 'transcript'],
      ['.config/Code/User/workspaceStorage/x/GitHub.copilot-chat/debug-logs/a/main.jsonl', 'debug-log'],
      ['.config/Code/User/workspaceStorage/x/GitHub.copilot-chat/debug-logs/a.jsonl', 'debug-log'],
      ['.config/Code/User/globalStorage/github.copilot-chat/session-store.db', 'session-store'],
      ['.config/Code/User/profiles/-2a1b/globalStorage/github.copilot-chat/session-store.db', 'session-store'],
      ['.config/Code/User/globalStorage/github.copilot-chat/cloudSessions.json', 'cloud-sessions'],
      ['.config/Code/User/settings.json', 'settings'],
      ['.config/Code/User/profiles/-2a1b/mcp.json', 'mcp-config'],
      ['.vscode/mcp.json', 'mcp-config'],
      ['.config/Code/logs/20261001T105959/window1/exthost/GitHub.copilot-chat/GitHub Copilot Chat.log', 'extension-log'],
      ['.vscode-server/data/logs/20261001T105959/exthost1/GitHub.copilot-chat/GitHub Copilot Chat.log', 'extension-log'],
    ];
    for (const [rel, name] of cases) expect(wanted(rel), rel).toEqual([name]);
  });

  it('compares macOS and Windows homes ignoring case, Linux and servers exactly', () => {
    expect(wanted(`library/application support/code/User/${S}`)).toEqual(['chat-session']);
    expect(wanted(`APPDATA/ROAMING/CODE/User/${S}`)).toEqual(['chat-session']);
    // Linux .config/cursor is the cursor-agent CLI's folder, not the editor's Cursor.
    expect(wanted(`.config/cursor/User/${S}`)).toEqual([]);
    expect(wanted(`.config/code/User/${S}`)).toEqual([]);
  });

  it('takes none of the noise: caches, snapshots, model lists, other extensions, other folders', () => {
    for (const rel of [
      '.config/Code/User/globalStorage/storage.json',
      '.config/Code/User/workspaceStorage/x/workspace.json',
      '.config/Code/User/workspaceStorage/x/chatEditingSessions/a/contents/e4f5a6b',
      '.config/Code/User/workspaceStorage/x/GitHub.copilot-chat/debug-logs/a/models.json',
      '.config/Code/User/workspaceStorage/x/GitHub.copilot-chat/workspace-chunks.db',
      '.config/Code/User/globalStorage/github.copilot-chat/session-store.db-wal',
      '.config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks/1/ui_messages.json',
      '.config/Code/User/History/-1a2b/entries.json',
      '.config/Code/logs/20261001T105959/window1/exthost/GitHub.copilot/GitHub Copilot.log',
      '.config/Code/User/chatSessions/a.jsonl',
      '.copilot/session-state/5e55/events.jsonl',
      'projects/x/.vscode/settings.json',
      `.config/NotAnEditor/User/${S}`,
    ]) {
      expect(wanted(rel), rel).toEqual([]);
    }
  });

  it('names the editor for the session client', () => {
    expect(locate('.vscode-server/data/User/profiles/p1/mcp.json')).toEqual({ editor: 'Visual Studio Code', remote: true, dataRest: 'User/profiles/p1/mcp.json', rest: 'mcp.json', userDir: '.vscode-server/data/User/profiles/p1' });
    expect(clientOf(`AppData/Roaming/Code - Insiders/User/${S}`)).toBe('Visual Studio Code - Insiders');
    expect(clientOf(`.vscode-server/data/User/${S}`)).toBe('Visual Studio Code (remote)');
    expect(clientOf(`.config/VSCodium/User/${S}`)).toBe('VSCodium');
    expect(clientOf('.copilot/x')).toBe('');
  });
});
