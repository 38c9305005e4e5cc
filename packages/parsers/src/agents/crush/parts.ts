import { asBool, asNumber, asString, isObject, type JsonObject } from '../../sdk/decode.js';
import { makeRow } from '../../sdk/row.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { ParseContext, Row } from '../../sdk/types.js';

const obj = (v: unknown): JsonObject => (isObject(v) ? v : {});
const str = (v: unknown): string => asString(v) ?? '';

/** tools.go NewPermissionDeniedResponse: the content of a tool result the user refused. */
export const DENIED = 'User denied permission';
/** Finish reasons that end a turn normally (a user or tool message gets `stop` on creation). */
const NORMAL_FINISH = new Set(['end_turn', 'tool_use', 'stop', '']);
/** The `<cwd>…</cwd>` tag Crush appends to a tool result (peer: deja-vu, v0.92.0). */
const CWD_TAG = /\s*<cwd>([^<]*)<\/cwd>\s*$/;

/** One message as the rows need it. */
export interface CrushMessage {
  id: string;
  sessionId: string;
  role: string;
  model: string;
  provider: string;
  summary: boolean;
  created: string;
  line: number;
  projectPath: string;
}

/** What a tool result says about the working directory, and its text without the tag. */
export function splitCwd(content: string): { text: string; cwd: string } {
  const m = CWD_TAG.exec(content);
  return m ? { text: content.slice(0, m.index), cwd: m[1].trim() } : { text: content, cwd: '' };
}

/** A tool call's input (a JSON string): bash's command, else the string as stored. */
function toolInput(name: string, input: string): string {
  if (name === 'bash') {
    try {
      const o = JSON.parse(input);
      if (isObject(o) && typeof o.command === 'string') return o.command;
    } catch {
      // An input cut mid-stream is printed as stored.
    }
  }
  return input;
}

/**
 * The rows of one `{type, data}` part of a message (internal/message/message.go, content.go).
 * `cwdAt` is told the working directory a tool result names, with its time.
 */
export function partRows(p: JsonObject, m: CrushMessage, ctx: ParseContext, cwdAt: (cwd: string, at: string) => void): Row[] {
  const type = str(p.type);
  const d = obj(p.data);
  const f = (x: Partial<Row> = {}): Partial<Row> => ({ session_id: m.sessionId, project_path: m.projectPath, timestamp_utc: m.created, source_line: m.line, ...x });
  const byRole = m.role === 'user' ? 'user' : m.role === 'assistant' ? 'assistant' : 'system';
  switch (type) {
    case 'text': {
      const text = str(d.text);
      if (text === '') return [];
      if (asBool(d.hidden) === true) return [makeRow('system', `hidden continuation: ${text}`, f())];
      if (m.summary) return [makeRow('system', `context summary: ${text}`, f({ model: m.model, tag: 'compaction' }))];
      return [makeRow(byRole, text, f(byRole === 'assistant' ? { model: m.model } : {}))];
    }
    case 'reasoning': {
      const text = str(d.thinking);
      if (!ctx.options.includeThinking || text === '') return [];
      return [makeRow('thinking', text, f({ model: m.model, timestamp_utc: toUtc(d.started_at) || m.created }))];
    }
    case 'tool_call': {
      const name = str(d.name);
      return [makeRow('tool_use', toolInput(name, str(d.input)), f({ model: m.model, tool_name: name, tool_use_id: str(d.id) }))];
    }
    case 'tool_result': {
      const name = str(d.name);
      const { text, cwd } = splitCwd(str(d.content));
      if (cwd) cwdAt(cwd, m.created);
      const ids = { tool_name: name, tool_use_id: str(d.tool_call_id) };
      const error = asBool(d.is_error) === true;
      const rows = [makeRow('tool_result', error ? `[error] ${text}` : text, f(ids))];
      if (error && text.trim() === DENIED) rows.push(makeRow('system', `permission denied: ${name}`, f({ ...ids, tag: 'permission_decision' })));
      return rows;
    }
    case 'finish': {
      const reason = str(d.reason);
      if (NORMAL_FINISH.has(reason)) return [];
      const text = [reason, str(d.message), str(d.details)].filter(Boolean).join(' ');
      return [makeRow('system', `finish: ${text}`, f({ model: m.model, timestamp_utc: toUtc(d.time) || m.created, ...(reason === 'error' ? { tag: 'error' } : {}) }))];
    }
    case 'image_url':
      return [makeRow(byRole, `[image ${str(d.url).slice(0, 200)}]`, f())];
    case 'binary': {
      // BinaryContent has no JSON tags: Go writes its fields as Path, MIMEType, Data.
      const path = str(d.path ?? d.Path);
      const mime = str(d.mime_type ?? d.MIMEType);
      return [makeRow(byRole, `[attachment ${path || '(no path)'} ${mime}]`.replace(/ \]$/, ']'), f())];
    }
    case 'shell_command': {
      const code = asNumber(d.exit_code) ?? 0;
      return [makeRow('user', `!${str(d.command)}`, f({ tool_name: 'bash' })), makeRow('system', `shell exit=${code}: ${str(d.output)}`, f({ tool_name: 'bash' }))];
    }
    default:
      ctx.unknown(`part ${type || '(no type)'}`, m.line);
      return [];
  }
}
