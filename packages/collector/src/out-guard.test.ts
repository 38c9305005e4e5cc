import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCatalogs } from './catalog.js';
import { collect } from './collect.js';
import { type CollectOptions, CollectUsageError } from './options.js';
import { isWithin, realPathOf } from './out-guard.js';

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});
const copilot = loadCatalogs().filter((c) => c.agent === 'copilot-cli');

/** A base folder with a home `sean` whose workspace.yaml names the project `base/proj`. */
function setup(): { base: string; home: string; proj: string } {
  const base = mkdtempSync(join(tmpdir(), 'aitrail-outguard-'));
  made.push(base);
  const home = join(base, 'sean');
  const proj = join(base, 'proj');
  mkdirSync(join(home, '.copilot/session-state/s1'), { recursive: true });
  writeFileSync(join(home, '.copilot/session-state/s1/workspace.yaml'), `id: s1\ncwd: ${proj}\n`);
  mkdirSync(proj);
  writeFileSync(join(proj, 'AGENTS.md'), '# agents');
  return { base, home, proj };
}

const opts = (home: string, out: string, extra: Partial<CollectOptions> = {}): CollectOptions => ({
  homes: [home],
  out,
  full: false,
  secrets: 'collect',
  dryRun: false,
  catalogs: copilot,
  platform: 'linux',
  currentHome: '/nonexistent',
  env: {},
  ...extra,
});

/** Every path under dir, sorted. */
function tree(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
}

async function refusal(o: CollectOptions): Promise<CollectUsageError> {
  const e = await collect(o).catch((err: unknown) => err);
  expect(e).toBeInstanceOf(CollectUsageError);
  return e as CollectUsageError;
}

describe('collect refuses an --out inside what it collects', () => {
  it('inside a home: refused before anything is created there (not even the out folder)', async () => {
    const { home } = setup();
    const before = tree(home);
    const e = await refusal(opts(home, join(home, '.copilot', 'new', 'c.zip')));
    expect(e.message).toMatch(/expected a folder outside every home and project collected, found it inside the home .*sean; .*choose an --out elsewhere/);
    expect(tree(home)).toEqual(before);
  });

  it('through a linked out folder that leads into the home', async () => {
    const { base, home } = setup();
    symlinkSync(join(home, '.copilot'), join(base, 'link'));
    const before = tree(home);
    const e = await refusal(opts(home, join(base, 'link', 'c.zip')));
    expect(e.message).toMatch(/link\/c\.zip \(its folder leads to .*sean\/\.copilot\): .*inside the home /);
    expect(tree(home)).toEqual(before);
  });

  it('through a linked home, given by its link', async () => {
    const { base, home } = setup();
    symlinkSync(home, join(base, 'home-link'));
    expect((await refusal(opts(join(base, 'home-link'), join(home, 'c.zip')))).message).toMatch(/inside the home .*home-link \(really .*sean\)/);
  });

  it('inside COPILOT_HOME of the running user', async () => {
    const { base, home } = setup();
    const moved = join(base, 'moved-copilot');
    mkdirSync(moved);
    const e = await refusal(opts(home, join(moved, 'c.zip'), { currentHome: home, env: { COPILOT_HOME: moved } }));
    expect(e.message).toMatch(/inside the COPILOT_HOME folder/);
    expect(readdirSync(moved)).toEqual([]);
  });

  it('inside a project root found in a collected file: refused, and the .partial removed from it', async () => {
    const { home, proj } = setup();
    const e = await refusal(opts(home, join(proj, 'c.zip')));
    expect(e.message).toMatch(/inside the project root .*proj/);
    expect(tree(proj)).toEqual(['AGENTS.md']);
  });

  it('accepts a folder beside the home whose name merely starts with the home\'s', async () => {
    const { base, home } = setup();
    const s = await collect(opts(home, join(`${home}-out`, 'c.zip')));
    expect(s.out).toBe(join(base, 'sean-out', 'c.zip'));
  });

  it('a dry run writes nothing, so it is not refused', async () => {
    const { home } = setup();
    const s = await collect(opts(home, join(home, 'c.zip'), { dryRun: true }));
    expect(s.dry_run).toBe(true);
  });
});

describe('out-guard helpers', () => {
  it('isWithin: the folder itself and below, not a sibling with a common prefix; case folded on request', () => {
    expect(isWithin('/h/sean', '/h/sean', false)).toBe(true);
    expect(isWithin('/h/sean/a/b', '/h/sean', false)).toBe(true);
    expect(isWithin('/h/sean-out', '/h/sean', false)).toBe(false);
    expect(isWithin('/h', '/h/sean', false)).toBe(false);
    expect(isWithin('/H/Sean/x', '/h/sean', false)).toBe(false);
    expect(isWithin('/H/Sean/x', '/h/sean', true)).toBe(true);
  });

  it('realPathOf resolves the existing part through links and keeps the rest', async () => {
    const { base, home } = setup();
    symlinkSync(home, join(base, 'l'));
    expect(await realPathOf(join(base, 'l', 'not', 'yet'))).toBe(join(await realPathOf(home), 'not', 'yet'));
  });
});
