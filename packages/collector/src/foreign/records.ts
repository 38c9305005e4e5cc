import { streamLines } from '../line-stream.js';
import { shallow } from '../collection-info.js';

/** A JSON object from a collector's log or result file. */
export type Rec = Record<string, unknown>;

/** Longest log or result line kept (a row naming one file is far smaller). */
export const MAX_RECORD_LINE = 4 * 1024 * 1024;

/**
 * The objects of a JSON-lines file (or of a JSON array, as older writers left): lines that are
 * not objects are counted in `bad`, never fatal. `wanted` pre-filters lines as text, so a large
 * result set of another artifact costs a scan, not a parse per line.
 */
export async function* jsonRecords(source: AsyncIterable<Buffer>, wanted?: RegExp, counts?: { bad: number }): AsyncGenerator<{ rec: Rec; line: number }> {
  let first = true;
  let arrayText: string[] | undefined;
  for await (const { lineNo, text } of streamLines(source, MAX_RECORD_LINE)) {
    if (text === null) {
      if (counts) counts.bad++;
      continue;
    }
    if (first && text.trimStart().startsWith('[')) arrayText = [];
    first = false;
    if (arrayText) {
      if (arrayText.length < 1_000_000) arrayText.push(text);
      continue;
    }
    if (text.trim() === '' || (wanted && !wanted.test(text))) continue;
    try {
      const v = JSON.parse(text) as unknown;
      if (v && typeof v === 'object' && !Array.isArray(v)) yield { rec: v as Rec, line: lineNo };
      else if (counts) counts.bad++;
    } catch {
      if (counts) counts.bad++;
    }
  }
  if (arrayText) {
    let arr: unknown;
    try {
      arr = JSON.parse(arrayText.join('\n'));
    } catch {
      if (counts) counts.bad++;
      return;
    }
    if (!Array.isArray(arr)) return;
    let i = 0;
    for (const v of arr) {
      i++;
      if (v && typeof v === 'object' && !Array.isArray(v)) yield { rec: v as Rec, line: i };
    }
  }
}

/** The first present value among dotted key paths, matching keys case-insensitively (`Upload.sha256`); one nested past 32 levels is absent. */
export function pick(rec: unknown, ...paths: string[]): unknown {
  for (const p of paths) {
    let cur: unknown = rec;
    for (const k of p.split('.')) {
      if (!cur || typeof cur !== 'object' || Array.isArray(cur)) {
        cur = undefined;
        break;
      }
      const o = cur as Rec;
      const key = k in o ? k : Object.keys(o).find((x) => x.toLowerCase() === k.toLowerCase());
      cur = key === undefined ? undefined : o[key];
    }
    // A value nested deeper than any collector writes counts as absent: every caller prints,
    // joins or stores it, and one nested 100,000 deep overflowed the stack and ended the import.
    if (cur !== undefined && cur !== null && cur !== '' && shallow(cur)) return cur;
  }
  return undefined;
}

/** {@link pick} as text: a string as it is, a number or boolean printed; an object (which String may throw on: `{"toString": 1}`) is absent. */
export function pickText(rec: unknown, ...paths: string[]): string | undefined {
  const v = pick(rec, ...paths);
  return typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;
}

/** A hex digest of the expected length, lower-cased, or undefined. */
export function hexDigest(v: unknown, length: number): string | undefined {
  return typeof v === 'string' && new RegExp(`^[0-9a-fA-F]{${length}}$`).test(v.trim()) ? v.trim().toLowerCase() : undefined;
}

/** A non-negative integer from a number or a numeric string, or undefined. */
export function count(v: unknown): number | undefined {
  const n = typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}
