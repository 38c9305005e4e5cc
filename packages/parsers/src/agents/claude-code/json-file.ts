import { isObject, type JsonObject } from '../../sdk/decode.js';
import { unreadableRow } from '../../sdk/row.js';
import { readSmall, utf8Text } from '../../sdk/small-file.js';
import type { Artifact, Row } from '../../sdk/types.js';

/** A whole JSON file read into memory, or the one unreadable row that says why it could not be. */
export async function readJsonFile(a: Artifact, maxBytes = 256 * 1024 * 1024): Promise<{ ok: true; value: unknown } | { ok: false; row: Row }> {
  const r = await readSmall(a.stream(), maxBytes);
  if (!r.ok) return { ok: false, row: unreadableRow(r.reason) };
  try {
    return { ok: true, value: JSON.parse(utf8Text(r.buffer)) };
  } catch (e) {
    return { ok: false, row: unreadableRow(`invalid JSON: ${(e as Error).message}`) };
  }
}

/** Like {@link readJsonFile}, but the top level must be an object. */
export async function readJsonObject(a: Artifact): Promise<{ ok: true; value: JsonObject } | { ok: false; row: Row }> {
  const r = await readJsonFile(a);
  if (!r.ok) return r;
  if (!isObject(r.value)) return { ok: false, row: unreadableRow('not a JSON object') };
  return { ok: true, value: r.value };
}
