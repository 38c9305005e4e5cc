/**
 * `.continue/sessions/sessions.json`: the session index, `[{sessionId, title, dateCreated (epoch
 * ms as a string: core/util/history.ts), workspaceDirectory, messageCount}]`. Its rows are
 * secondary: the session file gives the same `session:` row, so a listed session whose file was
 * deleted (history.ts unlinks the file and rewrites the index) still shows, once.
 */
import { asArray, asObject, asString, type JsonObject } from '../../sdk/decode.js';
import { makeRow } from '../../sdk/row.js';
import { readSmall } from '../../sdk/small-file.js';
import { decodeText } from '../../sdk/text-encoding.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { Artifact, ParseContext, Row } from '../../sdk/types.js';
// The Cline family's small-JSON reader (JSONC tolerated, one unreadable row on failure).
import { readJsonDoc } from '../cline/json-doc.js';
import { uriPath } from './paths.js';

/** The text of a session's own row (session parser and index alike). */
export function sessionRowText(title: string): string {
  return `session: ${title}`;
}

/** The index's entries by session id (empty when the file is absent or unreadable). */
export async function readIndex(a: Artifact | undefined): Promise<Map<string, JsonObject>> {
  const out = new Map<string, JsonObject>();
  if (!a) return out;
  const r = await readSmall(a.stream());
  if (!r.ok) return out;
  let v: unknown;
  try {
    v = JSON.parse(decodeText(r.buffer));
  } catch {
    return out;
  }
  for (const e of asArray(v) ?? []) {
    const o = asObject(e);
    const id = asString(o?.sessionId);
    if (o && id) out.set(id, o);
  }
  return out;
}

/** sessions.json → one secondary `session:` row per entry, and the working directory as a fact. */
export async function* parseSessionIndex(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const doc = await readJsonDoc(a);
  if (!doc.ok) return yield doc.row;
  const list = asArray(doc.value);
  if (!list) return yield makeRow('system', 'parser: unparseable sessions.json (expected a list of sessions)', { timestamp_utc: a.mtime, tag: 'bad_line' });
  for (const [i, e] of list.entries()) {
    const o = asObject(e);
    const id = asString(o?.sessionId);
    if (!o || !id) {
      yield makeRow('system', `parser: unparseable sessions.json entry ${i + 1} (expected {sessionId})`, { source_line: i + 1, tag: 'bad_line' });
      continue;
    }
    const ws = asString(o.workspaceDirectory);
    if (ws) ctx.fact({ session_id: id, key: 'cwd', value: uriPath(ws), priority: 2 });
    const created = toUtc(o.dateCreated);
    const title = asString(o.title) ?? '';
    if (title) ctx.fact({ session_id: id, key: 'name', value: title, priority: 2 });
    yield makeRow('system', sessionRowText(title), { timestamp_utc: created || a.mtime, session_id: id, source_line: i + 1, tag: created ? 'session_metadata' : 'time_file' });
  }
}
