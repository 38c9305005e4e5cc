import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { parse } from 'yaml';
import type { AgentPlugin } from '../../../sdk/types.js';

/** An agent's catalog YAML, parsed. */
export function catalogOf(agent: string): Record<string, unknown> {
  return parse(readFileSync(fileURLToPath(new URL(`../../../../../collector/catalog/${agent}.yaml`, import.meta.url)), 'utf8')) as Record<string, unknown>;
}

// docs/catalog.md globs (`**` crosses directories, `*` does not), matched case-insensitively as on
// Windows and macOS homes; an anchor glob (`@kiro/...`) is the collector's to expand and matches nothing here.
function globRe(glob: string): RegExp {
  if (glob.startsWith('@')) return /$^/;
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      re += glob[i + 2] === '/' ? '(?:.*/)?' : '.*';
      i += glob[i + 2] === '/' ? 2 : 1;
    } else if (c === '*') re += '[^/]*';
    else re += c.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`, 'i');
}

/** Whether any of the globs matches the path. */
export const matches = (globs: unknown, rel: string): boolean => ((globs ?? []) as string[]).some((g) => globRe(g).test(rel));

/** What a catalog must do for the paths the spec names, per OS. */
export interface CatalogCase {
  /** Home-relative paths that must be collected (Linux, macOS and Windows spellings). */
  collected: string[];
  /** Paths that must be flagged as secrets. */
  secrets: string[];
  /** Paths that must be excluded. */
  excluded: string[];
  /** Project-relative paths that must be collected in a project. */
  project: string[];
}

/**
 * The checks every catalog of these agents passes: the spec's paths collected on every OS, the
 * credential stores flagged, exclusions applied, project files collected, and a parser reads a
 * flagged file only when it declares that it reads its non-credential fields.
 */
export function checkCatalog(plugin: AgentPlugin, c: CatalogCase): void {
  const cat = catalogOf(plugin.agent);
  expect(cat.agent).toBe(plugin.agent);
  for (const rel of c.collected) expect(matches(cat.collect, rel) || matches(cat.secrets, rel), `collects ${rel}`).toBe(true);
  for (const rel of c.secrets) expect(matches(cat.secrets, rel), `flags ${rel}`).toBe(true);
  for (const rel of c.excluded) expect(matches(cat.exclude, rel), `excludes ${rel}`).toBe(true);
  const project = (cat.project ?? {}) as Record<string, string[]>;
  for (const rel of c.project) expect(matches(project.collect, rel) || matches(project.secrets, rel), `collects project ${rel}`).toBe(true);
  for (const rel of [...c.secrets, ...c.collected.filter((r) => matches(cat.secrets, r))]) {
    for (const p of plugin.parsers.filter((x) => x.wants(rel))) expect(p.readsSecretFile?.(rel), `${p.name} wants the flagged ${rel}`).toBe(true);
  }
  for (const rel of c.collected) {
    if (matches(cat.exclude, rel)) continue;
    // Whatever a parser wants must be collected (or flagged) by the catalog.
    for (const p of plugin.parsers) if (p.wants(rel)) expect(matches(cat.collect, rel) || matches(cat.secrets, rel), `${p.name} wants ${rel}`).toBe(true);
  }
}
