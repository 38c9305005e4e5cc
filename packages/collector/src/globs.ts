import picomatch from 'picomatch';

/** Why a catalog glob is unusable, or undefined when it is fine. */
export function globProblem(glob: string, absolute: boolean): string | undefined {
  if (glob.trim() === '' || glob !== glob.trim()) return 'empty or surrounded by spaces';
  if (glob.includes('\\')) return 'use forward slashes, not backslashes';
  if (glob.includes('\0')) return 'contains a NUL byte';
  if (absolute && !glob.startsWith('/')) return 'system globs must be absolute paths starting with "/"';
  if (!absolute && (glob.startsWith('/') || /^[A-Za-z]:/.test(glob) || glob.startsWith('~'))) {
    return 'must be relative to the home (no leading "/", "~" or drive letter)';
  }
  const segs = glob.split('/');
  if (segs.slice(absolute ? 1 : 0).some((s) => s === '' || s === '.' || s === '..')) {
    return 'empty, "." or ".." path segment';
  }
  if (glob.startsWith('!')) return 'negated globs are not supported; use "exclude"';
  try {
    picomatch.makeRe(glob, { strictBrackets: true, dot: true });
  } catch (err) {
    return (err as Error).message;
  }
  return undefined;
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

/** Compile globs; `nocase` for Windows and macOS homes. */
export function compileGlobs(globs: string[], nocase: boolean): Matcher {
  if (globs.length === 0) return () => false;
  const m = picomatch(globs, { dot: true, nocase });
  return (rel) => m(rel);
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
  const prefixes = [...byPrefix.keys()].sort();
  const out: { prefix: string; depth: number }[] = [];
  for (const p of prefixes) {
    const parent = out.find((o) => o.prefix === '' || p.startsWith(`${o.prefix}/`));
    if (parent) {
      const extra = p.split('/').length - (parent.prefix === '' ? 0 : parent.prefix.split('/').length);
      parent.depth = Math.max(parent.depth, extra + byPrefix.get(p)!);
    } else {
      out.push({ prefix: p, depth: byPrefix.get(p)! });
    }
  }
  return out;
}

/**
 * "Can any of these globs match something below this directory?": segment by segment, so
 * the walk never enters a directory that no glob reaches (`.claude-*​/**` lists the home's
 * top level only, it does not walk the whole home).
 */
export function compileDirFilter(globs: string[], nocase: boolean): Matcher {
  const parsed = globs.map((g) =>
    g
      .replace(/^\/+/, '')
      .split('/')
      .map((seg) => (seg.includes('**') ? null : picomatch(seg, { dot: true, nocase }))),
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
