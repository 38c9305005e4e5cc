import { compactJson } from '../../sdk/compact-json.js';
import { asArray, asString, isObject, type JsonObject } from '../../sdk/decode.js';
import { makeRow } from '../../sdk/row.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { ParseContext, Row } from '../../sdk/types.js';
import { pushAll } from '../../sdk/push-all.js';

const obj = (v: unknown): JsonObject => (isObject(v) ? v : {});
const str = (v: unknown): string => asString(v) ?? '';

/** Where a conversation is stored: its row (rowid, key = the cwd) and the row's own times (Kiro). */
export interface ConversationRow {
  key: string;
  line: number;
  created: string;
}

/** A tool call's arguments in a row: the command of a shell tool, `<command> <path>` of a write, else compact JSON. */
export function toolText(name: string, args: unknown): string {
  const a = obj(args);
  if (/^(?:execute_bash|execute_cmd|shell)$/.test(name) && typeof a.command === 'string') return a.command;
  if (/^(?:fs_write|write)$/.test(name) && typeof a.path === 'string') return `${str(a.command)} ${a.path}`.trim();
  // The model's own note on why it calls the tool is not part of the call.
  return isObject(args) ? compactJson(Object.fromEntries(Object.entries(a).filter(([k]) => k !== '__tool_use_purpose'))) : compactJson(args ?? null);
}

/** A tool result's content (`[{Text}|{Json}]`): text as is, JSON compact; shell output as stdout, stderr, exit status. */
export function resultText(content: unknown): string {
  return (asArray(content) ?? [])
    .map((c) => {
      const o = obj(c);
      if (typeof o.Text === 'string') return o.Text;
      if (o.Json !== undefined) return jsonResult(o.Json);
      return compactJson(c);
    })
    .join('\n');
}

/** A shell tool's JSON result `{exit_status, stdout, stderr}` as text; anything else compact. */
export function jsonResult(j: unknown): string {
  const o = obj(j);
  if (typeof o.stdout === 'string' || typeof o.stderr === 'string') {
    const exit = str(o.exit_status);
    const parts = [str(o.stdout)];
    if (str(o.stderr)) parts.push(`[stderr] ${str(o.stderr)}`);
    if (exit && !/\b0$/.test(exit)) parts.push(`[${exit}]`);
    return parts.join('\n');
  }
  return compactJson(j ?? null);
}

/** The history entries of a ConversationState: `{user, assistant, request_metadata}` (≥1.10) or `[user, assistant]` (older). */
function entries(history: unknown): { user: JsonObject; assistant: JsonObject; meta: JsonObject }[] {
  return (asArray(history) ?? []).map((e) => (Array.isArray(e) ? { user: obj(e[0]), assistant: obj(e[1]), meta: {} } : { user: obj(obj(e).user), assistant: obj(obj(e).assistant), meta: obj(obj(e).request_metadata) }));
}

/**
 * The rows of one stored ConversationState (cli/chat/conversation.rs): the conversation, then per
 * history entry the user side (a prompt, tool results, cancelled tool uses) and the assistant side
 * (a reply, tool uses), a model row when the model changes, and the /compact summary. The
 * session is the conversation id, the project its key (the directory it was started in).
 */
export function conversationRows(state: JsonObject, at: ConversationRow, ctx: ParseContext): Row[] {
  const id = str(state.conversation_id) || at.key;
  const f = (x: Partial<Row> = {}): Partial<Row> => ({ session_id: id, project_path: at.key, source_line: at.line, ...x });
  const list = entries(state.history);
  const firstTs = list.map((e) => toUtc(e.user.timestamp) || toUtc(e.meta.request_start_timestamp_ms)).find(Boolean) || at.created;
  const summary = Array.isArray(state.latest_summary) ? str(state.latest_summary[0]) : str(state.latest_summary);
  const modelInfo = str(obj(state.model_info).model_id) || str(state.model);
  if (at.key) ctx.fact({ session_id: id, key: 'cwd', value: at.key, priority: 3 });
  const rows = [makeRow('system', `conversation ${id} in ${at.key} (summary present: ${summary ? 'yes' : 'no'})`, f({ timestamp_utc: firstTs, model: modelInfo, tag: 'session_start' }))];
  const tools = new Map<string, string>();
  let model = '';
  let last = firstTs;
  for (const e of list) {
    const ts = toUtc(e.user.timestamp) || toUtc(e.meta.request_start_timestamp_ms) || last;
    const cwd = str(obj(obj(e.user.env_context).env_state).current_working_directory);
    if (cwd) ctx.fact({ session_id: id, key: 'cwd', value: cwd, priority: 2, ...(ts ? { at: ts } : {}) });
    pushAll(rows, userRows(e.user, tools, f({ timestamp_utc: ts }), ctx));
    const end = toUtc(e.meta.stream_end_timestamp_ms) || ts;
    const m = str(e.meta.model_id);
    if (m && m !== model) {
      rows.push(makeRow('system', model ? `model: ${model} -> ${m}` : `model: ${m}`, f({ timestamp_utc: end, model: m, tag: 'model' })));
      model = m;
    }
    pushAll(rows, assistantRows(e.assistant, tools, f({ timestamp_utc: end, model: m || modelInfo }), ctx));
    last = end || last;
  }
  if (summary) rows.push(makeRow('system', `context summary: ${summary}`, f({ timestamp_utc: last, tag: 'compaction' })));
  if (isObject(state.tangent_state)) rows.push(makeRow('system', `tangent mode (the main conversation is parked) since ${toUtc(state.tangent_state.tangent_start_time) || '?'}`, f({ timestamp_utc: last })));
  return rows;
}

function resultRows(results: unknown, tools: Map<string, string>, base: Partial<Row>): Row[] {
  return (asArray(results) ?? []).map((r) => {
    const o = obj(r);
    const idOf = str(o.tool_use_id);
    const text = resultText(o.content);
    return makeRow('tool_result', o.status === 'Error' ? `[error] ${text}` : text, { ...base, tool_name: tools.get(idOf) ?? '', tool_use_id: idOf });
  });
}

function userRows(user: JsonObject, tools: Map<string, string>, base: Partial<Row>, ctx: ParseContext): Row[] {
  const rows: Row[] = [];
  const extra = str(user.additional_context);
  if (extra) rows.push(makeRow('system', `context: ${extra}`, { ...base, tag: 'context' }));
  const content = user.content;
  if (typeof content === 'string') {
    // Some builds wrote a bare prompt string.
    rows.push(makeRow('user', content, base));
    return rows;
  }
  const c = obj(content);
  if (isObject(c.Prompt)) rows.push(makeRow('user', str(c.Prompt.prompt), base));
  else if (isObject(c.ToolUseResults)) pushAll(rows, resultRows(c.ToolUseResults.tool_use_results, tools, base));
  else if (isObject(c.CancelledToolUses)) {
    const cancelled = obj(c.CancelledToolUses);
    const ids = (asArray(cancelled.tool_use_results) ?? []).map((r) => str(obj(r).tool_use_id));
    rows.push(makeRow('system', `tool use cancelled or denied: ${ids.map((i) => `${tools.get(i) ?? '?'} ${i}`).join(', ')}`, { ...base, tag: 'permission_decision' }));
    pushAll(rows, resultRows(cancelled.tool_use_results, tools, base));
    if (str(cancelled.prompt)) rows.push(makeRow('user', str(cancelled.prompt), base));
  } else ctx.unknown(`user content ${Object.keys(c).join(',') || '(empty)'}`, typeof base.source_line === 'number' ? base.source_line : undefined);
  for (const img of asArray(user.images) ?? []) rows.push(makeRow('user', `[image ${str(obj(img).format)}]`.replace(/ \]$/, ']'), base));
  return rows;
}

function assistantRows(a: JsonObject, tools: Map<string, string>, base: Partial<Row>, ctx: ParseContext): Row[] {
  if (isObject(a.Response)) {
    const text = str(a.Response.content);
    return text ? [makeRow('assistant', text, base)] : [];
  }
  if (isObject(a.ToolUse)) {
    const rows: Row[] = [];
    const text = str(a.ToolUse.content);
    if (text) rows.push(makeRow('assistant', text, base));
    for (const t of asArray(a.ToolUse.tool_uses) ?? []) {
      const o = obj(t);
      const name = str(o.name);
      tools.set(str(o.id), name);
      rows.push(makeRow('tool_use', toolText(name, o.args), { ...base, tool_name: name, tool_use_id: str(o.id) }));
    }
    return rows;
  }
  if (Object.keys(a).length > 0) ctx.unknown(`assistant message ${Object.keys(a).join(',')}`, typeof base.source_line === 'number' ? base.source_line : undefined);
  return [];
}
