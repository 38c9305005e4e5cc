import { isObject } from '../../../sdk/decode.js';

/**
 * One events.jsonl line in seed 001's stringified encoding: every `data` value a string (numbers
 * and booleans printed, objects and arrays serialized), nulls kept, the envelope untouched; a
 * line that is not a JSON object with an object `data` is returned as is. The same rules as
 * fixtures/scripts/stringify-events.mjs, for tests that build stringified lines.
 */
export function stringifyEventLine(line: string): string {
  let ev: unknown;
  try {
    ev = JSON.parse(line);
  } catch {
    return line;
  }
  if (!isObject(ev) || !isObject(ev.data)) return line;
  const data: Record<string, unknown> = Object.create(null);
  for (const [k, v] of Object.entries(ev.data)) {
    data[k] = v === null || v === undefined || typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : JSON.stringify(v);
  }
  return JSON.stringify({ ...ev, data });
}
