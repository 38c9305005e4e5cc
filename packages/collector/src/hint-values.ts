/**
 * From a value a hint read to a project root (docs/catalog.md, "project_hints"): the home token
 * (`$USER_HOME$`), `file://` URIs, URIs of other hosts, the parent folder (`dirname`), and the
 * `text` format's regular expressions, which are bounded so a hostile line cannot stall a run.
 */

/** What a hint's value names: a local absolute path, a folder on another host, or nothing. */
export type HintTarget = { path: string } | { remote: string } | undefined;

/** The options of a hint that shape its values. */
export interface ValueRule {
  home_token?: string;
  dirname?: boolean;
}

/** True for an absolute path as recorded on any OS (`/x`, `C:\x`, `C:/x`). */
export function looksAbsolute(p: string): boolean {
  return (p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p)) && !p.includes('\0') && p.length < 4096;
}

const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]+):\/\//;

/**
 * A `file://` URI as the path it names (`file:///c%3A/Users/x` → `c:\Users\x`), undefined when
 * malformed; a URI of another scheme, or a `file://host/...` share, names a folder elsewhere.
 */
export function fromUri(value: string): HintTarget {
  const m = SCHEME.exec(value);
  if (!m) return undefined;
  const decode = (s: string) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return undefined;
    }
  };
  if (m[1].toLowerCase() !== 'file') return { remote: decode(value) ?? value };
  const rest = value.slice(m[0].length).replace(/[?#].*$/, '');
  const slash = rest.indexOf('/');
  const authority = slash < 0 ? rest : rest.slice(0, slash);
  if (authority !== '' && authority.toLowerCase() !== 'localhost') return { remote: decode(value) ?? value };
  const path = decode(slash < 0 ? '/' : rest.slice(slash));
  if (path === undefined || path.includes('\0')) return undefined;
  // VS Code writes Windows drives as /c%3A/Users/...: the drive letter starts the path.
  if (/^\/[A-Za-z]:(?:[\\/]|$)/.test(path)) {
    const rest = path.slice(3);
    return { path: path.slice(1, 3) + (rest === '' ? '\\' : rest.replace(/\//g, '\\')) };
  }
  return { path };
}

function parentOf(p: string): string {
  const trimmed = p.replace(/[\\/]+$/, '');
  const cut = Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\'));
  if (cut < 0) return p;
  const parent = trimmed.slice(0, cut);
  // The parent of /x is /, of C:\x is C:\.
  if (parent === '') return '/';
  return /^[A-Za-z]:$/.test(parent) ? `${parent}\\` : parent;
}

/**
 * A Windows path in its verbatim form as the local path or share it names: `\\?\C:\x` is
 * `C:\x` (Codex canonicalizes its `[projects]` keys so), `\\?\UNC\host\share` and `\\host\share`
 * a folder on another host; anything else unchanged.
 */
export function fromWindowsVerbatim(value: string): HintTarget {
  const drive = /^\\\\\?\\([A-Za-z]:(?:\\.*)?)$/.exec(value);
  if (drive) return { path: drive[1].length === 2 ? `${drive[1]}\\` : drive[1] };
  const unc = /^\\\\(?:\?\\UNC\\)?([^\\?.][^\\]*\\[^\\]+.*)$/.exec(value);
  if (unc) return { remote: `\\\\${unc[1]}` };
  return { path: value };
}

/** The project root a raw hint value names, with the home token and URIs resolved. */
export function hintTarget(raw: string, rule: ValueRule, home: string | undefined): HintTarget {
  let v = raw;
  const tok = rule.home_token;
  if (tok && home && v.startsWith(tok) && (v.length === tok.length || v[tok.length] === '/' || v[tok.length] === '\\')) {
    const rest = v.slice(tok.length);
    v = home.replace(/[\\/]+$/, '') + (home.includes('\\') ? rest.replace(/\//g, '\\') : rest);
  }
  let target: HintTarget = SCHEME.test(v) ? fromUri(v) : v.startsWith('\\\\') ? fromWindowsVerbatim(v) : { path: v };
  if (target && 'path' in target && rule.dirname) target = { path: parentOf(target.path) };
  if (target && 'path' in target && !looksAbsolute(target.path)) return undefined;
  return target;
}

/** How far past its literal start a `text` regex may look (a path is shorter than this). */
export const TEXT_WINDOW = 4096;

/** The literal text a `text` regex begins with (`Current Working Directory \(` → `Current Working Directory (`). */
export function literalPrefix(src: string): string {
  let out = '';
  for (let i = 0; i < src.length; i += 1) {
    let c = src[i];
    let len = 1;
    if (c === '\\') {
      const n = src[i + 1];
      if (n === undefined || /[A-Za-z0-9]/.test(n)) break;
      c = n;
      len = 2;
    } else if ('.[](){}*+?^$|'.includes(c)) break;
    // A quantified last character is not certain to be there.
    if ('*+?{'.includes(src[i + len] ?? '')) break;
    out += c;
    i += len - 1;
  }
  return out;
}

/**
 * Why a `text` regex is refused, or undefined: it must compile, begin with at least two literal
 * characters, have a capture group, no backreference, and no repeated group holding a
 * quantifier or `|` (the shapes that backtrack exponentially).
 */
export function textRegexProblem(src: string): string | undefined {
  try {
    new RegExp(src);
  } catch (err) {
    return `not a valid regular expression (${(err as Error).message})`;
  }
  if (literalPrefix(src).length < 2) return 'must begin with at least two literal characters (the text before the path), e.g. "cwd=(\\S+)"';
  if (/\\[1-9]|\\k</.test(src)) return 'backreferences are not allowed';
  // Groups: does each hold a quantifier or an alternation, and is it repeated itself?
  const stack: { risky: boolean }[] = [];
  let inClass = false;
  let groups = 0;
  for (let i = 0; i < src.length; i += 1) {
    const c = src[i];
    if (c === '\\') {
      i += 1;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') inClass = true;
    else if (c === '(') {
      if (src[i + 1] !== '?' || (src[i + 2] === '<' && src[i + 3] !== '=' && src[i + 3] !== '!')) groups += 1;
      stack.push({ risky: false });
    } else if (c === ')') {
      const g = stack.pop();
      if (g?.risky && /^[*+{?]/.test(src.slice(i + 1))) return 'a repeated group may hold neither a quantifier nor "|" (it can take exponential time on a hostile line)';
      if (g?.risky && stack.length > 0) stack[stack.length - 1].risky = true;
    } else if ('*+?{|'.includes(c) && !(c === '?' && src[i - 1] === '(')) {
      if (stack.length > 0) stack[stack.length - 1].risky = true;
    }
  }
  if (groups === 0) return 'needs a capture group around the path, e.g. "cwd=(\\S+)"';
  return undefined;
}

/** A compiled `text` hint: finds its literal start with indexOf, then tries the regex there on a bounded window. */
export function textMatcher(src: string): (line: string, budget: { attempts: number }) => string[] {
  const prefix = literalPrefix(src);
  const re = new RegExp(src, 'y');
  return (line, budget) => {
    const out: string[] = [];
    let from = 0;
    for (;;) {
      const at = line.indexOf(prefix, from);
      if (at < 0 || budget.attempts <= 0) return out;
      budget.attempts -= 1;
      re.lastIndex = 0;
      const m = re.exec(line.slice(at, at + prefix.length + TEXT_WINDOW));
      const v = m ? (m.groups?.path ?? m.slice(1).find((x) => x !== undefined)) : undefined;
      if (v) out.push(v);
      from = at + Math.max(1, m ? m[0].length : 1);
    }
  };
}
