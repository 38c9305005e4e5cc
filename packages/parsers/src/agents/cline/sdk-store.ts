/**
 * Cline's SDK session store (the CLI since 3.x, and new VS Code tasks after the SDK migration):
 * `~/.cline/data/sessions/<id>/<id>.messages.json` (the conversation, one JSON document with
 * `messages[]`, each timed), `<id>.json` (the manifest: start, end, status, cwd, model, prompt)
 * and `db/sessions.db` (the same manifest as a row, read in sdk-db.ts). Shapes seen in a live
 * 3.0.65 run (fixtures/homes/cline-family) and read in sdk/packages/core/src/services/session-data.ts.
 */
import { asArray, asBool, asNumber, asObject, asString, isObject, type JsonObject } from '../../sdk/decode.js';
import { readJsonArray } from '../../sdk/json-stream.js';
import { makeRow } from '../../sdk/row.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { Artifact, ParseContext, Row } from '../../sdk/types.js';
import { contentText, isSyntheticUserText, toolInputText } from './content.js';
import { readJsonDoc } from './json-doc.js';
import { type Draft, TaskState } from './task-state.js';
import { pushAll } from '../../sdk/push-all.js';

const USER_INPUT = /^\s*<user_input(?:\s+mode="([^"]*)")?\s*>\n?([\s\S]*?)\n?<\/user_input>\s*$/;

/** `sessions/<id>/<name>.messages.json`: the lead agent's (name = id) or a subagent's messages. */
export async function* parseSdkMessages(a: Artifact, ctx: ParseContext, folderId: string): AsyncGenerator<Row> {
  const st = new TaskState(ctx, folderId);
  const names = new Map<string, string>();
  let systemPrompt: string | undefined;
  let firstTs = '';
  for await (const ev of readJsonArray(a.stream(), ['messages'])) {
    if (ev.kind === 'field' && ev.path.length === 1 && ev.path[0] === 'system_prompt') systemPrompt = asString(ev.value);
    else if (ev.kind === 'item') {
      const line = ev.index + 1;
      if (!isObject(ev.value)) {
        yield st.row({ turn: 'system', text: `parser: unparseable message ${line} (not a JSON object)`, tag: 'bad_line' }, line);
        continue;
      }
      for (const d of messageDrafts(st, ev.value, names, line)) {
        const r = st.row(d, line);
        if (!firstTs && r.timestamp_utc) firstTs = r.timestamp_utc;
        yield r;
      }
    } else if (ev.kind === 'bad') {
      yield st.row({ turn: 'system', text: `parser: unparseable message ${ev.index + 1} (${ev.reason}): ${ev.preview}`, tag: 'bad_line' }, ev.index + 1);
    } else if (ev.kind === 'end') {
      if (!ev.found && ev.complete) yield makeRow('system', 'parser: unparseable session messages (a JSON document without messages)', { session_id: folderId, timestamp_utc: a.mtime, tag: 'bad_line' });
      else if (!ev.complete) yield makeRow('system', `parser: unparseable session messages (${ev.reason ?? 'incomplete document'}); ${ev.items} messages read`, { session_id: folderId, timestamp_utc: st.lastTs || a.mtime, tag: 'bad_line' });
    }
  }
  if (systemPrompt) yield makeRow('system', `system prompt: ${systemPrompt}`, { session_id: folderId, timestamp_utc: firstTs, tag: 'system_prompt' });
}

function messageDrafts(st: TaskState, m: JsonObject, names: Map<string, string>, line: number): Draft[] {
  const ts = m.ts;
  const role = asString(m.role) ?? '';
  const out: Draft[] = st.modelInfo(m.modelInfo, ts);
  const blocks = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : Array.isArray(m.content) ? m.content : [];
  if (role !== 'user' && role !== 'assistant') {
    st.ctx.unknown(`message role ${role || '(none)'}`, line);
    out.push({ turn: 'system', text: `message ${role || '(no role)'}: ${contentText(blocks)}`.trimEnd(), ts, tag: 'unknown' });
    return out;
  }
  for (const b of blocks) {
    if (!isObject(b)) continue;
    const type = asString(b.type) ?? '';
    if (type === 'text') {
      const text = asString(b.text) ?? '';
      if (role === 'assistant') {
        if (text) out.push({ turn: 'assistant', text, ts });
        continue;
      }
      const u = USER_INPUT.exec(text);
      if (u?.[1]) pushAll(out, st.modelInfo({ mode: u[1] }, ts));
      const typed = u ? u[2] : text;
      if (typed && !isSyntheticUserText(typed)) out.push({ turn: 'user', text: typed, ts });
    } else if (type === 'thinking' || type === 'redacted_thinking') {
      const text = asString(b.thinking) ?? asString(b.text) ?? '[redacted thinking]';
      if (st.ctx.options.includeThinking) out.push({ turn: 'thinking', text, ts });
    } else if (type === 'tool_use') {
      const id = asString(b.id) ?? asString(b.call_id) ?? '';
      const name = asString(b.name) ?? '';
      names.set(id, name);
      out.push({ turn: 'tool_use', text: toolInputText(b.input), tool_name: name, tool_use_id: id, ts });
    } else if (type === 'tool_result') {
      const id = asString(b.tool_use_id) ?? '';
      const text = contentText(b.content);
      out.push({ turn: 'tool_result', text: b.is_error === true ? `[error] ${text}` : text, tool_name: names.get(id) ?? asString(b.name) ?? '', tool_use_id: id, ts });
    } else if (type === 'image' || type === 'file' || type === 'media') {
      out.push({ turn: role === 'user' ? 'user' : 'assistant', text: contentText([b]), ts });
    } else {
      st.ctx.unknown(`${role} block ${type || '(no type)'}`, line);
      out.push({ turn: 'system', text: `${role} block ${type || '(no type)'}: ${contentText([b])}`, ts, tag: 'unknown' });
    }
  }
  return out;
}

/**
 * The rows and facts of one session record, the manifest's or the database's (the same fields:
 * sessions.db has `metadata_json` where the manifest has `metadata`). Both stores are secondary
 * and give the same texts, so one copy of each row is kept.
 */
export function sessionRecordRows(r: JsonObject, ctx: ParseContext, line: number | null): Row[] {
  const id = asString(r.session_id) ?? '';
  const meta = asObject(r.metadata) ?? asObject(r.metadata_json) ?? {};
  const cwd = asString(r.cwd) ?? asString(r.workspace_root) ?? '';
  if (cwd) ctx.fact({ session_id: id, key: 'cwd', value: cwd, priority: 2 });
  const branch = asString(asObject(meta.git)?.branch);
  if (branch) ctx.fact({ session_id: id, key: 'branch', value: branch, priority: 2 });
  const title = asString(meta.title);
  if (title) ctx.fact({ session_id: id, key: 'name', value: title, priority: 2 });
  const version = asString(asObject(meta.sessionHistoryOrigin)?.version);
  if (version) ctx.fact({ session_id: id, key: 'client', value: `cline ${asString(r.source) ?? ''} ${version}`.replace(/\s+/g, ' '), priority: 2 });
  const f = (ts: unknown, tag?: string) => ({ timestamp_utc: toUtc(ts), session_id: id, source_line: line, model: asString(r.model) ?? '', ...(tag ? { tag } : {}) });
  const start: string[] = [];
  for (const k of ['source', 'provider', 'model', 'cwd', 'workspace_root', 'interactive', 'parent_session_id', 'is_subagent', 'team_name']) {
    // The database keeps the manifest's booleans as 0/1: both print the same, so the copies compare equal.
    const v = (k === 'interactive' || k === 'is_subagent') && (r[k] === 0 || r[k] === 1) ? r[k] === 1 : r[k];
    if (k === 'is_subagent' && v === false) continue;
    if (v !== undefined && v !== null && v !== '') start.push(`${k}=${asBool(v) ?? asNumber(v) ?? asString(v)}`);
  }
  const rows = [makeRow('system', `session start: ${start.join(' ')}`, f(r.started_at, 'session_start'))];
  const prompt = asString(r.prompt);
  if (prompt) rows.push(makeRow('user', prompt, f(r.started_at)));
  // The history holds the latest checkpoint too; the latest alone stands when there is no history.
  const cp = asObject(meta.checkpoint);
  for (const c of asArray(cp?.history)?.map(asObject) ?? [asObject(cp?.latest)]) {
    const ref = asString(c?.ref);
    if (ref) rows.push(makeRow('system', `checkpoint ${ref} (${asString(c?.kind) ?? ''} run ${asNumber(c?.runCount) ?? '?'})`, f(c?.createdAt, 'checkpoint')));
  }
  const end = [`status=${asString(r.status) ?? '?'}`];
  if (r.exit_code !== undefined && r.exit_code !== null) end.push(`exit_code=${asNumber(r.exit_code)}`);
  const marker = asString(meta.terminal_marker);
  if (marker) end.push(`marker=${marker}`);
  if (r.ended_at) rows.push(makeRow('system', `session end: ${end.join(' ')}`, f(r.ended_at, 'session_end')));
  return rows;
}

/** `sessions/<id>/<id>.json`. */
export async function* parseSdkManifest(a: Artifact, ctx: ParseContext, folderId: string): AsyncGenerator<Row> {
  const doc = await readJsonDoc(a, folderId);
  if (!doc.ok) return yield doc.row;
  const r = asObject(doc.value);
  if (!r) return yield makeRow('system', 'parser: unparseable session manifest (expected a JSON object)', { session_id: folderId, timestamp_utc: a.mtime, tag: 'bad_line' });
  yield* sessionRecordRows({ ...r, session_id: asString(r.session_id) ?? folderId }, ctx, null);
}
