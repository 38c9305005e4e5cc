import { compactJson } from '../../sdk/compact-json.js';
import { asArray, asBool, asJsonish, asNumber, asObject, isObject, pick, type JsonObject } from '../../sdk/decode.js';
import { jsonText, obj, text } from './events-values.js';

// Text forms of the seed's Parser plan table. Every reader goes through the decode helpers, so
// the native and the stringified encodings (seed 001: every data value a string, nested JSON
// serialized) give the same text.

const TOOL_USE_KEYS = ['command', 'url', 'query', 'path', 'input'] as const;

/** A tool_use text: the arguments string, else command, url, query, path or input, else compact JSON. */
export function toolUseText(args: unknown): string {
  const v = asJsonish(args);
  if (typeof v === 'string') return v;
  if (isObject(v)) {
    for (const k of TOOL_USE_KEYS) {
      const t = text(v[k]);
      if (t !== undefined) return t;
    }
    return compactJson(v);
  }
  return text(v) ?? '';
}

/**
 * A tool_result text: the longer of result.detailedContent and result.content (detailedContent on
 * a tie), `[exit N] ` first when shellExecution.exitCode is non-zero, error.message on a new line
 * when success is false. A result with neither (an MCP tool's) prints its contents, else its
 * structuredContent, as compact JSON: the schema lists both as result keys, and an empty row
 * would hide what the tool returned.
 */
export function toolResultText(data: JsonObject): string {
  const result = asJsonish(data.result);
  let body = '';
  if (isObject(result)) {
    const content = text(result.content) ?? '';
    const detailed = text(result.detailedContent) ?? '';
    body = detailed.length >= content.length ? detailed : content;
    if (body === '') body = jsonText(result.contents) ?? jsonText(result.structuredContent) ?? '';
  } else {
    body = text(result) ?? '';
  }
  if (asBool(data.success) === false) {
    const err = asJsonish(data.error);
    const message = isObject(err) ? (text(err.message) ?? text(err)) : text(err);
    if (message !== undefined) body = body === '' ? message : `${body}\n${message}`;
  }
  const exit = asNumber(pick(data, 'shellExecution.exitCode'));
  if (exit !== undefined && exit !== 0) body = `[exit ${exit}] ${body}`;
  return body;
}

/** The subject of a permission request: fullCommandText, url, fileName, path or serverName/toolName. */
function permissionTarget(pr: JsonObject): string | undefined {
  for (const k of ['fullCommandText', 'url', 'fileName', 'path']) {
    const t = text(pr[k]);
    if (t !== undefined) return t;
  }
  const server = text(pr.serverName);
  const tool = text(pr.toolName);
  if (server !== undefined && tool !== undefined) return `${server}/${tool}`;
  return server ?? tool;
}

/**
 * `permission request: <kind> <target> intention=<intention>`; absent parts are left out, kind
 * prints `-`. Each part comes from permissionRequest, else from promptRequest (the prompt shown),
 * which seed 001's sample fills where its permissionRequest has only kind and toolCallId.
 */
export function permissionRequestText(pr: JsonObject, prompt: JsonObject = {}): string {
  // Seed 001's promptRequest names the intention `intent`; either key, intention first.
  const intention = text(pr.intention) ?? text(prompt.intention) ?? text(pr.intent) ?? text(prompt.intent);
  const parts = [
    'permission request:',
    text(pr.kind) ?? text(prompt.kind) ?? '-',
    permissionTarget(pr) ?? permissionTarget(prompt),
    intention === undefined ? undefined : `intention=${intention}`,
  ];
  return parts.filter((p) => p !== undefined).join(' ');
}

// The table's order of the optional permission.completed suffixes. Containers print as compact
// JSON (approval, rules, directories); the others are text.
const DECISION_SUFFIXES: readonly (readonly [key: string, label: string])[] = [
  ['locationKey', 'location'],
  ['approval', 'approval'],
  ['directories', 'directories'],
  ['feedback', 'feedback'],
  ['rules', 'rules'],
  ['reason', 'reason'],
  ['path', 'path'],
  ['message', 'message'],
];

/**
 * `permission decision: <result.kind> source=<decisionSource or ->` and the suffixes present.
 * decisionSource is read beside result, else inside it (the Windows listing's nesting).
 */
export function permissionDecisionText(data: JsonObject): string {
  const raw = asJsonish(data.result);
  const result = obj(raw);
  const kind = text(result.kind) ?? (typeof raw === 'string' ? text(raw) : undefined) ?? '-';
  const source = text(data.decisionSource) ?? text(result.decisionSource) ?? '-';
  let out = `permission decision: ${kind} source=${source}`;
  for (const [key, label] of DECISION_SUFFIXES) {
    const t = jsonText(result[key]);
    if (t !== undefined) out += ` ${label}=${t}`;
  }
  return out;
}

/** The decisionSource of a permission.carriedForward (beside or inside result), or `-`. */
export function carriedForwardText(data: JsonObject): string {
  const source = text(data.decisionSource) ?? text(obj(data.result).decisionSource) ?? '-';
  return `permission decision: carried-forward source=${source}`;
}

/** ` cause=.. source=.. effort=..` for the keys of a session.model_change that are present. */
export function modelChangeSuffix(data: JsonObject): string {
  let out = '';
  for (const [key, label] of [
    ['cause', 'cause'],
    ['source', 'source'],
    ['reasoningEffort', 'effort'],
  ] as const) {
    const t = text(data[key]);
    if (t !== undefined) out += ` ${label}=${t}`;
  }
  return out;
}

/**
 * `session end: <shutdownType> <errorReason> files modified: <list>`. A missing shutdownType prints
 * `-`; errorReason (only on error shutdowns) is left out when absent; the files print
 * comma-separated, `-` when none.
 */
export function shutdownText(data: JsonObject): string {
  const type = text(data.shutdownType) ?? '-';
  const reason = text(data.errorReason);
  const files = (asArray(pick(data, 'codeChanges.filesModified')) ?? []).map((f) => text(f)).filter((f) => f !== undefined);
  const list = files.length > 0 ? files.join(', ') : '-';
  return `session end: ${type}${reason === undefined ? '' : ` ${reason}`} files modified: ${list}`;
}

/** `hook <hookType> start: <compact JSON of input, or {}>`. */
export function hookStartText(data: JsonObject): string {
  const input = asJsonish(data.input);
  return `hook ${text(data.hookType) ?? '-'} start: ${input === undefined || input === null ? '{}' : compactJson(input)}`;
}

/** `hook <hookType> end: success=<bool or -> output=<compact JSON or {}>`, then ` error=<compact JSON>`. */
export function hookEndText(data: JsonObject): string {
  const success = asBool(data.success);
  const output = asJsonish(data.output);
  let out = `hook ${text(data.hookType) ?? '-'} end: success=${success === undefined ? '-' : String(success)} output=${output === undefined || output === null ? '{}' : compactJson(output)}`;
  const error = asJsonish(data.error);
  if (error !== undefined && error !== null) out += ` error=${compactJson(error)}`;
  return out;
}

/** The thinking text of an assistant.message: reasoningText, else the block summaries joined by newlines. */
export function thinkingText(data: JsonObject): string | undefined {
  const direct = text(data.reasoningText);
  if (direct !== undefined) return direct;
  const rb = asJsonish(data.reasoningBlocks);
  const blocks = Array.isArray(rb) ? rb : (asArray(asObject(rb)?.blocks) ?? []);
  const parts: string[] = [];
  for (const b of blocks) {
    const summary = asJsonish(asObject(b)?.summary);
    const items = Array.isArray(summary) ? summary : [summary];
    for (const s of items) {
      const t = typeof s === 'string' ? text(s) : text(asObject(s)?.text);
      if (t !== undefined) parts.push(t);
    }
  }
  return parts.length > 0 ? parts.join('\n') : undefined;
}
