// A rule file's YAML as a plain tree with lines (what the rule compiler reads), without the YAML
// library: the built-in rules' trees come from the build's cache (rules-cache.ts).
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
