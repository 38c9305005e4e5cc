/**
 * Qwen Code's ChatRecord (`{uuid, parentUuid, sessionId, timestamp, type, subtype, cwd,
 * gitBranch, model, message: Content, toolCallResult, systemPayload, ...}`; chatRecordingService.ts),
 * one per JSONL line. The Content parts are read by the same helpers as Gemini CLI's messages.
 */
import { compactJson } from '../../sdk/compact-json.js';
import { asArray, asNumber, asObject, asString, type JsonObject } from '../../sdk/decode.js';
import { toUtc } from '../../sdk/timestamp.js';
import { modelDrafts, responseDrafts, userDrafts } from './chat-message.js';
import type { ChatState, Draft, Skip } from './chat-state.js';
import { callsOf, callText, partsOf, responsesOf, thoughtTexts, visibleText } from './parts.js';
import { pushAll } from '../../sdk/push-all.js';

/** True for a ChatRecord: a string uuid and a type. */
export function isChatRecord(v: JsonObject): boolean {
  return typeof v.uuid === 'string' && typeof v.type === 'string';
}

const MAX_PAYLOAD_CHARS = 2000;
const clip = (s: string) => (s.length > MAX_PAYLOAD_CHARS ? `${s.slice(0, MAX_PAYLOAD_CHARS)}…` : s);

type SubtypeRule = (st: ChatState, p: JsonObject, ts: string) => Draft[] | Skip;

const state = (key: string, tag: string, text: (old: string, now: string, p: JsonObject) => string, pick: (p: JsonObject) => string | undefined): SubtypeRule => (st, p, ts) => {
  const now = pick(p);
  if (!now) return `${key} without a value`;
  const old = st.lastValue.get(key) ?? '';
  if (!st.changed(key, now)) return `${key} unchanged (re-anchored copy)`;
  return [{ turn: 'system', text: text(old, now, p), ts, tag }];
};

/** System subtypes with a row of their own; bookkeeping ones give none; the rest print their payload. */
const SUBTYPES: Record<string, SubtypeRule | Skip> = {
  chat_compression: (_st, p, ts) => {
    const info = asObject(p.info) ?? {};
    return [{ turn: 'system', text: `context compressed: ${asNumber(info.originalTokenCount) ?? '-'} -> ${asNumber(info.newTokenCount) ?? '-'} tokens`, ts, tag: 'compaction' }];
  },
  slash_command: (st, p, ts) => {
    const raw = asString(p.rawCommand);
    if (asString(p.phase) !== 'invocation' || !raw) return 'slash command output';
    st.rememberText(raw);
    return [{ turn: 'user', text: raw, ts }];
  },
  at_command: (_st, p, ts) => [{ turn: 'system', text: `@ files read: ${(asArray(p.filesRead) ?? []).map(String).join(', ')}`, ts }],
  session_model: state('model setting', 'model', (old, now, p) => `model: ${old || '-'} -> ${now} auth=${asString(p.authType) ?? '-'}`, (p) => asString(p.modelId)),
  session_approval_mode: state('approval mode', 'permission_mode', (old, now) => `permission mode: ${old || '-'} -> ${now}`, (p) => asString(p.mode)),
  custom_title: state('summary', 'session_name', (_o, now) => `session name: ${now}`, (p) => asString(p.customTitle)),
  rewind: (_st, p, ts) => [{ turn: 'system', text: `rewind: ${asNumber(p.truncatedCount) ?? '-'} items dropped (earlier rows stay)`, ts, tag: 'rewind' }],
  parent_session: (_st, p, ts) => [{ turn: 'system', text: `parent session: ${asString(p.parentSessionId) ?? '-'}`, ts }],
  notification: (_st, p, ts) => [{ turn: 'system', text: `notification: ${asString(p.displayText) ?? compactJson(p)}`, ts }],
  ui_telemetry: (_st, p, ts) => telemetryDrafts(asObject(p.uiEvent) ?? {}, ts),
  attribution_snapshot: 'attribution bookkeeping',
  file_history_snapshot: 'file history bookkeeping',
  session_notes: 'session notes bookkeeping',
  user_text_elements: 'UI text elements',
  branch_checkpoint: 'branch bookkeeping',
  session_artifact_snapshot: 'artifact bookkeeping',
  session_sources_snapshot: 'sources bookkeeping',
};

/** Subtypes the source names and that print their payload (not unknown). */
const KNOWN_PRINTED = new Set(['mid_turn_user_message', 'cron', 'background_task_completed', 'session_source', 'session_execution_engine', 'omni_recall', 'agent_bootstrap', 'agent_launch_prompt', 'agent_retry', 'agent_session_ready', 'session_artifact_event', 'goal_state', 'goal_runtime', 'goal_turn_end', 'realtime_message', 'turn_result']);

/** ui_telemetry: a tool call's decision is a permission row; an API error a system row; the rest is telemetry. */
function telemetryDrafts(e: JsonObject, ts: string): Draft[] | Skip {
  const name = asString(e['event.name']) ?? '';
  const at = toUtc(e['event.timestamp']) || ts;
  if (/tool_call$/.test(name)) {
    const decision = asString(e.decision);
    const fn = asString(e.function_name) ?? '';
    if (!decision) return 'tool call telemetry without a decision';
    return [{ turn: 'system', text: `tool decision: ${fn} ${decision}`, ts: at, tool_name: fn, tool_use_id: asString(e.call_id) ?? '', tag: 'permission_decision' }];
  }
  if (/api_error$/.test(name)) return [{ turn: 'system', text: `api error: ${asString(e.error) ?? asString(e.error_message) ?? compactJson(e)}`, ts: at }];
  return `telemetry ${name || '(unnamed)'}`;
}

function systemRecord(st: ChatState, v: JsonObject, ts: string, line: number): Draft[] | Skip {
  const subtype = asString(v.subtype) ?? '';
  const payload = asObject(v.systemPayload) ?? {};
  const rule = SUBTYPES[subtype];
  if (typeof rule === 'string') return rule;
  if (rule) return rule(st, payload, ts);
  if (!KNOWN_PRINTED.has(subtype)) st.ctx.unknown(`system subtype ${subtype || '(none)'}`, line);
  const text = asString(payload.displayText) ?? asString(payload.text) ?? clip(compactJson(payload));
  return [{ turn: 'system', text: `${subtype || 'system'}: ${text}`, ts }];
}

function assistantRecord(st: ChatState, v: JsonObject, ts: string): Draft[] | Skip {
  const parts = partsOf(asObject(v.message)?.parts);
  const out: Draft[] = st.ctx.options.includeThinking ? thoughtTexts(parts).map((text) => ({ turn: 'thinking', text, ts })) : [];
  pushAll(out, modelDrafts(st, asString(v.model), ts));
  const text = visibleText(parts);
  if (text) {
    st.rememberText(text);
    out.push({ turn: 'assistant', text, ts });
  }
  for (const c of callsOf(parts)) {
    if (c.id && st.uses.has(c.id)) continue;
    if (c.id) st.uses.add(c.id);
    out.push({ turn: 'tool_use', text: callText(c.args), ts, tool_name: c.name, tool_use_id: c.id });
  }
  return out.length > 0 ? out : 'empty assistant record';
}

/** The drafts of one ChatRecord; a string says why it gave none. */
export function recordDrafts(st: ChatState, v: JsonObject, line: number): Draft[] | Skip {
  const ts = toUtc(v.timestamp) || st.lastTs;
  st.see(ts);
  const type = asString(v.type) ?? '';
  const parts = partsOf(asObject(v.message)?.parts);
  if (type === 'assistant') return assistantRecord(st, v, ts);
  if (type === 'system') return systemRecord(st, v, ts, line);
  if (type === 'tool_result') {
    const result = asObject(v.toolCallResult) ?? {};
    const out = responseDrafts(st, responsesOf(parts), ts, asString(result.status) ?? '');
    return out.length > 0 ? out : 'tool result already has a row';
  }
  if (type === 'user') {
    const out = responseDrafts(st, responsesOf(parts), ts);
    const provenance = asString(v.provenance) ?? 'real_user';
    const text = visibleText(parts);
    if (provenance !== 'real_user') {
      return text ? [...out, { turn: 'system', text: `user record (${provenance}): ${text}`, ts }] : out.length > 0 ? out : `user record (${provenance}) without text`;
    }
    const typed = asString(asObject(v.systemPayload)?.displayText) ?? '';
    const u = userDrafts(st, text, typed, ts);
    return typeof u === 'string' ? (out.length > 0 ? out : u) : [...out, ...u];
  }
  st.ctx.unknown(`record type ${type}`, line);
  const text = visibleText(parts);
  return text ? [{ turn: 'system', text: `${type}: ${text}`, ts }] : `record of unknown type ${type}`;
}
