/**
 * A message of Zed's first agent (zed crates/agent/src/legacy_thread.rs: documents of version
 * 0.2.0, 0.1.0 or none), kept in the same threads.db as the newer ones: `{id, role, segments
 * [{type: text|thinking|RedactedThinking}], tool_uses, tool_results, context}`, or `{role, text}`
 * in the unversioned form. Zed upgrades them on load and drops system messages; the rows keep them.
 */
import { compactJson } from '../../sdk/compact-json.js';
import { asArray, asString, isObject, type JsonObject } from '../../sdk/decode.js';
import type { ParseContext, Row } from '../../sdk/types.js';
import { toolResultText, toolUseText } from './content.js';
import type { RowMaker } from './thread-rows.js';

const str = (v: unknown): string => asString(v) ?? '';
const obj = (v: unknown): JsonObject => (isObject(v) ? v : {});

/** The rows of one legacy message; `toolNames` carries tool names from the calls to results (0.1.0 put results on the next user message). */
export function legacyMessageRows(m: JsonObject, index: number, row: RowMaker, ctx: ParseContext, toolNames: Map<string, string>): Row[] {
  const role = str(m.role);
  const texts: string[] = typeof m.text === 'string' ? [m.text] : [];
  const rows: Row[] = [];
  for (const s of asArray(m.segments) ?? []) {
    const o = obj(s);
    if (o.type === 'text') texts.push(str(o.text));
    else if (o.type === 'thinking') {
      if (ctx.options.includeThinking) rows.push(row('thinking', str(o.text), index));
    } else if (o.type !== 'RedactedThinking') ctx.unknown(`segment ${str(o.type) || typeof s}`, index);
  }
  const text = texts.filter((t) => t !== '').join('\n');
  if (role === 'user') {
    if (text !== '') rows.unshift(row('user', text, index));
  }
  else if (role === 'assistant') {
    if (text !== '') rows.push(row('assistant', text, index));
  } else {
    if (role !== 'system') ctx.unknown(`role ${role}`, index);
    rows.push(row('system', `${role} message: ${text}`, index));
  }
  if (str(m.context) !== '') rows.push(row('system', `context: ${str(m.context)}`, index, { tag: 'context' }));
  for (const u of asArray(m.tool_uses) ?? []) {
    const o = obj(u);
    toolNames.set(str(o.id), str(o.name));
    rows.push(row('tool_use', toolUseText(str(o.name), o.input), index, { tool_name: str(o.name), tool_use_id: str(o.id) }));
  }
  for (const r of asArray(m.tool_results) ?? []) {
    const o = obj(r);
    const id = str(o.tool_use_id);
    rows.push(row('tool_result', toolResultText(o), index, { tool_name: toolNames.get(id) ?? '', tool_use_id: id, model: '' }));
  }
  if (rows.length === 0) rows.push(row('system', `${role} message with nothing to show: ${compactJson(m).slice(0, 200)}`, index));
  return rows;
}
