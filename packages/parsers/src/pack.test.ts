// Publishability: pack @aitrail/parsers as npm would publish it, install the tarball into an
// empty project (install scripts off, so better-sqlite3 has no native binary), and use it there
// the way a third-party plugin would: import helpers, type-check and run the README's example.
// Slow-ish (about 7 s: a build when dist is stale, the pack, an npm install from the registry);
// without a network it skips the install-side tests, saying so.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const src = dirname(fileURLToPath(import.meta.url));
const pkgDir = resolve(src, '..');
const repo = resolve(pkgDir, '../..');
const work = mkdtempSync(join(tmpdir(), 'aitrail-pack-'));
const app = join(work, 'app');
afterAll(() => rmSync(work, { recursive: true, force: true }));

const run = (cmd: string, args: string[], cwd: string) => execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1', npm_config_update_notifier: 'false' } });

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? walk(join(dir, d.name)) : [join(dir, d.name)]));
}

// Build when dist is missing or older than a source file, so the tarball holds today's code
// (dist/index.js is the one bundled module: scripts/bundle.mjs).
function ensureBuilt(): void {
  const sources = walk(src).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.includes('/test-helpers/'));
  const bundle = join(pkgDir, 'dist', 'index.js');
  const built = existsSync(bundle) ? statSync(bundle).mtimeMs : 0;
  const stale = sources.some((f) => built < statSync(f).mtimeMs);
  if (stale) run('pnpm', ['--filter', '@aitrail/parsers', 'build'], repo);
}

let tarball = '';
let entries: string[] = [];
let manifest: Record<string, unknown> = {};
let installError = '';

beforeAll(() => {
  ensureBuilt();
  run('pnpm', ['pack', '--pack-destination', work], pkgDir);
  const tgz = readdirSync(work).filter((f) => f.endsWith('.tgz'));
  expect(tgz, `expected one tarball from pnpm pack in ${work}`).toHaveLength(1);
  tarball = join(work, tgz[0]);
  entries = run('tar', ['tzf', tarball], work).split('\n').filter(Boolean);
  manifest = JSON.parse(run('tar', ['xzf', tarball, '-O', 'package/package.json'], work));
  mkdirSync(app);
  run('npm', ['init', '-y'], app);
  run('npm', ['pkg', 'set', 'type=module'], app);
  try {
    run('npm', ['install', tarball, '--ignore-scripts', '--no-audit', '--no-fund'], app);
  } catch (e) {
    installError = String((e as { stderr?: string }).stderr ?? e);
  }
}, 180_000);

describe('pnpm pack of @aitrail/parsers', () => {
  it('packs the build output with its declarations, the sources for the maps, the README, and no tests', () => {
    for (const f of ['package/package.json', 'package/README.md', 'package/dist/index.js', 'package/dist/index.d.ts', 'package/dist/sdk/line-reader.d.ts', 'package/src/index.ts']) {
      expect(entries, `expected ${f} in the tarball`).toContain(f);
    }
    const tests = entries.filter((e) => /\.test\.|test-helpers/.test(e));
    expect(tests, `expected no test files in the tarball, found: ${tests.join(', ')}`).toEqual([]);
  });

  it('ships one module, the bundle, with its map back to src (a thread loads one file, not 207)', () => {
    expect(entries.filter((e) => /^package\/dist\/.*\.js$/.test(e))).toEqual(['package/dist/index.js']);
    const map = JSON.parse(run('tar', ['xzf', tarball, '-O', 'package/dist/index.js.map'], work)) as { sources: string[] };
    expect(map.sources).toContain('../src/sdk/line-reader.ts');
    expect(map.sources.filter((s) => !entries.includes(`package/${s.slice(3)}`))).toEqual([]);
  });

  it('ships no compiled file whose source is gone (a stale dist: rm -rf dist and build)', () => {
    const orphans = entries.filter((e) => /^package\/dist\/.*\.js$/.test(e)).filter((e) => !entries.includes(e.replace(/^package\/dist\//, 'package/src/').replace(/\.js$/, '.ts')));
    expect(orphans).toEqual([]);
  });

  it('ships only modules its entry point imports (a helper only tests use stays out)', () => {
    const js = new Set(entries.filter((e) => /^package\/dist\/.*\.js$/.test(e)));
    const reached = new Set<string>();
    const todo = ['package/dist/index.js'];
    while (todo.length > 0) {
      const f = todo.pop()!;
      if (reached.has(f) || !js.has(f)) continue;
      reached.add(f);
      const text = run('tar', ['xzf', tarball, '-O', f], work);
      for (const m of text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)) todo.push(`package/${join(dirname(f.slice('package/'.length)), m[1])}`);
    }
    // A module of types only compiles to `export {};`: its declarations are what ships.
    const typesOnly = (f: string) => run('tar', ['xzf', tarball, '-O', f], work).replace(/\/\/.*$/gm, '').trim() === 'export {};';
    expect([...js].filter((f) => !reached.has(f) && !typesOnly(f))).toEqual([]);
  });

  it('publishes a manifest with no workspace: ranges and no source-only export condition', () => {
    const text = JSON.stringify(manifest);
    expect(text).not.toMatch(/workspace:/);
    expect(manifest.exports).toEqual({ '.': { types: './dist/index.d.ts', import: './dist/index.js' } });
    expect(Object.keys(manifest.dependencies as object).sort()).toEqual(['@types/better-sqlite3', 'better-sqlite3', 'fzstd', 'jsonc-parser', 'smol-toml', 'yaml']);
  });
});

describe('@aitrail/parsers installed from the tarball into an empty project', () => {
  const installed = join(app, 'node_modules', '@aitrail', 'parsers');
  const ready = (ctx: { skip: (note?: string) => never }) => {
    if (/ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|ENETUNREACH|ECONNRESET/.test(installError)) ctx.skip(`no network to the npm registry: ${installError.split('\n')[0]}`);
    if (installError) throw new Error(`expected npm install of the tarball to succeed (it needs the npm registry for better-sqlite3, yaml, jsonc-parser, fzstd and smol-toml), found: ${installError.slice(0, 2000)}`);
  };

  it('imports without better-sqlite3 native binary, and its helpers work', (ctx) => {
    ready(ctx);
    expect(existsSync(join(app, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'))).toBe(false);
    const script = `
      import { compactJson, readJsonLines, openCollectedSqlite, SqliteOpenError } from '@aitrail/parsers';
      async function* bytes() { yield Buffer.from('{"a":1}\\n{"b"'); }
      const lines = [];
      for await (const l of readJsonLines(bytes())) lines.push(l.value ?? l.error);
      let sqlite;
      try { await openCollectedSqlite(${JSON.stringify(join(work, 'missing.db'))}); } catch (e) { sqlite = e instanceof SqliteOpenError; }
      console.log(JSON.stringify({ json: compactJson({ kind: 'commands', commandIdentifiers: ['npm test'] }), lines, sqlite }));`;
    const out = JSON.parse(run('node', ['--input-type=module', '-e', script], app));
    expect(out).toEqual({
      json: '{"commandIdentifiers":["npm test"],"kind":"commands"}',
      lines: [{ a: 1 }, 'cut line, no newline at end of file: invalid JSON'],
      sqlite: true,
    });
  });

  it('says what to do when a database is opened without the native module', (ctx) => {
    ready(ctx);
    const db = join(work, 'real.db');
    const writer = new Database(db);
    writer.exec('CREATE TABLE t (x TEXT)');
    writer.close();
    const script = `
      import { openCollectedSqlite } from '@aitrail/parsers';
      try { (await openCollectedSqlite(${JSON.stringify(db)})).close(); console.log('opened'); } catch (e) { console.log(e.name + ': ' + e.message); }`;
    const out = run('node', ['--input-type=module', '-e', script], app);
    // Opens where a prebuilt binary happens to be present; otherwise one clear error.
    if (out.trim() !== 'opened') expect(out).toMatch(/native module.*could not be loaded.*npm rebuild better-sqlite3/);
    expect(out).not.toMatch(/\n\s+at /);
  });

  it("ships type declarations that type-check the README's plugin, which then runs", (ctx) => {
    ready(ctx);
    expect(existsSync(join(installed, 'dist', 'index.d.ts'))).toBe(true);
    const readme = readFileSync(join(pkgDir, 'README.md'), 'utf8');
    const example = /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(example, 'expected a ```ts example in packages/parsers/README.md').toBeTruthy();
    writeFileSync(join(app, 'plugin.ts'), example ?? '');
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    const typeRoots = join(repo, 'node_modules', '@types');
    run('node', [tsc, '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--types', 'node', '--typeRoots', typeRoots, '--outDir', 'out', 'plugin.ts'], app);
    const home = join(work, 'home');
    mkdirSync(join(home, '.demo'), { recursive: true });
    writeFileSync(join(home, '.demo', 'history.jsonl'), '{"prompt":"fix the test","session":"s1","ts":"2026-10-01T11:00:00+02:00"}\n\n{"prompt":"and run');
    const script = `
      import { artifactFromFile } from '@aitrail/parsers';
      import plugin from './out/plugin.js';
      const p = plugin.parsers[0];
      const rows = [];
      for await (const r of p.parse(artifactFromFile(${JSON.stringify(home)}, '.demo/history.jsonl'), { options: { includeThinking: false }, fact() {}, warn() {} })) rows.push(r);
      console.log(JSON.stringify({ agent: plugin.agent, wants: p.wants('.demo/history.jsonl'), rows }));`;
    const out = JSON.parse(run('node', ['--input-type=module', '-e', script], app));
    expect(out.agent).toBe('demo');
    expect(out.wants).toBe(true);
    expect(out.rows.map((r: Record<string, unknown>) => [r.turn_type, r.text, r.timestamp_utc, r.source_line, r.tag])).toEqual([
      ['user', 'fix the test', '2026-10-01T09:00:00.000Z', 1, undefined],
      ['system', 'parser: unparseable line (cut line, no newline at end of file: invalid JSON): {"prompt":"and run', '', 3, 'bad_line'],
    ]);
  }, 240_000); // tsc over the installed package: about a minute alone, several under load
});
