import { RuleError } from './located.js';

/** A compiled condition over named selections (each tested at most once per record). */
export type Cond = (sel: (name: string) => boolean) => boolean;

/**
 * Parse a Sigma condition: selection names, `and`, `or`, `not`, parentheses, `1 of <pattern>`,
 * `all of <pattern>` (`them` = every selection; a trailing `*` matches a prefix). Precedence,
 * as in Sigma: `not` over `and` over `or`.
 */
export function parseCondition(file: string, line: number, src: string, names: readonly string[]): Cond {
  const toks = src.match(/\(|\)|[^\s()]+/g) ?? [];
  let i = 0;
  const fail = (what: string): never => {
    throw new RuleError(file, line, `expected ${what} in condition ${JSON.stringify(src)}, found ${i < toks.length ? JSON.stringify(toks[i]) : 'its end'}`);
  };
  const word = (w: string) => i < toks.length && toks[i].toLowerCase() === w;
  const pattern = (p: string): string[] => {
    if (p === 'them') return [...names];
    const m = p.endsWith('*') ? names.filter((n) => n.startsWith(p.slice(0, -1))) : names.filter((n) => n === p);
    if (m.length === 0) throw new RuleError(file, line, `expected ${JSON.stringify(p)} to name a selection (${names.join(', ')}), found none that matches`);
    return m;
  };
  const atom = (): Cond => {
    if (word('not')) {
      i++;
      const a = atom();
      return (s) => !a(s);
    }
    if (toks[i] === '(') {
      i++;
      const e = or();
      if (toks[i] !== ')') fail('")"');
      i++;
      return e;
    }
    if (i + 2 < toks.length && /^(1|all|any)$/i.test(toks[i]) && toks[i + 1]?.toLowerCase() === 'of') {
      const all = toks[i].toLowerCase() === 'all';
      const set = pattern(toks[i + 2]);
      i += 3;
      return all ? (s) => set.every(s) : (s) => set.some(s);
    }
    const t = toks[i];
    if (t === undefined || t === ')' || ['and', 'or'].includes(t.toLowerCase())) fail('a selection name');
    i++;
    const [n] = pattern(t);
    if (t.endsWith('*')) throw new RuleError(file, line, `expected "1 of ${t}" or "all of ${t}", found ${JSON.stringify(t)} alone`);
    return (s) => s(n);
  };
  const and = (): Cond => {
    let l = atom();
    while (word('and')) {
      i++;
      const a = l;
      const r = atom();
      l = (s) => a(s) && r(s);
    }
    return l;
  };
  const or = (): Cond => {
    let l = and();
    while (word('or')) {
      i++;
      const a = l;
      const r = and();
      l = (s) => a(s) || r(s);
    }
    return l;
  };
  if (toks.length === 0) fail('a condition');
  const c = or();
  if (i < toks.length) fail('"and", "or" or the end');
  return c;
}
