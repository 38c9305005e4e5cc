/**
 * The rows of one Letta Code local-backend message (letta-ai/letta-code src/backend/local/
 * local-message.ts: pi-ai's user, assistant and toolResult messages plus an `id` and `metadata`).
 * A denied tool call is an ordinary error result whose text is the user's reason or
 * "Tool execution denied."; an interrupt's text is "Interrupted by user" (local-store.ts).
 */
import { compactJson } from '../../sdk/compact-json.js';
import { asArray, asString, isObject, type JsonObject } from '../../sdk/decode.js';
import { makeRow } from '../../sdk/row.js';
import type { ParseContext, Row } from '../../sdk/types.js';

const str = (v: unknown): string => asString(v) ?? '';
const obj = (v: unknown): JsonObject => (isObject(v) ? v : {});

/** What every row of a message carries: session, project, time, line. */
export type RowBase = Pick<Row, 'session_id' | 'project_path' | 'timestamp_utc' | 'source_line'> & { tag?: string };

/** The texts of a content value: a string, or text parts (images as `[image <type>]`). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  return (asArray(content) ?? [])
    .map((p) => {
      const o = obj(p);
      if (o.type === 'text') return str(o.text);
      if (o.type === 'image') return `[image ${str(o.mimeType) || str(obj(o.source).media_type)}]`.replace(' ]', ']');
      return typeof p === 'string' ? p : compactJson(p);
    })
    .filter((t) => t !== '')
    .join('\n');
}

function toolText(name: string, args: unknown): string {
  const a = obj(args);
  if (/^(?:bash|shell|run_shell_command)$/i.test(name) && typeof a.command === 'string') return a.command;
  return typeof args === 'string' ? args : compactJson(args ?? {});
}

const DENIED = 'Tool execution denied.';
const INTERRUPTED = 'Interrupted by user';

/** The rows of a message; `lastModel` carries the session's model so a change gives a `model` row. */
export function messageRows(m: JsonObject, base: RowBase, ctx: ParseContext, lastModel: { value: string }): Row[] {
  const role = str(m.role);
  if (role === 'user') return [makeRow('user', contentText(m.content), base)];
  if (role === 'toolResult') {
    const text = contentText(m.content);
    const ids = { tool_name: str(m.toolName), tool_use_id: str(m.toolCallId) };
    const rows = [makeRow('tool_result', m.isError === true ? `[error] ${text}` : text, { ...base, ...ids })];
    if (m.isError === true && text === DENIED) rows.push(makeRow('system', `permission decision: denied ${ids.tool_name}`, { ...base, ...ids, tag: 'permission_decision' }));
    if (m.isError === true && text === INTERRUPTED) rows.push(makeRow('system', `interrupted: ${ids.tool_name}`, { ...base, ...ids }));
    return rows;
  }
  if (role !== 'assistant') {
    ctx.unknown(`message role ${role || '(none)'}`, base.source_line ?? undefined);
    return [makeRow('system', `message: ${compactJson(m)}`, base)];
  }
  const rows: Row[] = [];
  const model = [str(m.provider), str(m.model)].filter(Boolean).join('/');
  if (model && model !== lastModel.value) {
    rows.push(makeRow('system', lastModel.value ? `model: ${lastModel.value} -> ${model}` : `model: ${model}`, { ...base, model, tag: 'model' }));
    lastModel.value = model;
  }
  const f = { ...base, model };
  for (const p of asArray(m.content) ?? []) {
    const o = obj(p);
    if (o.type === 'text') rows.push(makeRow('assistant', str(o.text), f));
    else if (o.type === 'thinking') {
      if (ctx.options.includeThinking) rows.push(makeRow('thinking', str(o.thinking), f));
    } else if (o.type === 'toolCall') rows.push(makeRow('tool_use', toolText(str(o.name), o.arguments), { ...f, tool_name: str(o.name), tool_use_id: str(o.id) }));
    else {
      ctx.unknown(`assistant content ${str(o.type) || typeof p}`, base.source_line ?? undefined);
      rows.push(makeRow('system', `assistant content: ${compactJson(p)}`, f));
    }
  }
  if (str(m.stopReason) === 'error' || str(m.stopReason) === 'aborted' || str(m.errorMessage)) rows.push(makeRow('system', `${str(m.stopReason) || 'error'}: ${str(m.errorMessage)}`.trimEnd(), f));
  return rows;
}
