/**
 * `.continue/sessions/<id>.json`: one Session `{sessionId, title, workspaceDirectory, history[],
 * mode, chatModelTitle, usage}` (core/index.d.ts), rewritten whole, with no time per message.
 * Streamed twice with readJsonArray: pass 1 for the members and what the joins need (reply
 * digests, tool call ids), pass 2 for the rows. Times come from the dev data (dev-data.ts): a reply
 * takes its chatInteraction line's time (matched by the completion's text, in order), the prompt
 * before it that exchange's time (tag `time_exchange`), a tool call and its result their toolUsage
 * line's; reasoning has its own `startAt`. Anything else takes the session's creation time from
 * sessions.json (tag `time_session`) or the file's mtime (tag `time_file`): never an invented time.
 */
import { asArray, asObject, asString, isObject, type JsonObject } from '../../sdk/decode.js';
import { readJsonArray } from '../../sdk/json-stream.js';
import { makeRow } from '../../sdk/row.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { Artifact, ParseContext, Row } from '../../sdk/types.js';
import { decisionText, type Interaction, loadInteractions, loadToolUses, type ToolUse } from './dev-data.js';
import { readIndex, sessionRowText } from './index-parser.js';
import { uriPath } from './paths.js';
import { contextItemsText, digest, messageText, toolArgsText } from './text.js';

interface Pass1 {
  meta: JsonObject;
  /** Per history index: the reply digest of an assistant item. */
  replies: Map<number, string>;
  /** Every tool call id the session names. */
  toolIds: Set<string>;
  /** Tool call ids answered by a `tool` message (their toolCallStates output is not a second result). */
  answered: Set<string>;
  items: number;
}

async function pass1(a: Artifact): Promise<Pass1> {
  const p: Pass1 = { meta: {}, replies: new Map(), toolIds: new Set(), answered: new Set(), items: 0 };
  for await (const ev of readJsonArray(a.stream(), ['history'])) {
    if (ev.kind === 'field' && ev.path.length === 1) p.meta[ev.path[0]] = ev.value;
    if (ev.kind !== 'item') continue;
    p.items = ev.index + 1;
    const item = asObject(ev.value);
    const m = asObject(item?.message);
    if (!m) continue;
    if (m.role === 'assistant') p.replies.set(ev.index, digest(messageText(m.content)));
    if (m.role === 'tool' && typeof m.toolCallId === 'string') p.answered.add(m.toolCallId);
    for (const c of asArray(m.toolCalls) ?? []) if (typeof asObject(c)?.id === 'string') p.toolIds.add(asObject(c)!.id as string);
    for (const s of asArray(item?.toolCallStates) ?? []) if (typeof asObject(s)?.toolCallId === 'string') p.toolIds.add(asObject(s)!.toolCallId as string);
  }
  return p;
}

/** Reply index → its chat request: by completion text in order; all in order when no text matches and the counts agree. */
function matchReplies(replies: Map<number, string>, lines: Interaction[]): Map<number, Interaction> {
  const out = new Map<number, Interaction>();
  let next = 0;
  for (const [i, hash] of replies) {
    for (let q = next; q < lines.length; q++) {
      if (lines[q].hash === hash) {
        out.set(i, lines[q]);
        next = q + 1;
        break;
      }
    }
  }
  if (out.size === 0 && lines.length === replies.size) {
    let n = 0;
    for (const i of replies.keys()) out.set(i, lines[n++]);
  }
  return out;
}

/** Parse a Continue session into rows. */
export async function* parseSession(a: Artifact, ctx: ParseContext, fileId: string): AsyncGenerator<Row> {
  const p = await pass1(a);
  const sessionId = asString(p.meta.sessionId) ?? fileId;
  const index = await readIndex(a.sibling('sessions.json'));
  const entry = index.get(sessionId);
  const created = toUtc(entry?.dateCreated);
  const fallback = created ? { ts: created, tag: 'time_session' } : { ts: a.mtime, tag: 'time_file' };
  const matched = matchReplies(p.replies, await loadInteractions(a, sessionId));
  const tools = await loadToolUses(a, p.toolIds);
  const workspace = asString(p.meta.workspaceDirectory);
  if (workspace) ctx.fact({ session_id: sessionId, key: 'cwd', value: uriPath(workspace), priority: 1 });
  const title = asString(p.meta.title);
  if (title) ctx.fact({ session_id: sessionId, key: 'name', value: title, priority: 1 });
  const base = { session_id: sessionId };
  const row = (turn: Row['turn_type'], text: string, line: number | null, t: { ts: string; tag?: string }, extra: Partial<Row> = {}) =>
    makeRow(turn, text, { ...base, timestamp_utc: t.ts, source_line: line, ...extra, ...(t.tag && !extra.tag ? { tag: t.tag } : {}) });
  // The session's own row: the same text and time as sessions.json gives (index-parser.ts), so one copy stays.
  if (title !== undefined) yield row('system', sessionRowText(title), null, created ? { ts: created } : fallback, { tag: 'session_metadata' });
  const mode = asString(p.meta.mode);
  if (mode) yield row('system', `mode: ${mode}`, null, fallback, { tag: 'permission_mode' });
  let model = asString(p.meta.chatModelTitle) ?? '';
  const names = new Map<string, string>();
  // The exchange a prompt started: the time of the next matched reply before the next prompt.
  const exchanges = exchangeTimes(p, matched);
  for await (const ev of readJsonArray(a.stream(), ['history'])) {
    if (ev.kind === 'bad') {
      yield makeRow('system', `parser: unparseable history item ${ev.index + 1} (${ev.reason}): ${ev.preview}`, { ...base, source_line: ev.index + 1, tag: 'bad_line' });
      continue;
    }
    if (ev.kind === 'end' && !ev.complete) {
      yield makeRow('system', `parser: unparseable session file (${ev.reason ?? 'incomplete document'}); ${ev.items} history items read`, { ...base, timestamp_utc: a.mtime, tag: 'bad_line' });
      continue;
    }
    // A whole document with no history array (a bare array, a string): nothing of a session in it.
    if (ev.kind === 'end' && ev.complete && !ev.found && Object.keys(p.meta).length === 0) {
      yield makeRow('system', 'parser: unreadable file (expected a session object {"history": [...]}, found no history array)', { ...base, timestamp_utc: a.mtime, tag: 'unreadable' });
      continue;
    }
    if (ev.kind !== 'item') continue;
    const line = ev.index + 1;
    const item = asObject(ev.value);
    const m = asObject(item?.message);
    if (!item || !m) {
      yield makeRow('system', `parser: unparseable history item ${line} (expected {message})`, { ...base, source_line: line, tag: 'bad_line' });
      continue;
    }
    const role = asString(m.role) ?? '';
    const reply = matched.get(ev.index);
    const own = reply?.ts ? { ts: reply.ts } : undefined;
    if (reply?.model && reply.model !== model) {
      model = reply.model;
      yield row('system', `model: ${model}${reply.provider ? ` provider=${reply.provider}` : ''}`, line, own ?? fallback, { model, tag: 'model' });
    }
    const reasoning = asObject(item.reasoning);
    if (reasoning && typeof reasoning.text === 'string' && reasoning.text && ctx.options.includeThinking) {
      const at = toUtc(reasoning.startAt);
      yield row('thinking', reasoning.text, line, at ? { ts: at } : (own ?? fallback), { model });
    }
    if (role === 'user') {
      const names2 = (asArray(item.contextItems) ?? []).map((c) => asString(asObject(c)?.name)).filter((x) => x).map((x) => `[context: ${x}]`);
      const text = [messageText(m.content), ...names2].filter((x) => x).join('\n');
      const ex = exchanges.get(ev.index);
      if (text) yield row('user', text, line, ex ? { ts: ex, tag: 'time_exchange' } : fallback);
    } else if (role === 'assistant') {
      const text = messageText(m.content);
      const t = own ?? fallback;
      if (text) yield row('assistant', text, line, t, { model });
      for (const c of asArray(m.toolCalls) ?? []) {
        const call = asObject(c);
        const fn = asObject(call?.function);
        const id = asString(call?.id) ?? '';
        const name = asString(fn?.name) ?? '';
        names.set(id, name);
        const use = tools.get(id);
        yield row('tool_use', toolArgsText(fn?.arguments), line, use?.ts ? { ts: use.ts } : own ? { ts: own.ts, tag: 'time_exchange' } : fallback, { tool_name: name, tool_use_id: id });
      }
      yield* toolStates(item, tools, names, p.answered, (turn, text, t, extra) => row(turn, text, line, t, extra), own, fallback);
    } else if (role === 'thinking') {
      const text = messageText(m.content) || (m.redactedThinking ? '[redacted thinking]' : '');
      if (text && ctx.options.includeThinking) yield row('thinking', text, line, own ?? fallback, { model });
    } else if (role === 'tool') {
      const id = asString(m.toolCallId) ?? '';
      const use = tools.get(id);
      const name = names.get(id) ?? use?.name ?? '';
      yield row('tool_result', messageText(m.content), line, use?.ts ? { ts: use.ts } : fallback, { tool_name: name, tool_use_id: id });
    } else if (role === 'system') {
      yield row('system', `system message: ${messageText(m.content)}`, line, fallback, { tag: 'system_prompt' });
    } else {
      ctx.unknown(`message role ${role || '(none)'}`, line);
      yield row('system', `message ${role || '(no role)'}: ${messageText(m.content)}`.trimEnd(), line, fallback, { tag: 'unknown' });
    }
    const summary = asString(item.conversationSummary);
    if (summary) yield row('system', `context compacted: ${summary}`, line, own ?? fallback, { tag: 'compaction' });
  }
}

function exchangeTimes(p: Pass1, matched: Map<number, Interaction>): Map<number, string> {
  const out = new Map<number, string>();
  let pending: number[] = [];
  for (let i = 0; i < p.items; i++) {
    if (!p.replies.has(i)) {
      pending.push(i);
      continue;
    }
    const ts = matched.get(i)?.ts;
    if (ts) for (const j of pending) out.set(j, ts);
    pending = [];
  }
  return out;
}

type Emit = (turn: Row['turn_type'], text: string, t: { ts: string; tag?: string }, extra: Partial<Row>) => Row;

/** An assistant item's toolCallStates: decisions (toolUsage `accepted`, status `canceled`) and outputs no tool message holds. */
function* toolStates(item: JsonObject, tools: Map<string, ToolUse>, names: Map<string, string>, answered: Set<string>, emit: Emit, own: { ts: string } | undefined, fallback: { ts: string; tag: string }): Generator<Row> {
  for (const s of asArray(item.toolCallStates) ?? []) {
    if (!isObject(s)) continue;
    const id = asString(s.toolCallId) ?? '';
    const use = tools.get(id);
    const name = names.get(id) ?? asString(asObject(asObject(s.toolCall)?.function)?.name) ?? use?.name ?? '';
    const t = use?.ts ? { ts: use.ts } : own ? { ts: own.ts, tag: 'time_exchange' } : fallback;
    const extra = { tool_name: name, tool_use_id: id };
    const status = asString(s.status) ?? '';
    const decision = decisionText(name, use?.accepted);
    if (decision) yield emit('system', decision, t, { ...extra, tag: 'permission_decision' });
    else if (status === 'canceled') yield emit('system', `canceled: ${name}`, t, { ...extra, tag: 'permission_decision' });
    else if (status === 'generated') yield emit('system', `awaiting approval: ${name}`, t, { ...extra, tag: 'permission_request' });
    if (!answered.has(id) && s.output !== undefined) {
      const text = contextItemsText(s.output);
      yield emit('tool_result', status === 'errored' ? `[error] ${text}` : text, t, extra);
    }
  }
}
