import type { Catalog } from './catalog.js';
import { compileExcludedDirs, compileGlobs } from './globs.js';

/** What collect does with a home-relative path: secret (collected and flagged), collect, exclude, or none. */
export type Disposition = 'secret' | 'collect' | 'exclude' | 'none';

/** Classify a home-relative (`/`) path against a catalog the way collect does (without --full). */
export function classifyRel(catalog: Catalog, rel: string, nocase: boolean, scope: 'home' | 'project' = 'home'): Disposition {
  const collectGlobs = scope === 'project' ? catalog.project.collect : catalog.collect;
  const secretGlobs = scope === 'project' ? catalog.project.secrets : catalog.secrets;
  const exclude = scope === 'project' ? [] : catalog.exclude;
  const secret = compileGlobs(secretGlobs, nocase);
  const wanted = compileGlobs(collectGlobs, nocase);
  if (!secret(rel) && !wanted(rel)) return 'none';
  const dirs = compileExcludedDirs(exclude, nocase);
  const segs = rel.split('/');
  for (let i = 1; i < segs.length; i += 1) if (dirs(segs.slice(0, i).join('/'))) return 'exclude';
  if (compileGlobs(exclude, nocase)(rel)) return 'exclude';
  return secret(rel) ? 'secret' : 'collect';
}
