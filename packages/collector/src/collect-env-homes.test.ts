import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCatalogs, parseCatalog } from './catalog.js';
import { collect } from './collect.js';
import type { CollectOptions } from './options.js';
import { envHomeRoots } from './out-guard.js';

// Moved locations (issue 11 item 9): XDG_* and the Copilot cache variables, like COPILOT_HOME,
// for the running user: the folder a variable names is walked as the home-relative folder it
// stands for, only below the catalog's globs, and a note says what moved.

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

function write(base: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(base, rel, '..'), { recursive: true });
    writeFileSync(join(base, rel), text);
  }
}

const demo = parseCatalog(
  'demo.yaml',
  `agent: demo\nname: Demo\nenv_homes:\n  - {var: XDG_CONFIG_HOME, rel: .config}\n  - {var: DEMO_CACHE, rel: .cache/demo, layouts: [linux]}\n  - {var: DEMO_CACHE, rel: Library/Caches/demo, layouts: [darwin]}\ncollect: [".config/demo/**", ".cache/demo/**", "Library/Caches/demo/**"]\n`,
).catalog;

function setup(): { home: string; moved: string; base: string } {
  const base = mkdtempSync(join(tmpdir(), 'aitrail-envhomes-'));
  made.push(base);
  const home = join(base, 'ann');
  const moved = join(base, 'elsewhere');
  write(home, { '.config/demo/home.json': '{}' });
  write(moved, { 'cfg/demo/moved.json': '{}', 'cfg/other/secret-of-another-app.json': '{}', 'cache/demo/c.json': '{}' });
  return { home, moved, base };
}

const dry = (home: string, over: Partial<CollectOptions>) =>
  collect({ homes: [home], out: '', full: false, secrets: 'collect', dryRun: true, catalogs: [demo], platform: 'linux', currentHome: home, ...over });

describe('moved locations (env_homes)', () => {
  it('walks $XDG_CONFIG_HOME as .config, only below the catalog globs, and notes it', async () => {
    const { home, moved } = setup();
    const s = await dry(home, { env: { XDG_CONFIG_HOME: join(moved, 'cfg'), DEMO_CACHE: join(moved, 'cache/demo') } });
    const got = s.rows!.map((r) => [r.rel, r.source_path]);
    expect(got).toContainEqual(['.config/demo/moved.json', join(moved, 'cfg/demo/moved.json')]);
    expect(got).toContainEqual(['.config/demo/home.json', join(home, '.config/demo/home.json')]);
    expect(got).toContainEqual(['.cache/demo/c.json', join(moved, 'cache/demo/c.json')]);
    expect(got.some(([rel]) => rel.includes('other'))).toBe(false);
    expect(s.notes).toContain(`XDG_CONFIG_HOME=${join(moved, 'cfg')}: collected as .config of ann (source_path keeps the real path)`);
    expect(s.notes).toContain(`DEMO_CACHE=${join(moved, 'cache/demo')}: collected as .cache/demo of ann (source_path keeps the real path)`);
  });

  it('applies an entry only on its layouts, and never to another user or under --root', async () => {
    const { home, moved } = setup();
    const mac = await dry(home, { platform: 'darwin', env: { DEMO_CACHE: join(moved, 'cache/demo') } });
    expect(mac.rows!.map((r) => r.rel)).toContain('Library/Caches/demo/c.json');
    expect(mac.rows!.map((r) => r.rel)).not.toContain('.cache/demo/c.json');
    const other = await dry(home, { currentHome: '/someone/else', env: { XDG_CONFIG_HOME: join(moved, 'cfg') } });
    expect(other.rows!.map((r) => r.rel)).not.toContain('.config/demo/moved.json');
  });

  it('ignores a relative value with a note (XDG: relative paths are invalid)', async () => {
    const { home } = setup();
    const s = await dry(home, { env: { XDG_CONFIG_HOME: 'cfg' } });
    expect(s.notes).toContain('XDG_CONFIG_HOME=cfg is not an absolute path; not collected (the program resolves it against its working directory, unknown here)');
    expect(s.rows!.map((r) => r.rel)).toEqual(['.config/demo/home.json']);
  });

  it('walks the moved folder when the home reaches it only through a link (the walk never follows one)', async () => {
    const { base, moved } = setup();
    const home = join(base, 'bob');
    mkdirSync(home);
    symlinkSync(join(moved, 'cfg'), join(home, '.config'));
    const s = await dry(home, { env: { XDG_CONFIG_HOME: join(moved, 'cfg') } });
    expect(s.rows!.map((r) => [r.rel, r.status])).toEqual([
      ['.config/demo/moved.json', 'collected'],
      ['.config', 'skipped_special'],
    ]);
    // The same value as the plain default place is walked once, by the home walk.
    const plain = join(base, 'carl');
    write(plain, { '.config/demo/x.json': '{}' });
    const once = await dry(plain, { env: { XDG_CONFIG_HOME: join(plain, '.config') } });
    expect(once.rows!.map((r) => r.rel)).toEqual(['.config/demo/x.json']);
    expect(once.notes.some((n) => n.startsWith('XDG_CONFIG_HOME'))).toBe(false);
  });

  it('guards --out against the folders a variable would have walked, not all of it', () => {
    const roots = envHomeRoots([demo], { XDG_CONFIG_HOME: '/x/cfg', DEMO_CACHE: '/y/cache' }, 'linux');
    expect(roots).toEqual([
      { label: 'XDG_CONFIG_HOME folder /x/cfg', path: '/x/cfg/demo' },
      { label: 'DEMO_CACHE folder /y/cache', path: '/y/cache' },
    ]);
  });

  it('the built-in catalogs honour the XDG variables and the Copilot cache variables', () => {
    const byAgent = new Map(loadCatalogs().map((c) => [c.agent, c.env_homes.map((e) => `${e.var}>${e.rel}${e.layouts ? `@${e.layouts.join('+')}` : ''}`)]));
    expect(byAgent.get('copilot-cli')).toEqual(
      expect.arrayContaining([
        'COPILOT_HOME>.copilot',
        'XDG_STATE_HOME>.local/state',
        'XDG_CONFIG_HOME>.config',
        'XDG_CACHE_HOME>.cache@linux',
        'COPILOT_CACHE_HOME>.cache/copilot@linux',
        'COPILOT_CACHE_HOME>Library/Caches/copilot@darwin',
        'COPILOT_CACHE_HOME>AppData/Local/copilot@win32',
        'COPILOT_PKG_CACHE_HOME>.cache/copilot@linux',
      ]),
    );
    expect(byAgent.get('claude-code')).toEqual(expect.arrayContaining(['XDG_CONFIG_HOME>.config', 'XDG_DATA_HOME>.local/share', 'XDG_STATE_HOME>.local/state', 'XDG_CACHE_HOME>.cache']));
  });
});
