import { describe, expect, it } from 'vitest';
import { type Listed, plan } from './walk-listing.js';
import type { TreeScope, WalkHost } from './walk.js';

// plan() decides from the path and the listing's type what walkTree would decide after an lstat:
// each case here is one of walkTree's checks, and the answer it must give without the lstat.
const has = (...names: string[]) => (g: string) => names.some((n) => g === n || g.endsWith(`/${n}`));
const scope = {
  globPath: (rel: string) => rel,
  collect: has('CLAUDE.md'),
  secret: has('.credentials.json'),
  excludedDir: has('worktrees'),
  descend: (g: string) => !g.endsWith('docs'),
  pruned: has('node_modules'),
  limit: { maxDepth: 3, maxEntries: 100, entries: 0 },
} as unknown as TreeScope;
const host = (full: boolean) => ({ full }) as unknown as WalkHost;

const CASES: [string, Listed['type'], number, boolean, ReturnType<typeof plan>][] = [
  ['src/CLAUDE.md', 'file', 5, false, 'walk'],
  ['.credentials.json', 'file', 5, false, 'walk'],
  ['src/index.ts', 'file', 5, false, 'skip'],
  ['a/worktrees', 'dir', 5, false, 'walk'],
  ['a/worktrees', 'dir', 5, true, 'list'],
  ['src', 'dir', 0, false, 'skip'],
  ['a/docs', 'dir', 5, false, 'skip'],
  ['a/node_modules', 'dir', 5, false, 'skip'],
  ['a/b/c/d', 'dir', 5, false, 'walk'],
  ['a/b/c', 'dir', 5, false, 'list'],
  ['src/index.ts', 'other', 5, false, 'walk'],
];

describe('plan', () => {
  it.each(CASES)('%s (%s, depth %i, full %s): %s', (rel, type, depth, full, want) => {
    expect(plan(host(full), scope, rel, type, depth)).toBe(want);
  });
});
