import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ManifestRow, openArchive, readCollection } from '@aitrail/collector';
import { afterAll, describe, expect, it } from 'vitest';

// End-to-end: the built CLI on fixtures/homes/windows-claude inside a Windows image (--root):
// project roots from .claude.json, the transcript and a history.jsonl over 1 MiB whose last line
// alone names a project; project walks that never enter node_modules/.git and exclude Claude
// Code worktrees; collect_if on .claude-* dirs; C:/Program Files/ClaudeCode as system scope.
// Then CLAUDE_CONFIG_DIR naming two directories, on the running user's home.

const REPO = resolve(fileURLToPath(new URL('../../../../', import.meta.url)));
const BIN = join(REPO, 'packages/cli/bin/run.js');
const FIXTURE = join(REPO, 'fixtures/homes/windows-claude');
const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

function cli(args: string[], env: Record<string, string> = {}): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', OCLIF_SKIP_NEW_VERSION_CHECK: 'true', ...env },
    maxBuffer: 64 << 20,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

async function manifest(zip: string): Promise<ManifestRow[]> {
  const r = await openArchive(zip);
  const { manifest: rows, problems } = await readCollection(r);
  r.close();
  expect(problems).toEqual([]);
  return rows;
}

function write(base: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(base, rel, '..'), { recursive: true });
    writeFileSync(join(base, rel), text);
  }
}

const T = mkdtempSync(join(tmpdir(), 'aitrail-e2e-projects-'));
afterAll(() => rmSync(T, { recursive: true, force: true }));

describe('aitrail collect --root on a Windows image with Claude Code projects', () => {
  const img = join(T, 'img');
  const home = join(img, 'Users', 'sean');
  cpSync(FIXTURE, home, { recursive: true });
  // Over 1 MiB of history for repo, then the one line that names late (the newest at the end).
  const line = (project: string, i: number) => JSON.stringify({ display: `prompt ${i} ${'x'.repeat(200)}`, pastedContents: {}, timestamp: 1790845200000 + i, project });
  const lines = Array.from({ length: 6000 }, (_, i) => line('C:\\Users\\sean\\repo', i));
  writeFileSync(join(home, '.claude/history.jsonl'), `${[...lines, line('C:\\Users\\sean\\late', 6000)].join('\n')}\n`);
  write(home, {
    'repo/node_modules/pkg/CLAUDE.md': '# vendored',
    'repo/.git/HEAD': 'ref: refs/heads/main\n',
    'repo/.git/CLAUDE.md': '# not a project file',
  });
  const managed = '{"permissions":{"deny":["WebFetch"]}}';
  write(img, {
    'Windows/System32/drivers/etc/hosts': '',
    'Program Files/ClaudeCode/managed-settings.json': managed,
    'Program Files/ClaudeCode/managed-settings.d/10-org.json': '{}',
  });
  const out = join(T, 'out', 'c.zip');
  const run = cli(['collect', '--root', img, '--agent', 'claude-code', '--out', out, '--json']);

  it('exits 0 and finds the three recorded projects, the last history line among them', () => {
    expect(run.code, run.stderr).toBe(0);
    expect(readFileSync(join(home, '.claude/history.jsonl')).length).toBeGreaterThan(1024 * 1024);
    const s = JSON.parse(run.stdout);
    expect(s.layout).toBe('win32');
    expect(s.projects.map((p: { root: string; status: string }) => [p.root, p.status]).sort()).toEqual([
      ['C:\\Users\\sean\\late', 'collected'],
      ['C:\\Users\\sean\\repo', 'collected'],
    ]);
  });

  it('walks the project without node_modules or .git and excludes the worktree with one counted row', async () => {
    const rows = (await manifest(out)).filter((r) => r.scope === 'project');
    const repo = rows.filter((r) => r.project_root === 'C:\\Users\\sean\\repo');
    expect(repo.map((r) => [r.rel, r.status, r.secret]).sort()).toEqual(
      [
        ['.claude/settings.local.json', 'collected', true],
        ['.claude/worktrees', 'skipped_excluded', false],
        ['CLAUDE.md', 'collected', false],
        ['src/CLAUDE.md', 'collected', false],
      ].sort(),
    );
    expect(repo.find((r) => r.rel === '.claude/worktrees')).toMatchObject({ kind: 'dir', files: 2, bytes: 36, archive_path: '' });
    expect(repo.find((r) => r.rel === 'src/CLAUDE.md')).toMatchObject({
      archive_path: 'projects/C%3A%5CUsers%5Csean%5Crepo/src/CLAUDE.md',
      sha256: sha(readFileSync(join(FIXTURE, 'repo/src/CLAUDE.md'))),
    });
    expect(rows.filter((r) => r.project_root === 'C:\\Users\\sean\\late').map((r) => r.rel)).toEqual(['CLAUDE.md']);
    expect(rows.filter((r) => r.status === 'skipped_too_large')).toEqual([]);
  });

  it('keeps .claude-work (it holds history.jsonl) and gives .claude-old one skipped_excluded row', async () => {
    const rows = (await manifest(out)).filter((r) => r.rel.startsWith('.claude-'));
    expect(rows.map((r) => [r.rel, r.status])).toEqual([
      ['.claude-old', 'skipped_excluded'],
      ['.claude-work/history.jsonl', 'collected'],
    ]);
    expect(rows[0].reason).toMatch(/^collect_if: holds none of projects, history\.jsonl/);
  });

  it('collects C:/Program Files/ClaudeCode as system scope under system/C%3A/', async () => {
    const rows = (await manifest(out)).filter((r) => r.scope === 'system');
    expect(rows.map((r) => [r.rel, r.archive_path, r.status])).toEqual([
      ['C:/Program Files/ClaudeCode/managed-settings.d/10-org.json', 'system/C%3A/Program Files/ClaudeCode/managed-settings.d/10-org.json', 'collected'],
      ['C:/Program Files/ClaudeCode/managed-settings.json', 'system/C%3A/Program Files/ClaudeCode/managed-settings.json', 'collected'],
    ]);
    expect(rows[1].sha256).toBe(sha(managed));
    const v = cli(['verify', out]);
    expect(v.code, v.stdout + v.stderr).toBe(0);
  });
});

describe('aitrail catalog', () => {
  it('prints collect_if, project exclusions, list env homes and whole-file hints', () => {
    const r = cli(['catalog']);
    expect(r.code, r.stderr).toBe(0);
    for (const s of ['.claude-* holding projects or history.jsonl', 'project exclude (--full collects):', '**/.claude/worktrees/**', '$CLAUDE_CONFIG_DIR → .claude (a list split on ",")', 'C:/Program Files/ClaudeCode/**', '.claude/history.jsonl (jsonl project, lines: all)']) {
      expect(r.stdout).toContain(s);
    }
  });
});

describe('aitrail collect with CLAUDE_CONFIG_DIR naming two directories', () => {
  const home = join(T, 'live', 'sean');
  cpSync(FIXTURE, home, { recursive: true });
  write(join(T, 'live'), { 'acct-a/history.jsonl': '{"display":"a"}\n', 'acct-b/projects/-x/s.jsonl': '{"type":"user"}\n' });
  const out = join(T, 'live-out', 'c.zip');
  const env = { HOME: home, USERPROFILE: home, CLAUDE_CONFIG_DIR: `${join(T, 'live', 'acct-a')},${join(T, 'live', 'acct-b')}` };
  const run = cli(['collect', '--home', home, '--agent', 'claude-code', '--out', out, '--json'], env);

  it('walks each as the .claude of the running user; the home .claude keeps its files with a ~2 suffix', async () => {
    expect(run.code, run.stderr).toBe(0);
    const rows = (await manifest(out)).filter((r) => r.scope === 'home' && r.rel.startsWith('.claude/'));
    const byPath = new Map(rows.map((r) => [r.source_path, r]));
    expect(byPath.get(join(T, 'live', 'acct-a', 'history.jsonl'))).toMatchObject({ rel: '.claude/history.jsonl', archive_path: 'homes/sean/.claude/history.jsonl' });
    expect(byPath.get(join(T, 'live', 'acct-b', 'projects', '-x', 's.jsonl'))).toMatchObject({ rel: '.claude/projects/-x/s.jsonl', status: 'collected' });
    expect(byPath.get(join(home, '.claude', 'history.jsonl'))).toMatchObject({ rel: '.claude/history.jsonl', archive_path: 'homes/sean/.claude/history.jsonl~2' });
    const notes = JSON.parse(run.stdout).notes as string[];
    expect(notes.filter((n) => n.startsWith('CLAUDE_CONFIG_DIR entry')).length).toBe(2);
  });
});
