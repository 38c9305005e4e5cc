import type { Handler } from './events-state.js';
import * as r from './events-handlers-records.js';
import * as s from './events-handlers-session.js';
import * as t from './events-handlers-tools.js';

// Readings where the seed's Parser plan is silent (the Design's pinned readings are followed):
// - model column: the row's own model (assistant.message, tool events, model.message), else the
//   model tracked from session.model_change / auto_mode_resolved, else session.start's (or the
//   latest session.resume's) selectedModel (issue 11); '' before any. selectedModel is never the
//   `<old>` of a `model: <old> -> <new>` row.
// - session.model_change: `<old>` is the tracked model, else the line's previousModel; a change
//   to the same model keeps the arrow form (`model: X -> X`).
// - session.shutdown: a missing shutdownType prints `-`, an absent errorReason is left out, the
//   files print comma-separated (`, `), `-` when there are none.
// - tool.execution_complete with neither content nor detailedContent (an MCP result): compact
//   JSON of result.contents, else of result.structuredContent (both result keys in the schema).
// - toolRequests[] of type custom: a string arguments is the tool's raw input, printed as is even
//   when it reads as JSON (nested values are never serialized by the stringified encoding).
// - permission.requested: subject and intention from permissionRequest, else promptRequest; the
//   intention key may be `intent` (seed 001's promptRequest);
//   absent ones are left out; the `permission mode:` row
//   has no tool_use_id (it is the session's mode); an agentMode change there gives
//   `agent mode: <old> -> <new>`, the session.mode_changed form.
// - permission.completed: directories, approval and rules print as compact JSON.
// - session.permissions_changed with neither mode nor previousMode is the allow-all form (Copilot
//   Desktop, seed 001): each side prints its *PermissionMode word, else on/off from the boolean,
//   else `-`; the tracked mode follows the CLI's own reading (see permissionsChanged).
// - Fallback "compact JSON of data" puts top-level scalars as strings, so both encodings agree.
// - An envelope without a string `type` is a bad-line row; a missing, non-string or invalid
//   timestamp keeps the rows with timestamp_utc '' and a warning for the line.

/**
 * The seed's Parser plan table as data: record type → handler. A type that is neither here nor
 * in {@link SKIPPED_TYPES} is unknown to the table: it gives no row and is counted
 * (`ctx.unknown`, inventory.json unknown_records). Seed 001's persisted types that the table has
 * no row for (external_tool.requested/completed, session.workspace_file_changed,
 * session.plan_changed, session.compaction_start, session.truncation) have handlers of their own
 * (events-handlers-records.ts, issue 11).
 */
export const EVENT_HANDLERS: Readonly<Record<string, Handler>> = {
  'session.start': s.sessionStart,
  'session.resume': s.sessionResume,
  'session.context_changed': s.contextChanged,
  'system.message': s.systemMessage,
  'user.message': s.userMessage,
  'assistant.message': t.assistantMessage,
  'assistant.reasoning': t.assistantReasoning,
  'tool.execution_start': t.toolStart,
  'tool.user_requested': t.toolUserRequested,
  'tool.execution_complete': t.toolComplete,
  'permission.requested': t.permissionRequested,
  'permission.completed': t.permissionCompleted,
  'permission.carriedForward': t.permissionCarriedForward,
  'session.permissions_changed': s.permissionsChanged,
  'session.mode_changed': s.modeChanged,
  'session.model_change': s.modelChange,
  'session.auto_mode_resolved': s.autoModeResolved,
  'session.info': s.sessionInfo,
  'model.message': s.modelMessage,
  'session.compaction_start': r.compactionStart,
  'session.compaction_complete': s.compactionComplete,
  'session.truncation': r.truncation,
  'session.workspace_file_changed': r.workspaceFileChanged,
  'session.plan_changed': r.planChanged,
  'external_tool.requested': r.externalToolRequested,
  'external_tool.completed': r.externalToolCompleted,
  abort: s.notice,
  'session.error': s.notice,
  'session.warning': s.notice,
  'session.task_complete': s.mainText,
  'system.notification': s.mainText,
  'session.schedule_created': s.mainText,
  'skill.invoked': s.mainText,
  'session.handoff': s.mainText,
  'hook.start': t.hook,
  'hook.end': t.hook,
  'session.shutdown': s.sessionShutdown,
};

/** Types the table names and gives no row: turn bookkeeping and usage accounting. */
export const SKIPPED_TYPES: ReadonlySet<string> = new Set(['assistant.turn_start', 'assistant.turn_end', 'session.usage_record', 'session.usage_checkpoint']);

/** Where a record type goes: a handler, a deliberate skip the table names, or unknown. */
export type Route = { kind: 'handler'; handler: Handler } | { kind: 'skip'; reason: string } | { kind: 'unknown' };

/** Route a record type through the table (subagent.* and model.* are families). */
export function routeType(type: string): Route {
  const handler = Object.hasOwn(EVENT_HANDLERS, type) ? EVENT_HANDLERS[type] : undefined;
  if (handler) return { kind: 'handler', handler };
  if (type.startsWith('subagent.')) return { kind: 'handler', handler: s.mainText };
  if (SKIPPED_TYPES.has(type)) return { kind: 'skip', reason: `${type}: no row (Parser plan)` };
  // The utility calls' bookkeeping: the prompt snapshot, the ExP string, call start/end.
  if (type.startsWith('model.')) return { kind: 'skip', reason: `${type}: no row (other model.*)` };
  return { kind: 'unknown' };
}
