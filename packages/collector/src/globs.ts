import picomatch from 'picomatch';

/** Why a catalog glob is unusable, or undefined when it is fine. */
export function globProblem(glob: string, absolute: boolean): string | undefined {
  if (glob.trim() === '' || glob !== glob.trim()) return 'empty or surrounded by spaces';
  if (glob.includes('\\')) return 'use forward slashes, not backslashes';
  if (glob.includes('\0')) return 'contains a NUL byte';
  if (absolute && !glob.startsWith('/') && !/^[A-Za-z]:\//.test(glob)) {
    return 'system globs must be absolute: "/etc/..." (Linux, macOS) or a drive letter "C:/..." (Windows)';
  }
  if (!absolute && (glob.startsWith('/') || /^[A-Za-z]:/.test(glob) || glob.startsWith('~'))) {
    return 'must be relative to the home (no leading "/", "~" or drive letter)';
  }
  const segs = glob.split('/');
  if (segs.slice(absolute ? 1 : 0).some((s) => s === '' || s === '.' || s === '..')) {
    return 'empty, "." or ".." path segment';
  }
  if (glob.startsWith('!')) return 'negated globs are not supported; use "exclude"';
  return patternProblem(glob);
}

// Characters picomatch's parser gives a meaning to (brackets, groups, quotes, escapes, anchors).
const PARSED = /[*?[\]{}()!+@|,"\\$^]/;
// Globs longer than this are checked whole (picomatch caps a pattern at 65,536 characters).
const TAIL_ABOVE = 4096;
const tailProblems = new Map<string, string | undefined>();

/**
 * picomatch's verdict on a glob (strictBrackets): it throws only on unbalanced brackets, groups
 * and braces, or past its length cap. Leading segments without a character its parser reads add
 * no state, so the rest (after one plain segment) decides; an anchor's dozens of expansions
 * differ only there, and their rest is parsed once (5,233 parses took a second of start-up).
 */
function patternProblem(glob: string): string | undefined {
  if (glob.length > TAIL_ABOVE) return makeReProblem(glob);
  let start = 0;
  for (let i = glob.indexOf('/'); i >= 0 && !PARSED.test(glob.slice(start, i)); i = glob.indexOf('/', start)) start = i + 1;
  if (!PARSED.test(glob.slice(start))) return undefined;
  // After one plain segment, as in the glob: a leading "!" would negate instead.
  const tail = start === 0 ? glob : `x/${glob.slice(start)}`;
  if (!tailProblems.has(tail)) tailProblems.set(tail, makeReProblem(tail));
  return tailProblems.get(tail);
}

function makeReProblem(glob: string): string | undefined {
  try {
    // Without fastpaths, which take only patterns without brackets: parsed as the whole glob would be.
    picomatch.makeRe(glob, { strictBrackets: true, dot: true, fastpaths: false });
  } catch (err) {
    return (err as Error).message;
  }
  return undefined;
}

/** True for a system glob of a Windows layout (`C:/Program Files/...`). */
export function isDriveGlob(glob: string): boolean {
  return /^[A-Za-z]:\//.test(glob);
}

/** True when a path segment holds glob syntax. */
function isMagic(seg: string): boolean {
  return /[*?[\]{}()!+@]/.test(seg);
}

/** The fixed leading segments of a glob: the directory (or file) to walk for it. */
export function globPrefix(glob: string): string {
  const segs = glob.split('/');
  const fixed: string[] = [];
  for (const s of segs) {
    if (isMagic(s)) break;
    fixed.push(s);
  }
  return fixed.join('/');
}

/** How deep below its prefix a glob can reach (Infinity with `**`). */
export function globDepth(glob: string): number {
  if (glob.includes('**')) return Number.POSITIVE_INFINITY;
  const prefix = globPrefix(glob);
  const all = glob.split('/').length;
  return all - (prefix === '' ? 0 : prefix.split('/').length);
}

/** A set of compiled globs answering "does this `/` path match any of them?". */
export type Matcher = (rel: string) => boolean;

/**
 * Case folding for the prefix index: coarser than (or equal to) the `i` flag of the regexes
 * picomatch builds, so the index never hides a match the regex would make.
 */
function fold(s: string): string {
  return s.toUpperCase().toLowerCase();
}

/**
 * Compile globs; `nocase` for Windows and macOS homes. An editor anchor expands one line into
 * dozens of globs, so they are indexed by their fixed leading segments: a path is tested only
 * against the globs whose prefix is one of its ancestors (or itself). Each prefix's globs are
 * compiled when a path first reaches it: most editor folders are absent on a given machine.
 */
export function compileGlobs(globs: string[], nocase: boolean): Matcher {
  if (globs.length === 0) return () => false;
  const key = nocase ? fold : (s: string) => s;
  const byPrefix = new Map<string, string[]>();
  for (const g of globs) {
    const k = key(globPrefix(g));
    const list = byPrefix.get(k);
    if (list) list.push(g);
    else byPrefix.set(k, [g]);
  }
  const compiled = new Map<string, (s: string) => boolean>();
  const test = (p: string, rel: string): boolean => {
    const k = key(p);
    let m = compiled.get(k);
    if (!m) {
      const list = byPrefix.get(k);
      if (!list) return false;
      m = picomatch(list, { dot: true, nocase });
      compiled.set(k, m);
    }
    return m(rel);
  };
  // Only ancestors as deep as the deepest prefix can have globs: a path 2,000 folders deep
  // (PATH_MAX allows it) was sliced and folded at every level, for every folder of the walk.
  let maxParts = 0;
  for (const k of byPrefix.keys()) if (k !== '') maxParts = Math.max(maxParts, k.split('/').length);
  return (rel) => {
    if (test('', rel)) return true;
    let parts = 1;
    for (let i = rel.indexOf('/'); i >= 0 && parts <= maxParts; i = rel.indexOf('/', i + 1), parts++) if (i > 0 && test(rel.slice(0, i), rel)) return true;
    return rel !== '' && parts <= maxParts && test(rel, rel);
  };
}

/** Directory patterns from `dir/**` globs: a matching directory is skipped whole. */
export function compileExcludedDirs(globs: string[], nocase: boolean): Matcher {
  return compileGlobs(
    globs.filter((g) => g.endsWith('/**')).map((g) => g.slice(0, -3)),
    nocase,
  );
}

/** The minimal walk roots for a set of globs: prefixes, with nested ones dropped. */
export function walkRoots(globs: string[]): { prefix: string; depth: number }[] {
  const byPrefix = new Map<string, number>();
  for (const g of globs) {
    const p = globPrefix(g);
    byPrefix.set(p, Math.max(byPrefix.get(p) ?? 0, globDepth(g)));
  }
  // The roots by prefix, in sorted order (the result's). A prefix sorts after its ancestors and
  // the roots never nest, so a prefix has at most one root among its ancestors, found by looking
  // each ancestor up (a scan of the roots for each prefix took 44 ms of every collect's start:
  // 1,397 globs for a home).
  const roots = new Map<string, { prefix: string; depth: number }>();
  for (const p of [...byPrefix.keys()].sort()) {
    let parent = roots.get('');
    for (let i = p.indexOf('/'); parent === undefined && i >= 0; i = p.indexOf('/', i + 1)) parent = roots.get(p.slice(0, i));
    if (parent) {
      const extra = p.split('/').length - (parent.prefix === '' ? 0 : parent.prefix.split('/').length);
      parent.depth = Math.max(parent.depth, extra + byPrefix.get(p)!);
    } else {
      roots.set(p, { prefix: p, depth: byPrefix.get(p)! });
    }
  }
  return [...roots.values()];
}

/**
 * "Can any of these globs match something below this directory?": segment by segment, so
 * the walk never enters a directory that no glob reaches (`.claude-*​/**` lists the home's
 * top level only, it does not walk the whole home).
 */
export function compileDirFilter(globs: string[], nocase: boolean): Matcher {
  // One matcher per distinct segment, compiled on first use: the expansions of an anchor share
  // almost all their segments, and the walk reaches few of them.
  const segs = new Map<string, (s: string) => boolean>();
  const segment = (seg: string) => {
    let m = segs.get(seg);
    if (!m) {
      let compiled: ((s: string) => boolean) | undefined;
      m = (s) => {
        compiled ??= picomatch(seg, { dot: true, nocase });
        return compiled(s);
      };
      segs.set(seg, m);
    }
    return m;
  };
  const parsed = [...new Set(globs)].map((g) =>
    g
      .replace(/^\/+/, '')
      .split('/')
      .map((seg) => (seg.includes('**') ? null : segment(seg))),
  );
  return (rel) => {
    const segs = rel.replace(/^\/+/, '').split('/');
    return parsed.some((gs) => {
      for (let i = 0; i < segs.length; i += 1) {
        if (i >= gs.length) return false;
        const m = gs[i];
        if (m === null) return true;
        if (!m(segs[i])) return false;
      }
      return segs.length < gs.length;
    });
  };
}

/**
 * Directories never entered under a project root, whatever the globs: version-control stores,
 * package trees and bytecode caches hold no agent files, and one `**` glob would otherwise walk
 * them all (docs/catalog.md, "Project walks").
 */
export const PROJECT_PRUNED_DIRS = ['.git', '.hg', '.svn', 'node_modules', '.venv', '__pycache__'] as const;

/**
 * Matches a directory whose name is in `names`, unless a glob spells out its path in its fixed
 * leading segments (a catalog that asks for `.git/hooks/*` still gets them).
 */
export function compilePrunedDirs(names: readonly string[], globs: string[], nocase: boolean): Matcher {
  const fold = (s: string) => (nocase ? s.toLowerCase() : s);
  const set = new Set(names.map(fold));
  const literal = new Set<string>();
  for (const g of globs) {
    const segs = globPrefix(g).split('/').filter(Boolean);
    for (let i = 1; i <= segs.length; i += 1) literal.add(fold(segs.slice(0, i).join('/')));
  }
  return (rel) => set.has(fold(rel.slice(rel.lastIndexOf('/') + 1))) && !literal.has(fold(rel));
}

/** For catalog `collect_if` entries: the names a matching directory must hold one of. */
export function compileCollectIf(entries: { dirs: string[]; contains: string[] }[], nocase: boolean): ((rel: string) => string[] | undefined) | undefined {
  if (entries.length === 0) return undefined;
  const ms = entries.map((e) => ({ m: compileGlobs(e.dirs, nocase), contains: e.contains }));
  return (rel) => {
    const hits = ms.filter((x) => x.m(rel));
    return hits.length === 0 ? undefined : hits.flatMap((x) => x.contains);
  };
}
