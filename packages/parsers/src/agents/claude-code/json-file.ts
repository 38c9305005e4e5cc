import { isObject, type JsonObject } from '../../sdk/decode.js';
import { unreadableRow } from '../../sdk/row.js';
import { readSmall } from '../../sdk/small-file.js';
import { decodeText } from '../../sdk/text-encoding.js';
import type { Artifact, Row } from '../../sdk/types.js';

/**
 * A whole JSON file read into memory, or the one unreadable row that says why it could not be.
 * `secret`: the file may hold credentials, so the reason never quotes it (JSON.parse messages do).
 */
export async function readJsonFile(a: Artifact, secret = false): Promise<{ ok: true; value: unknown } | { ok: false; row: Row }> {
  const r = await readSmall(a.stream(), 256 * 1024 * 1024);
  if (!r.ok) return { ok: false, row: unreadableRow(r.reason) };
  try {
    return { ok: true, value: JSON.parse(decodeText(r.buffer)) };
  } catch (e) {
    const why = secret ? 'invalid JSON; the parse error is not printed: the file may hold credentials' : `invalid JSON: ${(e as Error).message}`;
    return { ok: false, row: unreadableRow(why) };
  }
}

/** Like {@link readJsonFile}, but the top level must be an object. */
export async function readJsonObject(a: Artifact, secret = false): Promise<{ ok: true; value: JsonObject } | { ok: false; row: Row }> {
  const r = await readJsonFile(a, secret);
  if (!r.ok) return r;
  if (!isObject(r.value)) return { ok: false, row: unreadableRow('not a JSON object') };
  return { ok: true, value: r.value };
}
