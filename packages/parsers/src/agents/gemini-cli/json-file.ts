import type { ParseError } from 'jsonc-parser';
import { parseJsonc, whyUnparsed } from '../../sdk/json-document.js';
import { unreadableRow } from '../../sdk/row.js';
import { readSmall } from '../../sdk/small-file.js';
import { decodeText } from '../../sdk/text-encoding.js';
import type { Artifact, Row } from '../../sdk/types.js';
import { jsoncLib } from '../../sdk/libs.js';

const MAX_BYTES = 64 * 1024 * 1024;

/**
 * A small JSON file read whole (settings.json is JSON with comments: settings.ts strips them),
 * or the one unreadable row that says why not. `secret`: the file may hold credentials, so the
 * reason names the error and its offset, never the text.
 */
export async function readJsonDoc(a: Artifact, secret = false): Promise<{ ok: true; value: unknown } | { ok: false; row: Row }> {
  const r = await readSmall(a.stream(), MAX_BYTES);
  if (!r.ok) return { ok: false, row: unreadableRow(r.reason, { timestamp_utc: a.mtime }) };
  const errors: ParseError[] = [];
  let value: unknown;
  try {
    value = parseJsonc(decodeText(r.buffer), errors);
  } catch (e) {
    return { ok: false, row: unreadableRow(secret ? 'expected JSON, found text that cannot be parsed' : `expected JSON, found text that cannot be parsed: ${whyUnparsed(e)}`, { timestamp_utc: a.mtime }) };
  }
  if (errors.length > 0 || value === undefined) {
    const e = errors[0];
    const where = e ? `${jsoncLib().printParseErrorCode(e.error)} at offset ${e.offset}` : 'an empty file';
    return { ok: false, row: unreadableRow(`expected JSON, found invalid JSON: ${where}`, { timestamp_utc: a.mtime }) };
  }
  return { ok: true, value };
}
