import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openArchive, readCollection } from './archive-reader.js';
import { loadCatalogs } from './catalog.js';
import { collect } from './collect.js';
import type { CollectOptions } from './options.js';
import { envHomeRoots } from './out-guard.js';
import type { ManifestRow } from './types.js';

// The gemini-cli catalog's moved home (GEMINI_CLI_HOME names the folder .gemini sits in, not
// .gemini itself: packages/core/src/utils/paths.ts homedir()) and its project hints beyond
// projects.json: the .project_root markers of tmp/ and history/, and trustedFolders.json's keys
// (issue 14's leftovers).

const gemini = loadCatalogs().filter((c) => c.agent === 'gemini-cli');
const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

function tree(base: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(base, rel, '..'), { recursive: true });
    writeFileSync(join(base, rel), text);
  }
}

async function run(over: Partial<CollectOptions> & { homes: string[] }): Promise<{ rows: ManifestRow[]; notes: string[]; projects: string[] }> {
  const base = mkdtempSync(join(tmpdir(), 'aitrail-gemini-out-'));
  made.push(base);
  const s = await collect({ out: join(base, 'c.zip'), full: false, secrets: 'collect', dryRun: false, catalogs: gemini, platform: 'linux', currentHome: '/x', ...over });
  const r = await openArchive(s.out!);
  const { manifest, problems } = await readCollection(r);
  r.close();
  expect(problems).toEqual([]);
  return { rows: manifest, notes: s.notes, projects: s.projects.map((p) => `${p.root} ${p.status}`).sort() };
}

describe('gemini-cli catalog: project hints', () => {
  it('collects the projects a .project_root marker or a trustedFolders.json key names, none of them in projects.json', async () => {
    const base = mkdtempSync(join(tmpdir(), 'aitrail-gemini-hints-'));
    made.push(base);
    const home = join(base, 'ann');
    const [shop, old, trusted, refused] = ['shop', 'old', 'trusted', 'refused'].map((n) => join(base, n));
    tree(home, {
      '.gemini/projects.json': JSON.stringify({ projects: {} }),
      '.gemini/tmp/shop/.project_root': shop,
      '.gemini/history/old/.project_root': old,
      '.gemini/trustedFolders.json': JSON.stringify({ [trusted]: 'TRUST_FOLDER', [refused]: 'DO_NOT_TRUST' }),
    });
    for (const p of [shop, old, trusted, refused]) tree(p, { 'GEMINI.md': p });
    const { rows, projects } = await run({ homes: [home] });
    expect(projects).toEqual([old, refused, shop, trusted].map((p) => `${p} collected`).sort());
    const got = rows.filter((r) => r.scope === 'project' && r.status === 'collected').map((r) => r.source_path);
    expect(got.sort()).toEqual([old, refused, shop, trusted].map((p) => join(p, 'GEMINI.md')).sort());
  });
});

describe('gemini-cli catalog: GEMINI_CLI_HOME', () => {
  function setup() {
    const base = mkdtempSync(join(tmpdir(), 'aitrail-gemini-home-'));
    made.push(base);
    const home = join(base, 'ann');
    const moved = join(base, 'profiles', 'work');
    const proj = join(base, 'work-proj');
    tree(home, { '.gemini/settings.json': '{}', '.gemini/tmp/a/chats/session-1.jsonl': '{}\n' });
    tree(moved, {
      '.gemini/settings.json': '{"moved": true}',
      '.gemini/tmp/work-proj/chats/session-2.jsonl': '{}\n',
      '.gemini/tmp/work-proj/.project_root': proj,
      // Beside .gemini in the moved home: not Gemini's, never walked.
      'Documents/private.txt': 'not collected',
      '.ssh/id_ed25519': 'not collected',
    });
    tree(proj, { 'GEMINI.md': 'work' });
    return { home, moved, proj };
  }

  it('walks the folder it names as the home, only below .gemini, beside the home’s own .gemini', async () => {
    const { home, moved, proj } = setup();
    const { rows, notes, projects } = await run({ homes: [home], currentHome: home, env: { GEMINI_CLI_HOME: moved } });
    const fromMoved = rows.filter((r) => r.scope === 'home' && String(r.source_path).startsWith(moved)).map((r) => [r.rel, r.status]);
    // The moved files keep their place under .gemini; a name the home also holds gets a suffix.
    expect(fromMoved.map(([rel]) => String(rel).replace(/~2$/, '')).sort()).toEqual(['.gemini/settings.json', '.gemini/tmp/work-proj/.project_root', '.gemini/tmp/work-proj/chats/session-2.jsonl']);
    expect(rows.some((r) => r.source_path === join(home, '.gemini/settings.json'))).toBe(true);
    expect(rows.some((r) => /Documents|\.ssh/.test(String(r.source_path)))).toBe(false);
    expect(notes.some((n) => n.includes(`GEMINI_CLI_HOME=${moved}: collected as the home of ann`))).toBe(true);
    // Its .project_root is read like the home's own.
    expect(projects).toEqual([`${proj} collected`]);
  });

  it('is ignored for a home that is not the running user’s, and when it names the home itself', async () => {
    const { home, moved } = setup();
    const other = await run({ homes: [home], currentHome: '/somebody/else', env: { GEMINI_CLI_HOME: moved } });
    expect(other.rows.some((r) => String(r.source_path).startsWith(moved))).toBe(false);
    const same = await run({ homes: [home], currentHome: home, env: { GEMINI_CLI_HOME: home } });
    expect(same.rows.filter((r) => r.rel === '.gemini/settings.json' || r.rel === '.gemini/settings.json~2').length).toBe(1);
  });

  it('guards --out against the places below .gemini of the folder it names', () => {
    const roots = envHomeRoots(gemini, { GEMINI_CLI_HOME: '/p/work' }).map((r) => r.path);
    expect(roots).toContain('/p/work/.gemini');
    // Never the named folder as a whole: only what the catalog's globs reach in it.
    for (const r of roots) expect(r.startsWith('/p/work/.gemini')).toBe(true);
  });
});
