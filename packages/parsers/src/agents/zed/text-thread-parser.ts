/**
 * A text thread of Zed's Assistant (`<title> - <n>.zed.json`; zed crates/assistant_text_thread
 * `SavedTextThread`, version 0.4.0, and the 0.1.0-0.3.0 forms it upgrades): the whole editable
 * buffer in `text`, each message a slice of it from its `start` (a UTF-8 byte offset) to the next
 * one's. Message times are Lamport counters, not clock times: every row carries the file's mtime
 * (tag `time_file`).
 */
import { compactJson } from '../../sdk/compact-json.js';
import { asArray, asNumber, asString, isObject, type JsonObject } from '../../sdk/decode.js';
import { readJsonDocument } from '../../sdk/json-document.js';
import { makeRow } from '../../sdk/row.js';
import type { Artifact, ParseContext, Row } from '../../sdk/types.js';
import { variant } from './content.js';

const str = (v: unknown): string => asString(v) ?? '';
const obj = (v: unknown): JsonObject => (isObject(v) ? v : {});

interface Slice {
  start: number;
  role: string;
  status: unknown;
  index: number;
}

/** The messages with their role and status: from each message (0.4.0) or from `message_metadata` by id (0.1.0-0.3.0). */
function slices(doc: JsonObject): Slice[] {
  const meta = obj(doc.message_metadata);
  const out: Slice[] = [];
  for (const [i, m] of (asArray(doc.messages) ?? []).entries()) {
    const o = obj(m);
    const md = isObject(o.metadata) ? o.metadata : obj(meta[str(o.id) || String(asNumber(o.id) ?? '')]);
    out.push({ start: asNumber(o.start) ?? 0, role: str(md.role), status: md.status, index: i + 1 });
  }
  // Zed orders messages by their start in the buffer.
  return out.sort((a, b) => a.start - b.start || a.index - b.index);
}

function statusNote(status: unknown): string {
  const vr = variant(status);
  if (!vr || vr.key === 'Done') return '';
  return vr.key === 'Error' ? `[error: ${str(vr.value)}]` : `[${vr.key.toLowerCase()}]`;
}

/** One text thread: its start and name, then one row per message. */
export async function* parseZedTextThread(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const r = await readJsonDocument(a, { object: 'a Zed text thread (a JSON object with "text" and "messages")' });
  if (!r.ok) {
    yield r.row;
    return;
  }
  const doc = r.value as JsonObject;
  const name = a.rel.split('/').pop() ?? a.rel;
  const title = str(doc.summary) || name.replace(/ - \d+\.zed\.json$/, '');
  const id = str(doc.id) || `text-thread:${name}`;
  if (doc.zed !== 'context') ctx.warn(`${a.rel}: expected "zed": "context", found ${compactJson(doc.zed ?? null).slice(0, 40)}`);
  const f = { session_id: id, timestamp_utc: a.mtime, ...(a.mtime ? { tag: 'time_file' } : {}) };
  ctx.fact({ session_id: id, key: 'name', value: title, priority: 1 });
  yield makeRow('system', `text thread: ${title} version=${str(doc.version) || 'none'}`, { ...f, source_line: null, tag: 'session_start' });
  yield makeRow('system', `session name: ${title}`, { ...f, source_line: null, tag: 'session_name' });
  if (typeof doc.text !== 'string') {
    yield makeRow('system', `parser: text thread ${title} has no text (found ${compactJson(doc.text ?? null).slice(0, 80)})`, { ...f, source_line: null, tag: 'bad_line' });
    return;
  }
  const bytes = Buffer.from(doc.text, 'utf8');
  const list = slices(doc);
  for (const [k, s] of list.entries()) {
    const end = k + 1 < list.length ? list[k + 1].start : bytes.length;
    const text = bytes.subarray(Math.min(s.start, bytes.length), Math.max(Math.min(end, bytes.length), 0)).toString('utf8').replace(/\n$/, '');
    const note = statusNote(s.status);
    const body = note ? `${text}${text ? '\n' : ''}${note}` : text;
    if (s.role === 'user' || s.role === 'assistant') yield makeRow(s.role, body, { ...f, source_line: s.index });
    else {
      if (s.role !== 'system') ctx.unknown(`role ${s.role || 'missing'}`, s.index);
      yield makeRow('system', `${s.role || 'unknown'} message: ${body}`, { ...f, source_line: s.index });
    }
  }
}
