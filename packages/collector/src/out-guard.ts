import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { type Catalog, envHomePrefix } from './catalog.js';
import { globPrefix } from './globs.js';
import type { Layout } from './homes.js';
import { CollectUsageError } from './options.js';

/** A folder whose contents are evidence this run collects: a home, an env home or a project root. */
export interface CollectedRoot {
  /** How the operator would recognize it in the message (`home /home/sean`, `COPILOT_HOME=...`). */
  label: string;
  path: string;
}

/**
 * The real path of p: its deepest existing ancestor resolved through links, the rest appended.
 * The out folder may not exist yet (collect creates it), and may be, or sit under, a link.
 */
export async function realPathOf(p: string): Promise<string> {
  const rest: string[] = [];
  let cur = path.resolve(p);
  for (;;) {
    try {
      return path.join(await realpath(cur), ...rest.reverse());
    } catch {
      const parent = path.dirname(cur);
      if (parent === cur) return path.resolve(p);
      rest.push(path.basename(cur));
      cur = parent;
    }
  }
}

/** Whether this machine's file systems usually ignore case when comparing the out with a home. */
export function outIgnoresCase(platform: NodeJS.Platform): boolean {
  return platform === 'win32' || platform === 'darwin';
}

/** True when child is parent or below it (case-insensitively where the file system usually is). */
export function isWithin(child: string, parent: string, ignoreCase: boolean): boolean {
  const [c, p] = ignoreCase ? [child.toLowerCase(), parent.toLowerCase()] : [child, parent];
  const rel = path.relative(p, c);
  return rel === '' || (!rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel));
}

/**
 * The folders the env homes (COPILOT_HOME, each CLAUDE_CONFIG_DIR entry, XDG_CONFIG_HOME ...)
 * would have walked, as set in env: for a broad one such as XDG_CONFIG_HOME (`.config`) only
 * the places the catalog's globs reach below it (`$XDG_CONFIG_HOME/.copilot`), not all of it.
 */
export function envHomeRoots(catalogs: Catalog[], env: Record<string, string | undefined>, layout?: Layout): CollectedRoot[] {
  const roots: CollectedRoot[] = [];
  for (const c of catalogs) {
    for (const eh of c.env_homes) {
      const raw = env[eh.var];
      if (!raw || (layout && eh.layouts && !eh.layouts.includes(layout))) continue;
      const values = eh.separator ? raw.split(eh.separator).map((v) => v.trim()).filter(Boolean) : [raw];
      const below = new Set<string>();
      const rel = envHomePrefix(eh);
      for (const g of [...c.collect, ...c.secrets]) {
        const p = globPrefix(g);
        // A variable naming a whole home: every glob's fixed part lies below it.
        if (rel === '') below.add(p);
        else if (p === rel || p.startsWith(`${rel}/`)) below.add(p.slice(rel.length + 1));
        else if (rel.startsWith(`${p}/`) || p === '') below.add('');
      }
      for (const v of values) {
        for (const sub of below) roots.push({ label: `${eh.var} folder ${v}`, path: sub ? path.join(v, ...sub.split('/')) : v });
      }
    }
  }
  return roots;
}

/**
 * Refuse an --out whose archive, `.partial` or `.sha256` (all three sit in the out's folder)
 * would land inside a folder being collected: writing there changes the evidence (names, sizes,
 * the folder's mtime) and the next walk could archive the archive.
 */
export async function refuseOutInside(out: string, roots: CollectedRoot[], ignoreCase: boolean): Promise<void> {
  const lexical = path.dirname(path.resolve(out));
  const dir = await realPathOf(lexical);
  for (const r of roots) {
    const real = await realPathOf(r.path);
    if (!isWithin(dir, real, ignoreCase)) continue;
    const via = dir === lexical ? '' : ` (its folder leads to ${dir})`;
    const really = real === path.resolve(r.path) ? '' : ` (really ${real})`;
    throw new CollectUsageError(
      `--out ${out}${via}: expected a folder outside every home and project collected, found it inside the ${r.label}${really}; ` +
        'writing the archive there would change the evidence: choose an --out elsewhere (another folder, or removable media)',
    );
  }
}
