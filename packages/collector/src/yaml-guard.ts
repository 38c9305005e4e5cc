// The same check as @aitrail/parsers' sdk/yaml-guard.ts: the collector does not depend on the
// parsers (the one-file collector carries none); packages/cli/src/yaml-guards.test.ts holds the
// two to one answer.
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
