import type { YAMLMap } from 'yaml';
import type { EnvHome, HintFormat, ParseCtx, ProjectHint } from './catalog.js';
import { globProblem } from './globs.js';
import { parseSelector, type WhereCondition } from './hint-select.js';
import { textRegexProblem } from './hint-values.js';
import { parseXmlSelector } from './hint-xml.js';
import type { Layout } from './homes.js';
import { yamlLib } from './libs.js';

const HINT_KEYS = new Set(['file', 'format', 'path', 'keys_of', 'regex', 'where', 'max_lines', 'home_token', 'dirname']);
const FORMATS = new Set<HintFormat>(['yaml', 'json', 'jsonl', 'toml', 'xml', 'text']);
const LINE_FORMATS = new Set<HintFormat>(['jsonl', 'text']);

/** Parse and validate one `project_hints` entry (docs/catalog.md, "project_hints"). */
export function parseHint(item: unknown, ctx: ParseCtx): ProjectHint {
  const { isMap, isScalar, isSeq } = yamlLib();
  const { fail, get, str } = ctx;
  if (!isMap(item)) return fail(item, '"project_hints" entries must be mappings {file, format, path | keys_of | regex}');
  const m = item as YAMLMap;
  ctx.checkKeys(m, HINT_KEYS, '"project_hints" entry');
  const node = (k: string) => get(m, k)?.value ?? m;
  const file = str(m, 'file', true)!;
  const files = ctx.homeGlob(file, 'project_hints', node('file'));
  const format = str(m, 'format', true)! as HintFormat;
  if (!FORMATS.has(format)) fail(node('format'), `"format" must be one of ${[...FORMATS].join(', ')}, found "${format}"`);
  const hint: ProjectHint = { file, files, format };

  const pathNode = get(m, 'path')?.value;
  if (pathNode != null) {
    const paths = isSeq(pathNode) ? pathNode.items : [pathNode];
    hint.path = paths.map((p) => {
      if (!isScalar(p) || typeof p.value !== 'string' || p.value === '') return fail(p, '"path" must be a selector or a list of selectors');
      const ok = format === 'xml' ? parseXmlSelector(p.value) : parseSelector(p.value);
      if (!ok) {
        const shape = format === 'xml' ? 'elements separated by "/", optional [@attr=value], then @attr, e.g. "map/entry@key"' : 'keys separated by ".", with "[]" for every array element and "*" for every value, e.g. "folders[].path"';
        fail(p, `bad ${format} selector "${p.value}" in "path": expected ${shape}`);
      }
      return p.value;
    });
    if (hint.path.length === 0) fail(pathNode, '"path" must not be empty');
  }
  const keysOf = str(m, 'keys_of', false);
  if (keysOf !== undefined) {
    if (format === 'xml' || format === 'text') fail(node('keys_of'), `"keys_of" does not apply to format ${format}`);
    if (!parseSelector(keysOf)) fail(node('keys_of'), `bad selector "${keysOf}" in "keys_of"`);
    hint.keys_of = keysOf;
  }
  const regex = str(m, 'regex', false);
  if (format === 'text') {
    // Without a regex each line read is the value: a file that holds just a path (`.project_root`).
    if (hint.path || keysOf !== undefined) fail(m, 'a text hint takes "regex" (or nothing: each line is a path), not "path" or "keys_of"');
    if (regex !== undefined) {
      const problem = textRegexProblem(regex);
      if (problem) fail(node('regex'), `bad "regex" ${JSON.stringify(regex)}: ${problem}`);
      hint.regex = regex;
    }
  } else {
    if (regex !== undefined) fail(node('regex'), '"regex" applies to format text only');
    if (!hint.path && keysOf === undefined) fail(m, `a ${format} hint needs "path"${format === 'xml' ? '' : ' or "keys_of"'}`);
  }
  const maxLines = str(m, 'max_lines', false);
  if (maxLines !== undefined) {
    if (maxLines !== 'all' && !/^[1-9][0-9]*$/.test(maxLines)) fail(node('max_lines'), `"max_lines" must be a positive integer or "all", found "${maxLines}"`);
    if (!LINE_FORMATS.has(format)) fail(node('max_lines'), '"max_lines" applies to formats jsonl and text only');
    hint.max_lines = maxLines === 'all' ? 'all' : Number(maxLines);
  }
  const whereNode = get(m, 'where')?.value;
  if (whereNode != null) {
    if (format !== 'jsonl') fail(whereNode, '"where" applies to format jsonl only');
    hint.where = parseWhere(whereNode, ctx);
  }
  const token = str(m, 'home_token', false);
  if (token !== undefined) hint.home_token = token;
  const dirname = get(m, 'dirname')?.value;
  if (dirname != null) {
    if (!isScalar(dirname) || typeof dirname.value !== 'boolean') fail(dirname, '"dirname" must be true or false');
    if ((dirname as { value: boolean }).value) hint.dirname = true;
  }
  return hint;
}

function parseWhere(node: unknown, ctx: ParseCtx): WhereCondition[] {
  const { isMap, isScalar, isSeq } = yamlLib();
  if (!isMap(node) || node.items.length === 0) return ctx.fail(node, '"where" must be a mapping {selector: value or [values]}');
  return node.items.map((pair) => {
    const key = isScalar(pair.key) ? String(pair.key.value) : '';
    if (!parseSelector(key)) ctx.fail(pair.key, `bad selector "${key}" in "where"`);
    const v = pair.value;
    const items = isSeq(v) ? v.items : [v];
    const values = items.map((x) => {
      if (!isScalar(x) || x.value === null || typeof x.value === 'object' || String(x.value) === '') {
        return ctx.fail(x ?? pair.key, `"where" values must be non-empty strings, numbers or booleans`);
      }
      return String(x.value);
    });
    if (values.length === 0) ctx.fail(v ?? pair.key, '"where" needs at least one value');
    return { path: key, values };
  });
}

const ENV_KEYS = new Set(['var', 'rel', 'separator', 'layouts']);
const LAYOUTS = new Set(['linux', 'darwin', 'win32']);

/** Parse and validate one `env_homes` entry. */
export function parseEnvHome(item: unknown, ctx: ParseCtx): EnvHome {
  const { isMap } = yamlLib();
  if (!isMap(item)) ctx.fail(item, '"env_homes" entries must be mappings {var, rel}');
  const m = item as YAMLMap;
  ctx.checkKeys(m, ENV_KEYS, '"env_homes" entry');
  const rel = ctx.str(m, 'rel', true)!;
  // `.`: the variable names a whole home (GEMINI_CLI_HOME: state at $GEMINI_CLI_HOME/.gemini).
  const problem = rel === '.' ? undefined : globProblem(rel, false);
  if (problem || /[*?[\]{}@]/.test(rel)) ctx.fail(m, `"rel" must be a plain home-relative path or "." (the home itself), found "${rel}"`);
  const separator = ctx.str(m, 'separator', false);
  const layouts = ctx.list(m, 'layouts', 'text').globs;
  const bad = layouts.find((l) => !LAYOUTS.has(l));
  if (bad !== undefined) ctx.fail(ctx.get(m, 'layouts')!.value, `"layouts" entries must be linux, darwin or win32, found "${bad}"`);
  return {
    var: ctx.str(m, 'var', true)!,
    rel,
    ...(separator !== undefined ? { separator } : {}),
    ...(layouts.length > 0 ? { layouts: layouts as Layout[] } : {}),
  };
}
