import { compactJson } from '../../sdk/compact-json.js';
import { asString, isObject, type JsonObject } from '../../sdk/decode.js';

/**
 * Tool calls of one request: the Copilot Chat participant's result.metadata.toolCallRounds (the
 * model's calls, ids with an internal `__vscode-<n>` suffix) against the toolInvocationSerialized
 * parts VS Code rendered (registered tool ids, VS Code's own call ids). The two never share an id
 * (spec, Joins), so parts are paired with calls by order and name (inferred): each part takes the
 * first unpaired call whose name is the part's toolId or its model-facing name.
 */

/**
 * Registered tool id → model-facing name, microsoft/vscode-copilot-chat
 * src/extension/tools/common/toolNames.ts @00a45c7c (ContributedToolName against ToolName).
 */
export const MODEL_TOOL_NAMES: Readonly<Record<string, string>> = {
  copilot_applyPatch: 'apply_patch',
  copilot_searchCodebase: 'semantic_search',
  copilot_searchWorkspaceSymbols: 'search_workspace_symbols',
  copilot_listCodeUsages: 'list_code_usages',
  copilot_updateUserPreferences: 'update_user_preferences',
  copilot_getVSCodeAPI: 'get_vscode_api',
  copilot_testFailure: 'test_failure',
  copilot_runTests1: 'run_tests',
  copilot_findFiles: 'file_search',
  copilot_findTextInFiles: 'grep_search',
  copilot_readFile: 'read_file',
  copilot_listDirectory: 'list_dir',
  copilot_getErrors: 'get_errors',
  copilot_getDocInfo: 'get_doc_info',
  copilot_getChangedFiles: 'get_changed_files',
  copilot_readProjectStructure: 'read_project_structure',
  copilot_createNewWorkspace: 'create_new_workspace',
  copilot_createNewJupyterNotebook: 'create_new_jupyter_notebook',
  copilot_insertEdit: 'insert_edit_into_file',
  copilot_createFile: 'create_file',
  copilot_replaceString: 'replace_string_in_file',
  copilot_multiReplaceString: 'multi_replace_string_in_file',
  copilot_editNotebook: 'edit_notebook_file',
  copilot_runNotebookCell: 'run_notebook_cell',
  copilot_readNotebookCellOutput: 'read_notebook_cell_output',
  copilot_installExtension: 'install_extension',
  copilot_fetchWebPage: 'fetch_webpage',
  copilot_memory: 'memory',
  copilot_findTestFiles: 'test_search',
  copilot_getProjectSetupInfo: 'get_project_setup_info',
  copilot_getSearchResults: 'get_search_view_results',
  copilot_githubRepo: 'github_repo',
  copilot_createAndRunTask: 'create_and_run_task',
  copilot_openSimpleBrowser: 'open_simple_browser',
  copilot_createDirectory: 'create_directory',
  copilot_runVscodeCommand: 'run_vscode_command',
  copilot_toolReplay: 'tool_replay',
  copilot_editFiles: 'edit_files',
};

/** One model call of a round. */
export interface RoundCall {
  /** The call id as stored (with the `__vscode-<n>` suffix). */
  rawId: string;
  /** Without the suffix: the model's own id, the transcript's toolCallId. */
  id: string;
  name: string;
  /** The arguments as the model sent them (a JSON string). */
  args: string;
  /** Index of its round. */
  round: number;
  paired: boolean;
}

/** The rounds of one request, and a pairing of its tool parts with their calls. */
export class RoundBook {
  readonly calls: RoundCall[] = [];
  /** Per round: epoch ms or undefined; response text; thinking text. */
  readonly times: (number | undefined)[] = [];
  readonly responses: string[] = [];
  readonly thinking: string[] = [];
  readonly results: JsonObject;
  private readonly queues = new Map<string, number[]>();
  private readonly heads = new Map<string, number>();

  constructor(metadata: unknown) {
    const md = isObject(metadata) ? metadata : {};
    const rounds = Array.isArray(md.toolCallRounds) ? md.toolCallRounds : [];
    this.results = isObject(md.toolCallResults) ? md.toolCallResults : {};
    rounds.forEach((r, i) => {
      const round = isObject(r) ? r : {};
      this.times.push(typeof round.timestamp === 'number' && Number.isFinite(round.timestamp) ? round.timestamp : undefined);
      this.responses.push(asString(round.response) ?? '');
      this.thinking.push(isObject(round.thinking) ? (thinkingText(round.thinking.text) ?? '') : '');
      for (const c of Array.isArray(round.toolCalls) ? round.toolCalls : []) {
        if (!isObject(c)) continue;
        const rawId = asString(c.id) ?? '';
        const call: RoundCall = { rawId, id: stripSuffix(rawId), name: asString(c.name) ?? '', args: asString(c.arguments) ?? (c.arguments === undefined ? '' : compactJson(c.arguments)), round: i, paired: false };
        const q = this.queues.get(call.name) ?? [];
        q.push(this.calls.length);
        this.queues.set(call.name, q);
        this.calls.push(call);
      }
    });
  }

  /** The first unpaired call named `toolId` or its model-facing name; marks it paired. */
  pair(toolId: string): RoundCall | undefined {
    const names = [toolId, MODEL_TOOL_NAMES[toolId]].filter((n): n is string => !!n);
    let best: { name: string; at: number } | undefined;
    for (const n of names) {
      const q = this.queues.get(n);
      const h = this.heads.get(n) ?? 0;
      if (q && h < q.length && (!best || q[h] < best.at)) best = { name: n, at: q[h] };
    }
    if (!best) return undefined;
    this.heads.set(best.name, (this.heads.get(best.name) ?? 0) + 1);
    const call = this.calls[best.at];
    call.paired = true;
    return call;
  }

  /** The text of a call's result (toolCallResults), or undefined. */
  resultText(call: RoundCall): string | undefined {
    const r = this.results[call.rawId] ?? this.results[call.id];
    if (!isObject(r)) return undefined;
    const content = Array.isArray(r.content) ? r.content : [];
    const parts = content.map(resultItemText).filter((s) => s !== '');
    return parts.length > 0 ? parts.join('\n') : undefined;
  }

  /** The time of the round after `round` (when the model next spoke: the call's result was in). */
  nextTime(round: number): number | undefined {
    for (let i = round + 1; i < this.times.length; i++) if (this.times[i] !== undefined) return this.times[i];
    return undefined;
  }
}

/** A model call id without VS Code's `__vscode-<n>` suffix (sessionTranscriptService.ts stripInternalToolCallId). */
export function stripSuffix(id: string): string {
  const at = id.indexOf('__vscode-');
  return at >= 0 ? id.slice(0, at) : id;
}

/** Thinking text: a string, or string[] joined with blank lines. */
export function thinkingText(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.filter((s): s is string => typeof s === 'string').join('\n\n');
  return undefined;
}

/** Arguments as the text of a tool_use row: compact JSON when they parse, else as written. */
export function argsText(args: string): string {
  try {
    return compactJson(JSON.parse(args));
  } catch {
    return args;
  }
}

/**
 * One item of a tool result: {value: string} (LanguageModelTextPart) as its text, a prompt-tsx
 * tree {value: {node}} (LanguageModelPromptTsxPart) as the text it renders, anything else compact JSON.
 */
export function resultItemText(item: unknown): string {
  if (typeof item === 'string') return item;
  if (!isObject(item)) return item === undefined || item === null ? '' : compactJson(item);
  if (typeof item.value === 'string') return item.value;
  if (isObject(item.value) && isObject(item.value.node)) return tsxText(item.value.node);
  return compactJson(item);
}

const MAX_NODES = 1_000_000;

/** The text a serialized prompt-tsx tree renders: its text nodes in order, `lineBreakBefore` honoured. */
export function tsxText(root: JsonObject): string {
  const out: string[] = [];
  let endsWithNewline = true;
  const stack: unknown[] = [root];
  let seen = 0;
  while (stack.length > 0 && seen++ < MAX_NODES) {
    const n = stack.pop();
    if (!isObject(n)) continue;
    if (typeof n.text === 'string') {
      if (n.lineBreakBefore === true && !endsWithNewline) out.push('\n');
      out.push(n.text);
      if (n.text !== '') endsWithNewline = n.text.endsWith('\n');
    }
    if (Array.isArray(n.children)) for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]);
  }
  return out.join('');
}

/** A string or MarkdownString's text. */
export function mdText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (isObject(v) && typeof v.value === 'string') return v.value;
  return '';
}
