import { asArray, asObject, asString, isObject } from '../../sdk/decode.js';

/** Text of content that is a string or blocks: texts joined with `\n`, images as `[image <type>]`. */
export function blocksText(content: unknown): string {
  if (typeof content === 'string') return content;
  const parts: string[] = [];
  for (const b of asArray(content) ?? []) {
    if (!isObject(b)) continue;
    if (b.type === 'text') parts.push(asString(b.text) ?? '');
    else if (b.type === 'image') parts.push(`[image ${asString(asObject(b.source)?.media_type) ?? 'unknown'}]`);
  }
  return parts.join('\n');
}
