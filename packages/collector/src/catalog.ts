import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node as YamlNode, type YAMLMap } from 'yaml';
import { globProblem } from './globs.js';

/** A variable that moves an agent's config home (applied to the running user only). */
export interface EnvHome {
  var: string;
  /** Home-relative path the directory stands for, e.g. `.copilot`. */
  rel: string;
  /** When set, the value is a list of directories split on this string (CLAUDE_CONFIG_DIR takes `a,b`). */
  separator?: string;
}

/** A directory walked only when it directly holds one of `contains` (`.claude-*` account dirs). */
export interface CollectIf {
  /** Home-relative glob naming directories. */
  dir: string;
  /** Plain names (files or directories) of which at least one must be present. */
  contains: string[];
}

/** Where recorded project paths live, read from collected files. */
export interface ProjectHint {
  file: string;
  format: 'yaml' | 'json' | 'jsonl';
  path?: string;
  keys_of?: string;
  /** jsonl: lines read from the top; `'all'` streams the whole file. */
  max_lines?: number | 'all';
}

/** One agent's catalog, as documented in docs/catalog.md. */
export interface Catalog {
  agent: string;
  name: string;
  /** Revision of the catalog file (`version:`), as a string; '0' when absent. */
  version: string;
  references: string[];
  env_homes: EnvHome[];
  collect: string[];
  exclude: string[];
  secrets: string[];
  collect_if: CollectIf[];
  project: { collect: string[]; secrets: string[]; exclude: string[] };
  /** `/`-rooted globs (Linux, macOS layouts) and drive-letter globs `C:/...` (Windows layouts). */
  system: string[];
  project_hints: ProjectHint[];
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
]);
const PROJECT_KEYS = new Set(['collect', 'secrets', 'exclude']);
const ENV_KEYS = new Set(['var', 'rel', 'separator']);
const COLLECT_IF_KEYS = new Set(['dir', 'contains']);
const HINT_KEYS = new Set(['file', 'format', 'path', 'keys_of', 'max_lines']);
const AGENT_ID = /^[a-z0-9][a-z0-9._-]*$/;

/** Load the built-in catalogs plus extra files and texts (plugins); validates them all. */
export function loadCatalogs(opts: { files?: string[]; texts?: { source: string; text: string }[] } = {}): Catalog[] {
  const inputs: { source: string; text: string }[] = [];
  for (const name of readdirSync(BUILTIN_CATALOG_DIR).sort()) {
    if (name.endsWith('.yaml') || name.endsWith('.yml')) {
      const file = BUILTIN_CATALOG_DIR + name;
      inputs.push({ source: file, text: readFileSync(file, 'utf8') });
    }
  }
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
  for (const input of inputs) {
    const { catalog, agentLine } = parseCatalog(input.source, input.text);
    const prior = seen.get(catalog.agent);
    if (prior) {
      throw new CatalogError(
        input.source,
        agentLine,
        `duplicate agent id "${catalog.agent}" (already defined in ${prior.source}:${prior.line}); give each catalog its own id`,
      );
    }
    seen.set(catalog.agent, { ...catalog, line: agentLine });
    out.push(catalog);
  }
  return out;
}

/** Parse and validate one catalog text. */
export function parseCatalog(source: string, text: string): { catalog: Catalog; agentLine: number } {
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
  checkKeys(root, TOP_KEYS, 'the catalog', fail);
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
  const list = (map: YAMLMap, key: string, kind: 'home' | 'system' | 'text'): string[] => {
    const pair = get(map, key);
    if (!pair || pair.value == null) return [];
    const seq = pair.value;
    if (!isSeq(seq)) return fail(seq ?? pair.key, `"${key}" must be a list of strings`);
    return seq.items.map((item) => {
      if (!isScalar(item) || typeof item.value !== 'string') return fail(item, `"${key}" entries must be strings`);
      if (kind !== 'text') {
        const problem = globProblem(item.value, kind === 'system');
        if (problem) fail(item, `bad glob "${item.value}" in "${key}": ${problem}`);
      }
      return item.value;
    });
  };
  const agent = str(root, 'agent', true)!;
  const agentNode = get(root, 'agent')!.value;
  if (!AGENT_ID.test(agent)) fail(agentNode, `agent id "${agent}" must be lowercase letters, digits, ".", "_" or "-"`);
  const fileBase = basename(source).replace(/\.ya?ml$/i, '');
  if (/\.ya?ml$/i.test(source) && fileBase !== agent) {
    fail(agentNode, `agent id "${agent}" differs from the file name "${basename(source)}"; name the file ${agent}.yaml`);
  }
  const catalog: Catalog = {
    agent,
    name: str(root, 'name', true)!,
    version: str(root, 'version', false) ?? '0',
    references: list(root, 'references', 'text'),
    env_homes: [],
    collect: list(root, 'collect', 'home'),
    exclude: list(root, 'exclude', 'home'),
    secrets: list(root, 'secrets', 'home'),
    collect_if: [],
    project: { collect: [], secrets: [], exclude: [] },
    system: list(root, 'system', 'system'),
    project_hints: [],
    source,
    sha256: createHash('sha256').update(text).digest('hex'),
  };
  if (catalog.collect.length === 0 && catalog.secrets.length === 0 && catalog.system.length === 0) {
    fail(root, 'the catalog collects nothing: add "collect" globs');
  }
  const projPair = get(root, 'project');
  if (projPair?.value != null) {
    if (!isMap(projPair.value)) fail(projPair.value, '"project" must be a mapping with "collect", "secrets" and "exclude"');
    const pm = projPair.value as YAMLMap;
    checkKeys(pm, PROJECT_KEYS, '"project"', fail);
    catalog.project = { collect: list(pm, 'collect', 'home'), secrets: list(pm, 'secrets', 'home'), exclude: list(pm, 'exclude', 'home') };
  }
  for (const item of seqOf(root, 'collect_if', get, fail)) {
    if (!isMap(item)) fail(item, '"collect_if" entries must be mappings {dir, contains}');
    const m = item as YAMLMap;
    checkKeys(m, COLLECT_IF_KEYS, '"collect_if" entry', fail);
    const dir = str(m, 'dir', true)!;
    const problem = globProblem(dir, false) ?? (dir.endsWith('/**') ? 'names the directory itself, without "/**"' : undefined);
    if (problem) fail(get(m, 'dir')!.value, `bad glob "${dir}" in "collect_if": ${problem}`);
    if (!get(m, 'contains')) fail(m, 'missing required key "contains"');
    const contains = list(m, 'contains', 'text');
    const badName = contains.find((n) => n === '' || n === '.' || n === '..' || /[/\\*?[\]{}]/.test(n));
    if (contains.length === 0 || badName !== undefined) {
      fail(get(m, 'contains')!.value, `"contains" must be a non-empty list of plain names (no "/" or glob characters)${badName !== undefined ? `, found "${badName}"` : ''}`);
    }
    catalog.collect_if.push({ dir, contains });
  }
  for (const item of seqOf(root, 'env_homes', get, fail)) {
    if (!isMap(item)) fail(item, '"env_homes" entries must be mappings {var, rel}');
    const m = item as YAMLMap;
    checkKeys(m, ENV_KEYS, '"env_homes" entry', fail);
    const rel = str(m, 'rel', true)!;
    const problem = globProblem(rel, false);
    if (problem || /[*?[\]{}]/.test(rel)) fail(m, `"rel" must be a plain home-relative path, found "${rel}"`);
    const separator = str(m, 'separator', false);
    catalog.env_homes.push({ var: str(m, 'var', true)!, rel, ...(separator !== undefined ? { separator } : {}) });
  }
  for (const item of seqOf(root, 'project_hints', get, fail)) {
    if (!isMap(item)) fail(item, '"project_hints" entries must be mappings {file, format, path | keys_of}');
    const m = item as YAMLMap;
    checkKeys(m, HINT_KEYS, '"project_hints" entry', fail);
    const file = str(m, 'file', true)!;
    const problem = globProblem(file, false);
    if (problem) fail(m, `bad glob "${file}" in "project_hints": ${problem}`);
    const format = str(m, 'format', true)!;
    if (format !== 'yaml' && format !== 'json' && format !== 'jsonl') {
      fail(get(m, 'format')!.value, `"format" must be yaml, json or jsonl, found "${format}"`);
    }
    const path = str(m, 'path', false);
    const keysOf = str(m, 'keys_of', false);
    if ((path === undefined) === (keysOf === undefined)) fail(m, 'a project hint needs exactly one of "path" or "keys_of"');
    const maxLines = str(m, 'max_lines', false);
    if (maxLines !== undefined && maxLines !== 'all' && !/^[1-9][0-9]*$/.test(maxLines)) {
      fail(get(m, 'max_lines')!.value, `"max_lines" must be a positive integer or "all", found "${maxLines}"`);
    }
    if (maxLines !== undefined && format !== 'jsonl') fail(get(m, 'max_lines')!.value, '"max_lines" applies to format jsonl only');
    catalog.project_hints.push({
      file,
      format: format as ProjectHint['format'],
      ...(path !== undefined ? { path } : {}),
      ...(keysOf !== undefined ? { keys_of: keysOf } : {}),
      ...(maxLines !== undefined ? { max_lines: maxLines === 'all' ? 'all' : Number(maxLines) } : {}),
    });
  }
  return { catalog, agentLine: lineOf(agentNode) };
}

function seqOf(
  root: YAMLMap,
  key: string,
  get: (m: YAMLMap, k: string) => { key: unknown; value: unknown } | undefined,
  fail: (node: unknown, detail: string) => never,
): unknown[] {
  const pair = get(root, key);
  if (!pair || pair.value == null) return [];
  if (!isSeq(pair.value)) fail(pair.value, `"${key}" must be a list`);
  return (pair.value as { items: unknown[] }).items;
}

function checkKeys(map: YAMLMap, allowed: Set<string>, where: string, fail: (node: unknown, detail: string) => never): void {
  for (const pair of map.items) {
    const k = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
    if (!allowed.has(k)) {
      fail(pair.key as YamlNode, `unknown key "${k}" in ${where}; expected one of: ${[...allowed].join(', ')}`);
    }
  }
}
