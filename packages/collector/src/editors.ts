import { readFileSync } from 'node:fs';
import { embeddedCatalogs } from './embedded.js';
import { fileURLToPath } from 'node:url';
import type { YAMLMap } from 'yaml';
import { yamlLib } from './libs.js';

/** Where one editor's data folder sits, relative to the home (`.config/{folder}`). */
export interface EditorPlace {
  /** linux | darwin | win32 | flatpak | server */
  place: string;
  /** A home-relative path template with `{folder}`, `{server}` or `{flatpak}`. */
  path: string;
  /** The place is on a case-insensitive file system (macOS, Windows). */
  nocase: boolean;
}

/** One editor of a family: its product folder, remote server folders and Flatpak ids. */
export interface Editor {
  id: string;
  name: string;
  folder: string;
  server: string[];
  flatpak: string[];
}

/** A family of editors sharing one data-folder layout (VS Code and its forks). */
export interface EditorFamily {
  id: string;
  name: string;
  /** The user folder's name inside a data folder (`User`). */
  user: string;
  places: EditorPlace[];
  editors: Editor[];
}

/** One data folder an anchor stands for. */
export interface AnchorDir {
  editor: string;
  place: string;
  /** The home-relative data folder, e.g. `.config/Code` or `.vscode-server/data`. */
  dir: string;
}

/** The editor table's file (families/editors.yaml beside the built-in catalogs). */
export const EDITOR_TABLE_FILE = fileURLToPath(new URL('../catalog/families/editors.yaml', import.meta.url));

/** A table that does not validate; the message names the file and line. */
export class EditorTableError extends Error {
  constructor(
    readonly source: string,
    readonly line: number,
    detail: string,
  ) {
    super(`${source}${line > 0 ? `:${line}` : ''}: ${detail}`);
    this.name = 'EditorTableError';
  }
}

const ID = /^[a-z0-9][a-z0-9-]*$/;
// Names become literal glob segments: no glob syntax, no separators.
const PLAIN_NAME = /^[^*?[\]{}()!+@/\\]+$/;
const FAMILY_KEYS = new Set(['id', 'name', 'user', 'places', 'editors']);
const PLACE_KEYS = new Set(['place', 'path', 'nocase']);
const EDITOR_KEYS = new Set(['id', 'name', 'folder', 'server', 'flatpak']);
const TEMPLATE_VARS = new Set(['folder', 'server', 'flatpak']);

/** Parse and validate an editor table (the shape of families/editors.yaml). */
export function parseEditorFamilies(source: string, text: string): EditorFamily[] {
  const { isMap, isScalar, isSeq, LineCounter, parseDocument } = yamlLib();
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, uniqueKeys: true, prettyErrors: false });
  const lineOf = (node: unknown) => {
    const r = (node as { range?: [number, number] } | null)?.range;
    return r ? lc.linePos(r[0]).line : 0;
  };
  const fail = (node: unknown, detail: string): never => {
    throw new EditorTableError(source, lineOf(node), detail);
  };
  if (doc.errors.length > 0) fail(null, `not valid YAML (${doc.errors[0].message.split('\n')[0]})`);
  const root = doc.contents;
  if (!isMap(root)) return fail(root, 'expected a mapping with "families"');
  const get = (m: YAMLMap, k: string) => m.items.find((p) => isScalar(p.key) && p.key.value === k)?.value;
  const keys = (m: YAMLMap, allowed: Set<string>) => {
    for (const p of m.items) {
      const k = isScalar(p.key) ? String(p.key.value) : '';
      if (!allowed.has(k)) fail(p.key, `unknown key "${k}"; expected one of: ${[...allowed].join(', ')}`);
    }
  };
  const str = (m: YAMLMap, k: string, re?: RegExp): string => {
    const v = get(m, k);
    if (!isScalar(v) || typeof v.value !== 'string' || v.value.trim() === '') return fail(v ?? m, `"${k}" must be a non-empty string`);
    if (re && !re.test(v.value)) fail(v, `"${k}" "${v.value}" is not allowed here (${re === ID ? 'lowercase letters, digits and "-"' : 'no glob characters or slashes'})`);
    return v.value;
  };
  const names = (m: YAMLMap, k: string): string[] => {
    const v = get(m, k);
    if (v == null) return [];
    if (!isSeq(v)) return fail(v, `"${k}" must be a list`);
    return v.items.map((i) => {
      if (!isScalar(i) || typeof i.value !== 'string' || !PLAIN_NAME.test(i.value) || i.value === '.' || i.value === '..') {
        return fail(i, `"${k}" entries must be plain folder names (no glob characters or slashes)`);
      }
      return i.value;
    });
  };
  keys(root, new Set(['families']));
  const fams = get(root, 'families');
  if (!isSeq(fams)) return fail(fams ?? root, '"families" must be a list');
  const ids = new Map<string, number>();
  const claim = (id: string, node: unknown) => {
    if (ids.has(id)) fail(node, `duplicate anchor id "${id}" (first at line ${ids.get(id)}); family and editor ids share one name space`);
    ids.set(id, lineOf(node));
  };
  return fams.items.map((f) => {
    if (!isMap(f)) return fail(f, 'a family must be a mapping');
    keys(f, FAMILY_KEYS);
    const id = str(f, 'id', ID);
    claim(id, get(f, 'id'));
    const placesNode = get(f, 'places');
    const editorsNode = get(f, 'editors');
    if (!isSeq(placesNode) || placesNode.items.length === 0) return fail(placesNode ?? f, '"places" must be a non-empty list');
    if (!isSeq(editorsNode) || editorsNode.items.length === 0) return fail(editorsNode ?? f, '"editors" must be a non-empty list');
    const places = placesNode.items.map((p): EditorPlace => {
      if (!isMap(p)) return fail(p, 'a place must be a mapping {place, path, nocase?}');
      keys(p, PLACE_KEYS);
      const path = str(p, 'path');
      const vars = [...path.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]);
      const bad = vars.find((v) => !TEMPLATE_VARS.has(v));
      if (bad !== undefined) fail(get(p, 'path'), `unknown template variable "{${bad}}"; expected {folder}, {server} or {flatpak}`);
      if (/[*?[\]()!+@\\]/.test(path.replace(/\{[^}]*\}/g, '')) || path.startsWith('/') || path.split('/').some((s) => s === '' || s === '.' || s === '..')) {
        fail(get(p, 'path'), `place path "${path}" must be a plain home-relative path with template variables only`);
      }
      const nocase = get(p, 'nocase');
      if (nocase != null && !(isScalar(nocase) && typeof nocase.value === 'boolean')) fail(nocase, '"nocase" must be true or false');
      return { place: str(p, 'place', ID), path, nocase: isScalar(nocase) && nocase.value === true };
    });
    const editors = editorsNode.items.map((e): Editor => {
      if (!isMap(e)) return fail(e, 'an editor must be a mapping {id, name, folder, server?, flatpak?}');
      keys(e, EDITOR_KEYS);
      const eid = str(e, 'id', ID);
      claim(eid, get(e, 'id'));
      return { id: eid, name: str(e, 'name'), folder: str(e, 'folder', PLAIN_NAME), server: names(e, 'server'), flatpak: names(e, 'flatpak') };
    });
    return { id, name: str(f, 'name'), user: str(f, 'user', PLAIN_NAME), places, editors };
  });
}

let cached: EditorFamily[] | undefined;
let cachedText: string | undefined;

/** The built-in editor table's YAML (embedded in a bundle, else families/editors.yaml; read once). */
export function editorTableText(): string {
  cachedText ??= embeddedCatalogs()?.editors ?? readFileSync(EDITOR_TABLE_FILE, 'utf8');
  return cachedText;
}

/** The built-in editor table (read once). */
export function loadEditorFamilies(): EditorFamily[] {
  cached ??= parseEditorFamilies(embeddedCatalogs()?.editors !== undefined ? 'catalog/families/editors.yaml' : EDITOR_TABLE_FILE, editorTableText());
  return cached;
}

/** The data folders of one editor at every place of its family, in place order. */
export function editorDirs(family: EditorFamily, editor: Editor): AnchorDir[] {
  const out: AnchorDir[] = [];
  for (const p of family.places) {
    let paths = [p.path];
    for (const v of TEMPLATE_VARS) {
      if (!p.path.includes(`{${v}}`)) continue;
      const raw = (editor as unknown as Record<string, string | string[]>)[v];
      const values = Array.isArray(raw) ? raw : [raw];
      paths = paths.flatMap((t) => values.map((x) => t.split(`{${v}}`).join(x)));
    }
    for (const dir of paths) out.push({ editor: editor.id, place: p.place, dir });
  }
  return out;
}

/** The data folders an anchor id (a family or an editor) stands for, or undefined when unknown. */
export function anchorDirs(id: string, families: EditorFamily[] = loadEditorFamilies()): AnchorDir[] | undefined {
  for (const f of families) {
    if (f.id === id) return f.editors.flatMap((e) => editorDirs(f, e));
    const e = f.editors.find((x) => x.id === id);
    if (e) return editorDirs(f, e);
  }
  return undefined;
}

/** Every anchor id, families first. */
export function anchorIds(families: EditorFamily[] = loadEditorFamilies()): string[] {
  return [...families.map((f) => f.id), ...families.flatMap((f) => f.editors.map((e) => e.id))];
}

const ANCHOR = /^@([^/]*)(?:\/(.*))?$/;

/**
 * Expand a glob that begins with an anchor (`@vscode-family/User/...`) into one glob per data
 * folder; a glob without one is returned alone. Throws a plain Error naming the problem.
 */
export function expandAnchor(glob: string, families: EditorFamily[] = loadEditorFamilies()): string[] {
  const m = ANCHOR.exec(glob);
  // "@(a|b)" is an extglob, not an anchor.
  if (!m || glob.startsWith('@(')) return [glob];
  const dirs = anchorDirs(m[1], families);
  if (!dirs) {
    throw new Error(`unknown anchor "@${m[1]}"; known anchors: ${anchorIds(families).map((a) => `@${a}`).join(', ')} (catalog/families/editors.yaml)`);
  }
  if (m[2] === undefined || m[2] === '') throw new Error(`an anchor needs a path after it, e.g. "@${m[1]}/User/**"`);
  return dirs.map((d) => `${d.dir}/${m[2]}`);
}
