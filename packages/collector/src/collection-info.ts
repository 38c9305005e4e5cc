import type { CollectionInfo } from './types.js';

type Check = (v: unknown) => boolean;

const str: Check = (v) => typeof v === 'string';
const num: Check = (v) => typeof v === 'number' && Number.isFinite(v);
const bool: Check = (v) => typeof v === 'boolean';
const listOf =
  (each: Check): Check =>
  (v) =>
    Array.isArray(v) && v.every(each);
const shape =
  (fields: Record<string, Check>): Check =>
  (v) =>
    v !== null && typeof v === 'object' && !Array.isArray(v) && Object.entries(fields).every(([k, c]) => !(k in v) || c((v as Record<string, unknown>)[k]));
const recordOf =
  (each: Check): Check =>
  (v) =>
    v !== null && typeof v === 'object' && !Array.isArray(v) && Object.values(v).every(each);

/** How deep a free-form value (imported_from: what another collector said of itself) may nest. */
export const FREE_FORM_DEPTH = 32;

/**
 * True when `v` nests at most `max` levels of arrays and objects (counted without recursion):
 * a deeper value overflows the stack of whatever prints or joins it (JSON.stringify, String).
 */
export function shallow(v: unknown, max = FREE_FORM_DEPTH): boolean {
  const stack: [unknown, number][] = [[v, 0]];
  while (stack.length > 0) {
    const [x, d] = stack.pop()!;
    if (x === null || typeof x !== 'object') continue;
    if (d >= max) return false;
    for (const c of Object.values(x)) stack.push([c, d + 1]);
  }
  return true;
}

const OS = shape({ platform: str, release: str, arch: str });

/**
 * The type of each collection.json field ({@link CollectionInfo}). An absent field stays absent
 * (older collectors wrote fewer); one of another type is dropped with a problem, since verify,
 * analyze and the reports take these as what they say (an array nested 100,000 deep as the host
 * name overflowed the stack and ended a whole analysis).
 */
const FIELDS: Record<string, { check: Check; expected: string }> = {
  format: { check: str, expected: 'a string' },
  format_version: { check: num, expected: 'a number' },
  host: { check: str, expected: 'a string' },
  os: { check: OS, expected: 'an object of strings (platform, release, arch)' },
  collector_os: { check: OS, expected: 'an object of strings (platform, release, arch)' },
  tool: { check: shape({ name: str, version: str }), expected: 'an object of strings (name, version)' },
  catalog: { check: listOf(shape({ agent: str, version: str, sha256: str })), expected: 'a list of objects of strings (agent, version, sha256)' },
  arguments: { check: listOf(str), expected: 'a list of strings' },
  notes: { check: listOf(str), expected: 'a list of strings' },
  started_utc: { check: str, expected: 'a string' },
  ended_utc: { check: str, expected: 'a string' },
  counts: { check: recordOf(num), expected: 'an object of numbers' },
  complete: { check: bool, expected: 'true or false' },
  layout: { check: str, expected: 'a string' },
  root: { check: str, expected: 'a string' },
  homes: { check: listOf(shape({ user: str, home: str })), expected: 'a list of objects of strings (user, home)' },
  compression: { check: shape({ choice: str, level: num, chunk_bytes: num, store_above: num, stored_members: num, deflated_members: num }), expected: 'an object (choice, and numbers)' },
  imported_from: { check: (v) => v !== null && typeof v === 'object' && !Array.isArray(v), expected: 'an object' },
  system_paths: { check: bool, expected: 'true or false' },
};

/** What a JSON value is, for a message: `null`, `an array`, `an object`, `a string`... */
export const kindOf = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : `a ${typeof v}`);

/**
 * collection.json as parsed, without the fields of a type it never has (each named in a problem),
 * and without unknown fields nested deeper than a free-form value may be. Never throws.
 */
export function checkCollectionInfo(parsed: unknown): { info: CollectionInfo; problems: string[] } {
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return { info: {} as CollectionInfo, problems: [`collection.json: expected a JSON object, found ${kindOf(parsed)}`] };
  }
  const info: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [k, v] of Object.entries(parsed)) {
    const field = FIELDS[k];
    // Known fields are checked for depth too: an extra key inside os or a catalog entry is printed with it.
    if ((!field || field.check(v)) && shallow(v)) info[k] = v;
    else if (field && !field.check(v)) problems.push(`collection.json: "${k}" is ${kindOf(v)} (expected ${field.expected}); left out`);
    else problems.push(`collection.json: "${k}" is nested too deep (expected at most ${FREE_FORM_DEPTH} levels); left out`);
  }
  return { info: info as unknown as CollectionInfo, problems };
}
