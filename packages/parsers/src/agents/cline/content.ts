/**
 * Text of the Anthropic-shaped content the Cline family stores (API history, SDK messages), and
 * the conventions its tool results follow (Cline src/core/prompts/responses.ts formatResponse,
 * the same in Roo Code): `[<tool> for '<arg>'] Result:` texts, denials and approvals with feedback.
 */
import { asArray, asObject, asString, isObject, type JsonObject } from '../../sdk/decode.js';
import { compactJson } from '../../sdk/compact-json.js';

/** The text of a content value: a string, or blocks whose text parts are joined; images as `[image]`. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  const parts: string[] = [];
  for (const b of asArray(content) ?? []) {
    if (typeof b === 'string') parts.push(b);
    else if (isObject(b)) parts.push(blockText(b));
  }
  return parts.filter((p) => p !== '').join('\n');
}

function blockText(b: JsonObject): string {
  const type = asString(b.type) ?? '';
  if (type === 'text') return asString(b.text) ?? '';
  if (type === 'image' || type === 'imageUrl' || type === 'image_url') return '[image]';
  if (type === 'file') return `[file: ${asString(b.path) ?? ''}]`;
  if (typeof b.text === 'string') return b.text;
  // The SDK's run_commands result: [{query, result, success}].
  if (typeof b.query === 'string' || typeof b.result === 'string') {
    const ok = b.success === false ? ' (failed)' : '';
    return `${asString(b.query) ?? ''}${ok}\n${asString(b.result) ?? asString(b.error) ?? ''}`.trim();
  }
  return compactJson(b);
}

/** A tool call's input as row text: the command (or commands, one a line), else the input as compact JSON. */
export function toolInputText(input: unknown): string {
  const o = asObject(input);
  if (!o) return typeof input === 'string' ? input : compactJson(input ?? {});
  const command = o.command;
  if (typeof command === 'string') return command;
  const commands = asArray(o.commands);
  if (commands?.every((c) => typeof c === 'string')) return (commands as string[]).join('\n');
  return compactJson(o);
}

const RESULT_HEAD = /^\[([A-Za-z_][\w.-]*)(?: for [^\n]*?)?\] Result:[ \t]*\r?\n?/;

/** A user text block that carries a tool's result in the XML-era convention: the tool's name and the rest. */
export function resultText(text: string): { tool: string; body: string } | undefined {
  const m = RESULT_HEAD.exec(text);
  return m ? { tool: m[1], body: text.slice(m[0].length) } : undefined;
}

/** What the user decided, when a tool result says so. */
export interface Decision {
  decision: 'denied' | 'approved';
  feedback: string;
}

/**
 * A decision stated in a tool result: "The user denied this operation." (toolDenied), "... and
 * provided the following feedback" (toolDeniedWithFeedback), "The user approved this operation
 * and provided the following context" (toolApprovedWithFeedback), in text or the native-protocol
 * JSON `{status: denied|approved, feedback}`.
 */
export function decisionIn(text: string): Decision | undefined {
  const t = text.trimStart();
  const json = t.startsWith('{') ? asObject(t) : undefined;
  if (json && (json.status === 'denied' || json.status === 'approved') && typeof json.message === 'string' && /^The user (denied|approved) this operation/.test(json.message)) {
    return { decision: json.status, feedback: asString(json.feedback) ?? '' };
  }
  const m = /^The user (denied|approved) this operation/.exec(t);
  if (!m) return undefined;
  const fb = /<feedback>\n?([\s\S]*?)\n?<\/feedback>/.exec(t);
  return { decision: m[1] === 'denied' ? 'denied' : 'approved', feedback: fb ? fb[1] : '' };
}

/** Text the agent itself adds to a user turn (not typed): reminders and environment blocks. */
export function isSyntheticUserText(text: string): boolean {
  const t = text.trimStart();
  return t.startsWith('<environment_details>') || /^#\s*task_progress\b/i.test(t) || t.startsWith('[TASK RESUMPTION]') || /^\[ERROR\] You did not use a tool/.test(t);
}

/** The typed text inside the wrappers the agent puts around it (`<task>`, `<feedback>`, `<answer>`, `<user_message>`, `<user_input mode="act">`). */
export function unwrapUserText(text: string): string {
  const m = /^\s*<(task|feedback|answer|user_message|user_input)(?:\s[^>]*)?>\n?([\s\S]*?)\n?<\/\1>\s*$/.exec(text);
  return m ? m[2] : text;
}

const CWD = /# Current (?:Working|Workspace) Directory \(([^\n]+?)\) Files/;

/** The working directory an environment block names ("# Current Working Directory (/x) Files"). */
export function cwdIn(text: string): string | undefined {
  const m = CWD.exec(text);
  return m ? m[1] : undefined;
}
