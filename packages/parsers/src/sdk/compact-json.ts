/**
 * Compact JSON as the seed prints it: keys sorted at every depth, no whitespace, UTF-8 as is.
 * Written with an explicit stack, so any depth JSON.parse can build (100,000 levels and more)
 * prints whole without overflowing the call stack; values nested deeper than `maxDepth` (no
 * limit by default) are printed as the string `"…(nested too deep)"`. Never throws: a cycle
 * prints as `"…(circular)"`; otherwise the output equals JSON.stringify's with sorted keys.
 */
export function compactJson(value: unknown, maxDepth = Number.POSITIVE_INFINITY): string {
  const out: string[] = [];
  const stack: Frame[] = [];
  const open = new Set<object>();

  const write = (raw: unknown): void => {
    const v = withToJson(raw);
    if (v === null || v === undefined) out.push('null');
    else if (typeof v === 'string') out.push(JSON.stringify(v));
    else if (typeof v === 'number') out.push(Number.isFinite(v) ? String(v) : 'null');
    else if (typeof v === 'boolean') out.push(v ? 'true' : 'false');
    else if (typeof v === 'bigint') out.push(v.toString());
    else if (typeof v !== 'object') out.push('null');
    else if (stack.length >= maxDepth) out.push(JSON.stringify('…(nested too deep)'));
    else if (open.has(v)) out.push(JSON.stringify('…(circular)'));
    else if (Array.isArray(v)) {
      out.push('[');
      open.add(v);
      stack.push({ obj: v, keys: null, n: v.length, i: 0 });
    } else {
      const o = v as Record<string, unknown>;
      // JSON.stringify leaves out keys whose value it cannot print; so does this.
      const keys = Object.keys(o)
        .filter((k) => printable(withToJson(o[k])))
        .sort(byCodeUnit);
      out.push('{');
      open.add(v);
      stack.push({ obj: o, keys, n: keys.length, i: 0 });
    }
  };

  write(value);
  while (stack.length > 0) {
    const top = stack[stack.length - 1];
    if (top.i >= top.n) {
      out.push(top.keys ? '}' : ']');
      open.delete(top.obj);
      stack.pop();
      continue;
    }
    if (top.i > 0) out.push(',');
    const i = top.i++;
    if (top.keys) {
      out.push(JSON.stringify(top.keys[i]), ':');
      write((top.obj as Record<string, unknown>)[top.keys[i]]);
    } else {
      write((top.obj as unknown[])[i]);
    }
  }
  return out.join('');
}

interface Frame {
  obj: object;
  /** Sorted keys of an object; null for an array. */
  keys: string[] | null;
  n: number;
  i: number;
}

function withToJson(v: unknown): unknown {
  if (typeof v === 'object' && v !== null && typeof (v as { toJSON?: unknown }).toJSON === 'function') {
    try {
      return (v as { toJSON: () => unknown }).toJSON();
    } catch {
      return null;
    }
  }
  return v;
}

function printable(v: unknown): boolean {
  return v !== undefined && typeof v !== 'function' && typeof v !== 'symbol';
}

// Sort by UTF-16 code units, as Array.prototype.sort does, but explicit: locale never matters.
function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Levels {@link jsonText} prints of a value too deep for JSON.stringify. */
export const JSON_TEXT_MAX_DEPTH = 64;

/**
 * JSON.stringify's text of a value read from evidence, for a row or a message: JSON.stringify
 * recurses, so a value nested a few thousand levels deep (valid JSON, which JSON.parse builds
 * without limit) overflows the call stack, and one such value in a line lost the whole file.
 * Such a value (or one JSON.stringify refuses: a cycle, a BigInt from SQLite) prints as
 * {@link compactJson} (sorted keys) cut at {@link JSON_TEXT_MAX_DEPTH} levels. Never throws;
 * '' where JSON.stringify gives nothing (undefined, a function).
 */
export function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return compactJson(value, JSON_TEXT_MAX_DEPTH);
  }
}

/**
 * String(value) of a value read from evidence: an array's toString joins its elements
 * recursively, so an array nested thousands deep overflows the call stack; such a value gives its
 * {@link jsonText} instead. Never throws.
 */
export function plainText(value: unknown): string {
  try {
    return String(value);
  } catch {
    return jsonText(value);
  }
}
