import { describe, expect, it } from 'vitest';
import { anchorDirs, anchorIds, EditorTableError, expandAnchor, loadEditorFamilies, parseEditorFamilies } from './editors.js';

function tableError(text: string): EditorTableError {
  try {
    parseEditorFamilies('editors.yaml', text);
  } catch (err) {
    expect(err).toBeInstanceOf(EditorTableError);
    return err as EditorTableError;
  }
  throw new Error('expected an EditorTableError');
}

const family = (editors: string, places = '      - {place: linux, path: ".config/{folder}"}') =>
  `families:\n  - id: fam\n    name: F\n    user: User\n    places:\n${places}\n    editors:\n${editors}\n`;

describe('editor families', () => {
  it('loads the built-in table: VS Code, its Insiders, VSCodium, Cursor, Windsurf, Kiro ... in one family', () => {
    const [vs] = loadEditorFamilies();
    expect(vs.id).toBe('vscode-family');
    expect(vs.user).toBe('User');
    const ids = vs.editors.map((e) => e.id);
    for (const id of ['vscode', 'vscode-insiders', 'vscodium', 'vscode-oss', 'cursor', 'windsurf', 'kiro', 'trae', 'positron']) expect(ids).toContain(id);
    expect(anchorIds()[0]).toBe('vscode-family');
  });

  it('expands one editor to its data folder on Linux, macOS, Windows, Flatpak and its remote servers', () => {
    expect(anchorDirs('vscode')).toEqual([
      { editor: 'vscode', place: 'linux', dir: '.config/Code' },
      { editor: 'vscode', place: 'darwin', dir: 'Library/Application Support/Code' },
      { editor: 'vscode', place: 'win32', dir: 'AppData/Roaming/Code' },
      { editor: 'vscode', place: 'flatpak', dir: '.var/app/com.visualstudio.code/config/Code' },
      { editor: 'vscode', place: 'server', dir: '.vscode-server/data' },
      { editor: 'vscode', place: 'server', dir: '.vscode-remote/data' },
    ]);
    // An editor without a Flatpak id or a known server has no such place.
    expect(anchorDirs('windsurf-next')?.map((d) => d.dir)).toEqual(['.config/Windsurf - Next', 'Library/Application Support/Windsurf - Next', 'AppData/Roaming/Windsurf - Next']);
    expect(expandAnchor('@cursor/User/globalStorage/state.vscdb')).toEqual([
      '.config/Cursor/User/globalStorage/state.vscdb',
      'Library/Application Support/Cursor/User/globalStorage/state.vscdb',
      'AppData/Roaming/Cursor/User/globalStorage/state.vscdb',
      '.cursor-server/data/User/globalStorage/state.vscdb',
    ]);
  });

  it('expands a family to every editor of it, and leaves other globs alone', () => {
    const all = expandAnchor('@vscode-family/User/globalStorage/saoudrizwan.claude-dev/**');
    const fam = loadEditorFamilies()[0];
    expect(all.length).toBe(fam.editors.reduce((n, e) => n + (anchorDirs(e.id)?.length ?? 0), 0));
    expect(all).toContain('.config/Code - Insiders/User/globalStorage/saoudrizwan.claude-dev/**');
    expect(all).toContain('.windsurf-server/data/User/globalStorage/saoudrizwan.claude-dev/**');
    expect(all).toContain('AppData/Roaming/VSCodium/User/globalStorage/saoudrizwan.claude-dev/**');
    expect(new Set(all).size).toBe(all.length);
    expect(expandAnchor('.copilot/**')).toEqual(['.copilot/**']);
    // An extglob is not an anchor.
    expect(expandAnchor('@(a|b)/x')).toEqual(['@(a|b)/x']);
  });

  it('refuses an unknown anchor and one without a path, naming the known anchors', () => {
    expect(() => expandAnchor('@vscodee/User/**')).toThrow(/unknown anchor "@vscodee"; known anchors: @vscode-family, @vscode, /);
    expect(() => expandAnchor('@cursor')).toThrow(/needs a path after it/);
    expect(() => expandAnchor('@cursor/')).toThrow(/needs a path after it/);
  });

  it('validates a table, naming the line', () => {
    const ok = family('      - {id: ed, name: Ed, folder: Ed}');
    expect(parseEditorFamilies('t.yaml', ok)[0].editors[0]).toEqual({ id: 'ed', name: 'Ed', folder: 'Ed', server: [], flatpak: [] });
    expect(tableError(family('      - {id: ed, name: Ed, folder: "E*d"}')).message).toMatch(/^editors\.yaml:8: "folder" "E\*d" is not allowed/);
    expect(tableError(family('      - {id: ed, name: Ed, folder: Ed, servers: [x]}')).message).toMatch(/unknown key "servers"/);
    expect(tableError(family('      - {id: fam, name: Ed, folder: Ed}')).message).toMatch(/duplicate anchor id "fam" \(first at line 2\)/);
    expect(tableError(family('      - {id: ed, name: Ed, folder: Ed}', '      - {place: linux, path: ".config/{product}"}')).message).toMatch(/unknown template variable "\{product\}"/);
    expect(tableError(family('      - {id: ed, name: Ed, folder: Ed}', '      - {place: linux, path: "/etc/{folder}"}')).message).toMatch(/plain home-relative path/);
    expect(tableError(family('      - {id: ed, name: Ed, folder: Ed, server: [a/b]}')).message).toMatch(/plain folder names/);
    expect(tableError('families: [\n').message).toMatch(/not valid YAML/);
  });
});
