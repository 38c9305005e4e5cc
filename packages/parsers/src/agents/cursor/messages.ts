import { asArray, asObject, asString, isObject } from '../../sdk/decode.js';
import { makeRow } from '../../sdk/row.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { ParseContext, Row } from '../../sdk/types.js';
import { splitUserText, toolResultText } from './text.js';
import { toolUseRow } from './tool-keys.js';

/** What every row of one message shares, and how unknown parts are reported. */
export interface MessageEnv {
  fields: Partial<Row>;
  ctx: ParseContext;
  /** Where unknown kinds are counted (`cli message`, `transcript`). */
  kindPrefix: string;
  line?: number;
  /** Called with the workspace path a `<user_info>` context names. */
  onWorkspace?: (path: string) => void;
}

/** The workspace path Cursor's `<user_info>` names ("The absolute path of the user's workspace is X."). */
export function workspaceOfContext(text: string): string {
  return /absolute path of the user's workspace is (.+?)\.?(?:\s+The user's|\n|<\/user_info>|$)/.exec(text)?.[1]?.trim() ?? '';
}

function userRows(text: string, env: MessageEnv): Row[] {
  const u = splitUserText(text);
  const rows: Row[] = [];
  const ts = toUtc(u.timestamp);
  const fields = ts ? { ...env.fields, timestamp_utc: ts, tag: undefined } : env.fields;
  if (u.context) {
    const ws = workspaceOfContext(u.context);
    if (ws) env.onWorkspace?.(ws);
    rows.push(makeRow('system', `user context: ${u.context}`, { ...fields, tag: 'user_context' }));
  }
  if (u.prompt !== '') rows.push(makeRow('user', u.prompt, fields));
  return rows;
}

/** The text of a content list's text parts, joined; a string content as it is. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  return (asArray(content) ?? [])
    .map((p) => asObject(p))
    .filter((p) => p && p.type === 'text')
    .map((p) => asString(p!.text) ?? '')
    .join('\n');
}

function partRows(role: string, part: unknown, env: MessageEnv): Row[] {
  const p = asObject(part);
  if (!p) return [];
  const type = asString(p.type) ?? '';
  const f = env.fields;
  switch (type) {
    case 'text': {
      const t = asString(p.text) ?? '';
      if (role === 'user') return userRows(t, env);
      return t ? [makeRow(role === 'system' ? 'system' : 'assistant', role === 'system' ? `system prompt: ${t}` : t, role === 'system' ? { ...f, tag: 'system_prompt' } : f)] : [];
    }
    case 'reasoning':
    case 'thinking': {
      const t = asString(p.text) ?? asString(p.thinking) ?? '';
      return env.ctx.options.includeThinking && t ? [makeRow('thinking', t, f)] : [];
    }
    case 'tool-call':
    case 'tool_use': {
      const name = asString(p.toolName) ?? asString(p.name) ?? '';
      const args = p.args ?? p.input;
      return [toolUseRow(name, args, { ...f, tool_use_id: asString(p.toolCallId) ?? asString(p.id) ?? '' })];
    }
    case 'tool-result':
    case 'tool_result': {
      const name = asString(p.toolName) ?? asString(p.name) ?? '';
      const result = p.result ?? p.output ?? (p.content !== undefined ? contentTextOrValue(p.content) : undefined);
      return [makeRow('tool_result', toolResultText(name, result), { ...f, tool_name: name, tool_use_id: asString(p.toolCallId) ?? asString(p.tool_use_id) ?? '' })];
    }
    case 'image':
    case 'file':
      return [makeRow('system', `${role} attached ${type}${asString(p.mimeType) ? ` (${asString(p.mimeType)})` : ''}`, { ...f, tag: 'attachment' })];
    default:
      env.ctx.unknown(`${env.kindPrefix} part ${type || '(none)'}`, env.line);
      return [];
  }
}

function contentTextOrValue(v: unknown): unknown {
  return typeof v === 'string' ? v : Array.isArray(v) && v.every((x) => isObject(x) && x.type === 'text') ? contentText(v) : v;
}

/**
 * The rows of one `{role, content}` message, in either spelling Cursor writes (the CLI store's
 * AI-SDK parts `tool-call`/`tool-result`/`reasoning`, the transcripts' `tool_use`/`tool_result`):
 * a user message's query as a user row and its wrappers as `user context:`; a system message as
 * `system prompt:`; text, thinking, tool calls and results as their rows. Unknown roles and parts
 * are counted through `ctx.unknown`.
 */
export function messageRows(role: string, content: unknown, env: MessageEnv): Row[] {
  if (!['user', 'assistant', 'system', 'tool'].includes(role)) {
    env.ctx.unknown(`${env.kindPrefix} role ${role || '(none)'}`, env.line);
    return [];
  }
  if (typeof content === 'string') {
    if (role === 'user') return userRows(content, env);
    if (role === 'system') return [makeRow('system', `system prompt: ${content}`, { ...env.fields, tag: 'system_prompt' })];
    if (role === 'tool') return [makeRow('tool_result', content, env.fields)];
    return content ? [makeRow('assistant', content, env.fields)] : [];
  }
  const parts = asArray(content);
  if (!parts) {
    if (content !== undefined && content !== null) env.ctx.unknown(`${env.kindPrefix} content ${typeof content}`, env.line);
    return [];
  }
  return parts.flatMap((p) => partRows(role, p, env));
}
