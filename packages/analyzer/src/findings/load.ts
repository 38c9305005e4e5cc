import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TIMELINE_COLUMNS } from '../csv.js';
import { parseCondition } from './condition.js';
import { asPredicate, compileSelection } from './detection.js';
import { type CorrelationRule, type DetectionRule, type Level, LEVELS, type Rule, type RowCache } from './types.js';
import { describe, get, type Located, RuleError, text } from './located.js';
import { cachedRuleDocs } from './rules-cache.js';

/** The rules shipped with aitrail (packages/analyzer/rules, in the package's `files`). */
export const BUILT_IN_RULES = fileURLToPath(new URL('../../rules/', import.meta.url));

/** Fields a timeline rule may test: the timeline columns, `tag`, and `paths_outside_project` (paths the row's tool call names outside its project_path). */
export const TIMELINE_FIELDS: ReadonlySet<string> = new Set([...TIMELINE_COLUMNS, 'tag', 'paths_outside_project']);
/** Fields an `mcp_server` rule may test (inventory.json `mcp_servers[]`, lists joined by newlines). */
export const MCP_FIELDS: ReadonlySet<string> = new Set(['host', 'user', 'agent', 'name', 'scope', 'project_path', 'transport', 'command', 'args', 'url', 'env_keys', 'header_keys', 'disabled', 'file', 'line', 'secrets', 'tools', 'destructive_tools', 'failures_total']);

const CORRELATION_TYPES = new Set(['temporal_ordered', 'aitrail_period', 'aitrail_denied_retry']);
const RULE_FILE = /\.ya?ml$/i;

/** Compile the rules of one file's text; `file` is how errors name it. */
export function compileRules(file: string, docs: Located[]): Rule[] {
  return docs.map((d) => compileRule(file, d));
}

function compileRule(file: string, d: Located): Rule {
  if (d.t !== 'map') throw new RuleError(file, d.line, `expected a rule (a map with title, id, level, detection), found ${describe(d)}`);
  const title = text(file, get(d, 'title'), 'a title', d.line);
  const id = text(file, get(d, 'id'), 'an id', d.line);
  const name = get(d, 'name') ? text(file, get(d, 'name'), 'a name', d.line) : id;
  const description = get(d, 'description')?.t === 'scalar' ? String((get(d, 'description') as { v: unknown }).v ?? '') : '';
  const levelNode = get(d, 'level');
  const level = text(file, levelNode, `a level (${LEVELS.join(', ')})`, d.line) as Level;
  if (!LEVELS.includes(level)) throw new RuleError(file, levelNode!.line, `expected a level (${LEVELS.join(', ')}), found ${JSON.stringify(level)}`);
  const source = { file, line: d.line };
  const corr = get(d, 'correlation');
  if (corr) {
    if (corr.t !== 'map') throw new RuleError(file, corr.line, `expected correlation to be a map (type, rules, group-by, timespan), found ${describe(corr)}`);
    const typeNode = get(corr, 'type');
    const type = text(file, typeNode, 'a correlation type', corr.line);
    if (!CORRELATION_TYPES.has(type)) throw new RuleError(file, typeNode!.line, `expected a correlation type aitrail runs (${[...CORRELATION_TYPES].join(', ')}), found ${JSON.stringify(type)}`);
    const rules = list(file, get(corr, 'rules'), 'rules (the names of the rules it correlates)', corr.line);
    const groupBy = get(corr, 'group-by') ? list(file, get(corr, 'group-by'), 'group-by fields', corr.line) : ['host', 'user', 'agent', 'session_id'];
    for (const g of groupBy) if (!TIMELINE_FIELDS.has(g)) throw new RuleError(file, get(corr, 'group-by')!.line, `expected group-by fields among the timeline columns, found ${JSON.stringify(g)}`);
    const ts = get(corr, 'timespan');
    const timespan = ts ? duration(file, ts) : 0;
    const need = type === 'temporal_ordered' ? 2 : type === 'aitrail_period' ? 2 : 1;
    if (rules.length < need) throw new RuleError(file, corr.line, `expected ${need} rules for ${type}, found ${rules.length}`);
    const generate = get(d, 'generate')?.t === 'scalar' && (get(d, 'generate') as { v: unknown }).v === true;
    const r: CorrelationRule = { kind: 'correlation', id, name, title, description, level, type: type as CorrelationRule['type'], rules, groupBy, timespan, generate, source };
    return r;
  }
  const logsource = get(d, 'logsource');
  const cat = logsource ? get(logsource, 'category') : undefined;
  const category = cat && cat.t === 'scalar' && cat.v !== null ? String(cat.v) : 'timeline';
  if (category !== 'timeline' && category !== 'mcp_server') throw new RuleError(file, cat!.line, `expected logsource category timeline or mcp_server, found ${JSON.stringify(category)}`);
  const det = get(d, 'detection');
  if (det?.t !== 'map') throw new RuleError(file, det?.line ?? d.line, `expected detection (a map of selections and a condition), found ${det ? describe(det) : 'nothing'}`);
  const fields = category === 'timeline' ? TIMELINE_FIELDS : MCP_FIELDS;
  const sels = new Map<string, ReturnType<typeof compileSelection>>();
  let condNode: Located | undefined;
  let condLine = det.line;
  for (const [k, line, v] of det.v) {
    if (k === 'condition') {
      condNode = v;
      condLine = line;
    } else if (k === 'timeframe') throw new RuleError(file, line, 'expected no timeframe (aitrail does not run it), found one; use a correlation rule with a timespan');
    else sels.set(k, compileSelection(file, v, fields));
  }
  if (!condNode) throw new RuleError(file, det.line, 'expected detection.condition (e.g. "selection and not filter"), found none');
  const names = [...sels.keys()];
  const conds = (condNode.t === 'list' ? condNode.v : [condNode]).map((c) => parseCondition(file, c.line || condLine, text(file, c, 'a condition', condLine), names));
  const tests = names.map((n) => sels.get(n)!.test);
  const index = new Map(names.map((n, i) => [n, i]));
  // Each selection is tested at most once per record; the memo is reused (matching is synchronous).
  const memo = new Int8Array(names.length);
  let current: RowCache;
  const sel = (n: string) => {
    const i = index.get(n)!;
    if (memo[i] === 0) memo[i] = tests[i](current) ? 1 : 2;
    return memo[i] === 1;
  };
  const match = asPredicate((c) => {
    memo.fill(0);
    current = c;
    return conds.some((cond) => cond(sel));
  });
  const used = [...new Set([...sels.values()].flatMap((s) => s.fields))];
  const needles = [...new Set([...sels.values()].flatMap((s) => s.needles))].filter((n) => n.length > 0);
  const r: DetectionRule = { kind: 'detection', id, name, title, description, level, category, generate: true, match, fields: used, needles, source };
  return r;
}

function list(file: string, n: Located | undefined, what: string, line: number): string[] {
  if (n?.t === 'scalar' && n.v !== null) return [String(n.v)];
  if (n?.t !== 'list' || n.v.some((x) => x.t !== 'scalar')) throw new RuleError(file, n?.line ?? line, `expected ${what} as a list, found ${n ? describe(n) : 'nothing'}`);
  return n.v.map((x) => String((x as { v: unknown }).v));
}

function duration(file: string, n: Located): number {
  const m = n.t === 'scalar' ? /^(\d+)([smhd])$/.exec(String(n.v)) : null;
  if (!m) throw new RuleError(file, n.line, `expected a timespan such as 30s, 5m, 1h or 2d, found ${describe(n)}`);
  return Number(m[1]) * { s: 1e3, m: 60e3, h: 3600e3, d: 86400e3 }[m[2] as 's']!;
}

async function ruleFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string) => {
    for (const e of (await readdir(d, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (e.isDirectory()) await walk(join(d, e.name));
      else if (e.isFile() && RULE_FILE.test(e.name)) out.push(join(d, e.name));
    }
  };
  await walk(dir);
  return out;
}

/** Load the built-in rules and those of each directory in `dirs`; any problem is a {@link RuleError}. */
export async function loadRules(dirs: readonly string[], opts: { builtIn?: boolean } = {}): Promise<Rule[]> {
  const all: Rule[] = [];
  const sources = [...(opts.builtIn === false ? [] : [BUILT_IN_RULES]), ...dirs];
  for (const dir of sources) {
    const st = await stat(dir).catch(() => null);
    if (!st?.isDirectory()) throw new RuleError(dir, 0, 'expected a directory of .yml rule files, found none there; check --rules');
    for (const f of await ruleFiles(dir)) {
      const name = dir === BUILT_IN_RULES ? `rules/${relative(dir, f)}` : f;
      const source = await readFile(f, 'utf8');
      // The YAML library is loaded only for a text the build's cache does not hold.
      const docs = (dir === BUILT_IN_RULES ? cachedRuleDocs(source) : undefined) ?? (await import('./yaml-tree.js')).parseRuleFile(name, source);
      all.push(...compileRules(name, docs));
    }
  }
  return checkSet(all);
}

/**
 * Ids are unique, except that a user's rule with a built-in rule's id replaces it (how a built-in
 * is tuned, e.g. an allow list added); correlations name rules that exist, and those make no
 * findings of their own unless the correlation says `generate: true`.
 */
export function checkSet(input: Rule[]): Rule[] {
  const ids = new Map<string, Rule>();
  for (const r of input) {
    const prior = ids.get(r.id);
    if (prior && !(prior.source.file.startsWith('rules/') && !r.source.file.startsWith('rules/'))) throw new RuleError(r.source.file, r.source.line, `expected a rule id used once, found ${JSON.stringify(r.id)} also at ${prior.source.file}:${prior.source.line}; rename one`);
    ids.set(r.id, r);
  }
  const rules = [...ids.values()];
  const byName = new Map(rules.map((r) => [r.name, r]));
  for (const r of rules) {
    if (r.kind !== 'correlation') continue;
    for (const n of r.rules) {
      const t = byName.get(n);
      if (t?.kind !== 'detection' || t.category !== 'timeline') throw new RuleError(r.source.file, r.source.line, `expected correlation rule ${JSON.stringify(n)} to name a timeline detection rule, found ${t ? 'another kind of rule' : 'none by that name'}`);
      // Sigma's `generate: false` default: a rule a correlation uses is not reported alone.
      if (!r.generate) t.generate = false;
    }
  }
  return rules;
}
