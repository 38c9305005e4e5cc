import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ManifestRow, openArchive, readCollection } from '@aitrail/collector';
import { afterAll, describe, expect, it } from 'vitest';

// End-to-end: the built CLI over fixtures/homes/editor-family (VS Code's Linux user folder and a
// Remote-SSH server's) with two test-only catalogs on the editor anchors. The global
// state.vscdb both claim is one manifest row naming both agents, flagged because the second
// flags it; a dry run lists the same rows; the project both record is walked once per file.

const REPO = resolve(fileURLToPath(new URL('../../../../', import.meta.url)));
const BIN = join(REPO, 'packages/cli/bin/run.js');
const FIXTURE = join(REPO, 'fixtures/homes/editor-family');
const CHAT = join(REPO, 'fixtures/catalogs/test-editor-chat.yaml');
const EXT = join(REPO, 'fixtures/catalogs/test-editor-ext.yaml');
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

function cli(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', OCLIF_SKIP_NEW_VERSION_CHECK: 'true' },
    maxBuffer: 64 << 20,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const T = mkdtempSync(join(tmpdir(), 'aitrail-e2e-editors-'));
afterAll(() => rmSync(T, { recursive: true, force: true }));

const home = join(T, 'ann');
cpSync(FIXTURE, home, { recursive: true });
rmSync(join(home, 'README.md'));
// A project both catalogs record (absolute paths cannot be committed): a workspace.json URI for
// the chat catalog, a task-history entry for the extension catalog.
const proj = join(T, 'proj');
mkdirSync(proj);
writeFileSync(join(proj, 'AGENTS.md'), '# agents\n');
writeFileSync(join(proj, '.clinerules'), 'be brief\n');
writeFileSync(join(proj, 'README.md'), 'not a project glob\n');
const ws2 = '.config/Code/User/workspaceStorage/feedfacefeedfacefeedfacefeedface/workspace.json';
mkdirSync(join(home, ws2, '..'), { recursive: true });
writeFileSync(join(home, ws2), JSON.stringify({ folder: `file://${proj.split('/').map(encodeURIComponent).join('/')}` }));
const historyFile = join(home, '.config/Code/User/globalStorage/saoudrizwan.claude-dev/state/taskHistory.json');
const history = JSON.parse(readFileSync(historyFile, 'utf8')) as object[];
writeFileSync(historyFile, JSON.stringify([...history, { id: '1767300000000', ts: 1767300000000, task: 'x', cwdOnTaskInitialization: proj }]));

const base = ['--home', home, '--catalog', CHAT, '--catalog', EXT, '--agent', 'test-editor-chat', '--agent', 'test-editor-ext', '--json'];
const G = '.config/Code/User/globalStorage';
const W = '.config/Code/User/workspaceStorage';
// [rel, status, agent, agents, secret]: what the two catalogs take from the home, and nothing else.
const HOME_ROWS = [
  [`${G}/saoudrizwan.claude-dev/checkpoints`, 'skipped_excluded', 'test-editor-ext', undefined, false],
  [`${G}/saoudrizwan.claude-dev/state/taskHistory.json`, 'collected', 'test-editor-ext', undefined, false],
  [`${G}/saoudrizwan.claude-dev/tasks/1767225600000/api_conversation_history.json`, 'collected', 'test-editor-ext', undefined, false],
  [`${G}/saoudrizwan.claude-dev/tasks/1767225600000/ui_messages.json`, 'collected', 'test-editor-ext', undefined, false],
  [`${G}/state.vscdb`, 'collected', 'test-editor-chat', ['test-editor-chat', 'test-editor-ext'], true],
  [`${W}/0123456789abcdef0123456789abcdef/chatSessions/c0ffee00-0000-4000-8000-000000000001.json`, 'collected', 'test-editor-chat', undefined, false],
  [`${W}/0123456789abcdef0123456789abcdef/workspace.json`, 'collected', 'test-editor-chat', undefined, false],
  [ws2, 'collected', 'test-editor-chat', undefined, false],
  ['.vscode-server/data/User/globalStorage/saoudrizwan.claude-dev/tasks/1767312000000/ui_messages.json', 'collected', 'test-editor-ext', undefined, false],
];
const shape = (rows: ManifestRow[]) =>
  rows
    .map((r) => [r.rel, r.status, r.agent, r.agents, r.secret])
    .sort((a, b) => String(a[0]).localeCompare(String(b[0])));

describe('aitrail collect with editor anchors and a file two catalogs claim', () => {
  it('--dry-run lists each file once, the shared state.vscdb with both agents and flagged', () => {
    const r = cli(['collect', ...base, '--dry-run']);
    expect(r.code, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout);
    expect(shape(s.rows)).toEqual(HOME_ROWS);
    expect(s.rows.find((x: ManifestRow) => x.status === 'skipped_excluded')).toMatchObject({ kind: 'dir', files: 2 });
    expect(s.notes).toContain('dry run: project roots are found by reading collected files, so none are listed');
  });

  const out = join(T, 'out', 'editors.zip');
  const run = cli(['collect', ...base, '--out', out]);

  it('a real collect archives the shared file once, under one row naming both agents', async () => {
    expect(run.code, run.stderr).toBe(0);
    const zip = await openArchive(out);
    const { manifest } = await readCollection(zip);
    const homeRows = manifest.filter((m) => m.scope === 'home');
    expect(shape(homeRows)).toEqual(HOME_ROWS);
    const shared = homeRows.find((m) => m.rel === `${G}/state.vscdb`)!;
    const bytes = readFileSync(join(FIXTURE, G, 'state.vscdb'));
    expect(bytes.subarray(0, 16).toString('latin1')).toBe('SQLite format 3\0');
    expect(shared).toMatchObject({ archive_path: `homes/ann/${G}/state.vscdb`, sha256: sha(bytes), bytes_read: bytes.length });
    const members = [...zip.members.keys()];
    expect(members.filter((n) => n.endsWith('state.vscdb'))).toEqual([`homes/ann/${G}/state.vscdb`]);
    expect(members.some((n) => n.includes('CachedData') || n.includes('extensions') || n.includes('unrelated'))).toBe(false);
    zip.close();
    expect(manifest.some((m) => m.reason.includes('same file as'))).toBe(false);
  });

  it('both catalogs record the project: its shared file is one row, each outcome is listed, remote folders apart', async () => {
    const s = JSON.parse(run.stdout);
    expect(s.projects.map((p: { root: string; agent: string; status: string }) => [p.root, p.agent, p.status]).sort()).toEqual(
      [
        [proj, 'test-editor-chat', 'collected'],
        [proj, 'test-editor-ext', 'collected'],
        ['/home/ann/build-tools', 'test-editor-ext', 'missing'],
        ['vscode-remote://ssh-remote+build-box/home/ann/api', 'test-editor-chat', 'remote'],
      ].sort(),
    );
    expect(s.notes.some((n: string) => n.startsWith('project hints named 1 folders on other hosts'))).toBe(true);
    const zip = await openArchive(out);
    const { manifest } = await readCollection(zip);
    zip.close();
    expect(shape(manifest.filter((m) => m.scope === 'project'))).toEqual([
      ['.clinerules', 'collected', 'test-editor-ext', undefined, false],
      ['AGENTS.md', 'collected', 'test-editor-chat', ['test-editor-chat', 'test-editor-ext'], false],
    ]);
    // The summary counts the shared file for each agent.
    const ext = s.groups.find((g: { agent: string; scope: string }) => g.agent === 'test-editor-ext' && g.scope === 'home');
    expect(ext).toMatchObject({ files: 5, secrets: 1, skipped: 1 });
  });

  it('aitrail verify accepts the archive', () => {
    const v = cli(['verify', out]);
    expect(v.code, v.stdout + v.stderr).toBe(0);
  });
});

describe('aitrail catalog with anchors', () => {
  it('shows the anchored lines and what each anchor stands for; --json has the expansion', () => {
    const r = cli(['catalog', '--catalog', EXT]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('    @vscode-family/User/globalStorage/saoudrizwan.claude-dev/**\n');
    expect(r.stdout).toMatch(/@vscode: 6 data folders: \.config\/Code, Library\/Application Support\/Code, AppData\/Roaming\/Code, \.var\/app\/com\.visualstudio\.code\/config\/Code, \.vscode-server\/data, \.vscode-remote\/data/);
    expect(r.stdout).toMatch(/@vscode-family: \d+ editors \(vscode, vscode-insiders, /);
    expect(r.stdout).toContain('[].cwdOnTaskInitialization');
    const j = cli(['catalog', '--json', '--catalog', EXT]);
    const ext = JSON.parse(j.stdout).find((c: { agent: string }) => c.agent === 'test-editor-ext');
    expect(ext.collect).toContain('.vscode-server/data/User/globalStorage/saoudrizwan.claude-dev/**');
    expect(ext.collect).toContain('Library/Application Support/Cursor/User/globalStorage/saoudrizwan.claude-dev/**');
    expect(ext.written.collect).toEqual(['@vscode-family/User/globalStorage/saoudrizwan.claude-dev/**']);
  });

  it('an unknown anchor is a usage error naming the file and line', () => {
    const bad = join(T, 'bad-anchor.yaml');
    writeFileSync(bad, 'agent: bad-anchor\nname: Bad\ncollect:\n  - "@vscodee/User/**"\n');
    const r = cli(['catalog', '--catalog', bad]);
    expect(r.code).toBe(2);
    expect(r.stderr.replace(/\s*\n\s*(›\s*)?/g, ' ')).toContain(`${bad}:4: bad glob "@vscodee/User/**" in "collect": unknown anchor "@vscodee"; known anchors: @vscode-family, @vscode,`);
  });
});
