import type { HintRule } from './catalog.js';
import { YAML_MAX_DEPTH, yamlTooDeep } from './yaml-guard.js';
import { LineScan, type LineScanResult, readBounded, scanFile } from './hint-io.js';
import { meetsWhere, parseSelector, selectKeys, selectValues } from './hint-select.js';
import { hintTarget, textMatcher } from './hint-values.js';
import { parseXmlSelector, xmlValues } from './hint-xml.js';
import { tomlLib, yamlLib } from './libs.js';

export { atPath } from './hint-select.js';
export { looksAbsolute } from './hint-values.js';
export { forEachLine, readBounded } from './hint-io.js';

/** How much of a json/yaml/toml/xml hint file is read: a `.claude.json` with legacy history runs to tens of MB. */
export const HINT_MAX_DOC_BYTES = 64 * 1024 * 1024;

/**
 * YAML and TOML hint files (a Copilot workspace.yaml, Codex's config.toml) are a few KB; their
 * parsers hold some 25 bytes per byte of input (a 13 MB workspace.yaml took 2.5 s and 315 MB,
 * a 19 MB config.toml 393 MB) and YAML's take ~5 s a MB of some hostile shapes, so one past
 * 1 MiB is read no further on a live target.
 */
export const HINT_MAX_CONFIG_BYTES = 1024 * 1024;

/** A jsonl or text hint line longer than this is skipped unparsed (memory holds one line at a time). */
export const HINT_MAX_LINE_BYTES = 4 * 1024 * 1024;

/** How much of a jsonl or text hint file is streamed (a Copilot events.jsonl reaches ~120 MB). */
export const HINT_MAX_STREAM_BYTES = 512 * 1024 * 1024;

/** Distinct project roots kept from one hint file; more gives a note. */
export const HINT_MAX_VALUES = 1000;

/** Places a `text` hint's regex is tried in one file (each on a bounded window). */
export const HINT_MAX_TEXT_ATTEMPTS = 100_000;

/** What reading one hint file gave: the recorded roots, the folders on other hosts, or why it gave less. */
export interface HintRead {
  values: string[];
  /** URIs naming folders on other hosts (`vscode-remote://...`), decoded; never walked here. */
  remote: string[];
  /** Why a readable file gave less than all it holds (a collection note), else undefined. */
  problem?: string;
}

/** Gathers distinct values and remote folders, each bounded. */
class Gather {
  readonly values = new Set<string>();
  readonly remote = new Set<string>();
  dropped = 0;
  constructor(
    private readonly rule: HintRule,
    private readonly home: string | undefined,
  ) {}

  add(raw: unknown): void {
    if (typeof raw !== 'string') return;
    const t = hintTarget(raw, this.rule, this.home);
    if (!t) return;
    const set = 'path' in t ? this.values : this.remote;
    const v = 'path' in t ? t.path : t.remote;
    if (set.has(v)) return;
    if (set.size >= (set === this.values ? HINT_MAX_VALUES : 100)) this.dropped += 1;
    else set.add(v);
  }

  result(problem?: string): HintRead {
    const over = this.dropped > 0 ? `${this.dropped} more distinct values past the first ${HINT_MAX_VALUES} were not kept as project roots` : undefined;
    const p = [problem, over].filter(Boolean).join('; ');
    return { values: [...this.values], remote: [...this.remote], ...(p ? { problem: p } : {}) };
  }
}

/** Parse a whole document of a hint's format; throws on bad syntax. */
function parseDoc(format: HintRule['format'], body: string): unknown {
  if (format === 'json') return JSON.parse(stripJsonComments(body));
  if (format === 'yaml') {
    // Deep nesting (a megabyte of `[`) makes the YAML library's memory run away, past any catch.
    if (yamlTooDeep(body)) throw new Error(`YAML nested deeper than ${YAML_MAX_DEPTH} levels`);
    // Not prettified: that walks the text for each error (250 KB of `"` took 39 s, not 1.3 s).
    // A document rather than `parse`, which prints the library's warnings.
    const doc = yamlLib().parseDocument(body, { uniqueKeys: false, prettyErrors: false });
    if (doc.errors.length > 0) throw doc.errors[0];
    return doc.toJS({ maxAliasCount: 10 });
  }
  return tomlLib().parse(body, { maxDepth: 100 });
}

/** The values of a parsed record (a document, or one jsonl line). */
function pickFrom(rule: HintRule, doc: unknown, g: Gather): void {
  for (const p of rule.path ?? []) {
    const steps = parseSelector(p);
    if (steps) for (const v of selectValues(doc, steps)) g.add(v);
  }
  if (rule.keys_of !== undefined) {
    const steps = parseSelector(rule.keys_of);
    if (steps) for (const k of selectKeys(doc, steps)) g.add(k);
  }
}

/** The project paths a hint finds in a whole file's text (json, yaml, toml, xml; jsonl and text line by line). */
export function hintText(rule: HintRule, text: string, home?: string): HintRead {
  const body = text.replace(/^\uFEFF/, '');
  const g = new Gather(rule, home);
  if (rule.format === 'xml') {
    let problem: string | undefined;
    for (const p of rule.path ?? []) {
      const sel = parseXmlSelector(p);
      if (!sel) continue;
      const r = xmlValues(body, sel, HINT_MAX_VALUES * 10);
      for (const v of r.values) g.add(v);
      problem ??= r.problem;
    }
    return g.result(problem && `is not well-formed XML (${problem}); the project roots before that point were kept`);
  }
  if (rule.format === 'jsonl' || rule.format === 'text') {
    const lines = body.split('\n');
    const max = rule.max_lines === 'all' ? lines.length : (rule.max_lines ?? 1);
    const onLine = lineReader(rule, g);
    for (const line of lines.slice(0, max)) onLine(line);
    return g.result();
  }
  try {
    pickFrom(rule, parseDoc(rule.format, body), g);
  } catch {
    return g.result(`cannot be parsed as ${rule.format}: no project roots read from it`);
  }
  return g.result();
}

/** The values a hint finds in a file's text; bad syntax gives none. */
export function hintValues(rule: HintRule, text: string, home?: string): string[] {
  return hintText(rule, text, home).values;
}

/** A per-line reader for jsonl (selectors, `where` pre-filtered by substring) and text (bounded regex, or the line itself). */
function lineReader(rule: HintRule, g: Gather): (line: string) => void {
  if (rule.format === 'text' && rule.regex === undefined) return (line) => g.add(line.trim());
  if (rule.format === 'text') {
    const match = textMatcher(rule.regex ?? '');
    const budget = { attempts: HINT_MAX_TEXT_ATTEMPTS };
    return (line) => {
      for (const v of match(line, budget)) g.add(v);
    };
  }
  const where = rule.where ?? [];
  const keys = where.length === 0 ? lineKeys(rule) : [];
  return (line) => {
    if (line.trim() === '') return;
    // JSON writes these values verbatim, so a line without them cannot match: skip the parse.
    if (!where.every((w) => w.values.some((v) => line.includes(v)))) return;
    if (keys.length > 0 && !keys.some((k) => line.includes(k))) return;
    let rec: unknown;
    try {
      rec = JSON.parse(line);
    } catch {
      return; // a bad line is skipped; the analyzer reports it
    }
    if (where.length === 0 || meetsWhere(rec, where)) pickFrom(rule, rec, g);
  };
}

/**
 * What a jsonl line must hold to give a value: the last key of some selector (`cwd` of
 * `payload.cwd`). JSON writes a plain key as it is, within a string-encoded record too (`\"cwd\"`),
 * so most lines of a long log are skipped unparsed. None when a selector ends without a plain
 * key (`[]`, `*`, `.`, a key JSON would escape): then every line is parsed.
 */
export function lineKeys(rule: HintRule): string[] {
  const keys: string[] = [];
  for (const sel of [...(rule.path ?? []), ...(rule.keys_of !== undefined ? [rule.keys_of] : [])]) {
    const steps = parseSelector(sel);
    if (!steps) continue;
    const last = steps.at(-1)?.key;
    if (last === undefined || !/^[\w$@-]+$/.test(last)) return [];
    keys.push(last);
  }
  return keys;
}

/** True for a hint read line by line (jsonl, text): the collector scans its files as it reads them. */
export function scansLines(rule: HintRule): boolean {
  return rule.format === 'jsonl' || rule.format === 'text';
}

/**
 * The scan of a jsonl or text hint file, with the bounds above, for whoever reads its bytes;
 * `result` once they have all been fed (or the read stopped).
 */
export function hintLineScan(rule: HintRule, home?: string): { scan: LineScan; result: () => HintRead } {
  const g = new Gather(rule, home);
  const max = rule.max_lines === 'all' ? Number.POSITIVE_INFINITY : (rule.max_lines ?? 1);
  const onLine = lineReader(rule, g);
  let first = true;
  const scan = new LineScan(
    max,
    HINT_MAX_LINE_BYTES,
    (line) => {
      try {
        onLine(first ? line.replace(/^\uFEFF/, '') : line);
      } catch {
        // The values found so far count (the scan may be fed by the collector's read: never throw into it).
        scan.stop();
      }
      first = false;
    },
    HINT_MAX_STREAM_BYTES,
    // A line lacking every value of the first `where` clause, or else every selector's last key,
    // cannot match: it is skipped undecoded.
    rule.format !== 'jsonl' ? [] : (rule.where?.[0] ? rule.where[0].values : lineKeys(rule)).map((v) => Buffer.from(v, 'utf8')),
  );
  return { scan, result: () => lineResult(g, scan.end()) };
}

function lineResult(g: Gather, r: LineScanResult | undefined): HintRead {
  if (!r) return g.result();
  const problems = [
    r.overlong > 0 ? `${r.overlong} lines longer than ${HINT_MAX_LINE_BYTES} bytes were skipped when looking for project roots` : '',
    r.cut ? `only its first ${HINT_MAX_STREAM_BYTES} bytes were read for project roots` : '',
  ].filter(Boolean);
  return g.result(problems.join('; ') || undefined);
}

/** Bytes of a json, yaml, toml or xml hint file read at most (the file is read whole or not at all). */
export function docHintBound(rule: HintRule): number {
  return rule.format === 'yaml' || rule.format === 'toml' ? HINT_MAX_CONFIG_BYTES : HINT_MAX_DOC_BYTES;
}

/** The recorded project roots in one hint file, read with the bounds above; never throws. */
export async function readHintValues(rule: HintRule, fsPath: Buffer | string, home?: string): Promise<HintRead> {
  if (!scansLines(rule)) {
    const max = docHintBound(rule);
    const r = await readBounded(fsPath, max);
    if (!r) return { values: [], remote: [] };
    if (r.tooLarge !== undefined) {
      return { values: [], remote: [], problem: `is ${r.tooLarge} bytes, over the ${max}-byte bound for ${rule.format} hints: not read for project roots` };
    }
    return hintText(rule, r.text ?? '', home);
  }
  const { scan, result } = hintLineScan(rule, home);
  const r = await scanFile(fsPath, scan);
  return r ? result() : { values: [], remote: [] };
}

/**
 * Strip `//` and `/* *\/` comments outside strings (JSONC, as config.json and settings.json are).
 * The text between comments is copied in slices: built a character at a time, an 11 MB
 * `.claude.json` became a string of 11 million pieces and took 440 MB.
 */
export function stripJsonComments(text: string): string {
  if (!text.includes('/')) return text;
  const parts: string[] = [];
  // The start of the text not copied yet.
  let from = 0;
  let inStr = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inStr) {
      if (c === 92) i += 1;
      else if (c === 34) inStr = false;
    } else if (c === 34) inStr = true;
    else if (c === 47 && text.charCodeAt(i + 1) === 47) {
      // A line comment becomes its line's end.
      parts.push(text.slice(from, i), '\n');
      const nl = text.indexOf('\n', i);
      i = nl < 0 ? text.length : nl;
      from = i + 1;
    } else if (c === 47 && text.charCodeAt(i + 1) === 42) {
      parts.push(text.slice(from, i));
      const close = text.indexOf('*/', i + 2);
      // An unclosed block comment runs to the end.
      if (close < 0) return parts.join('');
      i = close + 1;
      from = i + 1;
    }
  }
  parts.push(text.slice(from));
  return parts.join('');
}

