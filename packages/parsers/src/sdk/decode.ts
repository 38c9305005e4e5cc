import { jsonText } from './compact-json.js';
/**
 * Value decoding for both encodings of the Copilot CLI event log: the native one and the
 * stringified one (seed 001), where every value in `data` is a string and nested objects are
 * serialized JSON. Readers are typed by what the caller expects, so a prompt that happens to
 * read "true" or "{...}" is never turned into something else.
 */

/** A plain JSON object. */
export type JsonObject = Record<string, unknown>;

/** True for a non-null, non-array object. */
export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A string value: strings as they are, numbers and booleans printed; otherwise undefined. */
export function asString(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}

/** A boolean: `true`/`false` or the strings `"true"`/`"false"`; otherwise undefined. */
export function asBool(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (v === 'true') return true;
  if (v === 'false') return false;
  return undefined;
}

/** A finite number, or a string that is one; otherwise undefined. */
export function asNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string' && v.trim() !== '' && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(v.trim())) return Number(v);
  return undefined;
}

function parseSerialized(v: string, open: string): unknown {
  const t = v.trimStart();
  if (!t.startsWith(open)) return undefined;
  try {
    return JSON.parse(v);
  } catch {
    return undefined;
  }
}

/** An object, or a string holding one serialized; otherwise undefined. */
export function asObject(v: unknown): JsonObject | undefined {
  if (isObject(v)) return v;
  if (typeof v === 'string') {
    const p = parseSerialized(v, '{');
    return isObject(p) ? p : undefined;
  }
  return undefined;
}

/** An array, or a string holding one serialized; otherwise undefined. */
export function asArray(v: unknown): unknown[] | undefined {
  if (Array.isArray(v)) return v;
  if (typeof v === 'string') {
    const p = parseSerialized(v, '[');
    return Array.isArray(p) ? p : undefined;
  }
  return undefined;
}

/** A value that may be serialized JSON of any shape: objects and arrays decoded, scalars kept. */
export function asJsonish(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  return asObject(v) ?? asArray(v) ?? v;
}

/** Read a dotted path (`context.cwd`) through objects that may be serialized at any level. */
export function pick(root: unknown, path: string): unknown {
  let cur: unknown = root;
  for (const key of path.split('.')) {
    const o = asObject(cur);
    if (!o) return undefined;
    cur = o[key];
  }
  return cur;
}

/** `pick` then `asString`. */
export function pickString(root: unknown, path: string): string | undefined {
  return asString(pick(root, path));
}

/** How a JSON or YAML value reads in a "found ..." message: its type, and an object's first keys (never a value). */
export function describeJson(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (isObject(v)) return `an object with keys ${jsonText(Object.keys(v).slice(0, 8))}`;
  return `a ${typeof v}`;
}
