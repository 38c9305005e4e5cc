/**
 * An Amp thread copy, `.local/share/amp/threads/T-<uuid>.json` (builds before 2026-03-31; later
 * ones keep threads on ampcode.com only): one JSON object, rewritten whole, `{v, id, created,
 * title, env.initial.trees[{uri}], messages[{role, content[], meta.sentAt, usage{model,
 * timestamp}}]}`. A message without a time of its own takes the one before it (the thread's
 * creation for the first: tag `time_session`). source_line is the message's 1-based place.
 */
import { compactJson } from '../../sdk/compact-json.js';
import { asArray, asString, isObject, type JsonObject } from '../../sdk/decode.js';
import { readJsonDocument } from '../../sdk/json-document.js';
import { makeRow } from '../../sdk/row.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { Artifact, ParseContext, Row } from '../../sdk/types.js';
import { toolResult, toolUseText } from './tools.js';

const str = (v: unknown): string => asString(v) ?? '';
const obj = (v: unknown): JsonObject => (isObject(v) ? v : {});

/** A `file://` URI as the path it names (`file:///C:/x` as `C:/x`); anything else as it is. */
export function uriPath(uri: string): string {
  if (!uri.startsWith('file://')) return uri;
  let p = uri.slice('file://'.length).replace(/^localhost\//, '/');
  try {
    p = decodeURIComponent(p);
  } catch {
    // A stray % is kept as written.
  }
  return /^\/[A-Za-z]:\//.test(p) ? p.slice(1) : p;
}

/** The largest thread file read (a V8 string holds at most ~512 Mi characters). */
export const MAX_THREAD_BYTES = 256 * 1024 * 1024;

/** What a status other than done says: a denial is a permission decision. */
const STATUS_ROWS: Record<string, (tool: string) => [string, string | undefined]> = {
  'rejected-by-user': (t) => [`permission decision: rejected ${t}`, 'permission_decision'],
  cancelled: (t) => [`tool cancelled: ${t}`, undefined],
  'in-progress': (t) => [`tool still running when the thread was saved: ${t}`, undefined],
};

/** One thread: its start and name, then each message's rows. */
export async function* parseAmpThread(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  // A thread is read whole; pasted screenshots (base64) make large ones, so the cap is well above a config file's.
  const r = await readJsonDocument(a, { object: 'an Amp thread (a JSON object with "id" and "messages")', maxBytes: MAX_THREAD_BYTES });
  if (!r.ok) {
    yield r.row;
    return;
  }
  const doc = r.value as JsonObject;
  const stem = (a.rel.split('/').pop() ?? '').replace(/\.json$/, '');
  const session = str(doc.id) || stem;
  if (str(doc.id) && str(doc.id) !== stem) ctx.warn(`${a.rel}: the thread's id ${str(doc.id)} is not its file name`);
  const trees = (asArray(obj(obj(doc.env).initial).trees) ?? []).map(obj);
  const project = trees.map((t) => uriPath(str(t.uri)) || str(t.displayName)).find(Boolean) ?? '';
  const created = toUtc(doc.created);
  if (project) ctx.fact({ session_id: session, key: 'cwd', value: project, priority: 1 });
  if (str(doc.title)) ctx.fact({ session_id: session, key: 'name', value: str(doc.title), priority: 1 });
  const base = { session_id: session, project_path: project };
  const start = created ? { timestamp_utc: created } : { timestamp_utc: a.mtime, tag: 'time_file' };
  yield makeRow('system', `thread: ${str(doc.title)} trees=${trees.map((t) => str(t.uri) || str(t.displayName)).join(';') || '-'} v=${str(doc.v) || compactJson(doc.v ?? null)}`, { ...base, ...start, source_line: null, tag: 'session_start' });
  if (str(doc.title)) yield makeRow('system', `session name: ${str(doc.title)}`, { ...base, ...start, source_line: null, tag: 'session_name' });
  let time: { timestamp_utc: string; tag?: string } = created ? { timestamp_utc: created, tag: 'time_session' } : { ...start };
  let model = '';
  const tools = new Map<string, string>();
  for (const [i, raw] of (asArray(doc.messages) ?? []).entries()) {
    const m = obj(raw);
    const role = str(m.role);
    const usage = obj(m.usage);
    const own = toUtc(role === 'user' ? obj(m.meta).sentAt : usage.timestamp) || toUtc(obj(m.meta).sentAt) || toUtc(usage.timestamp);
    if (own) time = { timestamp_utc: own };
    const f = (extra: Partial<Row> = {}): Partial<Row> => ({ ...base, ...time, source_line: i + 1, ...extra });
    if (role === 'assistant' && str(usage.model) && str(usage.model) !== model) {
      yield makeRow('system', model ? `model: ${model} -> ${str(usage.model)}` : `model: ${str(usage.model)}`, f({ model: str(usage.model), tag: 'model' }));
      model = str(usage.model);
    }
    if (role !== 'user' && role !== 'assistant') ctx.unknown(`role ${role || '(none)'}`, i + 1);
    const turn = role === 'assistant' ? 'assistant' : role === 'user' ? 'user' : 'system';
    const mf = (extra: Partial<Row> = {}) => f({ ...(role === 'assistant' ? { model } : {}), ...extra });
    // Rows in the order of the blocks; neighbouring text blocks make one row.
    const rows: Row[] = [];
    let texts: string[] = [];
    const flush = () => {
      const text = texts.filter((t) => t !== '').join('\n');
      if (text !== '') rows.push(makeRow(turn, turn === 'system' ? `${role} message: ${text}` : text, mf()));
      texts = [];
    };
    for (const b of asArray(m.content) ?? (typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : [])) {
      const o = obj(b);
      const type = str(o.type);
      if (type === 'text' || type === 'image') {
        texts.push(type === 'text' ? str(o.text) : '[image]');
        continue;
      }
      flush();
      if (type === 'thinking') {
        if (ctx.options.includeThinking) rows.push(makeRow('thinking', str(o.thinking), mf()));
      } else if (type === 'tool_use') {
        tools.set(str(o.id), str(o.name));
        rows.push(makeRow('tool_use', toolUseText(str(o.name), o.input), mf({ tool_name: str(o.name), tool_use_id: str(o.id) })));
      } else if (type === 'tool_result') {
        const res = toolResult(o);
        const tool = tools.get(res.id) ?? '';
        const ids = { tool_name: tool, tool_use_id: res.id };
        const status = STATUS_ROWS[res.status];
        if (res.text !== '' || !status) rows.push(makeRow('tool_result', res.error ? `[error] ${res.text}` : res.text, f(ids)));
        if (status) {
          const [text, tag] = status(tool || res.id);
          rows.push(makeRow('system', text, f({ ...ids, ...(tag ? { tag } : {}) })));
        } else if (res.status && res.status !== 'done' && res.status !== 'error') ctx.unknown(`tool result status ${res.status}`, i + 1);
      } else {
        ctx.unknown(`content ${type || '(no type)'}`, i + 1);
        rows.push(makeRow('system', `content: ${compactJson(b)}`, f()));
      }
    }
    flush();
    yield* rows;
  }
}
