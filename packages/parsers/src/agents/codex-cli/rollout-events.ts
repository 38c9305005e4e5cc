import { compactJson } from '../../sdk/compact-json.js';
import { asArray, asBool, asNumber, asObject, asString, isObject, type JsonObject } from '../../sdk/decode.js';
import { commandText, contentTexts } from './content.js';
import type { Outcome } from './rollout-items.js';
import type { Draft, RolloutState } from './rollout-state.js';
import type { TwinFamily, TwinKind } from './twins.js';

const dash = (v: unknown): string => (v === undefined || v === null || v === '' ? '-' : typeof v === 'string' ? v : compactJson(v));

/** Events that repeat or frame what other lines hold, or that carry no evidence: no row, on purpose. */
const SKIPPED: Record<string, string> = {
  task_started: 'turn start (the turn_context says what matters)',
  turn_started: 'turn start',
  task_complete: 'turn end (its last message is the reply row)',
  turn_complete: 'turn end',
  token_count: 'token usage',
  context_compacted: 'compaction marker (the compacted line gives the row)',
  thread_settings_applied: 'settings snapshot (the turn_context gives the rows)',
  item_started: 'item start (item_completed follows)',
  exec_command_begin: 'command start (its end or output gives the row)',
  mcp_tool_call_begin: 'MCP call start (its end gives the row)',
  patch_apply_begin: 'patch start (its end gives the rows)',
  web_search_begin: 'web search start',
  turn_diff: 'turn diff (the patch rows hold it)',
  plan_update: 'plan update',
  background_event: 'UI notice',
  shutdown_complete: 'shutdown notice',
  session_configured: 'session configured (session_meta gives the row)',
  stream_error: 'stream retry notice',
  warning: 'UI warning',
  agent_reasoning_section_break: 'reasoning section break (the reasoning item holds the text)',
  raw_response_item: 'raw model item (the response item gives the row)',
  terminal_interaction: 'terminal keystrokes of a running command',
  patch_apply_updated: 'patch progress (its end gives the rows)',
  image_generation_begin: 'image generation start (its end gives the row)',
  mcp_startup_update: 'MCP startup progress',
  mcp_startup_complete: 'MCP startup summary',
  hook_started: 'hook start (its completion gives the row)',
  safety_buffering: 'streaming notice',
  turn_moderation_metadata: 'moderation metadata',
  realtime_conversation_started: 'voice session notice',
  realtime_conversation_sdp: 'voice session notice',
  realtime_conversation_realtime: 'voice session notice',
  realtime_conversation_closed: 'voice session notice',
  realtime_conversation_list_voices_response: 'voice session notice',
  collab_agent_spawn_begin: 'subagent start (its end gives the row)',
  collab_agent_interaction_begin: 'subagent interaction start (its end gives the row)',
  collab_waiting_begin: 'subagent wait start (its end gives the row)',
  collab_close_begin: 'subagent close start (its end gives the row)',
  collab_resume_begin: 'subagent resume start (its end gives the row)',
};

/** event_msg kinds whose row is `<type>: <main text or compact JSON>`. */
const GENERIC = new Set([
  'web_search_end',
  'image_generation_end',
  'view_image_tool_call',
  'sub_agent_activity',
  'guardian_assessment',
  'thread_goal_updated',
  'injected_message',
  'collab_agent_spawn_end',
  'collab_agent_interaction_end',
  'collab_waiting_end',
  'collab_close_end',
  'dynamic_tool_call_request',
  'dynamic_tool_call_response',
  'collab_resume_end',
  'guardian_warning',
  'model_reroute',
  'model_verification',
  'hook_completed',
  'deprecation_notice',
]);
const MAIN_FIELDS = ['message', 'text', 'query', 'path', 'saved_path', 'revised_prompt', 'prompt', 'summary'];

/** Approval prompts: never persisted by the builds read, handled should one ever be. */
const APPROVALS = new Set(['exec_approval_request', 'apply_patch_approval_request', 'request_permissions', 'request_user_input', 'elicitation_request']);

function twin(st: RolloutState, family: TwinFamily, kind: TwinKind, texts: string[], draft: Draft, line: number, ts: string): Outcome {
  st.copy(family, kind, texts, { draft, line, ts });
  return `copy of the ${kind} item (event_msg or item_completed)`;
}

function execEnd(st: RolloutState, p: JsonObject, callId: string, command: string, exit: unknown, source: string, cwd: string, duration: unknown): Outcome {
  if (callId && st.execEnded.has(callId)) return 'exec end already given for this call';
  if (callId) st.execEnded.add(callId);
  if (source === 'user_shell') return [{ turn: 'user', text: `!${command}`, tool_name: 'user_shell', tool_use_id: callId, tag: 'user_shell' }];
  const d = isObject(duration) ? `${(asNumber(duration.secs) ?? 0) + (asNumber(duration.nanos) ?? 0) / 1e9}s` : dash(duration);
  return [{ turn: 'system', text: `exec end: exit=${dash(exit)} source=${dash(source)} cwd=${dash(cwd)} duration=${d} command=${command}`, tool_name: st.toolOf(callId) || asString(p.tool_name) || '', tool_use_id: callId, tag: 'exec_end' }];
}

function itemCompleted(st: RolloutState, p: JsonObject, line: number, ts: string): Outcome {
  const item = asObject(p.item) ?? {};
  const type = asString(item.type) ?? '';
  const texts = (v: unknown) => contentTexts(v).map((t) => t.text);
  switch (type) {
    case 'UserMessage': {
      const t = texts(item.content);
      return twin(st, 'completed', 'user', [t.join('\n'), t.filter((x) => x !== '[image]').join('\n')], { turn: 'user', text: t.join('\n') }, line, ts);
    }
    case 'AgentMessage': {
      const t = texts(item.content);
      return twin(st, 'completed', 'assistant', [t.join('\n'), t.join('')], { turn: 'assistant', text: t.join('\n') }, line, ts);
    }
    case 'Reasoning': {
      const s = texts(item.summary_text);
      const r = texts(item.raw_content);
      const parts = s.length > 0 ? s : r;
      return twin(st, 'completed', 'thinking', [parts.join('\n\n'), ...parts], { turn: 'thinking', text: parts.join('\n\n') }, line, ts);
    }
    case 'Plan':
      return [{ turn: 'system', text: `plan: ${asString(item.text) ?? compactJson(item)}`, tag: 'plan' }];
    case 'CommandExecution': {
      const cwd = (asString(item.cwd) ?? '').replace(/^file:\/\//, '');
      return execEnd(st, item, asString(item.id) ?? '', commandText(item.command), item.exit_code, asString(item.source) ?? '', cwd, item.duration);
    }
    case 'WebSearch':
      return 'copy of the web_search_call item';
    case 'ContextCompaction':
      return 'copy of the compacted line';
    case 'Sleep':
      return 'sleep item';
    default:
      st.ctx.unknown(`item_completed:${type || '(no type)'}`, line);
      return `unknown item_completed ${type}`;
  }
}

/** One `event_msg` payload. */
export function eventMsg(st: RolloutState, p: JsonObject, line: number, ts: string): Outcome {
  const type = asString(p.type) ?? '';
  const callId = asString(p.call_id) ?? '';
  if (SKIPPED[type]) return SKIPPED[type];
  if (type.endsWith('_delta')) return 'streaming delta';
  if (GENERIC.has(type)) {
    const main = MAIN_FIELDS.map((k) => asString(p[k])).find((v) => v !== undefined);
    const { type: _t, ...rest } = p;
    return [{ turn: 'system', text: `${type}: ${main ?? compactJson(rest)}`, tool_name: st.toolOf(callId), tool_use_id: callId, tag: type }];
  }
  if (APPROVALS.has(type)) {
    const detail = p.permissions ?? p.questions;
    const what = p.command !== undefined ? commandText(p.command) : p.changes !== undefined ? Object.keys(asObject(p.changes) ?? {}).join(', ') : (asString(p.message) ?? asString(p.prompt) ?? (detail !== undefined ? compactJson(detail) : '-'));
    return [{ turn: 'system', text: `approval request: ${what} reason=${dash(p.reason)}`, tool_name: st.toolOf(callId), tool_use_id: callId, tag: 'permission_request' }];
  }
  switch (type) {
    case 'user_message': {
      const message = asString(p.message) ?? '';
      const images = (asArray(p.images) ?? []).length + (asArray(p.local_images) ?? []).length;
      const text = images > 0 ? [message, ...Array<string>(images).fill('[image]')].filter((t) => t !== '').join('\n') : message;
      return twin(st, 'event', 'user', [text, message], { turn: 'user', text }, line, ts);
    }
    case 'agent_message':
      return twin(st, 'event', 'assistant', [asString(p.message) ?? ''], { turn: 'assistant', text: asString(p.message) ?? '' }, line, ts);
    case 'agent_reasoning':
    case 'agent_reasoning_raw_content':
      return twin(st, 'event', 'thinking', [asString(p.text) ?? ''], { turn: 'thinking', text: asString(p.text) ?? '' }, line, ts);
    case 'item_completed':
      return itemCompleted(st, p, line, ts);
    case 'turn_aborted':
      return [{ turn: 'system', text: `turn aborted: ${dash(p.reason)}`, tag: 'turn_aborted' }];
    case 'thread_rolled_back':
      return [{ turn: 'system', text: `rollback: ${dash(p.num_turns)} turns dropped from context (earlier rows stay)`, tag: 'rollback' }];
    case 'undo_completed':
      return [{ turn: 'system', text: `undo: success=${dash(p.success)} ${asString(p.message) ?? ''}`.trimEnd(), tag: 'undo' }];
    case 'entered_review_mode': {
      const { type: _t, ...rest } = p;
      return [{ turn: 'system', text: `review started: ${compactJson(rest.target ?? rest)}`, tag: 'review' }];
    }
    case 'exited_review_mode': {
      const r = asObject(p.review_output) ?? {};
      const findings = (asArray(r.findings) ?? []).length;
      return [{ turn: 'system', text: `review result: ${dash(r.overall_correctness)} ${asString(r.overall_explanation) ?? ''} (${findings} findings)`, tag: 'review' }];
    }
    case 'thread_name_updated': {
      const name = asString(p.thread_name) ?? '';
      if (!name) return 'thread name cleared';
      st.fact('name', name);
      return [{ turn: 'system', text: `session name: ${name}`, tag: 'session_name' }];
    }
    case 'patch_apply_end': {
      const changes = asObject(p.changes) ?? {};
      const out: Draft[] = Object.entries(changes).map(([path, c]) => {
        const co = asObject(c) ?? {};
        const move = asString(co.move_path);
        return { turn: 'system', text: `file changed: ${path} (${dash(co.type)}${move ? ` -> ${move}` : ''}) success=${dash(p.success)}`, tool_name: st.toolOf(callId), tool_use_id: callId, tag: 'file_changed' };
      });
      return out.length > 0 ? out : [{ turn: 'system', text: `patch applied: success=${dash(p.success)} ${asString(p.stderr) ?? ''}`.trimEnd(), tool_name: st.toolOf(callId), tool_use_id: callId, tag: 'file_changed' }];
    }
    case 'exec_command_end':
      return execEnd(st, p, callId, commandText(p.command), p.exit_code, asString(p.source) ?? '', asString(p.cwd) ?? '', p.duration);
    case 'mcp_tool_call_end': {
      const inv = asObject(p.invocation) ?? {};
      const result = asObject(p.result) ?? {};
      const ok = result.Err === undefined && asBool(asObject(result.Ok)?.isError ?? asObject(result.Ok)?.is_error) !== true;
      return [{ turn: 'system', text: `mcp call end: ${dash(inv.server)}.${dash(inv.tool)} ok=${ok} duration=${dash(p.duration)}`, tool_name: st.toolOf(callId), tool_use_id: callId, tag: 'mcp_call' }];
    }
    case 'error':
      return [{ turn: 'system', text: `error: ${asString(p.message) ?? compactJson(p)}`, tag: 'error' }];
    default:
      st.ctx.unknown(`event_msg:${type || '(no type)'}`, line);
      return `unknown event ${type}`;
  }
}
