import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// End-to-end: what the built entries load when a process or thread starts. Each analysis thread
// imports these, and node 20 spends about 0.5 ms a module: the CLI process, the analysis child
// and its parse threads each paid 0.1-0.35 s for modules they never used before these entries.

const CLI_DIR = resolve(fileURLToPath(new URL('../../', import.meta.url)));
const work = mkdtempSync(join(tmpdir(), 'aitrail-start-up-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

// A module hook printing every URL the ES module loader loads: a package imported statically
// shows up; one required on first use (the parsers' sdk/libs.ts) does not, which is the point.
// The hooks run on a thread of their own, whose process.stdout is relayed to the main thread
// later: the process could exit first and drop the last URL (one CI run lost picomatch's), so
// each is written to the file descriptor at once.
const hooks = join(work, 'hooks.mjs');
writeFileSync(hooks, "import { writeSync } from 'node:fs';\nexport async function load(url, context, next) { writeSync(1, url + '\\n'); return next(url, context); }\n");
const register = join(work, 'register.mjs');
writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);

/** The packages (node_modules folder names) and the count of our own dist modules `entry` loads. */
function loads(entry: string): { packages: string[]; ours: number } {
  const r = spawnSync(process.execPath, ['--import', register, '--input-type=module', '-e', `await import(${JSON.stringify(entry)});`], { cwd: CLI_DIR, encoding: 'utf8' });
  expect(r.status, `expected ${entry} to import cleanly, found: ${r.stderr}`).toBe(0);
  const urls = r.stdout.split('\n').filter((u) => u.startsWith('file:'));
  const packages = new Set<string>();
  for (const u of urls) {
    const m = /\/node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)\//.exec(u);
    if (m && !m[1].startsWith('@aitrail/')) packages.add(m[1]);
  }
  return { packages: [...packages].sort(), ours: urls.filter((u) => /\/packages\/[^/]+\/dist\//.test(u)).length };
}

describe('start-up: what each built entry loads', () => {
  it('@aitrail/analyzer/host (the CLI process, before the analysis child starts): no package at all', () => {
    const r = loads('@aitrail/analyzer/host');
    expect(r.packages).toEqual([]);
    expect(r.ours).toBeLessThan(6);
  });

  it('@aitrail/collector (every command\'s process): not yaml or smol-toml, which only a catalog not in the build\'s cache or a hint file needs', () => {
    const r = loads('@aitrail/collector');
    expect(r.packages).toContain('picomatch');
    expect(r.packages.filter((p) => p === 'yaml' || p === 'smol-toml')).toEqual([]);
  });

  it('@aitrail/collector/archive (the analysis threads): yauzl and picomatch, not the catalogs, YAML or TOML', () => {
    expect(loads('@aitrail/collector/archive').packages).toEqual(['picomatch', 'yauzl']);
  });

  it('@aitrail/analyzer (the analysis child, its threads): not yaml, which only a user\'s own rules need (the built-in ones are parsed at build)', () => {
    expect(loads('@aitrail/analyzer').packages).not.toContain('yaml');
  });

  it('@aitrail/parsers: one bundled module, and no config-file or zstd library until a parser needs one', () => {
    const r = loads('@aitrail/parsers');
    expect(r.ours).toBe(1);
    expect(r.packages.filter((p) => ['yaml', 'jsonc-parser', 'smol-toml', 'fzstd'].includes(p))).toEqual([]);
  });
});
