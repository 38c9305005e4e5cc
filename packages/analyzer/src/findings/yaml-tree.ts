import { isMap, isPair, isScalar, isSeq, LineCounter, type Node, parseAllDocuments } from 'yaml';

/** A YAML value with the line it starts on, so every rule error can name its line. */
export type Located = { line: number } & ({ t: 'scalar'; v: string | number | boolean | null } | { t: 'list'; v: Located[] } | { t: 'map'; v: [key: string, keyLine: number, value: Located][] });

/** A rule file that does not parse: the message names the file and the line. */
export class RuleError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    detail: string,
  ) {
    super(`${file}:${line}: ${detail}`);
  }
}

/** Every YAML document of a rule file as a located tree (Sigma allows several rules per file, split by `---`). */
export function parseRuleFile(file: string, text: string): Located[] {
  const lc = new LineCounter();
  const docs = parseAllDocuments(text, { lineCounter: lc, prettyErrors: false });
  if (!Array.isArray(docs)) return [];
  const out: Located[] = [];
  for (const d of docs) {
    const err = d.errors[0];
    if (err) throw new RuleError(file, lc.linePos(err.pos[0]).line, `expected YAML, found an error: ${err.message.split('\n')[0]}; fix the YAML at that line`);
    if (d.contents === null) continue;
    out.push(tree(d.contents as Node, lc, file));
  }
  return out;
}

function tree(n: Node, lc: LineCounter, file: string): Located {
  const line = n.range ? lc.linePos(n.range[0]).line : 0;
  if (isMap(n)) {
    const v: [string, number, Located][] = [];
    for (const p of n.items) {
      if (!isPair(p) || !isScalar(p.key)) throw new RuleError(file, line, 'expected plain keys, found a complex key; write keys as plain words');
      const k = p.key as Node;
      const keyLine = k.range ? lc.linePos(k.range[0]).line : line;
      const value = p.value ? tree(p.value as Node, lc, file) : { line: keyLine, t: 'scalar' as const, v: null };
      v.push([String((p.key as { value: unknown }).value), keyLine, value]);
    }
    return { line, t: 'map', v };
  }
  if (isSeq(n)) return { line, t: 'list', v: n.items.map((i) => tree(i as Node, lc, file)) };
  if (isScalar(n)) {
    const s = n.value;
    return { line, t: 'scalar', v: typeof s === 'string' || typeof s === 'number' || typeof s === 'boolean' || s === null ? s : String(s) };
  }
  throw new RuleError(file, line, 'expected a map, a list or a plain value, found an alias; write the value out');
}

/** The value under `key` in a map, or undefined. */
export function get(m: Located, key: string): Located | undefined {
  return m.t === 'map' ? m.v.find(([k]) => k === key)?.[2] : undefined;
}

/** A scalar as a string, or an error naming the file and line. */
export function text(file: string, n: Located | undefined, what: string, fallbackLine: number): string {
  if (n?.t !== 'scalar' || n.v === null || n.v === '') throw new RuleError(file, n?.line ?? fallbackLine, `expected ${what}, found ${n ? describe(n) : 'nothing'}`);
  return String(n.v);
}

/** What a value is, in words, for error messages. */
export function describe(n: Located): string {
  if (n.t === 'map') return 'a map';
  if (n.t === 'list') return 'a list';
  return n.v === null ? 'an empty value' : JSON.stringify(n.v);
}
