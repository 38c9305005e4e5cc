/**
 * `tasks/<id>/api_conversation_history.json` (`claude_messages.json` before Cline 2.x): the
 * conversation as sent to the model, an array of Anthropic messages `{role, content, ts?,
 * modelInfo?, metrics?}` (Roo adds `{type: "reasoning"}` items and condense markers). With the
 * UI log beside it, only its action tool calls and results give rows, timed from the UI log
 * (join.ts); alone, it gives everything, timed by its own `ts` or the task's start.
 */
import { asObject, asString, isObject, type JsonObject } from '../../sdk/decode.js';
import { readJsonArray } from '../../sdk/json-stream.js';
import { makeRow, unreadableRow } from '../../sdk/row.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { Artifact, ParseContext, Row } from '../../sdk/types.js';
import { contentText, cwdIn, decisionIn, isSyntheticUserText, resultText, toolInputText, unwrapUserText } from './content.js';
import { type ApiIndex, indexApi, indexUi, isActionTool, siblingOf, toolTimes, UI_NAMES, type UiIndex } from './join.js';

const EMPTY_API: ApiIndex = { count: 0, actions: [], roles: [], totalActions: 0 };
import { type Draft, TaskState, taskIdTime } from './task-state.js';
import type { ParseHooks } from './ui-parser.js';
import { INTERACTION_TOOLS } from './ui-kinds.js';
import { pushAll } from '../../sdk/push-all.js';

class ApiRun {
  readonly names = new Map<string, string>();
  /** Ids of tool calls not yet answered, by tool name (XML-era results name the tool, not the id). */
  readonly open = new Map<string, string[]>();
  globalRank = 0;
  lastToolTs: unknown = undefined;

  readonly tools: { byMessage: Map<number, number[]>; global: number[] };

  constructor(
    readonly st: TaskState,
    readonly ui: UiIndex | undefined,
    api: ApiIndex,
    readonly start: string,
    readonly mtime: string,
  ) {
    this.tools = ui ? toolTimes(ui, api) : { byMessage: new Map(), global: [] };
  }

  get uiPresent(): boolean {
    return !!this.ui && this.ui.rows > 0;
  }

  joined(k: number): boolean {
    if (!this.uiPresent) return false;
    return this.ui!.maxIndex === Number.NEGATIVE_INFINITY || k - 1 <= this.ui!.maxIndex;
  }

  /** A time for message k's rows: its own, else the UI's, else the task start (tagged). */
  when(m: JsonObject, k: number, pick: 'first' | 'request' | number): { ts: unknown; tag?: string } {
    if (m.ts !== undefined && m.ts !== null) return { ts: m.ts };
    const g = this.ui?.groups.get(k - 1);
    let ts: unknown;
    if (typeof pick === 'number') ts = this.ui?.maxIndex === Number.NEGATIVE_INFINITY ? this.tools.global[this.globalRank - 1] : (this.tools.byMessage.get(k)?.[pick] ?? g?.first);
    else if (g) ts = pick === 'first' ? g.first : (g.request ?? g.first);
    else if (pick === 'request' && this.lastToolTs !== undefined) ts = this.lastToolTs;
    if (typeof ts === 'number' && Number.isFinite(ts)) return { ts };
    if (this.start) return { ts: this.start, tag: 'time_session' };
    return { ts: this.mtime, tag: 'time_file' };
  }
}

/** Parse a task's API history into rows. */
export async function* parseApiHistory(a: Artifact, ctx: ParseContext, taskId: string, hooks: ParseHooks = {}): AsyncGenerator<Row> {
  const uiFile = siblingOf(a, UI_NAMES);
  const ui = uiFile ? await indexUi(uiFile) : undefined;
  const run = new ApiRun(new TaskState(ctx, taskId), ui, ui ? await indexApi(a) : EMPTY_API, taskIdTime(taskId), a.mtime);
  for await (const ev of readJsonArray(a.stream(), [])) {
    if (ev.kind === 'item') {
      const line = ev.index + 1;
      if (!isObject(ev.value)) {
        yield run.st.row({ turn: 'system', text: `parser: unparseable api message ${line} (not a JSON object)`, tag: 'bad_line' }, line);
        continue;
      }
      const out = messageDrafts(run, ev.value, ev.index);
      if (out.length === 0) hooks.onSkip?.(line, run.joined(ev.index) ? 'joined: its text, reasoning and interaction tools are the UI log\'s' : 'no content');
      for (const d of out) yield run.st.row(d, line);
    } else if (ev.kind === 'bad') {
      yield run.st.row({ turn: 'system', text: `parser: unparseable api message ${ev.index + 1} (${ev.reason}): ${ev.preview}`, tag: 'bad_line' }, ev.index + 1);
    } else if (ev.kind === 'end') {
      if (!ev.found) yield unreadableRow(`expected a JSON array of API messages, found ${ev.reason ?? 'another JSON value'}`, { session_id: taskId, timestamp_utc: a.mtime });
      else if (!ev.complete) yield makeRow('system', `parser: unparseable api history (${ev.reason ?? 'incomplete document'}); ${ev.items} messages read`, { session_id: taskId, timestamp_utc: run.st.lastTs, tag: 'bad_line' });
    }
  }
}

function messageDrafts(run: ApiRun, m: JsonObject, k: number): Draft[] {
  const st = run.st;
  const role = asString(m.role) ?? '';
  const joined = run.joined(k);
  const first = run.when(m, k, 'first');
  const out: Draft[] = joined ? [] : st.modelInfo(m.modelInfo, first.ts);
  // Roo: a reasoning item of the Responses API, no role ({type: "reasoning", summary, encrypted_content}).
  if (!role && m.type === 'reasoning') {
    const text = contentText(m.summary) || asString(m.text) || '';
    if (!joined && text && st.ctx.options.includeThinking) out.push({ turn: 'thinking', text, ...first });
    return out;
  }
  if (role !== 'user' && role !== 'assistant') {
    st.ctx.unknown(`message role ${role || '(none)'}`, k + 1);
    out.push({ turn: 'system', text: `message ${role || '(no role)'}: ${contentText(m.content)}`.trimEnd(), tag: 'unknown', ...first });
    return out;
  }
  // Roo's condense summary: a message standing for the ones it replaced (kept in the file, hidden).
  if (m.isSummary === true) {
    if (!joined) out.push({ turn: 'system', text: `context condensed: ${contentText(m.content)}`, tag: 'compaction', ...first });
    return out;
  }
  const blocks = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : Array.isArray(m.content) ? m.content : [];
  // A result answers the assistant message just before it: calls left open earlier were never run.
  if (role === 'assistant') run.open.clear();
  let rank = 0;
  for (const b of blocks) {
    if (!isObject(b)) continue;
    const type = asString(b.type) ?? '';
    if (role === 'assistant') pushAll(out, assistantBlock(run, m, b, type, joined, k, isActionTool(b) ? rank++ : -1));
    else pushAll(out, userBlock(run, m, b, type, joined, k));
  }
  return out;
}

function assistantBlock(run: ApiRun, m: JsonObject, b: JsonObject, type: string, joined: boolean, k: number, rank: number): Draft[] {
  const st = run.st;
  if (type === 'text') {
    const text = asString(b.text) ?? '';
    // Cline marks a reply cut short ("[Response interrupted by user]", "... by API Error"); the UI log has no row for it.
    const cut = /^\s*\[Response interrupted by ([^\]]+)\]\s*$/.exec(text);
    if (cut) return [{ turn: 'system', text: `response interrupted by ${cut[1]}`, tag: 'interrupted', ...run.when(m, k, 'first') }];
    return joined || !text ? [] : [{ turn: 'assistant', text, ...run.when(m, k, 'first') }];
  }
  if (type === 'thinking' || type === 'redacted_thinking' || type === 'reasoning') {
    const text = asString(b.thinking) ?? asString(b.text) ?? (type === 'redacted_thinking' ? '[redacted thinking]' : '');
    return joined || !text || !st.ctx.options.includeThinking ? [] : [{ turn: 'thinking', text, ...run.when(m, k, 'first') }];
  }
  if (type !== 'tool_use') {
    st.ctx.unknown(`assistant block ${type || '(no type)'}`, k + 1);
    return joined ? [] : [{ turn: 'system', text: `assistant block ${type || '(no type)'}: ${contentText([b])}`, tag: 'unknown', ...run.when(m, k, 'first') }];
  }
  const name = asString(b.name) ?? '';
  const id = asString(b.id) ?? '';
  run.names.set(id, name);
  const list = run.open.get(name) ?? [];
  list.push(id);
  run.open.set(name, list);
  if (rank < 0) {
    // An interaction tool: the UI row is the evidence when there is one.
    if (joined) return [];
    const input = asObject(b.input) ?? {};
    const said = asString(input.result) ?? asString(input.question) ?? asString(input.response);
    return [said !== undefined ? { turn: 'assistant', text: said, tag: name === 'attempt_completion' ? 'completion' : 'question', ...run.when(m, k, 'first') } : { turn: 'tool_use', text: toolInputText(b.input), tool_name: name, tool_use_id: id, ...run.when(m, k, 'first') }];
  }
  run.globalRank++;
  const when = run.when(m, k, rank);
  run.lastToolTs = when.ts;
  return [{ turn: 'tool_use', text: toolInputText(b.input), tool_name: name, tool_use_id: id, ...when }];
}

function userBlock(run: ApiRun, m: JsonObject, b: JsonObject, type: string, joined: boolean, k: number): Draft[] {
  const st = run.st;
  if (type === 'tool_result') {
    const id = asString(b.tool_use_id) ?? '';
    const name = run.names.get(id) ?? asString(b.name) ?? '';
    return toolResult(run, m, k, joined, name, id, contentText(b.content), b.is_error === true);
  }
  if (type === 'text') {
    const text = asString(b.text) ?? '';
    const r = resultText(text);
    if (r) {
      const ids = run.open.get(r.tool);
      return toolResult(run, m, k, joined, r.tool, ids?.shift() ?? '', r.body, false);
    }
    const cwd = cwdIn(text);
    const when = run.when(m, k, 'request');
    if (cwd && !joined) st.ctx.fact({ session_id: st.sessionId, key: 'cwd', value: cwd, priority: 1, ...(when.tag ? {} : { at: toUtc(when.ts) }) });
    if (joined || isSyntheticUserText(text)) return [];
    const typed = unwrapUserText(text);
    return typed ? [{ turn: 'user', text: typed, ...when }] : [];
  }
  if (type === 'image') return joined ? [] : [{ turn: 'user', text: '[image]', ...run.when(m, k, 'request') }];
  st.ctx.unknown(`user block ${type || '(no type)'}`, k + 1);
  return joined ? [] : [{ turn: 'system', text: `user block ${type || '(no type)'}: ${contentText([b])}`, tag: 'unknown', ...run.when(m, k, 'request') }];
}

function toolResult(run: ApiRun, m: JsonObject, k: number, joined: boolean, name: string, id: string, body: string, isError: boolean): Draft[] {
  if (joined && INTERACTION_TOOLS.has(name)) return [];
  const when = run.when(m, k, 'request');
  const out: Draft[] = [{ turn: 'tool_result', text: isError ? `[error] ${body}` : body, tool_name: name, tool_use_id: id, ...when }];
  // With the UI log present, decisions come from its requests (ui-parser.ts): one row each.
  const d = run.uiPresent ? undefined : decisionIn(body);
  if (d) out.push({ turn: 'system', text: `${d.decision}: ${name}${d.feedback ? `\nfeedback: ${d.feedback}` : ''}`, tool_name: name, tool_use_id: id, tag: 'permission_decision', ...when });
  return out;
}
