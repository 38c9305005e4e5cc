import { compactJson } from '../../sdk/compact-json.js';
import { asBool, asString, isObject, type JsonObject } from '../../sdk/decode.js';
import { makeRow } from '../../sdk/row.js';
import type { ParseContext, Row } from '../../sdk/types.js';

const obj = (v: unknown): JsonObject => (isObject(v) ? v : {});
const str = (v: unknown): string => asString(v) ?? '';

/** agents/tool_execution.rs DECLINED_RESPONSE: the tool result of a call the user refused. */
export const DECLINED = 'The user has declined to run this tool.';

/** One message as stored (`messages` row or legacy JSONL line): role, time, content items, visibility. */
export interface GooseMessage {
  sessionId: string;
  role: string;
  created: string;
  content: unknown[];
  metadata: JsonObject;
  line: number;
  projectPath: string;
}

/** `{status: "success", value}` / `{status: "error", error}` (tool_result_serde.rs). */
function unwrap(r: unknown): { ok: boolean; value: unknown; error: string } {
  const o = obj(r);
  if (o.status === 'error') return { ok: false, value: undefined, error: str(o.error) };
  return { ok: true, value: o.value, error: '' };
}

/** A tool call's arguments in a row: the shell command for a shell tool, else compact JSON. */
function callText(name: string, args: unknown): string {
  const a = obj(args);
  if (/(?:^|__)shell$/.test(name) && typeof a.command === 'string') return a.command;
  return compactJson(args ?? {});
}

/** Text of a CallToolResult (`{content: [...], isError}`) or the legacy bare content list. */
function resultText(value: unknown): { text: string; isError: boolean } {
  const list = Array.isArray(value) ? value : (obj(value).content as unknown[] | undefined) ?? [];
  const parts = (Array.isArray(list) ? list : []).map((c) => {
    const o = obj(c);
    if (o.type === 'text') return str(o.text);
    if (o.type === 'image') return `[image ${str(o.mimeType)}]`;
    if (o.type === 'resource') return str(obj(o.resource).text) || `[resource ${str(obj(o.resource).uri)}]`;
    return compactJson(c);
  });
  return { text: parts.join('\n'), isError: asBool(obj(value).isError) === true };
}

/**
 * The rows of one message (crates/goose/src/conversation/message.rs MessageContent, tagged by
 * `type`). Tool names are remembered by request id in `tools` so a response, which comes back in
 * a later user-role message, carries its tool's name.
 */
export function messageRows(m: GooseMessage, tools: Map<string, string>, ctx: ParseContext): Row[] {
  const f = (x: Partial<Row> = {}): Partial<Row> => ({ session_id: m.sessionId, project_path: m.projectPath, timestamp_utc: m.created, source_line: m.line, ...x });
  // Compaction writes the summary for the model only; a UI-only notice is the reverse.
  const agentOnly = m.metadata.userVisible === false && m.metadata.agentVisible !== false;
  const userOnly = m.metadata.agentVisible === false && m.metadata.userVisible !== false;
  const rows: Row[] = [];
  for (const item of m.content) {
    const c = obj(item);
    const type = str(c.type);
    switch (type) {
      case 'text': {
        const text = str(c.text);
        if (text === '') break;
        if (agentOnly) rows.push(makeRow('system', `context summary: ${text}`, f({ tag: 'compaction' })));
        else if (userOnly) rows.push(makeRow('system', `notice: ${text}`, f()));
        else rows.push(makeRow(m.role === 'user' ? 'user' : m.role === 'assistant' ? 'assistant' : 'system', text, f()));
        break;
      }
      case 'image':
        rows.push(makeRow(m.role === 'assistant' ? 'assistant' : 'user', `[image ${str(c.mimeType)}]`, f()));
        break;
      case 'toolRequest':
      case 'frontendToolRequest': {
        const call = unwrap(c.toolCall);
        const v = obj(call.value);
        const name = str(v.name);
        tools.set(str(c.id), name);
        rows.push(makeRow('tool_use', call.ok ? callText(name, v.arguments) : `[invalid tool call] ${call.error}`, f({ tool_name: name, tool_use_id: str(c.id) })));
        break;
      }
      case 'toolResponse': {
        const res = unwrap(c.toolResult);
        const name = tools.get(str(c.id)) ?? '';
        const ids = { tool_name: name, tool_use_id: str(c.id) };
        const { text, isError } = res.ok ? resultText(res.value) : { text: res.error, isError: true };
        rows.push(makeRow('tool_result', isError ? `[error] ${text}` : text, f(ids)));
        if (text.startsWith(DECLINED)) rows.push(makeRow('system', `permission denied: ${name}`, f({ ...ids, tag: 'permission_decision' })));
        break;
      }
      case 'toolConfirmationRequest':
        rows.push(confirmation(c, f));
        break;
      case 'actionRequired': {
        const d = obj(c.data);
        if (d.actionType === 'toolConfirmation') rows.push(confirmation(d, f));
        else if (d.actionType === 'elicitation') rows.push(makeRow('system', `elicitation: ${str(d.message)}`, f({ tool_use_id: str(d.id) })));
        else if (d.actionType === 'elicitationResponse') rows.push(makeRow('user', `elicitation response: ${compactJson(d.user_data ?? null)}`, f({ tool_use_id: str(d.id) })));
        else ctx.unknown(`actionRequired ${str(d.actionType) || '(no actionType)'}`, m.line);
        break;
      }
      case 'thinking':
        if (ctx.options.includeThinking && str(c.thinking)) rows.push(makeRow('thinking', str(c.thinking), f()));
        break;
      case 'redactedThinking':
        if (ctx.options.includeThinking) rows.push(makeRow('thinking', '[redacted thinking]', f()));
        break;
      case 'systemNotification':
        rows.push(makeRow('system', `${str(c.notificationType) || 'notification'}: ${str(c.msg)}`, f()));
        break;
      case 'conversationCompacted':
        // Before goose 1.4: a marker the app itself drops on read.
        rows.push(makeRow('system', `context compacted${c.msg ? `: ${str(c.msg)}` : ''}`, f({ tag: 'compaction' })));
        break;
      default:
        ctx.unknown(`content ${type || '(no type)'}`, m.line);
    }
  }
  return rows;
}

function confirmation(c: JsonObject, f: (x?: Partial<Row>) => Partial<Row>): Row {
  const prompt = str(c.prompt) ? ` (${str(c.prompt)})` : '';
  return makeRow('system', `approval request: ${str(c.toolName ?? c.tool_name)} ${compactJson(c.arguments ?? {})}${prompt}`, f({ tool_name: str(c.toolName ?? c.tool_name), tool_use_id: str(c.id), tag: 'permission_request' }));
}
