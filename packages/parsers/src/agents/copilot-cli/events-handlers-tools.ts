import { asArray, asObject } from '../../sdk/decode.js';
import type { Handler } from './events-state.js';
import { obj, text } from './events-values.js';
import {
  carriedForwardText,
  hookEndText,
  hookStartText,
  permissionDecisionText,
  permissionRequestText,
  thinkingText,
  toolResultText,
  toolUseText,
} from './events-text.js';

// Conversation and tool records of the Parser plan table: replies, reasoning, tool calls and
// results, permission requests and decisions, hooks. Tag beyond the SDK's list: hook.

/** assistant.message: the reply, then its thinking (with includeThinking), then one tool_use per toolRequests[]. */
export const assistantMessage: Handler = (c) => {
  const { data } = c.ev;
  const model = text(data.model);
  const content = text(data.content);
  if (content !== undefined) c.emit('assistant', content, { model });
  if (c.includeThinking) {
    const thinking = thinkingText(data);
    if (thinking !== undefined) c.emit('thinking', thinking, { model });
  }
  for (const item of asArray(data.toolRequests) ?? []) {
    const req = asObject(item);
    if (req === undefined) continue;
    const id = text(req.toolCallId);
    const name = text(req.name);
    c.st.rememberTool(id, name);
    c.st.markRequested(id);
    // A custom (grammar) tool's arguments are its raw input: never read as JSON, even when they
    // look like it. Nested values are not serialized by the stringified encoding, so this holds there too.
    const raw = text(req.type) === 'custom' && typeof req.arguments === 'string';
    const body = raw ? (req.arguments as string) : toolUseText(req.arguments);
    c.emit('tool_use', body, { model, tool_name: name ?? '', tool_use_id: id ?? '' });
  }
  c.skip('assistant.message with no content, no thinking shown and no tool request');
};

/** assistant.reasoning: a thinking row, only with includeThinking. */
export const assistantReasoning: Handler = (c) => {
  const content = text(c.ev.data.content);
  if (c.includeThinking && content !== undefined) c.emit('thinking', content);
  else c.skip(c.includeThinking ? 'assistant.reasoning with no content' : 'assistant.reasoning: thinking not included');
};

/** tool.execution_start: a tool_use only when no earlier toolRequests[] announced the call. */
export const toolStart: Handler = (c) => {
  const { data } = c.ev;
  const id = text(data.toolCallId);
  const name = text(data.toolName);
  if (name !== undefined) c.st.rememberTool(id, name);
  if (c.st.wasRequested(id)) {
    c.skip('tool.execution_start: already a tool_use row from toolRequests[]');
    return;
  }
  c.emit('tool_use', toolUseText(data.arguments), { model: text(data.model), tool_name: name ?? c.st.toolName(id) ?? '', tool_use_id: id ?? '' });
};

/** tool.user_requested: a tool the user ran, `user requested: <arguments>`. */
export const toolUserRequested: Handler = (c) => {
  const { data } = c.ev;
  const id = text(data.toolCallId);
  const name = text(data.toolName);
  c.st.rememberTool(id, name);
  c.emit('tool_use', `user requested: ${toolUseText(data.arguments)}`, { model: text(data.model), tool_name: name ?? c.st.toolName(id) ?? '', tool_use_id: id ?? '' });
};

/** tool.execution_complete: the tool_result, named by the remembered tool name. */
export const toolComplete: Handler = (c) => {
  const { data } = c.ev;
  const id = text(data.toolCallId);
  const name = c.st.toolName(id) ?? text(data.toolName);
  c.st.rememberTool(id, name);
  c.st.markCompleted(id);
  c.emit('tool_result', toolResultText(data), { model: text(data.model), tool_name: name ?? '', tool_use_id: id ?? '' });
};

/**
 * permission.requested: the request row, then `permission mode: <mode> agent=<agentMode>` the
 * first time, or `permission mode: <old> -> <new>` (and `agent mode: <old> -> <new>`) on a change.
 */
export const permissionRequested: Handler = (c) => {
  const { data } = c.ev;
  const pr = obj(data.permissionRequest);
  const id = text(pr.toolCallId) ?? text(data.toolCallId);
  c.emit('system', permissionRequestText(pr, obj(data.promptRequest)), { tool_use_id: id ?? '', tool_name: c.st.toolName(id) ?? '', tag: 'permission_request' });
  const mode = text(data.permissionMode);
  const agent = text(data.agentMode);
  if (mode === undefined && agent === undefined) return;
  const { st } = c;
  if (!st.modeShown) {
    st.modeShown = true;
    c.emit('system', `permission mode: ${mode ?? st.permissionMode ?? '-'} agent=${agent ?? st.agentMode ?? '-'}`, { tag: 'permission_mode' });
  } else {
    if (mode !== undefined && mode !== st.permissionMode) c.emit('system', `permission mode: ${st.permissionMode ?? '-'} -> ${mode}`, { tag: 'permission_mode' });
    if (agent !== undefined && agent !== st.agentMode) c.emit('system', `agent mode: ${st.agentMode ?? '-'} -> ${agent}`, { tag: 'agent_mode' });
  }
  if (mode !== undefined) st.permissionMode = mode;
  if (agent !== undefined) st.agentMode = agent;
};

/** permission.completed: the decision row with every suffix present. */
export const permissionCompleted: Handler = (c) => {
  const id = text(c.ev.data.toolCallId);
  c.emit('system', permissionDecisionText(c.ev.data), { tool_use_id: id ?? '', tool_name: c.st.toolName(id) ?? '', tag: 'permission_decision' });
};

/** permission.carriedForward: a decision carried over from an earlier approval. */
export const permissionCarriedForward: Handler = (c) => {
  const id = text(c.ev.data.toolCallId);
  c.emit('system', carriedForwardText(c.ev.data), { tool_use_id: id ?? '', tool_name: c.st.toolName(id) ?? '', tag: 'permission_decision' });
};

/** hook.start / hook.end: never shortened; tool_use_id the parent tool call when present. */
export const hook: Handler = (c) => {
  const { data, type } = c.ev;
  const body = type === 'hook.start' ? hookStartText(data) : hookEndText(data);
  c.emit('system', body, { tool_use_id: text(data.parentToolCallId) ?? '', tag: 'hook' });
};
