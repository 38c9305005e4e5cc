import type { Handler } from './events-state.js';
import { dataJson, text } from './events-values.js';
import { toolUseText } from './events-text.js';

// The persisted types seed 001 lists that seed 000's Parser plan table has no row for (issue 11):
// external tool calls, the session's own workspace files, the plan, compaction start and history
// truncation. Tags beyond the SDK's list: external_tool, workspace_file, plan, compaction, truncation.

/**
 * external_tool.requested (an MCP or app-hosted tool the CLI hands to its host, schema: "Arguments
 * to pass to the external tool"): the call's tool_use row, arguments as any tool_use text, the
 * row's project_path the request's workingDirectory when it has one. When a toolRequests[] already
 * gave the call its tool_use row, a system row `external tool requested: <toolName>` says that the
 * host ran it, so the call is not counted twice.
 */
export const externalToolRequested: Handler = (c) => {
  const { data } = c.ev;
  const id = text(data.toolCallId);
  const name = text(data.toolName) ?? c.st.toolName(id);
  c.st.rememberTool(id, name);
  const fields = { tool_name: name ?? '', tool_use_id: id ?? '', project_path: text(data.workingDirectory), tag: 'external_tool' } as const;
  const announced = c.st.wasRequested(id);
  c.st.rememberExternal(text(data.requestId), { toolCallId: id, toolName: name, gaveToolUse: !announced });
  if (announced) {
    c.emit('system', `external tool requested: ${name ?? '-'}`, fields);
    return;
  }
  // A later tool.execution_start of the same call gives no second tool_use.
  c.st.markRequested(id);
  c.emit('tool_use', toolUseText(data.arguments), { ...fields, model: text(data.model) });
};

/**
 * external_tool.completed ({requestId} only): paired with its request by requestId for the call's
 * name and id. It is the call's tool_result (`external tool completed`) when its request gave the
 * tool_use row and no tool.execution_complete gave a result; otherwise a system row saying the
 * host finished, so no call has two results. Unpaired, a system row naming the request.
 */
export const externalToolCompleted: Handler = (c) => {
  const requestId = text(c.ev.data.requestId);
  const req = c.st.externalRequest(requestId);
  if (req === undefined) {
    c.emit('system', `external tool completed: request ${requestId ?? '-'} (no request seen)`, { tag: 'external_tool' });
    return;
  }
  const fields = { tool_name: req.toolName ?? '', tool_use_id: req.toolCallId ?? '', tag: 'external_tool' } as const;
  if (req.gaveToolUse && !c.st.wasCompleted(req.toolCallId)) {
    c.st.markCompleted(req.toolCallId);
    c.emit('tool_result', 'external tool completed', fields);
  } else c.emit('system', `external tool completed: ${req.toolName ?? '-'}`, fields);
};

/** session.workspace_file_changed: `workspace file <operation>: <path>` (path inside the session's files/ directory). */
export const workspaceFileChanged: Handler = (c) => {
  const { data } = c.ev;
  c.emit('system', `workspace file ${text(data.operation) ?? '-'}: ${text(data.path) ?? '-'}`, { tag: 'workspace_file' });
};

/** session.plan_changed: `plan changed: <operation>` (create, update, delete of plan.md). */
export const planChanged: Handler = (c) => {
  c.emit('system', `plan changed: ${text(c.ev.data.operation) ?? '-'}`, { tag: 'plan' });
};

// What a compaction started from, in the schema's order of interest; each printed when present.
const COMPACTION_START_KEYS = ['trigger', 'model', 'currentTokens', 'tokenLimit', 'systemTokens', 'conversationTokens', 'toolDefinitionsTokens'] as const;

/** session.compaction_start: `compaction start:` then ` <key>=<value>` for the token counts present (compact JSON of data when none is). */
export const compactionStart: Handler = (c) => {
  const { data } = c.ev;
  let out = 'compaction start:';
  for (const k of COMPACTION_START_KEYS) {
    const v = text(data[k]);
    if (v !== undefined) out += ` ${k}=${v}`;
  }
  if (out === 'compaction start:') out += ` ${dataJson(data)}`;
  c.emit('system', out, { tag: 'compaction' });
};

/**
 * session.truncation: what was removed from the history sent to the model, and by whom:
 * `history truncated by <performedBy>: <messages> messages and <tokens> tokens removed
 * (<pre> -> <post> messages, <pre> -> <post> tokens, limit <tokenLimit>)`, `-` for a missing count.
 */
export const truncation: Handler = (c) => {
  const { data } = c.ev;
  const v = (k: string) => text(data[k]) ?? '-';
  const out =
    `history truncated by ${v('performedBy')}: ${v('messagesRemovedDuringTruncation')} messages and ${v('tokensRemovedDuringTruncation')} tokens removed ` +
    `(${v('preTruncationMessagesLength')} -> ${v('postTruncationMessagesLength')} messages, ` +
    `${v('preTruncationTokensInMessages')} -> ${v('postTruncationTokensInMessages')} tokens, limit ${v('tokenLimit')})`;
  c.emit('system', out, { tag: 'truncation' });
};
