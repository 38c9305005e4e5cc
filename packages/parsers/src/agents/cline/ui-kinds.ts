/**
 * The ClineMessage kinds of `ui_messages.json` (`type` say|ask, then `say` or `ask`), as a table
 * of what each gives. Sources: Cline src/shared/ExtensionMessage.ts (ClineAsk, ClineSay) @42e9d36,
 * Roo Code packages/types/src/message.ts (clineAsks, clineSays) @cb836567; Kilo Code's legacy
 * extension is a Roo fork with the same lists. A kind in neither list is reported through
 * `ctx.unknown`, never dropped.
 */

/** What a ui message gives. */
export type UiKind =
  /** The typed task or a later user message. */
  | 'user'
  /** `say text`: the task when it comes before the first API request (Cline 3.x), else the reply. */
  | 'text'
  | 'assistant'
  | 'thinking'
  /** The final answer (`completion_result`). */
  | 'completion'
  /** A question or plan the model put to the user (text is JSON {question|response, options}). */
  | 'question'
  /** One request to the model: tokens and cost in a JSON text; its `request` repeats the user turn. */
  | 'api_request'
  /** A tool the model used, as the UI shows it (the API history holds it with its id). */
  | 'tool'
  /** A tool's output as the UI shows it (`command_output`, `mcp_server_response`, ...). */
  | 'tool_output'
  /** A blocked command (allow-list): a denial. */
  | 'denied'
  /** The user edited a proposed change before accepting it. */
  | 'user_edit'
  | 'checkpoint'
  /** The focus-chain checklist. */
  | 'progress'
  /** Context condensed (Roo `condense_context` with a summary). */
  | 'condense'
  /** A subtask's result handed back to its parent (Roo). */
  | 'subtask_result'
  /** The task was reopened (`resume_task`, `resume_completed_task`). */
  | 'resume'
  /** An error or warning the agent showed. */
  | 'error'
  /** Anything else worth a system row (hooks, subagents, rules applied, info). */
  | 'notice'
  /** Known markers with nothing to tell (`api_req_finished`, `mcp_server_request_started`). */
  | 'skip';

/** `say` kinds. */
export const SAY_KINDS: Readonly<Record<string, UiKind>> = {
  task: 'user',
  text: 'text',
  user_feedback: 'user',
  user_feedback_diff: 'user_edit',
  reasoning: 'thinking',
  completion_result: 'completion',
  api_req_started: 'api_request',
  api_req_finished: 'skip',
  api_req_retried: 'notice',
  api_req_retry_delayed: 'notice',
  api_req_rate_limit_wait: 'notice',
  api_req_deleted: 'notice',
  deleted_api_reqs: 'notice',
  command: 'tool',
  command_output: 'tool_output',
  tool: 'tool',
  browser_action_launch: 'tool',
  browser_action: 'tool',
  browser_action_result: 'tool_output',
  use_mcp_server: 'tool',
  mcp_server_request_started: 'skip',
  mcp_server_response: 'tool_output',
  mcp_notification: 'notice',
  codebase_search_result: 'tool_output',
  load_mcp_documentation: 'notice',
  generate_explanation: 'notice',
  command_permission_denied: 'denied',
  checkpoint_created: 'checkpoint',
  checkpoint_saved: 'checkpoint',
  task_progress: 'progress',
  condense_context: 'condense',
  condense_context_error: 'error',
  sliding_window_truncation: 'notice',
  subtask_result: 'subtask_result',
  user_edit_todos: 'notice',
  image: 'notice',
  error: 'error',
  error_retry: 'error',
  diff_error: 'error',
  clineignore_error: 'error',
  rooignore_error: 'error',
  shell_integration_warning: 'error',
  shell_integration_warning_with_suggestion: 'error',
  too_many_tools_warning: 'error',
  info: 'notice',
  hook_status: 'notice',
  hook_output_stream: 'notice',
  subagent: 'notice',
  use_subagents: 'tool',
  subagent_usage: 'notice',
  conditional_rules_applied: 'notice',
};

/** `ask` kinds. An ask that names a tool, command or server is the approval request for it. */
export const ASK_KINDS: Readonly<Record<string, UiKind>> = {
  followup: 'question',
  plan_mode_respond: 'question',
  act_mode_respond: 'question',
  command: 'tool',
  command_output: 'tool_output',
  completion_result: 'completion',
  tool: 'tool',
  browser_action_launch: 'tool',
  use_mcp_server: 'tool',
  use_subagents: 'tool',
  new_task: 'tool',
  condense: 'notice',
  summarize_task: 'notice',
  report_bug: 'notice',
  api_req_failed: 'error',
  mistake_limit_reached: 'error',
  auto_approval_max_req_reached: 'notice',
  resume_task: 'resume',
  resume_completed_task: 'resume',
};

/**
 * Tools whose use the UI shows as text rather than as a tool (the reply, a question, a plan): with
 * ui_messages.json beside it, the API history gives no row for them (the UI row is the evidence).
 */
export const INTERACTION_TOOLS: ReadonlySet<string> = new Set([
  'attempt_completion',
  'ask_followup_question',
  'plan_mode_respond',
  'act_mode_respond',
  'condense',
  'summarize_task',
  'report_bug',
  'load_mcp_documentation',
  'generate_explanation',
]);

/** The kind of a ui message, or undefined when neither list knows it. */
export function uiKind(type: string, kind: string): UiKind | undefined {
  const table = type === 'ask' ? ASK_KINDS : type === 'say' ? SAY_KINDS : undefined;
  return table && Object.hasOwn(table, kind) ? table[kind] : undefined;
}
