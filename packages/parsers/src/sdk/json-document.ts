import type { ParseError } from 'jsonc-parser';
import { describeJson, isObject } from './decode.js';
import { unreadableRow } from './row.js';
import { readSmall } from './small-file.js';
import { decodeText } from './text-encoding.js';
import type { Artifact, Row } from './types.js';
import { jsoncLib } from './libs.js';

/** Options of {@link readJsonDocument}. */
export interface JsonDocumentOptions {
  /** The file may hold credentials: the unreadable row names the error and its offset, never the text. */
  secret?: boolean;
  /** Largest file read, in bytes (default 64 MiB); a larger one is one unreadable row. */
  maxBytes?: number;
  /** The document must be a JSON object, described so ("a JSON object of settings"); anything else is one unreadable row saying what was found. */
  object?: string;
}

/**
 * A JSON text, comments and trailing commas accepted as the agents' config files are written:
 * JSON.parse first (most files are plain JSON; it is native, and builds any depth without
 * recursion), the JSONC reader only when that fails, its parse errors into `errors`. Throws what
 * the JSONC reader throws: a RangeError for a value nested thousands deep (see {@link whyUnparsed}).
 */
export function parseJsonc(text: string, errors: ParseError[]): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return jsoncLib().parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  }
}

/** What a throw of {@link parseJsonc} means, for the unreadable row. */
export function whyUnparsed(e: unknown): string {
  return e instanceof RangeError ? `not plain JSON, and nested too deep for the reader of JSON with comments (${e.message})` : (e as Error).message;
}

/**
 * A small JSON document read whole (JSON with comments and trailing commas accepted, as the
 * agents' config files are written), or the one `unreadable` row that says what was expected and
 * what was found. The row carries the file's mtime.
 */
export async function readJsonDocument(a: Artifact, opts: JsonDocumentOptions = {}): Promise<{ ok: true; value: unknown } | { ok: false; row: Row }> {
  const fail = (why: string) => ({ ok: false as const, row: unreadableRow(why, { timestamp_utc: a.mtime }) });
  let text: string;
  let size = 0;
  try {
    const r = await readSmall(a.stream(), opts.maxBytes ?? 64 * 1024 * 1024);
    if (!r.ok) return fail(r.reason);
    size = r.buffer.length;
    text = decodeText(r.buffer);
  } catch (e) {
    return fail(`could not read the file: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  // decodeText drops a NUL tail: a file of NULs alone is a write the crash cut before any text.
  if (text.trim() === '') return fail(text === '' && size > 0 ? `expected JSON, found ${size} NUL bytes and nothing else (a file cut short?)` : 'expected JSON, found an empty file');
  const errors: ParseError[] = [];
  let value: unknown;
  try {
    value = parseJsonc(text, errors);
  } catch (e) {
    return fail(opts.secret ? 'expected JSON, found text that cannot be parsed' : `expected JSON, found text that cannot be parsed: ${whyUnparsed(e)}`);
  }
  if (errors.length > 0 || value === undefined) {
    const e = errors[0];
    return fail(`expected JSON, found invalid JSON: ${e ? `${jsoncLib().printParseErrorCode(e.error)} at offset ${e.offset}` : 'no value'}`);
  }
  if (opts.object !== undefined && !isObject(value)) return fail(`expected ${opts.object}, found ${describeJson(value)}`);
  return { ok: true, value };
}
