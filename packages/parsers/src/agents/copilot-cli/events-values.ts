import { compactJson } from '../../sdk/compact-json.js';
import { asJsonish, asObject, isObject, type JsonObject } from '../../sdk/decode.js';

// Readers of event values that give the same result in both encodings of the log (native, and
// seed 001's stringified one where every data value is a string and nested JSON is serialized).

/**
 * A value as row text: strings as they are (never decoded: a prompt that reads "{...}" stays
 * text), numbers and booleans printed, objects and arrays as compact JSON. Absent, null, empty
 * strings and empty containers give undefined, so "for the keys present" skips them.
 */
export function text(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') return v === '' ? undefined : v;
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : undefined;
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return v.length === 0 ? undefined : compactJson(v);
  if (isObject(v)) return Object.keys(v).length === 0 ? undefined : compactJson(v);
  return undefined;
}

/**
 * Like {@link text}, but a string holding serialized JSON (the stringified encoding) is decoded
 * first, so an object prints as the same compact JSON in both encodings.
 */
export function jsonText(v: unknown): string | undefined {
  return text(asJsonish(v));
}

/** An object at `v`, decoding the stringified encoding; `{}` for anything else. */
export function obj(v: unknown): JsonObject {
  return asObject(v) ?? {};
}

/**
 * Compact JSON of a whole `data` payload, the same in both encodings: its top-level values are
 * put in the stringified encoding's terms (serialized objects and arrays decoded, numbers and
 * booleans printed as strings), since a string "1" cannot be told from a stringified 1.
 */
export function dataJson(data: JsonObject): string {
  // No prototype: a `__proto__` key (valid JSON) is then a key like any other, not a setter.
  const canon: JsonObject = Object.create(null);
  for (const [k, v] of Object.entries(data)) {
    const d = asJsonish(v);
    canon[k] = typeof d === 'number' || typeof d === 'boolean' ? String(d) : d;
  }
  return compactJson(canon);
}
