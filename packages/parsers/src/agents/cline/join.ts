/**
 * How a task's two logs share the work, so each event gives one row, never two. ui_messages.json
 * times every row and holds what the user saw (prompts, replies, reasoning, approvals, errors);
 * api_conversation_history.json holds the tool calls with their ids and full results. Each UI row
 * carries `conversationHistoryIndex` j = the API history's length - 1 when it was written
 * (Cline Task.say/ask), so:
 *
 * - API message k is *joined* when the UI log exists and reaches it (some UI row has j >= k - 1).
 *   A joined message gives only its action tool calls and their results (with ids); its text,
 *   reasoning and interaction tools (attempt_completion, ask_followup_question...) are the UI's.
 * - A UI tool row (say tool, command, use_mcp_server, ...) belongs to the assistant message being
 *   built (k = j + 1) or, when the reply was saved before the tool ran (a command waits for its
 *   output; real 3.51 logs show both), to the one just saved (k = j): the assistant message among
 *   j + 1, j. It is *covered* when that message holds at least as many action tool calls as the
 *   row's rank among that message's UI tool rows; a covered UI tool row and its output give no
 *   row (the API's give them, with ids).
 * - Each API tool call takes the time of the UI tool row of the same rank; a result, the time of
 *   the request that carried it (`api_req_started` of j = k - 1).
 *
 * Builds without the index (before Cline 3.x) have no j: then the ranks run over the whole file.
 * Each parser indexes the API history (roles, action counts) and the other log in streaming
 * passes that keep a few numbers per message.
 */
import { asNumber, asString, isObject } from '../../sdk/decode.js';
import { readJsonArray } from '../../sdk/json-stream.js';
import type { Artifact } from '../../sdk/types.js';
import { INTERACTION_TOOLS, uiKind } from './ui-kinds.js';

/** The API history's shape: what the joins need of it. */
export interface ApiIndex {
  /** Complete messages read (a cut file ends early). */
  count: number;
  /** Action tool calls per message index. */
  actions: number[];
  /** Each message's role (`user`, `assistant`, '' for other items). */
  roles: string[];
  /** All action tool calls (for UI logs without indexes). */
  totalActions: number;
}

/** Times of one UI group (the rows of one conversationHistoryIndex). */
export interface UiGroup {
  /** The first row's time (epoch ms). */
  first: number;
  /** The `api_req_started` time, when the group has one. */
  request?: number;
}

/** What the API parser needs of the UI log. */
export interface UiIndex {
  groups: Map<number, UiGroup>;
  /** The largest index seen; -Infinity when no row has one. */
  maxIndex: number;
  /** Every tool row: its index (when it has one) and time, in order. */
  tools: { j?: number; ts: number }[];
  /** Rows read. */
  rows: number;
}

/**
 * The assistant message a UI tool row of index j belongs to (j + 1, else j), or undefined. Items
 * without a role (Roo's reasoning items, saved before their reply) are stepped over.
 */
export function toolTarget(roles: readonly string[], j: number): number | undefined {
  let k = j + 1;
  while (k < roles.length && roles[k] === '') k++;
  if (roles[k] === 'assistant') return k;
  if (roles[j] === 'assistant') return j;
  return undefined;
}

/** The UI tool rows' times per assistant message (k → times in order); `global` for logs without indexes. */
export function toolTimes(ui: UiIndex, api: ApiIndex): { byMessage: Map<number, number[]>; global: number[] } {
  const byMessage = new Map<number, number[]>();
  const global: number[] = [];
  for (const t of ui.tools) {
    if (t.j === undefined) {
      global.push(t.ts);
      continue;
    }
    const k = toolTarget(api.roles, t.j);
    if (k === undefined) continue;
    const list = byMessage.get(k) ?? [];
    list.push(t.ts);
    byMessage.set(k, list);
  }
  return { byMessage, global };
}

/** True for an API tool_use block that is an action (not a reply, question or plan). */
export function isActionTool(b: unknown): boolean {
  return isObject(b) && b.type === 'tool_use' && !INTERACTION_TOOLS.has(asString(b.name) ?? '');
}

/** Index the API history next to a UI log. */
export async function indexApi(a: Artifact): Promise<ApiIndex> {
  const idx: ApiIndex = { count: 0, actions: [], roles: [], totalActions: 0 };
  for await (const ev of readJsonArray(a.stream(), [])) {
    if (ev.kind !== 'item' && ev.kind !== 'bad') continue;
    const v = ev.kind === 'item' && isObject(ev.value) ? ev.value : undefined;
    const n = v && Array.isArray(v.content) ? v.content.filter(isActionTool).length : 0;
    idx.actions[ev.index] = n;
    idx.roles[ev.index] = asString(v?.role) ?? '';
    idx.totalActions += n;
    idx.count = ev.index + 1;
  }
  return idx;
}

/** True for a UI row that shows a tool call. */
export function isUiTool(v: Record<string, unknown>): boolean {
  const type = asString(v.type) ?? '';
  return uiKind(type, asString(type === 'ask' ? v.ask : v.say) ?? '') === 'tool';
}

/** The conversationHistoryIndex of a UI row, when it has one. */
export function historyIndex(v: Record<string, unknown>): number | undefined {
  const n = asNumber(v.conversationHistoryIndex);
  return n !== undefined && Number.isInteger(n) ? n : undefined;
}

/** Index the UI log next to an API history. */
export async function indexUi(a: Artifact): Promise<UiIndex> {
  const idx: UiIndex = { groups: new Map(), maxIndex: Number.NEGATIVE_INFINITY, tools: [], rows: 0 };
  for await (const ev of readJsonArray(a.stream(), [])) {
    if (ev.kind !== 'item' || !isObject(ev.value)) continue;
    idx.rows++;
    const v = ev.value;
    const ts = asNumber(v.ts) ?? Number.NaN;
    const j = historyIndex(v);
    if (isUiTool(v)) idx.tools.push(j === undefined ? { ts } : { j, ts });
    if (j === undefined) continue;
    if (j > idx.maxIndex) idx.maxIndex = j;
    let g = idx.groups.get(j);
    if (!g) {
      g = { first: ts };
      idx.groups.set(j, g);
    }
    if (v.say === 'api_req_started' && g.request === undefined) g.request = ts;
  }
  return idx;
}

/** The API history beside a UI log (or the UI log beside an API history). */
export function siblingOf(a: Artifact, names: readonly string[]): Artifact | undefined {
  for (const n of names) {
    const s = a.sibling(n);
    if (s) return s;
  }
  return undefined;
}

/** The API history's file names, newest first. */
export const API_NAMES = ['api_conversation_history.json', 'claude_messages.json'] as const;
/** The UI log's file name. */
export const UI_NAMES = ['ui_messages.json'] as const;
