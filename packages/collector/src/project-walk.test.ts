import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCatalogs } from './catalog.js';
import { collect } from './collect.js';
import { compilePrunedDirs, PROJECT_PRUNED_DIRS } from './globs.js';
import type { CollectOptions } from './options.js';
import type { ManifestRow } from './types.js';
import { AHEAD } from './walk-listing.js';

// Project walks (pruned dirs, project.exclude, bounds), collect_if, CLAUDE_CONFIG_DIR lists and
// Windows system globs, on the claude-code catalog over homes made here.

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});
const claude = loadCatalogs().filter((c) => c.agent === 'claude-code');

function tree(base: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(base, rel, '..'), { recursive: true });
    writeFileSync(join(base, rel), text);
  }
}

/** A home whose .claude.json records one project, with the project's files. */
function setup(project: Record<string, string>, home: Record<string, string> = {}): { base: string; home: string; proj: string } {
  const base = mkdtempSync(join(tmpdir(), 'aitrail-pwalk-'));
  made.push(base);
  const h = join(base, 'sean');
  const proj = join(base, 'repo');
  tree(h, { '.claude.json': JSON.stringify({ projects: { [proj]: {} } }), ...home });
  tree(proj, project);
  return { base, home: h, proj };
}

async function run(home: string, extra: Partial<CollectOptions> = {}): Promise<ManifestRow[]> {
  const base = mkdtempSync(join(tmpdir(), 'aitrail-pwalk-out-'));
  made.push(base);
  const opts: CollectOptions = { homes: [home], out: join(base, 'c.zip'), full: false, secrets: 'collect', dryRun: false, catalogs: claude, platform: 'linux', currentHome: '/x', ...extra };
  const s = await collect(opts);
  const { openArchive, readCollection } = await import('./archive-reader.js');
  const r = await openArchive(s.out!);
  const { manifest } = await readCollection(r);
  r.close();
  return manifest;
}

const projectRows = (rows: ManifestRow[]) => rows.filter((r) => r.scope === 'project').map((r) => [r.rel, r.status]);

describe('project walks', () => {
  it('never enters node_modules, .git and the like; excludes worktrees with one row; finds nested CLAUDE.md', async () => {
    const { home } = setup({
      'CLAUDE.md': 'root',
      'src/CLAUDE.md': 'nested',
      'node_modules/pkg/CLAUDE.md': 'vendored',
      '.git/CLAUDE.md': 'git store',
      'lib/.venv/x/CLAUDE.md': 'venv',
      '.claude/settings.local.json': '{}',
      '.claude/worktrees/w1/CLAUDE.md': 'worktree',
      '.claude/worktrees/w1/src/a.ts': 'x',
      'pkg/.claude/worktrees/w2/CLAUDE.md': 'nested worktree',
    });
    // pnpm links node_modules; a pruned name gives no row as a link either, another link does.
    symlinkSync('/nonexistent', join(home, '..', 'repo', 'linked-deps'));
    mkdirSync(join(home, '..', 'repo', 'app'));
    symlinkSync('/nonexistent', join(home, '..', 'repo', 'app', 'node_modules'));
    const rows = await run(home);
    expect(projectRows(rows).sort()).toEqual(
      [
        ['linked-deps', 'skipped_special'],
        ['.claude/settings.local.json', 'collected'],
        ['.claude/worktrees', 'skipped_excluded'],
        ['CLAUDE.md', 'collected'],
        ['pkg/.claude/worktrees', 'skipped_excluded'],
        ['src/CLAUDE.md', 'collected'],
      ].sort(),
    );
    expect(rows.find((r) => r.rel === '.claude/worktrees')).toMatchObject({ kind: 'dir', files: 2, bytes: 9 });
    // --full collects the catalog's exclusions, never the pruned directories.
    const full = await run(home, { full: true });
    const rels = full.filter((r) => r.scope === 'project').map((r) => r.rel);
    expect(rels).toContain('.claude/worktrees/w1/CLAUDE.md');
    expect(rels.filter((r) => /node_modules|\.git\/|\.venv/.test(r))).toEqual([]);
  });

  it('enters a pruned name only when a glob spells its path out', () => {
    const m = compilePrunedDirs(PROJECT_PRUNED_DIRS, ['**/CLAUDE.md', '.git/hooks/*'], true);
    expect(['.git', 'a/node_modules', 'x/.GIT', '__pycache__'].map(m)).toEqual([false, true, true, true]);
    expect(m('sub/.git')).toBe(true);
    expect(compilePrunedDirs(PROJECT_PRUNED_DIRS, ['**/x'], false)('.GIT')).toBe(false);
  });

  it('records in byte order past the folders asked for ahead, and never a file no glob wants', async () => {
    // More sibling folders than walk-listing.ts asks for ahead, each with a wanted file, files
    // nothing wants, a link and a nested folder: the rows come in the walk's own order.
    const files: Record<string, string> = {};
    for (let i = 0; i < 3 * AHEAD; i += 1) {
      const d = `d${String(i).padStart(2, '0')}`;
      Object.assign(files, { [`${d}/CLAUDE.md`]: d, [`${d}/a.ts`]: 'x', [`${d}/z.ts`]: 'x', [`${d}/sub/CLAUDE.md`]: 'nested' });
    }
    const { home, proj } = setup(files);
    symlinkSync('/nonexistent', join(proj, 'd03', 'link'));
    const rows = projectRows(await run(home));
    const want = Object.keys(files)
      .filter((f) => f.endsWith('CLAUDE.md'))
      .map((f) => [f, 'collected']);
    want.splice(want.findIndex(([f]) => f === 'd03/sub/CLAUDE.md'), 0, ['d03/link', 'skipped_special']);
    expect(rows).toEqual(want.sort(([a], [b]) => Buffer.compare(Buffer.from(a), Buffer.from(b))));
  });

  it('gives one skipped_too_large row when the entry bound stops the walk', async () => {
    const files: Record<string, string> = { 'CLAUDE.md': 'root' };
    for (let i = 0; i < 30; i += 1) files[`d${String(i).padStart(2, '0')}/f.txt`] = 'x';
    const { home, proj } = setup(files);
    const rows = await run(home, { projectWalkLimit: { maxEntries: 20 } });
    const stop = rows.filter((r) => r.status === 'skipped_too_large');
    expect(stop).toHaveLength(1);
    expect(stop[0]).toMatchObject({ scope: 'project', kind: 'dir', project_root: proj, archive_path: '' });
    expect(stop[0].reason).toMatch(/^project walk stopped: more than 20 directory entries listed under the project root/);
    // Within the bound nothing is reported.
    expect((await run(home)).filter((r) => r.status === 'skipped_too_large')).toEqual([]);
  });

  it('gives one row for the directories too deep to enter, with their count', async () => {
    const { home } = setup({ 'a/b/c/CLAUDE.md': 'deep', 'a/b/d/CLAUDE.md': 'deep too', 'a/CLAUDE.md': 'shallow' });
    const rows = await run(home, { projectWalkLimit: { maxDepth: 2 } });
    expect(projectRows(rows)).toEqual([
      ['a/CLAUDE.md', 'collected'],
      ['a/b/c', 'skipped_too_large'],
    ]);
    expect(rows.find((r) => r.rel === 'a/b/c')!.reason).toBe(
      'deeper than 2 levels below the project root: not entered (the bound on project globs); 1 more directories at that depth were not entered either',
    );
  });
});

describe('collect_if', () => {
  it('walks a .claude-* dir only when it holds projects/ or history.jsonl; --full walks all', async () => {
    const { home } = setup({}, { '.claude-work/history.jsonl': '{}\n', '.claude-work/settings.json': '{}', '.claude-old/notes.txt': 'not a config dir', '.claude-old/a/b.txt': 'xy' });
    const rows = (await run(home)).filter((r) => r.rel.startsWith('.claude-'));
    expect(rows.map((r) => [r.rel, r.status])).toEqual([
      ['.claude-old', 'skipped_excluded'],
      ['.claude-work/history.jsonl', 'collected'],
      ['.claude-work/settings.json', 'collected'],
    ]);
    expect(rows[0]).toMatchObject({ kind: 'dir', files: 2, bytes: 18 });
    expect(rows[0].reason).toBe('collect_if: holds none of projects, history.jsonl; not read, counted by lstat only; --full collects it');
    const full = (await run(home, { full: true })).filter((r) => r.rel.startsWith('.claude-old'));
    expect(full.map((r) => r.rel)).toEqual(['.claude-old/a/b.txt', '.claude-old/notes.txt']);
  });
});

describe('CLAUDE_CONFIG_DIR with several directories', () => {
  it('walks each listed directory as .claude of the running user, skipping the default and repeats', async () => {
    const { base, home } = setup({}, { '.claude/history.jsonl': '{"n":0}\n' });
    tree(base, { 'acct-a/history.jsonl': '{"n":1}\n', 'acct-b/projects/-x/s.jsonl': '{}\n' });
    const dirs = [join(base, 'acct-a'), ` ${join(base, 'acct-b')}`, join(home, '.claude'), join(base, 'acct-a'), join(base, 'nope'), ''];
    const rows = await run(home, { currentHome: home, env: { CLAUDE_CONFIG_DIR: dirs.join(',') } });
    const cl = rows.filter((r) => r.rel.startsWith('.claude/'));
    expect(cl.map((r) => [r.rel, r.source_path, r.archive_path])).toEqual([
      ['.claude/history.jsonl', join(base, 'acct-a', 'history.jsonl'), 'homes/sean/.claude/history.jsonl'],
      ['.claude/projects/-x/s.jsonl', join(base, 'acct-b', 'projects/-x/s.jsonl'), 'homes/sean/.claude/projects/-x/s.jsonl'],
      ['.claude/history.jsonl', join(home, '.claude', 'history.jsonl'), 'homes/sean/.claude/history.jsonl~2'],
    ]);
  });
  it('notes a listed entry that is not a directory', async () => {
    const { home, base } = setup({});
    mkdirSync(join(base, 'acct'));
    const s = await collect({ homes: [home], out: '', full: false, secrets: 'collect', dryRun: true, catalogs: claude, platform: 'linux', currentHome: home, env: { CLAUDE_CONFIG_DIR: `${join(base, 'nope')},${join(base, 'acct')}` } });
    expect(s.notes).toContain(`CLAUDE_CONFIG_DIR entry ${join(base, 'nope')} is set but is not a directory; nothing collected from it`);
    expect(s.notes).toContain(`CLAUDE_CONFIG_DIR entry ${join(base, 'acct')}: collected as .claude of sean (source_path keeps the real path)`);
  });
});

describe('Windows system globs', () => {
  it('walks C:/Program Files/ClaudeCode under --root on a Windows layout only, archived as system/C%3A/...', async () => {
    const img = mkdtempSync(join(tmpdir(), 'aitrail-winsys-'));
    made.push(img);
    tree(img, {
      'Windows/win.ini': '',
      'Users/sean/.claude/history.jsonl': '{}\n',
      'program files/ClaudeCode/managed-settings.json': '{"permissions":{}}',
      'program files/ClaudeCode/managed-settings.d/10-org.json': '{}',
      'etc/claude-code/managed-settings.json': '{}',
    });
    const s = await collect({ root: img, out: '', full: false, secrets: 'collect', dryRun: true, catalogs: claude });
    expect(s.layout).toBe('win32');
    const sys = s.rows!.filter((r) => r.scope === 'system');
    expect(sys.map((r) => [r.rel, r.archive_path, r.source_path])).toEqual([
      ['C:/program files/ClaudeCode/managed-settings.d/10-org.json', 'system/C%3A/program files/ClaudeCode/managed-settings.d/10-org.json', join(img, 'program files/ClaudeCode/managed-settings.d/10-org.json')],
      ['C:/program files/ClaudeCode/managed-settings.json', 'system/C%3A/program files/ClaudeCode/managed-settings.json', join(img, 'program files/ClaudeCode/managed-settings.json')],
    ]);
  });
});
