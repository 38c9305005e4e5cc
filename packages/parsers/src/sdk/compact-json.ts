/**
 * Compact JSON as the seed prints it: keys sorted, no whitespace, UTF-8 as is.
 * Values nested deeper than `maxDepth` are cut to the string `"…(nested too deep)"`
 * so that hostile input cannot overflow the stack.
 */
export function compactJson(value: unknown, maxDepth = 2000): string {
  return write(value, 0, maxDepth);
}

function write(v: unknown, depth: number, max: number): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'bigint') return v.toString();
  if (typeof v !== 'object') return 'null';
  if (depth >= max) return JSON.stringify('…(nested too deep)');
  if (Array.isArray(v)) return `[${v.map((x) => write(x, depth + 1, max)).join(',')}]`;
  const obj = v as Record<string, unknown>;
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${write(obj[k], depth + 1, max)}`).join(',')}}`;
}
