/**
 * The editor families a parser meets in `artifact.rel`: VS Code and the editors built on it keep
 * one data folder each (`.config/Code`, `Library/Application Support/Cursor`,
 * `.vscode-server/data`, ...) with the same `User/` inside (globalStorage, workspaceStorage,
 * History). This is the same table as the collector's `catalog/families/editors.yaml` (which
 * the catalogs' `@vscode-family/...` anchors expand from); `@aitrail/parsers` imports no other
 * package of ours, so it keeps its own copy, and a test in packages/cli checks that they agree.
 */

/** Where one editor's data folder sits, relative to the home. */
export interface EditorPlace {
  /** linux | darwin | win32 | flatpak | server */
  readonly place: string;
  /** A home-relative path template with `{folder}`, `{server}` or `{flatpak}`. */
  readonly path: string;
  /** On a case-insensitive file system (macOS, Windows): compared ignoring case. */
  readonly nocase: boolean;
}

/** One editor of a family. */
export interface EditorEntry {
  readonly id: string;
  readonly name: string;
  /** The product folder name (`Code`, `Code - Insiders`, `Cursor`). */
  readonly folder: string;
  /** Remote server folders, each holding `data/` (`.vscode-server`). */
  readonly server: readonly string[];
  /** Flatpak application ids (`com.visualstudio.code`). */
  readonly flatpak: readonly string[];
}

/** A family of editors sharing one data-folder layout. */
export interface EditorFamilyEntry {
  readonly id: string;
  readonly name: string;
  /** The user folder inside a data folder (`User`). */
  readonly user: string;
  readonly places: readonly EditorPlace[];
  readonly editors: readonly EditorEntry[];
}

const DARWIN = { place: 'darwin', path: 'Library/Application Support/{folder}', nocase: true };
const WIN32 = { place: 'win32', path: 'AppData/Roaming/{folder}', nocase: true };

/** The editor table (keep in step with packages/collector/catalog/families/editors.yaml). */
export const EDITOR_FAMILIES: readonly EditorFamilyEntry[] = [
  {
    id: 'vscode-family',
    name: 'VS Code and the editors built on it',
    user: 'User',
    places: [
      { place: 'linux', path: '.config/{folder}', nocase: false },
      DARWIN,
      WIN32,
      { place: 'flatpak', path: '.var/app/{flatpak}/config/{folder}', nocase: false },
      { place: 'server', path: '{server}/data', nocase: false },
    ],
    editors: [
      { id: 'vscode', name: 'Visual Studio Code', folder: 'Code', server: ['.vscode-server', '.vscode-remote'], flatpak: ['com.visualstudio.code'] },
      { id: 'vscode-insiders', name: 'Visual Studio Code - Insiders', folder: 'Code - Insiders', server: ['.vscode-server-insiders'], flatpak: [] },
      { id: 'vscode-oss', name: 'Code - OSS', folder: 'Code - OSS', server: ['.vscode-server-oss'], flatpak: [] },
      { id: 'vscode-exploration', name: 'Code - Exploration', folder: 'Code - Exploration', server: [], flatpak: [] },
      { id: 'vscodium', name: 'VSCodium', folder: 'VSCodium', server: ['.vscodium-server'], flatpak: ['com.vscodium.codium'] },
      { id: 'vscodium-insiders', name: 'VSCodium - Insiders', folder: 'VSCodium - Insiders', server: ['.vscodium-server-insiders'], flatpak: [] },
      { id: 'cursor', name: 'Cursor', folder: 'Cursor', server: ['.cursor-server'], flatpak: [] },
      { id: 'windsurf', name: 'Windsurf', folder: 'Windsurf', server: ['.windsurf-server'], flatpak: [] },
      { id: 'windsurf-next', name: 'Windsurf - Next', folder: 'Windsurf - Next', server: [], flatpak: [] },
      { id: 'kiro', name: 'Kiro', folder: 'Kiro', server: ['.kiro-server'], flatpak: [] },
      { id: 'trae', name: 'Trae', folder: 'Trae', server: ['.trae-server'], flatpak: [] },
      { id: 'trae-cn', name: 'Trae CN', folder: 'Trae CN', server: ['.trae-cn-server'], flatpak: [] },
      { id: 'positron', name: 'Positron', folder: 'Positron', server: ['.positron-server'], flatpak: [] },
      { id: 'antigravity', name: 'Antigravity', folder: 'Antigravity', server: ['.antigravity-server', '.antigravity-ide-server'], flatpak: [] },
    ],
  },
];

/** One data folder of an editor. */
export interface EditorDir {
  editor: string;
  place: string;
  /** Home-relative, e.g. `.config/Code` or `.vscode-server/data`. */
  dir: string;
  nocase: boolean;
}

/** The data folders of an editor (or of every editor of a family) at every place, in table order. */
export function editorDataDirs(id: string, families: readonly EditorFamilyEntry[] = EDITOR_FAMILIES): EditorDir[] | undefined {
  for (const f of families) {
    const editors = f.id === id ? f.editors : f.editors.filter((e) => e.id === id);
    if (editors.length === 0) continue;
    return editors.flatMap((e) =>
      f.places.flatMap((p) => {
        let paths = [p.path];
        for (const v of ['folder', 'server', 'flatpak'] as const) {
          if (!p.path.includes(`{${v}}`)) continue;
          const raw = e[v];
          const values: readonly string[] = typeof raw === 'string' ? [raw] : raw;
          paths = paths.flatMap((t) => values.map((x) => t.split(`{${v}}`).join(x)));
        }
        return paths.map((dir) => ({ editor: e.id, place: p.place, dir, nocase: p.nocase }));
      }),
    );
  }
  return undefined;
}

/** Where a home-relative path sits in an editor's data folder. */
export interface EditorLocation {
  /** The editor id (`vscode`, `cursor`, ...). */
  id: string;
  /** Its display name (`Visual Studio Code`). */
  name: string;
  family: string;
  /** linux | darwin | win32 | flatpak | server */
  place: string;
  /** The data folder as the path spells it (`.config/Code`, `.vscode-server/data`). */
  dataDir: string;
  /** The path below the data folder (`User/globalStorage/state.vscdb`, `logs/...`); '' for the folder itself. */
  dataRest: string;
  /** The user folder (`.config/Code/User`), when the path is in it. */
  userDir?: string;
  /** The path below the user folder (`globalStorage/state.vscdb`, `profiles/<id>/...`), when it is in it. */
  rest?: string;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

interface Compiled {
  re: RegExp;
  userRe: RegExp;
  family: EditorFamilyEntry;
  editor: EditorEntry;
  place: string;
}

const compiled: Compiled[] = EDITOR_FAMILIES.flatMap((family) =>
  family.editors.flatMap((editor) =>
    (editorDataDirs(editor.id) ?? []).map((d) => ({
      re: new RegExp(`^${escapeRe(d.dir)}(?:/|$)`, d.nocase ? 'i' : ''),
      userRe: new RegExp(`^${escapeRe(family.user)}(?:/|$)`, d.nocase ? 'i' : ''),
      family,
      editor,
      place: d.place,
    })),
  ),
);

/**
 * The editor whose data folder a home-relative path is in, or undefined: `.config/Code/User/
 * globalStorage/state.vscdb` → VS Code on Linux, rest `globalStorage/state.vscdb`. Places on
 * macOS and Windows homes compare ignoring case; Linux and remote servers exactly (a
 * `.config/cursor` folder on Linux is the cursor-agent CLI's, not the editor's `Cursor`).
 */
export function editorOf(rel: string): EditorLocation | undefined {
  for (const c of compiled) {
    const m = c.re.exec(rel);
    if (!m) continue;
    const dataDir = m[0].endsWith('/') ? m[0].slice(0, -1) : m[0];
    const dataRest = rel.slice(m[0].length);
    const loc: EditorLocation = { id: c.editor.id, name: c.editor.name, family: c.family.id, place: c.place, dataDir, dataRest };
    const u = c.userRe.exec(dataRest);
    if (u) {
      loc.userDir = `${dataDir}/${u[0].replace(/\/$/, '')}`;
      loc.rest = dataRest.slice(u[0].length);
    }
    return loc;
  }
  return undefined;
}
