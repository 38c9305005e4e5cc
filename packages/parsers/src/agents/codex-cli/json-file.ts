import { isObject, type JsonObject } from '../../sdk/decode.js';
import { unreadableRow } from '../../sdk/row.js';
import { readSmall } from '../../sdk/small-file.js';
import { decodeText } from '../../sdk/text-encoding.js';
import type { Artifact, Row } from '../../sdk/types.js';

/** Small JSON files (imports, process lists, the TypeScript history) are read whole up to this size. */
const MAX_BYTES = 64 * 1024 * 1024;

/** A whole JSON file, or the one unreadable row that says why it could not be read. */
export async function readJsonFile(a: Artifact): Promise<{ ok: true; value: unknown } | { ok: false; row: Row }> {
  const r = await readSmall(a.stream(), MAX_BYTES);
  if (!r.ok) return { ok: false, row: unreadableRow(r.reason, { timestamp_utc: a.mtime }) };
  try {
    return { ok: true, value: JSON.parse(decodeText(r.buffer)) };
  } catch (e) {
    return { ok: false, row: unreadableRow(`expected JSON, found invalid JSON (${(e as Error).message})`, { timestamp_utc: a.mtime }) };
  }
}

/** Like {@link readJsonFile}, with the top level an object. */
export async function readJsonObject(a: Artifact): Promise<{ ok: true; value: JsonObject } | { ok: false; row: Row }> {
  const r = await readJsonFile(a);
  if (!r.ok) return r;
  if (!isObject(r.value)) return { ok: false, row: unreadableRow('expected a JSON object at the top level, found another JSON value', { timestamp_utc: a.mtime }) };
  return { ok: true, value: r.value };
}
