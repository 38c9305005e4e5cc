import type { Node, ParseError } from 'jsonc-parser';
import { describeJson, isObject, type JsonObject } from '../../sdk/decode.js';
import { unreadableRow } from '../../sdk/row.js';
import { readSmall } from '../../sdk/small-file.js';
import { decodeText } from '../../sdk/text-encoding.js';
import type { Artifact, ParseContext, Parser, Row } from '../../sdk/types.js';
import { matcher } from './paths.js';
import { jsoncLib } from '../../sdk/libs.js';

/** What differs between the copilot-cli parsers; the rest of {@link Parser} is shared. */
export interface CopilotParserSpec {
  name: string;
  patterns: readonly string[];
  /** Whether every file this parser wants is a secondary store (seed: Past-use rows). */
  secondary: boolean;
  toleranceSeconds: number;
  /** This parser reads only non-credential fields of a file the catalog flags as secret. */
  readsSecretFile?: boolean;
  parse(a: Artifact, ctx: ParseContext): AsyncIterable<Row>;
}

/** A copilot-cli {@link Parser}: agent, wants() from the patterns, recordsSync true for all. */
export function copilotParser(spec: CopilotParserSpec): Parser {
  const wants = matcher(spec.patterns);
  return {
    agent: 'copilot-cli',
    name: spec.name,
    patterns: spec.patterns,
    wants,
    secondary: (rel) => spec.secondary && wants(rel),
    secondaryToleranceSeconds: (rel) => (spec.secondary && wants(rel) ? spec.toleranceSeconds : 0),
    // The agent can say whether a session was synced (workspace.yaml mc_ keys), so every one of
    // its parsers says so: sessions without a sync row are "no", not "unknown".
    recordsSync: true,
    readsSecretFile: (rel) => spec.readsSecretFile === true && wants(rel),
    parse: (a, ctx) => spec.parse(a, ctx),
  };
}

/** Config files are small; anything past this is not a real one and is refused, not read. */
export const SMALL_FILE_BYTES = 16 * 1024 * 1024;

/** How a JSON value reads in a "found ..." message (the SDK's). */
export { describeJson };

/** The whole artifact as text, or the one unreadable row that says why not. */
export async function readText(a: Artifact, maxBytes = SMALL_FILE_BYTES): Promise<{ text: string } | { row: Row }> {
  try {
    const r = await readSmall(a.stream(), maxBytes);
    if (!r.ok) return { row: unreadableRow(r.reason) };
    return { text: decodeText(r.buffer) };
  } catch (e) {
    return { row: unreadableRow(`could not read the file: ${(e as Error).message}`) };
  }
}

/** How {@link readJsonObject} reads what it can of invalid JSON: the key that must survive, and where to warn. */
export interface Salvage {
  ctx: ParseContext;
  /** The top-level key whose salvaged value must be a non-empty list or object (e.g. `commandHistory`). */
  key: string;
}

/** Whether a salvaged object holds something under `key`: else the file is reported unreadable, as before. */
export function holdsEntries(v: unknown, key: string): v is JsonObject {
  if (!isObject(v) || !Object.hasOwn(v, key)) return false;
  const x = v[key];
  return Array.isArray(x) ? x.length > 0 : isObject(x) && Object.keys(x).length > 0;
}

/**
 * The artifact parsed as a JSON object, or the one unreadable row saying what was expected
 * (`expected` names the shape, e.g. `{"commandHistory": [...]}`) and what was found. With
 * `salvage`, invalid JSON (a file cut mid-write) still gives the complete entries before the
 * first error, with a warning naming its line, when they hold `salvage.key`.
 */
export async function readJsonObject(a: Artifact, expected: string, salvage?: Salvage): Promise<{ value: JsonObject } | { row: Row }> {
  const t = await readText(a);
  if ('row' in t) return t;
  if (t.text.trim() === '') return { row: unreadableRow(`expected JSON ${expected}, found an empty file`) };
  let v: unknown;
  try {
    v = JSON.parse(t.text);
  } catch (e) {
    const why = e instanceof RangeError ? 'nested too deep' : (e as Error).message;
    const part = salvage && !(e instanceof RangeError) ? completePart(t.text) : undefined;
    if (part && holdsEntries(part.value, salvage!.key)) {
      salvage!.ctx.warn(`expected JSON ${expected}, found invalid JSON (${part.reason}) at line ${part.line}: the complete entries before it were read`, part.line);
      return { value: part.value };
    }
    return { row: unreadableRow(`expected JSON ${expected}, found invalid JSON: ${why}`) };
  }
  if (!isObject(v)) return { row: unreadableRow(`expected JSON ${expected}, found ${describeJson(v)}`) };
  return { value: v };
}

const INCOMPLETE = Symbol('incomplete');

/**
 * The complete part of invalid JSON: every value that ends before the first error, inside the
 * containers that hold them. A value the error cuts (a string without its closing quote) is left
 * out, and so is a container left with nothing complete in it. Never throws (undefined instead).
 */
export function completePart(text: string): { value: unknown; reason: string; line: number } | undefined {
  try {
    const errors: ParseError[] = [];
    const root = jsoncLib().parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
    if (root === undefined || errors.length === 0) return undefined;
    const cut = errors[0].offset;
    const value = build(root, cut, true);
    if (value === INCOMPLETE) return undefined;
    const line = text.slice(0, cut).split('\n').length;
    return { value, reason: jsoncLib().printParseErrorCode(errors[0].error), line };
  } catch {
    return undefined;
  }
}

function build(node: Node, cut: number, root = false): unknown {
  const whole = node.offset + node.length <= cut;
  if (node.type === 'object' || node.type === 'array') {
    const kids: [string, unknown][] = [];
    for (const child of node.children ?? []) {
      if (node.type === 'array') {
        const v = build(child, cut);
        if (v !== INCOMPLETE) kids.push(['', v]);
        continue;
      }
      const [k, val] = child.children ?? [];
      if (k === undefined || val === undefined || k.offset + k.length > cut) continue;
      const v = build(val, cut);
      if (v !== INCOMPLETE) kids.push([String(k.value), v]);
    }
    if (!whole && !root && kids.length === 0) return INCOMPLETE;
    if (node.type === 'array') return kids.map(([, v]) => v);
    const o: JsonObject = {};
    // defineProperty: a `__proto__` key is kept as a key, as JSON.parse keeps it.
    for (const [k, v] of kids) Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
    return o;
  }
  return whole ? node.value : INCOMPLETE;
}
