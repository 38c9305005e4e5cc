import type { DocumentOptions, ParseOptions, SchemaOptions, ToJSOptions } from 'yaml';
import { yamlLib } from './libs.js';

/** Nesting past which a YAML text is refused before the `yaml` package sees it. */
export const YAML_MAX_DEPTH = 64;

const isBlank = (c: number) => c === 32 || c === 9;

/**
 * Whether a YAML text nests deeper than `max`, found in one pass without parsing it: flow
 * collections (`[` and `{` outside quoted scalars and comments) and block entries opened on one
 * line (`- - - x`, `? ? x`). The `yaml` package builds nodes per level and recurses: a megabyte of
 * `[` took 850 MB of heap, and the allocation failure ended the process past any try/catch.
 */
export function yamlTooDeep(text: string, max = YAML_MAX_DEPTH): boolean {
  let depth = 0;
  let quote = 0;
  let atLineStart = true;
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (quote !== 0) {
      if (quote === 34 && c === 92) i++;
      else if (c === quote) quote = 0;
      continue;
    }
    if (atLineStart) {
      atLineStart = false;
      let run = 0;
      for (;;) {
        while (isBlank(text.charCodeAt(i))) i++;
        c = text.charCodeAt(i);
        if ((c === 45 || c === 63) && isBlank(text.charCodeAt(i + 1))) {
          if (++run > max) return true;
          i += 2;
        } else break;
      }
      if (i >= text.length) break;
    }
    const prev = i === 0 ? 10 : text.charCodeAt(i - 1);
    if (c === 10) atLineStart = true;
    else if ((c === 34 || c === 39) && (prev === 10 || isBlank(prev) || prev === 91 || prev === 123 || prev === 44 || prev === 58)) quote = c;
    else if (c === 35 && (prev === 10 || isBlank(prev))) {
      const nl = text.indexOf('\n', i);
      if (nl < 0) break;
      i = nl - 1;
    } else if (c === 91 || c === 123) {
      if (++depth > max) return true;
    } else if ((c === 93 || c === 125) && depth > 0) depth--;
  }
  return false;
}

/** Config files are KBs; past this the YAML library (~5 s a MB of some shapes) is not given a text. */
export const YAML_MAX_CHARS = 1024 * 1024;

/**
 * `yaml`'s `parse` for a file from the evidence: a text past {@link YAML_MAX_CHARS} or nested
 * past {@link YAML_MAX_DEPTH} throws an ordinary Error instead, which the caller's catch turns
 * into its unreadable row as it does invalid YAML. Errors are not prettified (the library's
 * default): that walks the text for each error, and 250 KB of `"` took 39 s instead of 1.3 s.
 * The first error is thrown with its `linePos`, as a prettified one carries it; warnings are
 * not printed.
 */
export function parseYamlGuarded(text: string, options: ParseOptions & DocumentOptions & SchemaOptions & ToJSOptions = {}): unknown {
  if (text.length > YAML_MAX_CHARS) throw new Error(`a YAML text of ${text.length} characters, over the ${YAML_MAX_CHARS} read`);
  if (yamlTooDeep(text)) throw new Error(`YAML nested deeper than ${YAML_MAX_DEPTH} levels`);
  const { LineCounter, parseDocument } = yamlLib();
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { ...options, prettyErrors: false, lineCounter });
  const first = doc.errors[0];
  if (first) throw Object.assign(new Error(first.message), { linePos: [lineCounter.linePos(first.pos[0])] });
  return doc.toJS(options);
}
