import { findCredentials } from '../credential-scan.js';
import type { Predicate, RowCache } from './types.js';
import { describe, type Located, RuleError } from './located.js';

// Sigma value modifiers aitrail implements (https://github.com/SigmaHQ/sigma-specification,
// "Modifiers"), plus `credential` (aitrail's: the field holds a credential the inventory's
// scanner knows; the value must be true).
const MODIFIERS = new Set(['contains', 'startswith', 'endswith', 'all', 're', 'i', 'm', 's', 'cased', 'exists', 'gt', 'gte', 'lt', 'lte', 'credential']);

type Test = (c: RowCache) => boolean;

/** Credential kinds in a text, by the same scanner and patterns the inventory uses. */
export function credentialKinds(text: string): string[] {
  return findCredentials(text, 0).map((f) => f.kind);
}

/** Compile one Sigma selection (a map, a list of maps, or a list of keywords) into a test. */
export function compileSelection(file: string, sel: Located, fields: ReadonlySet<string>): { test: Test; fields: string[]; needles: string[] } {
  const used: string[] = [];
  const needles: string[] = [];
  const one = (n: Located): Test => {
    if (n.t === 'map') {
      const parts = n.v.map(([key, line, value]) => {
        if (key.split('|')[0] === 'text' && !key.includes('|re')) for (const v of value.t === 'list' ? value.v : [value]) if (v.t === 'scalar' && typeof v.v === 'string') needles.push(v.v.replace(/[*?]/g, '').toLowerCase());
        return compileField(file, key, line, value, fields, used);
      });
      return (c) => parts.every((p) => p(c));
    }
    if (n.t === 'scalar') {
      // A keyword (Sigma: a value with no field) is looked for in the row's text.
      used.push('text');
      if (typeof n.v === 'string') needles.push(n.v.toLowerCase());
      return compileValues(file, n.line, 'text', ['contains'], [n]);
    }
    throw new RuleError(file, n.line, `expected a map of fields or a keyword, found ${describe(n)}`);
  };
  if (sel.t === 'list') {
    const alts = sel.v.map(one);
    return { test: (c) => alts.some((a) => a(c)), fields: used, needles };
  }
  if (sel.t === 'map') return { test: one(sel), fields: used, needles };
  throw new RuleError(file, sel.line, `expected a selection (a map of fields, or a list), found ${describe(sel)}`);
}

function compileField(file: string, key: string, line: number, value: Located, fields: ReadonlySet<string>, used: string[]): Test {
  const [field, ...mods] = key.split('|');
  if (!fields.has(field)) throw new RuleError(file, line, `expected a field (${[...fields].join(', ')}), found ${JSON.stringify(field)}; check the spelling`);
  for (const m of mods) if (!MODIFIERS.has(m)) throw new RuleError(file, line, `expected a modifier aitrail knows (${[...MODIFIERS].join(', ')}), found ${JSON.stringify(m)}`);
  used.push(field);
  const values = value.t === 'list' ? value.v : [value];
  for (const v of values) if (v.t !== 'scalar') throw new RuleError(file, v.line, `expected a value or a list of values for ${field}, found ${describe(v)}`);
  if (values.length === 0) throw new RuleError(file, line, `expected at least one value for ${field}, found an empty list`);
  return compileValues(file, line, field, mods, values);
}

function compileValues(file: string, line: number, field: string, mods: string[], values: Located[]): Test {
  const has = (m: string) => mods.includes(m);
  if (has('exists')) {
    const want = values[0].v === true;
    return (c) => (c.str(field) !== '') === want;
  }
  if (has('credential')) {
    if (values[0].v !== true) throw new RuleError(file, line, `expected ${field}|credential: true, found ${describe(values[0])}`);
    return (c) => c.credentials(field, credentialKinds).length > 0;
  }
  const cmp = ['gt', 'gte', 'lt', 'lte'].find(has);
  let tests: Test[];
  if (cmp) {
    tests = values.map((v) => {
      const n = Number(v.v);
      if (!Number.isFinite(n)) throw new RuleError(file, v.line, `expected a number for ${field}|${cmp}, found ${describe(v)}`);
      return (c: RowCache) => {
        const x = Number(c.f[field]);
        return Number.isFinite(x) && (cmp === 'gt' ? x > n : cmp === 'gte' ? x >= n : cmp === 'lt' ? x < n : x <= n);
      };
    });
  } else if (has('re')) {
    const flags = `${has('i') ? 'i' : ''}${has('m') ? 'm' : ''}${has('s') ? 's' : ''}`;
    tests = values.map((v) => {
      let re: RegExp;
      try {
        re = new RegExp(String(v.v), flags);
      } catch (e) {
        throw new RuleError(file, v.line, `expected a regular expression for ${field}|re, found ${JSON.stringify(v.v)} (${(e as Error).message})`);
      }
      return (c: RowCache) => re.test(c.str(field));
    });
  } else {
    const mode = has('contains') ? 'contains' : has('startswith') ? 'startswith' : has('endswith') ? 'endswith' : 'equals';
    tests = values.map((v) => valueTest(field, mode, v.v as string | number | boolean | null, has('cased')));
  }
  if (has('all')) return (c) => tests.every((t) => t(c));
  return tests.length === 1 ? tests[0] : (c) => tests.some((t) => t(c));
}

/** One value: Sigma's case-insensitive comparison with `*` and `?` wildcards (`\*` is a literal star). */
function valueTest(field: string, mode: 'contains' | 'startswith' | 'endswith' | 'equals', raw: string | number | boolean | null, cased: boolean): Test {
  if (raw === null) return (c) => c.str(field) === '';
  const s = String(raw);
  if (!/[*?\\]/.test(s)) {
    const want = cased ? s : s.toLowerCase();
    const get = (c: RowCache) => (cased ? c.str(field) : c.lowered(field));
    if (mode === 'contains') return (c) => get(c).includes(want);
    if (mode === 'startswith') return (c) => get(c).startsWith(want);
    if (mode === 'endswith') return (c) => get(c).endsWith(want);
    if (cased) return (c) => c.str(field) === want;
    // Most values are already in the case the rule gives (turn types, tags): no copy then.
    return (c) => {
      const v = c.str(field);
      return v === want || (v.length === want.length && v.toLowerCase() === want);
    };
  }
  let body = '';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    if (ch === '\\' && i + 1 < s.length && '*?\\'.includes(s[i + 1])) body += escapeChar(s[++i]);
    else if (ch === '*') body += '.*';
    else if (ch === '?') body += '.';
    else body += escapeChar(ch);
  }
  const re = new RegExp(`${mode === 'contains' || mode === 'endswith' ? '' : '^'}${body}${mode === 'contains' || mode === 'startswith' ? '' : '$'}`, cased ? 's' : 'is');
  return (c) => re.test(c.str(field));
}

function escapeChar(ch: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(ch) ? `\\${ch}` : ch;
}

/** A detection's test as the {@link Predicate} type rules keep. */
export function asPredicate(t: Test): Predicate {
  return (_f, c) => t(c);
}
