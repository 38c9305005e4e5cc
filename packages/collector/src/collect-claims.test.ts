import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openArchive, readCollection } from './archive-reader.js';
import { parseCatalog } from './catalog.js';
import { collect } from './collect.js';
import type { CollectOptions } from './options.js';
import { verifyArchive } from './verify.js';

// Two catalogs claiming one file (DESIGN "A file two agents claim"): one row, `agents` naming
// both, secret when either flags it, read once; the same in a dry run.

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

const alpha = parseCatalog(
  'alpha.yaml',
  `agent: alpha\nname: Alpha\ncollect:\n  - "@vscode-family/User/globalStorage/state.vscdb*"\n  - "@vscode-family/User/globalStorage/alpha.ext/**"\n  - "@vscode-family/User/workspaceStorage/*/workspace.json"\n`,
).catalog;
const beta = parseCatalog(
  'beta.yaml',
  `agent: beta\nname: Beta\ncollect:\n  - "@vscode/User/workspaceStorage/*/workspace.json"\n  - "@vscode/User/globalStorage/link"\nsecrets:\n  - "@vscode/User/globalStorage/state.vscdb*"\nproject:\n  collect: [BETA.md]\nproject_hints:\n  - {file: "@vscode/User/workspaceStorage/*/workspace.json", format: json, path: folder}\n`,
).catalog;

function makeHome(): { home: string; base: string } {
  const base = mkdtempSync(join(tmpdir(), 'aitrail-claims-'));
  made.push(base);
  const home = join(base, 'ann');
  const proj = join(base, 'proj');
  write(home, {
    '.config/Code/User/globalStorage/state.vscdb': 'sqlite bytes',
    '.config/Code/User/globalStorage/state.vscdb-wal': 'wal bytes',
    '.config/Code/User/globalStorage/alpha.ext/tasks/1.json': '{}',
    '.config/Code/User/workspaceStorage/abc/workspace.json': JSON.stringify({ folder: `file://${proj}` }),
    '.vscode-server/data/User/globalStorage/state.vscdb': 'remote sqlite',
  });
  symlinkSync('/etc/passwd', join(home, '.config/Code/User/globalStorage/link'));
  write(proj, { 'BETA.md': '# beta' });
  return { home, base };
}

const run = (home: string, over: Partial<CollectOptions>) =>
  collect({ homes: [home], out: '', full: false, secrets: 'collect', dryRun: true, catalogs: [alpha, beta], platform: 'linux', currentHome: '/x', ...over });

describe('a file two catalogs claim', () => {
  it('is read once into one row naming both agents, flagged secret because one of them says so', async () => {
    const { home, base } = makeHome();
    const out = join(base, 'out', 'c.zip');
    const s = await run(home, { out, dryRun: false });
    const r = await openArchive(out);
    const { manifest } = await readCollection(r);
    r.close();
    expect((await verifyArchive(out)).ok).toBe(true);
    const shared = manifest.filter((m) => m.rel === '.config/Code/User/globalStorage/state.vscdb');
    expect(shared).toHaveLength(1);
    expect(shared[0]).toMatchObject({ agent: 'alpha', agents: ['alpha', 'beta'], secret: true, status: 'collected', archive_path: 'homes/ann/.config/Code/User/globalStorage/state.vscdb' });
    expect(manifest.filter((m) => m.rel.endsWith('state.vscdb-wal'))).toMatchObject([{ agents: ['alpha', 'beta'], secret: true }]);
    // The remote server's copy is a file of its own; both anchors (@vscode-family, @vscode) reach it.
    expect(manifest.filter((m) => m.rel === '.vscode-server/data/User/globalStorage/state.vscdb')).toMatchObject([{ agents: ['alpha', 'beta'] }]);
    // Only alpha claims its extension folder: no `agents` field.
    const own = manifest.find((m) => m.rel.endsWith('alpha.ext/tasks/1.json'))!;
    expect(own.agent).toBe('alpha');
    expect('agents' in own).toBe(false);
    // The workspace.json both claim feeds beta's hint: beta's project is walked.
    expect(manifest.find((m) => m.rel.endsWith('abc/workspace.json'))?.agents).toEqual(['alpha', 'beta']);
    expect(s.projects).toEqual([{ root: join(base, 'proj'), user: 'ann', agent: 'beta', status: 'collected' }]);
    expect(manifest.filter((m) => m.scope === 'project').map((m) => [m.agent, m.rel])).toEqual([['beta', 'BETA.md']]);
    // Each claimant's summary group counts the shared files.
    const beta = s.groups.find((g) => g.agent === 'beta' && g.scope === 'home')!;
    expect(beta.files).toBe(4);
    expect(beta.secrets).toBe(3);
    // No row says "same file as": nothing was read twice.
    expect(manifest.some((m) => m.reason.includes('same file as'))).toBe(false);
  });

  it('with --secrets hash the shared row is hashed, not archived, though the first claimant does not flag it', async () => {
    const { home, base } = makeHome();
    const out = join(base, 'h.zip');
    await run(home, { out, dryRun: false, secrets: 'hash' });
    const r = await openArchive(out);
    const { manifest } = await readCollection(r);
    r.close();
    const shared = manifest.find((m) => m.rel === '.config/Code/User/globalStorage/state.vscdb')!;
    expect(shared).toMatchObject({ status: 'skipped_secret', archive_path: '', agents: ['alpha', 'beta'], bytes_read: 12 });
    expect(shared.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('a dry run lists the same single rows, a link two catalogs reach included', async () => {
    const { home } = makeHome();
    const s = await run(home, {});
    const rows = s.rows!;
    expect(rows.filter((m) => m.rel === '.config/Code/User/globalStorage/state.vscdb')).toMatchObject([{ agents: ['alpha', 'beta'], secret: true, status: 'collected', reason: 'dry run: not read' }]);
    // Only beta's globs name the link: one row, no `agents`.
    const links = rows.filter((m) => m.kind === 'symlink');
    expect(links).toMatchObject([{ agent: 'beta', rel: '.config/Code/User/globalStorage/link', status: 'skipped_special' }]);
    const keys = rows.map((m) => `${m.scope} ${m.rel}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('a skipped entry two catalogs reach is one row too', async () => {
    const { home } = makeHome();
    const gamma = parseCatalog('gamma.yaml', 'agent: gamma\nname: G\ncollect: ["@vscode/User/globalStorage/link"]\n').catalog;
    const s = await collect({ homes: [home], out: '', full: false, secrets: 'collect', dryRun: true, catalogs: [beta, gamma], platform: 'linux', currentHome: '/x' });
    expect(s.rows!.filter((m) => m.kind === 'symlink')).toMatchObject([{ agent: 'beta', agents: ['beta', 'gamma'], status: 'skipped_special', link_target: '/etc/passwd' }]);
  });
});
