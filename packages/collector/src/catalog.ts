import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { embeddedCatalogs } from './embedded.js';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Node as YamlNode, YAMLMap } from 'yaml';
import { editorTableText, expandAnchor } from './editors.js';
import { type CatalogText, catalogCacheKey, catalogsFromCache, readCatalogCache } from './catalog-cache.js';
import { globProblem } from './globs.js';
import type { WhereCondition } from './hint-select.js';
import type { Layout } from './homes.js';
import { parseEnvHome, parseHint } from './catalog-entries.js';
import { yamlLib } from './libs.js';

/** A variable that moves an agent's config home (applied to the running user only). */
export interface EnvHome {
  var: string;
  /** Home-relative path the directory stands for, e.g. `.copilot`; `.` when it stands for the home itself. */
  rel: string;
  /** When set, the value is a list of directories split on this string (CLAUDE_CONFIG_DIR takes `a,b`). */
  separator?: string;
  /** Only on these layouts (the running system's); all when absent. */
  layouts?: Layout[];
}

/** The home-relative folder an env home's directory is walked as: '' for `.`, the home itself. */
export function envHomePrefix(eh: EnvHome): string {
  return eh.rel === '.' ? '' : eh.rel;
}

/** A directory walked only when it directly holds one of `contains` (`.claude-*` account dirs). */
export interface CollectIf {
  /** Home-relative glob naming directories, as written (may begin with an anchor). */
  dir: string;
  /** `dir` with its anchor expanded (one glob per editor data folder), or `[dir]`. */
  dirs: string[];
  /** Plain names (files or directories) of which at least one must be present. */
  contains: string[];
}

/** The formats a project hint reads. */
export type HintFormat = 'yaml' | 'json' | 'jsonl' | 'toml' | 'xml' | 'text';

/** How a project hint reads its files (docs/catalog.md, "project_hints"). */
export interface HintRule {
  format: HintFormat;
  /** Selectors of the values: dotted with `[]` and `*` (json, yaml, jsonl, toml), or `a/b@attr` (xml). */
  path?: string[];
  /** A selector whose objects' keys are the values (json, yaml, jsonl, toml). */
  keys_of?: string;
  /** text: a regular expression beginning with literal text, capturing the path; absent, each line is the value. */
  regex?: string;
  /** jsonl: only lines whose value at `path` is one of `values` (every condition). */
  where?: WhereCondition[];
  /** jsonl and text: lines read from the top; `'all'` streams the whole file. */
  max_lines?: number | 'all';
  /** A value beginning with this token (`$USER_HOME$`) names a path in the user's home. */
  home_token?: string;
  /** The value names a file in the project (a `.code-workspace`): its folder is the root. */
  dirname?: boolean;
}

/** Where recorded project paths live, read from collected files. */
export interface ProjectHint extends HintRule {
  /** Home-relative glob of the files, as written (may begin with an anchor). */
  file: string;
  /** `file` with its anchor expanded, or `[file]`. */
  files: string[];
}

/** The glob lists of a catalog. */
export interface CatalogGlobs {
  collect: string[];
  exclude: string[];
  secrets: string[];
  /** Files each of which is one session (a conversation file): counted by the analyzer without parsing. */
  session_files: string[];
  project: { collect: string[]; secrets: string[]; exclude: string[]; session_files: string[] };
}

/** One agent's catalog, as documented in docs/catalog.md. */
export interface Catalog extends CatalogGlobs {
  agent: string;
  name: string;
  /** Revision of the catalog file (`version:`), as a string; '0' when absent. */
  version: string;
  references: string[];
  env_homes: EnvHome[];
  collect_if: CollectIf[];
  /** `/`-rooted globs (Linux, macOS layouts) and drive-letter globs `C:/...` (Windows layouts). */
  system: string[];
  project_hints: ProjectHint[];
  /** The glob lists as the file writes them, anchors unexpanded (the lists above are expanded). */
  written: CatalogGlobs;
  /** Where it was loaded from (a file path or a plugin's label). */
  source: string;
  /** SHA-256 of the YAML text. */
  sha256: string;
}

/** A catalog that does not validate; the message names the file and line. */
export class CatalogError extends Error {
  constructor(
    readonly source: string,
    readonly line: number,
    detail: string,
  ) {
    super(`${source}${line > 0 ? `:${line}` : ''}: ${detail}`);
    this.name = 'CatalogError';
  }
}

/** Folder of the built-in catalogs (works from both src and dist). */
export const BUILTIN_CATALOG_DIR = fileURLToPath(new URL('../catalog/', import.meta.url));

const TOP_KEYS = new Set([
  'agent',
  'name',
  'version',
  'references',
  'env_homes',
  'collect',
  'exclude',
  'secrets',
  'collect_if',
  'project',
  'system',
  'project_hints',
  'session_files',
]);
const PROJECT_KEYS = new Set(['collect', 'secrets', 'exclude', 'session_files']);
const COLLECT_IF_KEYS = new Set(['dir', 'contains']);
const AGENT_ID = /^[a-z0-9][a-z0-9._-]*$/;

/** The built-in catalog texts: embedded in a bundle, else catalog/*.yaml in name order. */
export function builtinCatalogTexts(): CatalogText[] {
  const embedded = embeddedCatalogs();
  if (embedded) return embedded.catalogs;
  return readdirSync(BUILTIN_CATALOG_DIR)
    .filter((name) => name.endsWith('.yaml') || name.endsWith('.yml'))
    .sort()
    .map((name) => ({ name, text: readFileSync(BUILTIN_CATALOG_DIR + name, 'utf8') }));
}

/** Where a built-in catalog is said to come from (its path, or catalog/<name> in a bundle). */
function builtinSource(name: string): string {
  return embeddedCatalogs() ? `catalog/${name}` : BUILTIN_CATALOG_DIR + name;
}

/** The built-in catalogs parsed: from the build's cache when it was made from these texts. */
export function parseBuiltinCatalogs(texts: CatalogText[] = builtinCatalogTexts(), cacheFile?: string): { catalog: Catalog; agentLine: number }[] {
  const embedded = embeddedCatalogs();
  const key = catalogCacheKey(editorTableText(), texts);
  const cached = embedded ? (embedded.parsed !== undefined ? catalogsFromCache(embedded.parsed, key, texts, builtinSource) : undefined) : readCatalogCache(key, texts, builtinSource, cacheFile);
  return cached ?? texts.map((t) => parseCatalog(builtinSource(t.name), t.text));
}

/** Load the built-in catalogs plus extra files and texts (plugins); validates them all. */
export function loadCatalogs(opts: { files?: string[]; texts?: { source: string; text: string }[] } = {}): Catalog[] {
  const parsed = parseBuiltinCatalogs();
  const inputs: { source: string; text: string }[] = [];
  for (const file of opts.files ?? []) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      throw new CatalogError(file, 0, `cannot read the catalog file (${(err as Error).message}); check the --catalog path`);
    }
    inputs.push({ source: file, text });
  }
  inputs.push(...(opts.texts ?? []));
  const out: Catalog[] = [];
  const seen = new Map<string, Catalog & { line: number }>();
  // Parsed in turn, so a duplicate id is reported before a later file is looked at.
  for (const item of [...parsed, ...inputs]) {
    const { catalog, agentLine } = 'text' in item ? parseCatalog(item.source, item.text) : item;
    const source = catalog.source;
    const prior = seen.get(catalog.agent);
    if (prior) {
      throw new CatalogError(
        source,
        agentLine,
        `duplicate agent id "${catalog.agent}" (already defined in ${prior.source}:${prior.line}); give each catalog its own id`,
      );
    }
    seen.set(catalog.agent, { ...catalog, line: agentLine });
    out.push(catalog);
  }
  return out;
}

/** Helpers shared by the catalog's parts while one text is parsed. */
export interface ParseCtx {
  fail: (node: unknown, detail: string) => never;
  get: (map: YAMLMap, key: string) => { key: unknown; value: unknown } | undefined;
  str: (map: YAMLMap, key: string, required: boolean) => string | undefined;
  /** A list of strings; home globs have their anchors expanded (`written` keeps them as written). */
  list: (map: YAMLMap, key: string, kind: 'home' | 'system' | 'text') => { written: string[]; globs: string[] };
  /** One home glob (an anchor expanded), checked, or a CatalogError at `node`. */
  homeGlob: (glob: string, where: string, node: unknown) => string[];
  checkKeys: (map: YAMLMap, allowed: Set<string>, where: string) => void;
  seqOf: (map: YAMLMap, key: string) => unknown[];
}

/** Parse and validate one catalog text. */
export function parseCatalog(source: string, text: string): { catalog: Catalog; agentLine: number } {
  const { isMap, isScalar, isSeq, LineCounter, parseDocument } = yamlLib();
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, uniqueKeys: true, prettyErrors: false });
  const lineOf = (node: unknown): number => {
    const r = (node as { range?: [number, number] } | null)?.range;
    return r ? lc.linePos(r[0]).line : 0;
  };
  if (doc.errors.length > 0) {
    const e = doc.errors[0];
    const line = e.linePos?.[0]?.line ?? lc.linePos(e.pos[0]).line;
    throw new CatalogError(source, line, `not valid YAML (${e.code}: ${e.message.split('\n')[0]}); fix the syntax`);
  }
  const root = doc.contents;
  if (!isMap(root)) throw new CatalogError(source, lineOf(root), 'expected a mapping of catalog keys (agent, name, collect, ...)');
  const fail = (node: unknown, detail: string): never => {
    throw new CatalogError(source, lineOf(node), detail);
  };
  const get = (map: YAMLMap, key: string) => map.items.find((p) => isScalar(p.key) && p.key.value === key);
  const str = (map: YAMLMap, key: string, required: boolean): string | undefined => {
    const pair = get(map, key);
    if (!pair) return required ? fail(map, `missing required key "${key}"`) : undefined;
    const v = pair.value;
    if (!isScalar(v) || (typeof v.value !== 'string' && typeof v.value !== 'number') || String(v.value) === '') {
      return fail(v ?? pair.key, `"${key}" must be a non-empty string`);
    }
    return String(v.value);
  };
  const homeGlob = (glob: string, where: string, node: unknown): string[] => {
    let globs: string[];
    try {
      globs = expandAnchor(glob);
    } catch (err) {
      return fail(node, `bad glob "${glob}" in "${where}": ${(err as Error).message}`);
    }
    for (const g of globs) {
      const problem = globProblem(g, false);
      if (problem) fail(node, `bad glob "${glob}" in "${where}": ${problem}`);
    }
    return globs;
  };
  const list = (map: YAMLMap, key: string, kind: 'home' | 'system' | 'text') => {
    const pair = get(map, key);
    const out = { written: [] as string[], globs: [] as string[] };
    if (!pair || pair.value == null) return out;
    const seq = pair.value;
    if (!isSeq(seq)) return fail(seq ?? pair.key, `"${key}" must be a list of strings`);
    for (const item of seq.items) {
      if (!isScalar(item) || typeof item.value !== 'string') return fail(item, `"${key}" entries must be strings`);
      out.written.push(item.value);
      if (kind === 'home') {
        out.globs.push(...homeGlob(item.value, key, item));
        continue;
      }
      if (kind === 'system') {
        const problem = globProblem(item.value, true);
        if (problem) fail(item, `bad glob "${item.value}" in "${key}": ${problem}`);
      }
      out.globs.push(item.value);
    }
    return out;
  };
  const checkKeysIn = (map: YAMLMap, allowed: Set<string>, where: string) => checkKeys(map, allowed, where, fail);
  const seq = (map: YAMLMap, key: string) => seqOf(map, key, get, fail);
  const ctx: ParseCtx = { fail, get, str, list, homeGlob, checkKeys: checkKeysIn, seqOf: seq };
  checkKeysIn(root, TOP_KEYS, 'the catalog');
  const agent = str(root, 'agent', true)!;
  const agentNode = get(root, 'agent')!.value;
  if (!AGENT_ID.test(agent)) fail(agentNode, `agent id "${agent}" must be lowercase letters, digits, ".", "_" or "-"`);
  const fileBase = basename(source).replace(/\.ya?ml$/i, '');
  if (/\.ya?ml$/i.test(source) && fileBase !== agent) {
    fail(agentNode, `agent id "${agent}" differs from the file name "${basename(source)}"; name the file ${agent}.yaml`);
  }
  const collect = list(root, 'collect', 'home');
  const exclude = list(root, 'exclude', 'home');
  const secrets = list(root, 'secrets', 'home');
  const sessionFiles = list(root, 'session_files', 'home');
  const written: CatalogGlobs = { collect: collect.written, exclude: exclude.written, secrets: secrets.written, session_files: sessionFiles.written, project: { collect: [], secrets: [], exclude: [], session_files: [] } };
  const catalog: Catalog = {
    agent,
    name: str(root, 'name', true)!,
    version: str(root, 'version', false) ?? '0',
    references: list(root, 'references', 'text').globs,
    env_homes: [],
    collect: collect.globs,
    exclude: exclude.globs,
    secrets: secrets.globs,
    session_files: sessionFiles.globs,
    collect_if: [],
    project: { collect: [], secrets: [], exclude: [], session_files: [] },
    system: list(root, 'system', 'system').globs,
    project_hints: [],
    written,
    source,
    sha256: createHash('sha256').update(text).digest('hex'),
  };
  if (catalog.collect.length === 0 && catalog.secrets.length === 0 && catalog.system.length === 0) {
    fail(root, 'the catalog collects nothing: add "collect" globs');
  }
  const projPair = get(root, 'project');
  if (projPair?.value != null) {
    if (!isMap(projPair.value)) fail(projPair.value, '"project" must be a mapping with "collect", "secrets", "exclude" and "session_files"');
    const pm = projPair.value as YAMLMap;
    checkKeysIn(pm, PROJECT_KEYS, '"project"');
    const [pc, ps, pe, pf] = [list(pm, 'collect', 'home'), list(pm, 'secrets', 'home'), list(pm, 'exclude', 'home'), list(pm, 'session_files', 'home')];
    catalog.project = { collect: pc.globs, secrets: ps.globs, exclude: pe.globs, session_files: pf.globs };
    written.project = { collect: pc.written, secrets: ps.written, exclude: pe.written, session_files: pf.written };
  }
  for (const item of seq(root, 'collect_if')) {
    if (!isMap(item)) fail(item, '"collect_if" entries must be mappings {dir, contains}');
    const m = item as YAMLMap;
    checkKeysIn(m, COLLECT_IF_KEYS, '"collect_if" entry');
    const dir = str(m, 'dir', true)!;
    const dirNode = get(m, 'dir')!.value;
    if (dir.endsWith('/**')) fail(dirNode, `bad glob "${dir}" in "collect_if": names the directory itself, without "/**"`);
    const dirs = homeGlob(dir, 'collect_if', dirNode);
    if (!get(m, 'contains')) fail(m, 'missing required key "contains"');
    const contains = list(m, 'contains', 'text').globs;
    const badName = contains.find((n) => n === '' || n === '.' || n === '..' || /[/\\*?[\]{}]/.test(n));
    if (contains.length === 0 || badName !== undefined) {
      fail(get(m, 'contains')!.value, `"contains" must be a non-empty list of plain names (no "/" or glob characters)${badName !== undefined ? `, found "${badName}"` : ''}`);
    }
    catalog.collect_if.push({ dir, dirs, contains });
  }
  for (const item of seq(root, 'env_homes')) catalog.env_homes.push(parseEnvHome(item, ctx));
  for (const item of seq(root, 'project_hints')) catalog.project_hints.push(parseHint(item, ctx));
  return { catalog, agentLine: lineOf(agentNode) };
}

function seqOf(
  root: YAMLMap,
  key: string,
  get: (m: YAMLMap, k: string) => { key: unknown; value: unknown } | undefined,
  fail: (node: unknown, detail: string) => never,
): unknown[] {
  const { isSeq } = yamlLib();
  const pair = get(root, key);
  if (!pair || pair.value == null) return [];
  if (!isSeq(pair.value)) fail(pair.value, `"${key}" must be a list`);
  return (pair.value as { items: unknown[] }).items;
}

function checkKeys(map: YAMLMap, allowed: Set<string>, where: string, fail: (node: unknown, detail: string) => never): void {
  const { isScalar } = yamlLib();
  for (const pair of map.items) {
    const k = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
    if (!allowed.has(k)) {
      fail(pair.key as YamlNode, `unknown key "${k}" in ${where}; expected one of: ${[...allowed].join(', ')}`);
    }
  }
}
