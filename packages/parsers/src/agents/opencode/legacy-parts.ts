import { compactJson } from '../../sdk/compact-json.js';
import { asString, isObject, type JsonObject } from '../../sdk/decode.js';
import { makeRow } from '../../sdk/row.js';
import type { ParseContext, Row } from '../../sdk/types.js';
import type { MessageInfo } from './message-info.js';
import { type PartBase, partRows } from './parts.js';

const str = (v: unknown): string => asString(v) ?? '';

/**
 * A part kept inside a message of the oldest layout (AI SDK UI message parts; inferred, no such
 * file was seen): `tool-invocation` {toolInvocation: {state, toolCallId, toolName, args, result}}
 * gives tool_use and, once `state` is `result`, tool_result; `source-url` nothing; the rest is
 * read as a current part.
 */
export function legacyPartRows(p: JsonObject, msg: MessageInfo, base: PartBase, ctx: ParseContext): Row[] {
  if (p.type === 'source-url') return [];
  if (p.type !== 'tool-invocation') return partRows(p, msg, base, ctx);
  const t = isObject(p.toolInvocation) ? p.toolInvocation : {};
  const ids = { ...base, timestamp_utc: msg.created, tool_name: str(t.toolName), tool_use_id: str(t.toolCallId) };
  const args = t.args;
  const input = isObject(args) && typeof args.command === 'string' && ids.tool_name === 'bash' ? args.command : compactJson(args ?? {});
  const rows = [makeRow('tool_use', input, { ...ids, model: msg.model })];
  if (t.state === 'result') rows.push(makeRow('tool_result', typeof t.result === 'string' ? t.result : compactJson(t.result ?? null), ids));
  return rows;
}
