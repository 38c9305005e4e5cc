import { cpSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliRun, manifestOf, REPO, readJsonl, runCli, stackTraceLines, tempDir } from './test-helpers/hostile-harness.js';

// Issue 11, items 5 and 8, through the built CLI. fixtures/homes/copilot-moves (see its README),
// a Linux home inside an image (--root): session e1 starts in ~/site on main and moves to ~/api
// on dev (session.context_changed); session e2 is one VS Code's Copilot Chat ran in a git
// worktree of ~/api (vscode.metadata.json). Collected and analyzed once.

const FIXTURE = join(REPO, 'fixtures/homes/copilot-moves');
const E1 = '5e55a0a1-0000-4000-8000-0000000000e1';
const E2 = '5e55a0a1-0000-4000-8000-0000000000e2';
const SITE = '/home/ann/site';
const API = '/home/ann/api';
const WORKTREE = '/home/ann/api.worktrees/copilot-health-check';

interface TRow {
  timestamp_utc: string;
  session_id: string;
  project_path: string;
  git_branch: string;
  turn_type: string;
  text: string;
  source_file: string;
}

let T: string;
const runs: { label: string; run: CliRun }[] = [];
beforeAll(async () => {
  T = tempDir('copilot-moves');
  const img = join(T, 'img');
  mkdirSync(join(img, 'home'), { recursive: true });
  cpSync(FIXTURE, join(img, 'home', 'ann'), { recursive: true, filter: (src) => !src.endsWith('README.md') });
  for (const [label, args] of [
    ['collect', ['collect', '--root', img, '--out', join(T, 'c.zip')]],
    ['analyze', ['analyze', join(T, 'c.zip'), '--out', join(T, 'out')]],
  ] as const) runs.push({ label, run: await runCli([...args]) });
}, 300_000);
afterAll(() => rmSync(T, { recursive: true, force: true }));

const timeline = () => readJsonl<TRow>(join(T, 'out/timeline.jsonl'));
const inventory = () => JSON.parse(readFileSync(join(T, 'out/inventory.json'), 'utf8')).homes[0].agents.find((a: { agent: string }) => a.agent === 'copilot-cli');

describe('a Copilot CLI session that moves between two directories (built CLI, issue 11)', () => {
  it('every run succeeds without a stack trace', () => {
    for (const { label, run } of runs) {
      expect(run.code, `${label}: ${run.stderr}`).toBe(0);
      expect(stackTraceLines(run.stderr), label).toEqual([]);
    }
  });

  it('inventory lists both directories as projects, and the VS Code worktree as a scratch directory', () => {
    const a = inventory();
    expect(a.projects).toEqual([API, SITE]);
    expect(a.scratch_directories).toEqual([WORKTREE]);
  });

  // The catalog's project hints read every cwd of a log (session.start, resumes, context changes), not its first line only.
  it('both directories are collected as projects', async () => {
    const rows = (await manifestOf(join(T, 'c.zip'))).rows.filter((r) => r.scope === 'project');
    expect([...new Set(rows.map((r) => `${r.project_root} ${r.rel}`))].sort()).toEqual([`${API} AGENTS.md`, `${SITE} AGENTS.md`]);
  });

  it('rows before the move carry ~/site on main, rows after it ~/api on dev, whatever file they come from', () => {
    const e1 = timeline().filter((r) => r.session_id === E1);
    const before = e1.filter((r) => r.timestamp_utc < '2026-11-30T09:01:00.000Z');
    const after = e1.filter((r) => r.timestamp_utc >= '2026-11-30T09:01:00.000Z');
    expect(before.map((r) => r.text)).toEqual([
      'session start: copilot 1.0.102 producer=copilot-agent cwd=/home/ann/site',
      'session name: Fix the footer link',
      'session metadata: user_named=false forks=0 compactions=0 client=github/cli',
      'rewind snapshot: 1 files +1 -1: /home/ann/site/footer.html',
      'fix the footer link',
      'The footer now links to /about.',
    ]);
    expect(after.map((r) => r.text)).toEqual([
      'rewind snapshot: 1 files +11 -0: /home/ann/api/health.js',
      'now add the health endpoint',
      'npm test',
      'ok',
      'Added GET /health.',
      'session end: routine files modified: /home/ann/site/footer.html, /home/ann/api/health.js',
    ]);
    for (const r of before) expect([r.project_path, r.git_branch], r.text).toEqual([SITE, 'main']);
    for (const r of after) expect([r.project_path, r.git_branch], r.text).toEqual([API, 'dev']);
    // Rows from workspace.yaml and the snapshots have no directory of their own: they take the one in force.
    expect(new Set(e1.map((r) => r.source_file.split('/').pop()))).toEqual(new Set(['events.jsonl', 'workspace.yaml', 'index.json']));
  });

  it('sessions.jsonl lists every directory of the session; its project is the latest', () => {
    const s = readJsonl<{ session_id: string; project_path: string; project_paths: string[]; git_branch: string; client: string; scratch_directory: string }>(join(T, 'out/sessions.jsonl'));
    expect(s.find((x) => x.session_id === E1)).toMatchObject({ project_path: API, project_paths: [SITE, API], git_branch: 'dev', client: 'github/cli', scratch_directory: '' });
  });

  it('the VS Code worktree session: VS Code drove it, the repository is its project, the worktree its scratch directory', () => {
    const s = readJsonl<{ session_id: string; project_path: string; project_paths: string[]; client: string; scratch_directory: string }>(join(T, 'out/sessions.jsonl'));
    expect(s.find((x) => x.session_id === E2)).toMatchObject({ client: 'vscode', project_path: API, scratch_directory: WORKTREE, project_paths: [WORKTREE, API] });
    const e2 = timeline().filter((r) => r.session_id === E2 && r.source_file.endsWith('vscode.metadata.json'));
    expect(e2.map((r) => [r.project_path, r.text])).toEqual([
      [API, 'VS Code session: origin=vscode project=/home/ann/api title=Health check test'],
      [WORKTREE, `scratch directory: ${WORKTREE} (VS Code worktree of /home/ann/api on copilot/health-check)`],
    ]);
  });
});
