/**
 * Text of Continue's values, written once so that a session row and its dev-data copy read the
 * same (dedup matches them by text): message content, tool arguments, ContextItem outputs.
 */
import { createHash } from 'node:crypto';
import { asArray, asObject, asString, isObject } from '../../sdk/decode.js';
import { compactJson } from '../../sdk/compact-json.js';

/** MessageContent: a string, or parts `{type: text, text}` / `{type: imageUrl, imageUrl}`. */
export function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  const parts: string[] = [];
  for (const p of asArray(content) ?? []) {
    if (typeof p === 'string') parts.push(p);
    else if (isObject(p)) parts.push(p.type === 'text' ? (asString(p.text) ?? '') : /image/i.test(asString(p.type) ?? '') ? '[image]' : compactJson(p));
  }
  return parts.filter((p) => p !== '').join('\n');
}

/** A tool call's arguments (a JSON string or an object): the command for a terminal tool, else compact JSON. */
export function toolArgsText(args: unknown): string {
  const o = asObject(args);
  if (!o) return typeof args === 'string' ? args : args === undefined || args === null ? '' : compactJson(args);
  return typeof o.command === 'string' ? o.command : compactJson(o);
}

/** ContextItems (a tool's output, @-mentions): their contents, one after another. */
export function contextItemsText(items: unknown): string {
  return (asArray(items) ?? [])
    .map((i) => {
      const o = asObject(i);
      return o ? (asString(o.content) ?? asString(o.description) ?? asString(o.name) ?? '') : (asString(i) ?? '');
    })
    .filter((t) => t !== '')
    .join('\n');
}

/** A short digest of a text, for matching a reply with its dev-data line without keeping either. */
export function digest(text: string): string {
  return createHash('sha1').update(text.trim()).digest('hex');
}
