/**
 * The small files of a task folder and the task indexes: `task_metadata.json` (files in context,
 * models and modes used, the editor and extension versions), Cline's `state/taskHistory.json`,
 * Roo's `tasks/_index.json` and `tasks/<id>/history_item.json` (HistoryItem: the task, its last
 * activity, tokens, cost, the working directory).
 */
import { asArray, asNumber, asObject, asString, isObject, type JsonObject } from '../../sdk/decode.js';
import { makeRow } from '../../sdk/row.js';
import { readJsonArray } from '../../sdk/json-stream.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { Artifact, ParseContext, Row } from '../../sdk/types.js';
import { readJsonDoc } from './json-doc.js';

/** task_metadata.json → rows: files read or edited (with their dates), models and modes, environments. */
export async function* parseTaskMetadata(a: Artifact, ctx: ParseContext, taskId: string): AsyncGenerator<Row> {
  const doc = await readJsonDoc(a, taskId);
  if (!doc.ok) return yield doc.row;
  const meta = asObject(doc.value);
  if (!meta) return yield makeRow('system', 'parser: unparseable task_metadata.json (expected a JSON object)', { session_id: taskId, timestamp_utc: a.mtime, tag: 'bad_line' });
  const row = (text: string, ts: unknown, line: number, tag: string) => makeRow('system', text, { timestamp_utc: toUtc(ts), session_id: taskId, source_line: line, tag });
  let model = '';
  let mode = '';
  for (const [i, u] of (asArray(meta.model_usage) ?? []).entries()) {
    if (!isObject(u)) continue;
    const id = asString(u.model_id) ?? '';
    const provider = asString(u.model_provider_id) ?? '';
    // Same texts as the UI log's model and mode rows, so the copies drop (this parser is secondary).
    if (id && id !== model) {
      model = id;
      yield row(`model: ${id}${provider ? ` provider=${provider}` : ''}`, u.ts, i + 1, 'model');
    }
    const m = asString(u.mode) ?? '';
    if (m && m !== mode) {
      mode = m;
      yield row(`mode: ${m}`, u.ts, i + 1, 'permission_mode');
    }
  }
  for (const [i, e] of (asArray(meta.environment_history) ?? []).entries()) {
    if (!isObject(e)) continue;
    const host = [asString(e.host_name), asString(e.host_version)].filter((x) => x).join(' ');
    const os = [asString(e.os_name), asString(e.os_version), asString(e.os_arch)].filter((x) => x).join(' ');
    const version = asString(e.cline_version) ?? asString(e.extension_version) ?? '';
    if (host) ctx.fact({ session_id: taskId, key: 'client', value: `${host}${version ? ` (extension ${version})` : ''}`, priority: 2 });
    yield row(`environment: host=${host || '?'} extension=${version || '?'} os=${os || '?'}`, e.ts, i + 1, 'environment');
  }
  for (const [i, f] of (asArray(meta.files_in_context) ?? []).entries()) {
    if (!isObject(f)) continue;
    yield* fileRows(f, i + 1, row);
  }
}

// FileContextTracker: a file the agent read, edited, or the user edited while it was in context.
const FILE_DATES: readonly [string, string][] = [
  ['cline_read_date', 'read by the agent'],
  ['roo_read_date', 'read by the agent'],
  ['cline_edit_date', 'edited by the agent'],
  ['roo_edit_date', 'edited by the agent'],
  ['user_edit_date', 'edited by the user'],
];

function* fileRows(f: JsonObject, line: number, row: (text: string, ts: unknown, line: number, tag: string) => Row): Generator<Row> {
  const path = asString(f.path) ?? '';
  const how = `${asString(f.record_source) ?? '?'}, ${asString(f.record_state) ?? '?'}`;
  let any = false;
  for (const [key, what] of FILE_DATES) {
    const ts = asNumber(f[key]);
    if (ts === undefined) continue;
    any = true;
    yield row(`file ${what}: ${path} (${how})`, ts, line, 'file_context');
  }
  if (!any) yield row(`file in context: ${path} (${how})`, '', line, 'file_context');
}

/** One HistoryItem → rows (the session metadata row, the task text undated so it joins the UI's prompt) and facts. */
export function historyItemRows(item: JsonObject, ctx: ParseContext, line: number | null, source: string): Row[] {
  const id = asString(item.id) ?? '';
  if (!id) return [makeRow('system', `parser: ${source} entry without an id`, { source_line: line, tag: 'bad_line' })];
  const cwd = asString(item.cwdOnTaskInitialization) ?? asString(item.workspace) ?? '';
  if (cwd) ctx.fact({ session_id: id, key: 'cwd', value: cwd, priority: 2 });
  const parts: string[] = [];
  for (const k of ['modelId', 'apiConfigName', 'mode', 'status', 'tokensIn', 'tokensOut', 'cacheWrites', 'cacheReads', 'totalCost', 'size', 'parentTaskId', 'rootTaskId', 'isFavorited']) {
    const v = item[k];
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') parts.push(`${k}=${v}`);
  }
  const rows = [makeRow('system', `task ${id} last activity: ${parts.join(' ')}`.trimEnd(), { timestamp_utc: toUtc(item.ts), session_id: id, source_line: line, tag: 'session_metadata' })];
  const task = asString(item.task);
  if (task) rows.push(makeRow('user', task, { session_id: id, source_line: line, tag: 'history' }));
  return rows;
}

/**
 * The task index (`state/taskHistory.json` array, Roo's `tasks/_index.json` {entries}) or one
 * `history_item.json`. An index is streamed, so the tasks before a cut or a bad entry still give rows.
 */
export async function* parseTaskIndex(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const name = a.rel.split('/').pop() ?? a.rel;
  if (/^history_item\.json$/i.test(name)) {
    const doc = await readJsonDoc(a);
    if (!doc.ok) return yield doc.row;
    if (isObject(doc.value)) return yield* historyItemRows(doc.value, ctx, null, name);
    return yield makeRow('system', `parser: unparseable ${name} (expected a task object, found ${Array.isArray(doc.value) ? 'an array' : typeof doc.value})`, { timestamp_utc: a.mtime, tag: 'bad_line' });
  }
  // taskHistory.json is the array itself; _index.json holds it under `entries`.
  const path = /^_index\.json$/i.test(name) ? ['entries'] : [];
  for await (const ev of readJsonArray(a.stream(), path)) {
    if (ev.kind === 'item') {
      if (isObject(ev.value)) yield* historyItemRows(ev.value, ctx, ev.index + 1, name);
      else yield makeRow('system', `parser: unparseable ${name} entry ${ev.index + 1} (expected a task object)`, { source_line: ev.index + 1, tag: 'bad_line' });
    } else if (ev.kind === 'bad') {
      yield makeRow('system', `parser: unparseable ${name} entry ${ev.index + 1} (${ev.reason}): ${ev.preview}`, { source_line: ev.index + 1, tag: 'bad_line' });
    } else if (ev.kind === 'end' && (!ev.complete || !ev.found)) {
      const why = ev.found ? (ev.reason ?? 'incomplete document') : `expected a list of tasks${path.length ? ' under "entries"' : ''}`;
      yield makeRow('system', `parser: unparseable ${name} (${why}); ${ev.items} tasks read`, { timestamp_utc: a.mtime, tag: 'bad_line' });
    }
  }
}
