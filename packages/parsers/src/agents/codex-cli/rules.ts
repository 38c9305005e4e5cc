import { posix } from 'node:path';
import { compactJson } from '../../sdk/compact-json.js';
import { readLines } from '../../sdk/line-reader.js';
import { makeRow } from '../../sdk/row.js';
import type { Artifact, Parser, Row } from '../../sdk/types.js';
import { RULES_RE } from './paths.js';

/** A Starlark value as far as rules use them: strings and (nested) lists of strings. */
type Value = string | Value[];

/** Rules files are a few KB; past this much text the rest of a file is not read (one row says so). */
const MAX_RULES_CHARS = 16 * 1024 * 1024;

/** Lists nested deeper than this are not a rule's (and would run the reader's stack out). */
const MAX_DEPTH = 32;

/**
 * Read one string or list at `i`: the value and where it ends, or where reading failed. Textual:
 * no Starlark is evaluated. A string ends at its line's end (Starlark strings do not span lines),
 * so an unclosed quote costs the rest of its line, never the rest of the file.
 */
function readValue(s: string, i: number, depth = 0): { v: Value; end: number } | { fail: number } {
  while (/\s/.test(s[i] ?? '')) i++;
  const q = s[i];
  if (q === '"' || q === "'") {
    // Copied in slices between escapes: a character at a time, a long value became a string of
    // that many pieces, tens of bytes each.
    const parts: string[] = [];
    let from = i + 1;
    for (let j = i + 1; j < s.length; j++) {
      const c = s[j];
      if (c === '\\' && j + 1 < s.length) {
        parts.push(s.slice(from, j));
        from = ++j;
        continue;
      }
      if (c === q) {
        parts.push(s.slice(from, j));
        return { v: parts.join(''), end: j + 1 };
      }
      if (c === '\n') return { fail: j };
    }
    return { fail: s.length };
  }
  if (q === '[' && depth < MAX_DEPTH) {
    const items: Value[] = [];
    let j = i + 1;
    for (;;) {
      while (/[\s,]/.test(s[j] ?? '')) j++;
      if (s[j] === ']') return { v: items, end: j + 1 };
      const item = readValue(s, j, depth + 1);
      if ('fail' in item) return item;
      items.push(item.v);
      j = item.end;
    }
  }
  return { fail: i };
}

/** The keyword arguments of one `prefix_rule(...)` call text, those that are strings or lists. */
function kwargs(call: string): Map<string, Value> {
  const out = new Map<string, Value>();
  const re = /\b([a-z_]+)\s*=/g;
  for (let m = re.exec(call); m; m = re.exec(call)) {
    const v = readValue(call, m.index + m[0].length);
    if ('v' in v) {
      out.set(m[1], v.v);
      re.lastIndex = v.end;
    }
  }
  return out;
}

const CALL = 'prefix_rule';
const isIdent = (c: string | undefined) => c !== undefined && /\w/.test(c);

/**
 * The `)` closing the call whose `(` is at `open`, skipping strings; or where it fails: an
 * unclosed string's line end, the next `prefix_rule` met outside a string (rules do not nest, so
 * the call was left open there), or the end of the file.
 */
function callEnd(s: string, open: number): { end: number } | { fail: number } {
  let depth = 0;
  for (let i = open; i < s.length; i++) {
    const c = s[i];
    if (c === '"' || c === "'") {
      const v = readValue(s, i);
      if ('fail' in v) return v;
      i = v.end - 1;
    } else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return { end: i };
    else if (c === 'p' && s.startsWith(CALL, i) && !isIdent(s[i - 1]) && !isIdent(s[i + CALL.length])) return { fail: i };
  }
  return { fail: s.length };
}

/**
 * Line numbers and comment marks for positions met in increasing order. Each newline and each
 * `#` is looked for once, so a file of one long line costs its length, not its length squared.
 */
function lineTracker(text: string) {
  let line = 1;
  let lineStart = 0;
  let nextNl = text.indexOf('\n');
  // The first `#` at or after lineStart (-1: none left in the file).
  let hash = -2;
  return {
    /** The 1-based line of `at`, and whether a `#` comes before it on that line (a comment). */
    at(at: number): { line: number; commented: boolean } {
      while (nextNl >= 0 && nextNl < at) {
        line++;
        lineStart = nextNl + 1;
        nextNl = text.indexOf('\n', lineStart);
      }
      if (hash !== -1 && hash < lineStart) hash = text.indexOf('#', lineStart);
      return { line, commented: hash >= 0 && hash < at };
    },
  };
}

async function* parseRules(a: Artifact): AsyncGenerator<Row> {
  // Lines are joined so a rule may span several.
  const lines: string[] = [];
  let chars = 0;
  let cutAt = 0;
  for await (const l of readLines(a.stream())) {
    chars += l.text.length + 1;
    if (chars > MAX_RULES_CHARS) {
      cutAt = l.line;
      break;
    }
    lines.push(l.text);
  }
  const text = lines.join('\n');
  const from = a.rel.replace(/^.*?\.codex\//i, '');
  const project = a.scope === 'project' ? (a.projectRoot ?? '') : '';
  const where = lineTracker(text);
  const re = /\bprefix_rule\s*\(/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const { line, commented } = where.at(m.index);
    // A commented-out rule is not in force.
    if (commented) continue;
    const open = m.index + m[0].length - 1;
    const call = callEnd(text, open);
    if ('fail' in call) {
      yield makeRow('system', `parser: unparseable rule (expected prefix_rule(...), found an unclosed call): ${text.slice(m.index, m.index + 200)}`, { timestamp_utc: a.mtime, source_line: line, tag: 'bad_line' });
      // On from where it failed: the text before was read once already.
      re.lastIndex = Math.max(call.fail, m.index + 1);
      continue;
    }
    // Past the call: a rule named inside a justification is text, not a rule.
    re.lastIndex = call.end + 1;
    const args = kwargs(text.slice(open + 1, call.end));
    const pattern = args.get('pattern');
    const decision = args.get('decision');
    const justification = args.get('justification');
    let t = `permission setting: prefix_rule pattern=${pattern === undefined ? '-' : compactJson(pattern)} decision=${typeof decision === 'string' ? decision : 'allow'}`;
    if (typeof justification === 'string') t += ` justification=${justification}`;
    yield makeRow('system', `${t} (from ${from || posix.basename(a.rel)})`, { timestamp_utc: a.mtime, project_path: project, source_line: line, tag: 'permission_setting' });
  }
  if (cutAt > 0) yield makeRow('system', `parser: rules file longer than ${MAX_RULES_CHARS} characters (expected a few KB of prefix_rule calls): line ${cutAt} and after not read`, { timestamp_utc: a.mtime, source_line: cutAt, tag: 'bad_line' });
}

/** Execution-policy rules: `rules/*.rules` (allow rules the TUI saves), `policy/*.codexpolicy|*.execpolicy`. */
export const rulesParser: Parser = {
  agent: 'codex-cli',
  name: 'rules',
  patterns: ['<codex>/rules/*.rules', '<codex>/policy/*.codexpolicy', '<codex>/policy/*.execpolicy', '<project>/.codex/rules/*.rules'],
  wants: (rel) => RULES_RE.test(rel),
  secondary: () => false,
  secondaryToleranceSeconds: () => 0,
  recordsSync: false,
  parse: (a) => parseRules(a),
};
