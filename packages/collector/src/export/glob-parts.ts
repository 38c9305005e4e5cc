/** A catalog glob split where its first wildcard segment begins. */
export interface GlobParts {
  /** The literal folders before any wildcard (`.copilot/session-state`), `/`-separated, maybe ''. */
  dir: string;
  /** The rest (`*\/events.jsonl`, `**`), '' when the glob names one file. */
  rest: string;
  /** The last segment when it holds no `**` (`events.jsonl`, `*.json`). */
  name: string;
  /** Whether the rest crosses folders (`**`, or more than one segment). */
  deep: boolean;
}

const WILD = /[*?[{]/;

/** Split a `/`-separated glob into its literal folder prefix and its wildcard rest. */
export function globParts(glob: string): GlobParts {
  const segs = glob.split('/').filter((s) => s !== '');
  const i = segs.findIndex((s) => WILD.test(s));
  const literal = i < 0 ? segs.length - 1 : i;
  const rest = segs.slice(literal);
  const last = rest[rest.length - 1] ?? '';
  return { dir: segs.slice(0, literal).join('/'), rest: rest.join('/'), name: last === '**' ? '*' : last, deep: rest.length > 1 || last === '**' };
}

/**
 * A glob as an RE2 regular expression (Velociraptor's regex engine: no lookaround), anchored at
 * a path separator of either kind so it matches the glob's path at the end of a full path.
 */
export function globRegex(glob: string): string {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      re += '.*';
      i++;
      if (glob[i + 1] === '/') i++;
    } else if (c === '*') re += '[^/\\\\]*';
    else if (c === '?') re += '[^/\\\\]';
    else if (c === '/') re += '[/\\\\]';
    else if (c === '{') re += '(?:';
    else if (c === '}') re += ')';
    else if (c === ',' && glob.lastIndexOf('{', i) > glob.lastIndexOf('}', i)) re += '|';
    else re += c.replace(/[.+^$()|[\]\\]/g, '\\$&');
  }
  return `(?i)(^|[/\\\\])${re}$`;
}
