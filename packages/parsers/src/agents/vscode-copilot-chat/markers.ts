import { isObject } from '../../sdk/decode.js';

/**
 * VS Code's truncation marker (objectMutationLog.ts @047238f9, makeTruncatingReplacer): when
 * JSON.stringify of an entry fails on V8's string limit, the entry is written again with every
 * string over 1 MiB replaced by `[<product>: value truncated for persistence; original <n> chars]`,
 * and once the entry passes its 100 Mi character budget every further string by
 * `[<product>: value truncated for persistence; entry exceeded size budget]`. The product name
 * differs between builds, so it is not part of the match.
 */
export const TRUNCATION_HINT = 'value truncated for persistence';

const MARKER = /^\[[^\]\n]{0,80}: value truncated for persistence; (?:original \d+ chars|entry exceeded size budget)\]$/;

/** True for a string that is exactly VS Code's truncation marker. */
export function isTruncationMarker(v: unknown): boolean {
  return typeof v === 'string' && v.length < 160 && MARKER.test(v);
}

const MAX_DEPTH = 256;

/**
 * `next` with every truncation marker replaced by the whole value `prev` holds at the same place
 * (a value the same log wrote whole on an earlier line), counting each in `counter.restored`.
 * Arrays are matched by index, objects by key; anything else is kept as `next` has it.
 */
export function restoreMarkers(next: unknown, prev: unknown, counter: { restored: number }, depth = 0): unknown {
  if (prev === undefined || depth > MAX_DEPTH) return next;
  if (isTruncationMarker(next)) {
    if (typeof prev === 'string' && !isTruncationMarker(prev)) {
      counter.restored++;
      return prev;
    }
    return next;
  }
  if (Array.isArray(next) && Array.isArray(prev)) {
    for (let i = 0; i < next.length; i++) next[i] = restoreMarkers(next[i], prev[i], counter, depth + 1);
    return next;
  }
  if (isObject(next) && isObject(prev)) {
    for (const k of Object.keys(next)) {
      if (Object.hasOwn(prev, k)) Object.defineProperty(next, k, { value: restoreMarkers(next[k], prev[k], counter, depth + 1), enumerable: true, writable: true, configurable: true });
    }
  }
  return next;
}
