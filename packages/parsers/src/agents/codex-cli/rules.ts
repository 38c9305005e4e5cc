import { posix } from 'node:path';
import { compactJson } from '../../sdk/compact-json.js';
import { readLines } from '../../sdk/line-reader.js';
import { makeRow } from '../../sdk/row.js';
import type { Artifact, Parser, Row } from '../../sdk/types.js';
import { RULES_RE } from './paths.js';

/** A Starlark value as far as rules use them: strings and (nested) lists of strings. */
type Value = string | Value[];

/** Read one string or list at `i`; undefined for anything else. Textual: no Starlark is evaluated. */
function readValue(s: string, i: number): { v: Value; end: number } | undefined {
  while (/\s/.test(s[i] ?? '')) i++;
  const q = s[i];
  if (q === '"' || q === "'") {
    let out = '';
    for (let j = i + 1; j < s.length; j++) {
      if (s[j] === '\\' && j + 1 < s.length) {
        out += s[++j];
        continue;
      }
      if (s[j] === q) return { v: out, end: j + 1 };
      out += s[j];
    }
    return undefined;
  }
  if (q === '[') {
    const items: Value[] = [];
    let j = i + 1;
    for (;;) {
      while (/[\s,]/.test(s[j] ?? '')) j++;
      if (s[j] === ']') return { v: items, end: j + 1 };
      const item = readValue(s, j);
      if (!item) return undefined;
      items.push(item.v);
      j = item.end;
    }
  }
  return undefined;
}

/** The keyword arguments of one `prefix_rule(...)` call text, those that are strings or lists. */
function kwargs(call: string): Map<string, Value> {
  const out = new Map<string, Value>();
  const re = /\b([a-z_]+)\s*=/g;
  for (let m = re.exec(call); m; m = re.exec(call)) {
    const v = readValue(call, m.index + m[0].length);
    if (v) {
      out.set(m[1], v.v);
      re.lastIndex = v.end;
    }
  }
  return out;
}

/** The end of a call whose `(` is at `open`, skipping strings; -1 when the file ends first. */
function callEnd(s: string, open: number): number {
  let depth = 0;
  for (let i = open; i < s.length; i++) {
    const c = s[i];
    if (c === '"' || c === "'") {
      const v = readValue(s, i);
      if (!v) return -1;
      i = v.end - 1;
    } else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return -1;
}

async function* parseRules(a: Artifact): AsyncGenerator<Row> {
  // Rules files are small; lines are joined so a rule may span several.
  const lines: string[] = [];
  for await (const l of readLines(a.stream())) lines.push(l.text);
  const text = lines.join('\n');
  const from = a.rel.replace(/^.*?\.codex\//i, '');
  const project = a.scope === 'project' ? (a.projectRoot ?? '') : '';
  const lineAt = (i: number) => text.slice(0, i).split('\n').length;
  for (const m of text.matchAll(/\bprefix_rule\s*\(/g)) {
    const open = (m.index ?? 0) + m[0].length - 1;
    // A commented-out rule is not in force.
    const lineStart = text.lastIndexOf('\n', m.index) + 1;
    if (text.slice(lineStart, m.index).includes('#')) continue;
    const end = callEnd(text, open);
    const line = lineAt(m.index ?? 0);
    if (end < 0) {
      yield makeRow('system', `parser: unparseable rule (expected prefix_rule(...), found an unclosed call): ${text.slice(m.index, (m.index ?? 0) + 200)}`, { timestamp_utc: a.mtime, source_line: line, tag: 'bad_line' });
      continue;
    }
    const args = kwargs(text.slice(open + 1, end));
    const pattern = args.get('pattern');
    const decision = args.get('decision');
    const justification = args.get('justification');
    let t = `permission setting: prefix_rule pattern=${pattern === undefined ? '-' : compactJson(pattern)} decision=${typeof decision === 'string' ? decision : 'allow'}`;
    if (typeof justification === 'string') t += ` justification=${justification}`;
    yield makeRow('system', `${t} (from ${from || posix.basename(a.rel)})`, { timestamp_utc: a.mtime, project_path: project, source_line: line, tag: 'permission_setting' });
  }
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
