import { isMap, isPair, isScalar, isSeq, LineCounter, type Node, parseAllDocuments } from 'yaml';
import { type Located, RuleError } from './located.js';

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

