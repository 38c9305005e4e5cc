/** The drafts one UI message gives, by its kind (ui-kinds.ts); the caller decides tool coverage. */
import { asArray, asNumber, asObject, asString, type JsonObject } from '../../sdk/decode.js';
import { compactJson } from '../../sdk/compact-json.js';
import type { Draft } from './task-state.js';

// Cline appends this flag to a command the model marked as needing approval (COMMAND_REQ_APP_STRING).
const REQ_APP = /REQ_APP$/;

/** The tool a UI tool row shows: its name and row text. */
export function uiTool(kind: string, text: string): { name: string; text: string } {
  const o = asObject(text);
  switch (kind) {
    case 'command':
      return { name: 'execute_command', text: text.replace(REQ_APP, '') };
    case 'tool': {
      // ClineSayTool {tool: readFile|editedExistingFile|..., path, content, diff, regex, ...}.
      return { name: asString(o?.tool) ?? 'tool', text: o ? compactJson(o) : text };
    }
    case 'use_mcp_server': {
      // ClineAskUseMcpServer {serverName, type: use_mcp_tool|access_mcp_resource, toolName, arguments, uri}.
      const parts = [asString(o?.serverName), asString(o?.toolName) ?? asString(o?.uri), asString(o?.arguments)].filter((x) => x);
      return { name: asString(o?.type) ?? 'use_mcp_tool', text: o ? parts.join(' ') : text };
    }
    case 'browser_action_launch':
      return { name: 'browser_action', text: `launch ${text}` };
    case 'browser_action':
      return { name: 'browser_action', text: o ? compactJson(o) : text };
    case 'new_task':
      return { name: 'new_task', text: asString(o?.context) ?? text };
    case 'use_subagents':
      return { name: 'use_subagents', text: (asArray(o?.prompts) ?? []).map((p) => asString(p) ?? '').join('\n') || text };
    default:
      return { name: kind, text };
  }
}

/** The tool whose output a UI output row shows. */
export function uiOutputTool(kind: string): string {
  return ({ command_output: 'execute_command', mcp_server_response: 'use_mcp_tool', browser_action_result: 'browser_action', codebase_search_result: 'codebase_search' } as Record<string, string>)[kind] ?? kind;
}

/** Text of a user row: the text, then one marker per attached image and file. */
export function userText(v: JsonObject): string {
  const parts = [asString(v.text) ?? ''];
  for (const _ of asArray(v.images) ?? []) parts.push('[image]');
  for (const f of asArray(v.files) ?? []) parts.push(`[file: ${asString(f) ?? ''}]`);
  return parts.filter((p) => p !== '').join('\n');
}

/** A question or plan (`followup`, `plan_mode_respond`): {question|response, options} as text. */
export function questionText(text: string): string {
  const o = asObject(text);
  if (!o) return text;
  const body = asString(o.question) ?? asString(o.response) ?? asString(o.text) ?? '';
  const options = (asArray(o.options) ?? []).map((x) => asString(x) ?? '').filter((x) => x);
  const selected = asString(o.selected);
  return [body, ...options.map((x) => `- ${x}`), ...(selected ? [`selected: ${selected}`] : [])].filter((x) => x).join('\n');
}

/** The system row of an `api_req_started`: tokens, cost and how it ended (the request text is not repeated). */
export function apiRequestText(info: JsonObject | undefined): string {
  if (!info) return 'api request';
  const parts: string[] = [];
  for (const k of ['tokensIn', 'tokensOut', 'cacheWrites', 'cacheReads', 'cost']) {
    const n = asNumber(info[k]);
    if (n !== undefined) parts.push(`${k}=${n}`);
  }
  const cancel = asString(info.cancelReason);
  if (cancel) parts.push(`cancelled=${cancel}`);
  const failed = asString(info.streamingFailedMessage);
  if (failed) parts.push(`failed: ${failed}`);
  const protocol = asString(info.apiProtocol);
  if (protocol) parts.push(`protocol=${protocol}`);
  return `api request${parts.length ? `: ${parts.join(' ')}` : ''}`;
}

/** Roo's condensed-context row: {summary, prevContextTokens, newContextTokens, cost}. */
export function condenseText(v: JsonObject): string {
  const c = asObject(v.contextCondense) ?? {};
  const prev = asNumber(c.prevContextTokens);
  const next = asNumber(c.newContextTokens);
  const tokens = prev !== undefined && next !== undefined ? ` (${prev} → ${next} tokens)` : '';
  return `context condensed${tokens}: ${asString(c.summary) ?? asString(v.text) ?? ''}`.trimEnd();
}

/** The text of a row kind that only needs its kind and text. */
export function noticeDraft(kind: string, text: string, ts: unknown, tag?: string): Draft {
  return { turn: 'system', text: text ? `${kind}: ${text}` : kind, ts, ...(tag ? { tag } : {}) };
}
