import { compactJson } from '../../sdk/compact-json.js';
import { asArray, asBool, asNumber, asString, isObject, type JsonObject } from '../../sdk/decode.js';
import { makeRow } from '../../sdk/row.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { ParseContext, Row } from '../../sdk/types.js';
import { errorText, type MessageInfo } from './message-info.js';

/** PermissionRejectedError and CorrectedError (with the user's feedback) as a tool part's state.error. */
const REJECTED = /^The user (?:has )?rejected permission to use this specific tool call/;

/** Part types that give no row on purpose: step bookkeeping (tokens, git snapshots). */
const NO_ROW = new Set(['step-start', 'step-finish', 'snapshot']);

const obj = (v: unknown): JsonObject => (isObject(v) ? v : {});
const str = (v: unknown): string => asString(v) ?? '';

/** The fields every row of a part shares. */
export interface PartBase {
  session_id: string;
  project_path: string;
  source_line: number | null;
  tag?: string;
}

/** What a tool call's input reads as in a row: bash's command, else the input as compact JSON. */
function toolInput(tool: string, input: unknown): string {
  const i = obj(input);
  if ((tool === 'bash' || tool === 'shell') && typeof i.command === 'string') return i.command;
  return isObject(input) || Array.isArray(input) ? compactJson(input) : str(input);
}

/**
 * The rows of one part (message-v2.ts `Part`), given its message. Every part gives its own rows so
 * that the database and the legacy JSON copy of a session (one file per part) give the same rows,
 * which the analyzer then drops as copies. Unknown part types go to `ctx.unknown`.
 */
export function partRows(part: JsonObject, msg: MessageInfo, base: PartBase, ctx: ParseContext): Row[] {
  const type = str(part.type);
  const time = obj(part.time);
  const at = (v: unknown): string => toUtc(v) || msg.created;
  const f = (extra: Partial<Row> = {}): Partial<Row> => ({ ...base, timestamp_utc: msg.created, model: msg.model, ...extra });
  const user = msg.role === 'user';
  switch (type) {
    case 'text': {
      const text = str(part.text);
      if (text === '') return [];
      if (asBool(part.synthetic) === true) return [makeRow('system', `context: ${text}`, f({ timestamp_utc: at(time.start), model: '', tag: 'context' }))];
      if (asBool(part.ignored) === true) return [makeRow('system', `ignored text: ${text}`, f({ timestamp_utc: at(time.start), model: '' }))];
      if (user) return [makeRow('user', text, f())];
      // A part whose message file was not collected: who wrote it is unknown.
      if (msg.role !== 'assistant') return [makeRow('system', `text (role unknown): ${text}`, f({ timestamp_utc: at(time.start) }))];
      if (msg.summary) return [makeRow('system', `context summary: ${text}`, f({ timestamp_utc: at(time.start), tag: 'compaction' }))];
      return [makeRow('assistant', text, f({ timestamp_utc: at(time.start) }))];
    }
    case 'reasoning': {
      const text = str(part.text);
      if (!ctx.options.includeThinking || text === '') return [];
      return [makeRow('thinking', text, f({ timestamp_utc: at(time.start) }))];
    }
    case 'tool':
      return toolRows(part, f, at);
    case 'file': {
      const src = obj(part.source);
      const name = str(part.filename) || str(src.path) || str(part.url).slice(0, 200);
      return [makeRow('system', `attachment: [file: ${name}] ${str(part.mime)}`.trimEnd(), f({ model: '', tag: 'attachment' }))];
    }
    case 'agent':
      return [makeRow('system', `agent mention: @${str(part.name)}`, f({ model: '' }))];
    case 'subtask': {
      const text = `${str(part.prompt)} (agent=${str(part.agent)}${part.command ? ` command=${str(part.command)}` : ''})`;
      return [makeRow('tool_use', text, f({ tool_name: 'task', tool_use_id: str(part.id) }))];
    }
    case 'compaction':
      return [makeRow('system', `context compacted (auto=${asBool(part.auto) === true})`, f({ model: '', tag: 'compaction' }))];
    case 'patch': {
      const files = (asArray(part.files) ?? []).map(str).join(', ');
      return [makeRow('system', `files changed: ${files} (${str(part.hash)})`, f({ model: '', tag: 'file_changed' }))];
    }
    case 'retry':
      return [makeRow('system', `retry ${asNumber(part.attempt) ?? '?'}: ${errorText(part.error)}`, f({ timestamp_utc: at(time.created), model: '' }))];
    default:
      if (!NO_ROW.has(type)) ctx.unknown(`part ${type || '(no type)'}`, base.source_line ?? undefined);
      return [];
  }
}

/**
 * A tool part: tool_use when the call started, tool_result when it completed or failed. A failure
 * that is the user's refusal also gives a `permission_decision` row (OpenCode stores no other
 * record of an approval prompt). A call still pending or running is said to be unfinished.
 */
function toolRows(part: JsonObject, f: (x?: Partial<Row>) => Partial<Row>, at: (v: unknown) => string): Row[] {
  const tool = str(part.tool);
  const state = obj(part.state);
  const st = obj(state.time);
  const status = str(state.status);
  const id = str(part.callID);
  const ids = { tool_name: tool, tool_use_id: id };
  const rows = [makeRow('tool_use', toolInput(tool, state.input), f({ ...ids, timestamp_utc: at(st.start) }))];
  const end = at(st.end ?? st.start);
  if (status === 'completed') {
    const out = str(state.output);
    rows.push(makeRow('tool_result', st.compacted ? `${out}\n[output compacted at ${toUtc(st.compacted)}]` : out, f({ ...ids, model: '', timestamp_utc: end })));
  } else if (status === 'error') {
    const err = errorText(state.error);
    rows.push(makeRow('tool_result', `[error] ${err}`, f({ ...ids, model: '', timestamp_utc: end })));
    if (REJECTED.test(err)) rows.push(makeRow('system', `permission denied: ${tool}`, f({ ...ids, model: '', timestamp_utc: end, tag: 'permission_decision' })));
  } else {
    rows.push(makeRow('system', `tool call not finished (${status || 'no status'}): ${tool}`, f({ ...ids, model: '', timestamp_utc: at(st.start) })));
  }
  return rows;
}
