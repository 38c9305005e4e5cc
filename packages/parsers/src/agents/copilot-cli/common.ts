import { isObject, type JsonObject } from '../../sdk/decode.js';
import { unreadableRow } from '../../sdk/row.js';
import { readSmall, utf8Text } from '../../sdk/small-file.js';
import type { Artifact, ParseContext, Parser, Row } from '../../sdk/types.js';
import { matcher } from './paths.js';

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

/** How a JSON value reads in a "found ..." message. */
export function describeJson(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (isObject(v)) return `an object with keys ${JSON.stringify(Object.keys(v).slice(0, 8))}`;
  return `a ${typeof v}`;
}

/** The whole artifact as text, or the one unreadable row that says why not. */
export async function readText(a: Artifact, maxBytes = SMALL_FILE_BYTES): Promise<{ text: string } | { row: Row }> {
  try {
    const r = await readSmall(a.stream(), maxBytes);
    if (!r.ok) return { row: unreadableRow(r.reason) };
    return { text: utf8Text(r.buffer) };
  } catch (e) {
    return { row: unreadableRow(`could not read the file: ${(e as Error).message}`) };
  }
}

/**
 * The artifact parsed as a JSON object, or the one unreadable row saying what was expected
 * (`expected` names the shape, e.g. `{"commandHistory": [...]}`) and what was found.
 */
export async function readJsonObject(a: Artifact, expected: string): Promise<{ value: JsonObject } | { row: Row }> {
  const t = await readText(a);
  if ('row' in t) return t;
  if (t.text.trim() === '') return { row: unreadableRow(`expected JSON ${expected}, found an empty file`) };
  let v: unknown;
  try {
    v = JSON.parse(t.text);
  } catch (e) {
    const why = e instanceof RangeError ? 'nested too deep' : (e as Error).message;
    return { row: unreadableRow(`expected JSON ${expected}, found invalid JSON: ${why}`) };
  }
  if (!isObject(v)) return { row: unreadableRow(`expected JSON ${expected}, found ${describeJson(v)}`) };
  return { value: v };
}
