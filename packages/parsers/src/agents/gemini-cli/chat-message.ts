/**
 * One Gemini CLI message record (`{id, timestamp, type, content, ...}`, in a JSONL line, inside
 * `$set.messages`, or in a legacy file's `messages[]`) into drafts, in the spec's order.
 */
import { asArray, asObject, asString, isObject, type JsonObject } from '../../sdk/decode.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { ChatState, Draft, Skip } from './chat-state.js';
import { callsOf, callText, onlyResponses, partsOf, responsesOf, responseText, resultText, thoughtTexts, visibleText } from './parts.js';
import { pushAll } from '../../sdk/push-all.js';

/** Message types the CLI writes (chatRecordingTypes.ts); anything else is reported as unknown. */
const SYSTEM_TYPES = new Set(['info', 'warning', 'error']);

/** A user text that is not a prompt, by its opening: [prefix, row label]. */
const WRAPPERS: readonly [string, string][] = [
  ['<session_context>', 'session context'],
  ['<hook_context>', 'hook context'],
];

/** Tool results for function responses that have none yet (the synthetic tool-response turn, since v0.44). */
export function responseDrafts(st: ChatState, responses: ReturnType<typeof responsesOf>, ts: string, status = ''): Draft[] {
  const out: Draft[] = [];
  for (const r of responses) {
    if (r.id && st.results.has(r.id)) continue;
    if (r.id) st.results.add(r.id);
    const text = responseText(r.response);
    out.push({ turn: 'tool_result', text: status && status !== 'success' ? `[${status}] ${text}` : text, ts, tool_name: r.name, tool_use_id: r.id });
  }
  return out;
}

/** The user row (or the system row a wrapper or a synthetic prompt gives) for a typed text. */
export function userDrafts(st: ChatState, text: string, typed: string, ts: string): Draft[] | Skip {
  for (const [prefix, label] of WRAPPERS) if (text.trimStart().startsWith(prefix)) return [{ turn: 'system', text: `${label}: ${text}`, ts }];
  const shown = typed || text;
  if (!shown) return 'empty user message';
  if (st.profile.syntheticPrompts.includes(shown.trim())) return [{ turn: 'system', text: `synthetic prompt: ${shown}`, ts, tag: 'synthetic_prompt' }];
  st.rememberText(shown);
  return [{ turn: 'user', text: shown, ts }];
}

function userMessage(st: ChatState, m: JsonObject, ts: string): Draft[] | Skip {
  const parts = partsOf(m.content);
  if (onlyResponses(parts)) {
    const out = responseDrafts(st, responsesOf(parts), ts);
    return out.length > 0 ? out : 'tool responses already have rows';
  }
  const out = responseDrafts(st, responsesOf(parts), ts);
  const typed = m.displayContent === undefined ? '' : visibleText(partsOf(m.displayContent));
  const u = userDrafts(st, visibleText(parts), typed, ts);
  if (typeof u === 'string') return out.length > 0 ? out : u;
  return [...out, ...u];
}

/** The thinking rows of a gemini record: its queued thoughts, else its thought parts. */
function thinkingDrafts(st: ChatState, m: JsonObject, parts: ReturnType<typeof partsOf>, ts: string): Draft[] {
  if (!st.ctx.options.includeThinking) return [];
  const thoughts = (asArray(m.thoughts) ?? []).filter(isObject);
  if (thoughts.length > 0) {
    return thoughts.map((t) => {
      const subject = asString(t.subject) ?? '';
      const description = asString(t.description) ?? '';
      return { turn: 'thinking', text: subject ? `**${subject}** ${description}`.trimEnd() : description, ts: toUtc(t.timestamp) || ts };
    });
  }
  return thoughtTexts(parts).map((text) => ({ turn: 'thinking', text, ts }));
}

/** The `model:` row when the model first appears or changes (the CLI writes no record of its own for it). */
export function modelDrafts(st: ChatState, model: string | undefined, ts: string): Draft[] {
  if (!model || model === st.model) return [];
  const text = st.model ? `model: ${st.model} -> ${model}` : `model: ${model}`;
  st.model = model;
  return [{ turn: 'system', text, ts, model, tag: 'model' }];
}

/** tool_use and tool_result rows of a gemini record's toolCalls[], at each call's own time. */
function toolCallDrafts(st: ChatState, calls: unknown, ts: string): Draft[] {
  const out: Draft[] = [];
  for (const c of (asArray(calls) ?? []).filter(isObject)) {
    const id = asString(c.id) ?? '';
    const name = asString(c.name) ?? '';
    const at = toUtc(c.timestamp) || ts;
    if (!id || !st.uses.has(id)) {
      if (id) st.uses.add(id);
      out.push({ turn: 'tool_use', text: callText(c.args), ts: at, tool_name: name, tool_use_id: id });
    }
    if (id && st.results.has(id)) continue;
    const status = asString(c.status) ?? '';
    if (c.result === undefined && c.resultDisplay === undefined && !status) continue;
    if (id) st.results.add(id);
    const text = resultText(c.result, c.resultDisplay);
    out.push({ turn: 'tool_result', text: status && status !== 'success' ? `[${status}] ${text}` : text, ts: at, tool_name: name, tool_use_id: id });
  }
  return out;
}

function geminiMessage(st: ChatState, m: JsonObject, ts: string): Draft[] | Skip {
  const parts = partsOf(m.content);
  const out = [...thinkingDrafts(st, m, parts, ts), ...modelDrafts(st, asString(m.model), ts)];
  const text = visibleText(parts);
  if (text) {
    st.rememberText(text);
    out.push({ turn: 'assistant', text, ts });
  }
  pushAll(out, toolCallDrafts(st, m.toolCalls, ts));
  // History copies (inside $set.messages) keep calls as functionCall parts.
  for (const c of callsOf(parts)) {
    if (c.id && st.uses.has(c.id)) continue;
    if (c.id) st.uses.add(c.id);
    out.push({ turn: 'tool_use', text: callText(c.args), ts, tool_name: c.name, tool_use_id: c.id });
  }
  return out.length > 0 ? out : 'empty model message';
}

/** The drafts of one message record; a string says why it gave none. */
export function messageDrafts(st: ChatState, m: JsonObject, line: number): Draft[] | Skip {
  const ts = toUtc(m.timestamp) || st.lastTs;
  st.see(ts);
  const type = asString(m.type) ?? '';
  if (type === 'user') return userMessage(st, m, ts);
  if (type === 'gemini') return geminiMessage(st, m, ts);
  const text = visibleText(partsOf(m.content));
  if (!SYSTEM_TYPES.has(type)) {
    st.ctx.unknown(`message type ${type || '(none)'}`, line);
    return text ? [{ turn: 'system', text: `${type || 'message'}: ${text}`, ts }] : `message of unknown type ${type || '(none)'} without text`;
  }
  // An info record with no text is the UI's compression marker.
  return text ? [{ turn: 'system', text: `${type}: ${text}`, ts }] : `empty ${type} message`;
}

/** A message's id, or '' (an object without a string id is not a message). */
export function messageId(v: unknown): string {
  const o = asObject(v);
  return o && typeof o.id === 'string' ? o.id : '';
}
