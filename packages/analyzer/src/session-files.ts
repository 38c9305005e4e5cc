import { compileGlobs, type ManifestRow } from '@aitrail/collector/archive';

/** An agent's `session_files` globs, expanded (docs/catalog.md, "session_files"). */
export interface SessionFileGlobs {
  /** Home-relative globs. */
  home: string[];
  /** Globs relative to a project root. */
  project: string[];
}

/**
 * Whether a manifest row is one of its agent's session files, for one collection. Globs match
 * case-insensitively when the collection's layout is Windows or macOS, as the collector matched
 * them; system-scope rows are never session files (their rel is absolute).
 */
export function sessionFileMatcher(globs: ReadonlyMap<string, SessionFileGlobs> | undefined, layout: string | undefined): (agent: string, row: ManifestRow) => boolean {
  if (!globs || globs.size === 0) return () => false;
  const nocase = layout === 'win32' || layout === 'darwin';
  const compiled = new Map<string, { home: (rel: string) => boolean; project: (rel: string) => boolean }>();
  for (const [agent, g] of globs) {
    if (g.home.length + g.project.length === 0) continue;
    compiled.set(agent, { home: compileGlobs(g.home, nocase), project: compileGlobs(g.project, nocase) });
  }
  return (agent, row) => {
    const m = compiled.get(agent);
    if (!m) return false;
    if (row.scope === 'home') return m.home(row.rel);
    if (row.scope === 'project') return m.project(row.rel);
    return false;
  };
}
