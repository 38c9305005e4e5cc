/**
 * The Gemini API's Content parts (`@google/genai` PartListUnion), as both CLIs record them:
 * a string, or an array of {text}, {text, thought}, {functionCall}, {functionResponse},
 * {inlineData}, {fileData}. Every reader here is total: any shape gives a value, never a throw.
 */
import { compactJson } from '../../sdk/compact-json.js';
import { asObject, asString, isObject, type JsonObject } from '../../sdk/decode.js';

/** The parts of a content value: a string is one text part; an object one part. */
export function partsOf(content: unknown): JsonObject[] {
  if (typeof content === 'string') return [{ text: content }];
  if (Array.isArray(content)) return content.flatMap((p) => (typeof p === 'string' ? [{ text: p }] : isObject(p) ? [p] : []));
  if (isObject(content)) return Array.isArray(content.parts) ? partsOf(content.parts) : [content];
  return [];
}

/** The visible text: text parts that are not thoughts, joined with newlines; media parts named. */
export function visibleText(parts: readonly JsonObject[]): string {
  const out: string[] = [];
  for (const p of parts) {
    if (p.thought === true) continue;
    const t = asString(p.text);
    if (t !== undefined && typeof p.text === 'string') out.push(t);
    const media = mediaLabel(p);
    if (media) out.push(media);
  }
  return out.join('\n');
}

/** `[inlineData <mime>]` or `[file <uri>]` for a media part, else ''. */
export function mediaLabel(p: JsonObject): string {
  const inline = asObject(p.inlineData);
  if (inline) return `[inlineData ${asString(inline.mimeType) ?? '-'}]`;
  const file = asObject(p.fileData);
  if (file) return `[file ${asString(file.fileUri) ?? '-'}]`;
  return '';
}

/** The texts of thought parts (`{text, thought: true}`). */
export function thoughtTexts(parts: readonly JsonObject[]): string[] {
  return parts.filter((p) => p.thought === true && typeof p.text === 'string' && p.text !== '').map((p) => p.text as string);
}

/** A function call part's {id, name, args}. */
export interface Call {
  id: string;
  name: string;
  args: unknown;
}

/** The functionCall parts. */
export function callsOf(parts: readonly JsonObject[]): Call[] {
  return parts.flatMap((p) => {
    const c = asObject(p.functionCall);
    return c ? [{ id: asString(c.id) ?? '', name: asString(c.name) ?? '', args: c.args }] : [];
  });
}

/** A function response part's {id, name, response}. */
export interface Response {
  id: string;
  name: string;
  response: unknown;
}

/** The functionResponse parts. */
export function responsesOf(parts: readonly JsonObject[]): Response[] {
  return parts.flatMap((p) => {
    const r = asObject(p.functionResponse);
    return r ? [{ id: asString(r.id) ?? '', name: asString(r.name) ?? '', response: r.response }] : [];
  });
}

/** True when every part is a functionResponse (and there is one): a tool response turn, not a prompt. */
export function onlyResponses(parts: readonly JsonObject[]): boolean {
  return parts.length > 0 && parts.every((p) => isObject(p.functionResponse));
}

// The argument that says what a call acts on, in the spec's order.
const TARGET_ARGS = ['command', 'file_path', 'absolute_path', 'dir_path', 'path', 'pattern', 'query', 'url', 'prompt'];

/** A tool_use row's text: the argument that names the target, else the arguments as compact JSON. */
export function callText(args: unknown): string {
  const o = asObject(args);
  if (o) {
    for (const k of TARGET_ARGS) {
      const v = o[k];
      if (typeof v === 'string' && v !== '') return v;
    }
  }
  return args === undefined ? '' : compactJson(args);
}

/** A function response as text: `output`, else `error`, else the response as compact JSON. */
export function responseText(response: unknown): string {
  if (typeof response === 'string') return response;
  const o = asObject(response);
  if (!o) return response === undefined || response === null ? '' : compactJson(response);
  for (const k of ['output', 'error', 'llmContent']) {
    const v = o[k];
    if (typeof v === 'string') return v;
  }
  return compactJson(o);
}

/** What a recorded tool call gave: the functionResponse parts of `result`, else `resultDisplay` (a string, or a diff's text). */
export function resultText(result: unknown, display: unknown): string {
  const parts = partsOf(result);
  const responses = responsesOf(parts);
  if (responses.length > 0) return responses.map((r) => responseText(r.response)).join('\n');
  const text = visibleText(parts);
  if (text) return text;
  if (typeof display === 'string') return display;
  const d = asObject(display);
  if (d) return asString(d.fileDiff) ?? asString(d.text) ?? asString(d.output) ?? compactJson(d);
  return '';
}
