import { describe, expect, it } from 'vitest';
import { EDITOR_FAMILIES, editorDataDirs, editorOf } from './editors.js';

describe('editorOf', () => {
  it('names the editor, place, data and user folders of a path in VS Code-family user folders', () => {
    expect(editorOf('.config/Code/User/globalStorage/state.vscdb')).toEqual({
      id: 'vscode',
      name: 'Visual Studio Code',
      family: 'vscode-family',
      place: 'linux',
      dataDir: '.config/Code',
      dataRest: 'User/globalStorage/state.vscdb',
      userDir: '.config/Code/User',
      rest: 'globalStorage/state.vscdb',
    });
    expect(editorOf('.vscode-server/data/User/globalStorage/saoudrizwan.claude-dev/tasks/1/ui_messages.json')).toMatchObject({
      id: 'vscode',
      place: 'server',
      userDir: '.vscode-server/data/User',
      rest: 'globalStorage/saoudrizwan.claude-dev/tasks/1/ui_messages.json',
    });
    expect(editorOf('.vscode-server-insiders/data/User/x')).toMatchObject({ id: 'vscode-insiders', place: 'server' });
    expect(editorOf('.config/Code - Insiders/User/profiles/p1/globalStorage/x')).toMatchObject({ id: 'vscode-insiders', rest: 'profiles/p1/globalStorage/x' });
    expect(editorOf('.var/app/com.vscodium.codium/config/VSCodium/User/settings.json')).toMatchObject({ id: 'vscodium', place: 'flatpak' });
    expect(editorOf('Library/Application Support/Windsurf - Next/User/globalStorage/state.vscdb')).toMatchObject({ id: 'windsurf-next', place: 'darwin' });
  });

  it('a path in the data folder but not in User/ has no rest; the folder itself has an empty dataRest', () => {
    const logs = editorOf('.config/Code/logs/20260101T000000/window1/exthost/GitHub.copilot-chat/GitHub Copilot Chat.log');
    expect(logs).toMatchObject({ id: 'vscode', dataRest: 'logs/20260101T000000/window1/exthost/GitHub.copilot-chat/GitHub Copilot Chat.log' });
    expect(logs?.rest).toBeUndefined();
    expect(logs?.userDir).toBeUndefined();
    expect(editorOf('.config/Cursor')).toMatchObject({ id: 'cursor', dataDir: '.config/Cursor', dataRest: '' });
    expect(editorOf('.config/Cursor/User')).toMatchObject({ userDir: '.config/Cursor/User', rest: '' });
  });

  it('ignores case on macOS and Windows places only', () => {
    expect(editorOf('appdata/roaming/cursor/user/globalStorage/state.vscdb')).toMatchObject({ id: 'cursor', place: 'win32', dataDir: 'appdata/roaming/cursor', userDir: 'appdata/roaming/cursor/user', rest: 'globalStorage/state.vscdb' });
    // Linux: .config/cursor is the cursor-agent CLI's folder, not the editor's.
    expect(editorOf('.config/cursor/chats/x/store.db')).toBeUndefined();
    expect(editorOf('.config/code/User/x')).toBeUndefined();
  });

  it('does not confuse editors whose folder names share a beginning, nor other folders', () => {
    expect(editorOf('.config/Code - OSS/User/x')?.id).toBe('vscode-oss');
    expect(editorOf('.config/CodeX/User/x')).toBeUndefined();
    expect(editorOf('.vscode/extensions/extensions.json')).toBeUndefined();
    expect(editorOf('.copilot/session-state/x/events.jsonl')).toBeUndefined();
  });

  it('every data folder of the table maps back to its own editor', () => {
    for (const f of EDITOR_FAMILIES) {
      expect(editorDataDirs(f.id)?.length).toBeGreaterThan(f.editors.length * 3 - 1);
      for (const e of f.editors) {
        for (const d of editorDataDirs(e.id)!) expect(editorOf(`${d.dir}/User/globalStorage/state.vscdb`), d.dir).toMatchObject({ id: e.id, place: d.place, rest: 'globalStorage/state.vscdb' });
      }
    }
    expect(editorDataDirs('nope')).toBeUndefined();
  });
});
