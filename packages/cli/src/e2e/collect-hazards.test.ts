import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ManifestRow, openArchive, readCollection } from '@aitrail/collector';
import { afterAll, describe, expect, it } from 'vitest';

// End-to-end: the built CLI on the hazards home (fixtures/homes/hazards, completed by
// fixtures/scripts/make-hazards.mjs): FIFO, socket, link loops, links out of the home,
// mode-000 entries, a non-UTF-8 name, names that need escaping, an empty directory, bad hint
// files, project roots recorded in JSON and in the stringified event log, and COPILOT_HOME.

const REPO = resolve(fileURLToPath(new URL('../../../../', import.meta.url)));
const BIN = join(REPO, 'packages/cli/bin/run.js');
const isRoot = process.getuid?.() === 0;
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

interface Made {
  dest: string;
  home: string;
  fifo: boolean;
  socket: boolean;
  projects: { a: string; b: string; gone: string };
  copilotHome: string;
}

function cli(args: string[], opts: { env?: Record<string, string>; uid?: number; cwd?: string } = {}) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', OCLIF_SKIP_NEW_VERSION_CHECK: 'true', ...opts.env },
    // A FIFO opened for reading would block forever: the timeout turns that into a failure.
    timeout: 90_000,
    cwd: opts.cwd ?? REPO,
    ...(opts.uid !== undefined ? { uid: opts.uid, gid: opts.uid } : {}),
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, signal: r.signal };
}

async function archive(zip: string): Promise<{ rows: ManifestRow[]; read(name: string): Promise<Buffer>; members: string[] }> {
  const r = await openArchive(zip);
  const { manifest, problems } = await readCollection(r);
  expect(problems).toEqual([]);
  return {
    rows: manifest,
    members: [...r.members.keys()],
    async read(name) {
      const parts: Buffer[] = [];
      for await (const c of await r.openMember(name)) parts.push(c as Buffer);
      return Buffer.concat(parts);
    },
  };
}

const T = mkdtempSync(join(tmpdir(), 'aitrail-e2e-hazards-'));
chmodSync(T, 0o755);
const gen = spawnSync(process.execPath, [join(REPO, 'fixtures/scripts/make-hazards.mjs'), join(T, 'h')], { encoding: 'utf8' });
const made = JSON.parse(gen.stdout || '{}') as Made;
afterAll(() => {
  if (made.home) chmodSync(join(made.home, '.copilot/locked-dir'), 0o755);
  rmSync(T, { recursive: true, force: true });
});

describe('aitrail collect on the hazards home', () => {
  const out = join(T, 'out', 'c.zip');
  const run = cli(['collect', '--home', made.home, '--out', out, '--json'], {
    env: { HOME: made.home, COPILOT_HOME: made.copilotHome },
  });
  const rows = async () => (await archive(out)).rows;
  const row = async (rel: string, scope = 'home') => (await rows()).find((r) => r.rel === rel && r.scope === scope && !r.source_path.startsWith(made.copilotHome));

  it('finishes with exit 0 (no hang, no stack trace) and the archive verifies', () => {
    expect(gen.status, gen.stderr).toBe(0);
    expect(run.signal, 'the run was killed: something blocked').toBe(null);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/^\s+at /m);
    expect(cli(['verify', out]).code).toBe(0);
  });

  it('records the FIFO and the socket without opening them', async () => {
    if (made.fifo) expect(await row('.copilot/fifo')).toMatchObject({ status: 'skipped_special', kind: 'fifo', archive_path: '', sha256: '' });
    if (made.socket) expect(await row('.copilot/sock')).toMatchObject({ status: 'skipped_special', kind: 'socket', archive_path: '' });
    expect(made.fifo || made.socket).toBe(true);
  });

  it('records links with their targets and follows none (loop, out of the home)', async () => {
    const links = { '.copilot/loop-a': 'loop-b', '.copilot/loop-b': 'loop-a', '.copilot/etc-link': '/etc', '.copilot/passwd-link': '/etc/passwd' };
    for (const [rel, target] of Object.entries(links)) {
      expect(await row(rel), rel).toMatchObject({ status: 'skipped_special', kind: 'symlink', link_target: target, archive_path: '' });
    }
    const all = await rows();
    expect(all.filter((r) => r.rel.startsWith('.copilot/etc-link/') || r.source_path.startsWith('/etc'))).toEqual([]);
  });

  it('handles the mode-000 file and directory: collected as root (DAC does not stop root), error rows otherwise', async () => {
    const f = await row('.copilot/unreadable.json');
    if (isRoot) {
      expect(f).toMatchObject({ status: 'collected', mode: '0000' });
      expect(await row('.copilot/locked-dir/inside.txt')).toMatchObject({ status: 'collected' });
    } else {
      expect(f).toMatchObject({ status: 'error', archive_path: '' });
      expect(f!.reason).toMatch(/permission denied \(EACCES\)/);
      expect(await row('.copilot/locked-dir')).toMatchObject({ status: 'error', kind: 'dir' });
    }
  });

  it('collects a file whose name is not UTF-8 under an escaped rel and member name, saying so', async () => {
    const a = await archive(out);
    const r = a.rows.find((x) => x.rel === '.copilot/logs/bad-\\xff\\xfe.log')!;
    expect(r).toMatchObject({ status: 'collected', archive_path: 'homes/home/.copilot/logs/bad-%ff%fe.log' });
    expect(r.reason).toMatch(/not valid UTF-8/);
    expect((await a.read(r.archive_path)).toString()).toBe('a log whose name is not UTF-8\n');
  });

  it('escapes backslashes and percent signs in member names; an empty directory gives no row', async () => {
    expect(await row('.copilot/back\\slash.txt')).toMatchObject({ status: 'collected', archive_path: 'homes/home/.copilot/back%5Cslash.txt' });
    expect(await row('.copilot/100%.txt')).toMatchObject({ status: 'collected', archive_path: 'homes/home/.copilot/100%25.txt' });
    expect((await rows()).filter((r) => r.rel.startsWith('.copilot/empty-dir'))).toEqual([]);
  });

  it('tolerates bad hint files and collects the recorded project roots (JSON cwd, stringified event log)', async () => {
    expect(await row('.copilot/permissions-config.json')).toMatchObject({ status: 'collected' });
    const s = JSON.parse(run.stdout);
    const byRoot = Object.fromEntries(s.projects.map((p: { root: string; status: string }) => [p.root, p.status]));
    expect(byRoot).toEqual({ [made.projects.a]: 'collected', [made.projects.b]: 'collected', [made.projects.gone]: 'missing' });
    const a = await archive(out);
    const proj = a.rows.filter((r) => r.scope === 'project');
    const pa = proj.filter((r) => r.project_root === made.projects.a);
    expect(pa.map((r) => [r.rel, r.status, r.secret]).sort()).toEqual([
      ['.github/copilot-instructions.md', 'skipped_special', false],
      ['.mcp.json', 'collected', true],
      ['AGENTS.md', 'collected', false],
    ]);
    expect(pa.find((r) => r.rel === '.github/copilot-instructions.md')!.link_target).toBe('/etc/hostname');
    const agents = pa.find((r) => r.rel === 'AGENTS.md')!;
    expect(agents.archive_path).toBe(`projects/${made.projects.a.replace(/\//g, '%2F')}/AGENTS.md`);
    expect(sha(await a.read(agents.archive_path))).toBe(sha(readFileSync(join(made.projects.a, 'AGENTS.md'))));
    expect(proj.filter((r) => r.project_root === made.projects.b).map((r) => r.rel)).toEqual(['CLAUDE.md']);
  });

  it('walks COPILOT_HOME (running user only) as .copilot, keeping its real path in source_path', async () => {
    const a = await archive(out);
    const env = a.rows.filter((r) => r.source_path.startsWith(made.copilotHome));
    expect(env.map((r) => r.rel).sort()).toEqual(['.copilot/config.json', '.copilot/session-state/5b5b5b5b-0000-4000-8000-000000000005/workspace.yaml']);
    const cfg = env.find((r) => r.rel === '.copilot/config.json')!;
    expect(cfg).toMatchObject({ status: 'collected', secret: true, archive_path: 'homes/home/.copilot/config.json' });
    expect((await a.read(cfg.archive_path)).equals(readFileSync(join(made.copilotHome, 'config.json')))).toBe(true);
    const own = await row('.copilot/config.json');
    expect(own).toMatchObject({ status: 'collected', archive_path: 'homes/home/.copilot/config.json~2' });
    expect(own!.reason).toMatch(/was taken by another file with this rel/);
    // Another user's COPILOT_HOME is not ours to read: with HOME elsewhere, it is not walked.
    const other = join(T, 'other.zip');
    expect(cli(['collect', '--home', made.home, '--out', other], { env: { HOME: T, COPILOT_HOME: made.copilotHome } }).code).toBe(0);
    expect((await archive(other)).rows.filter((r) => r.source_path.startsWith(made.copilotHome))).toEqual([]);
  });
});

describe.runIf(isRoot)('aitrail collect on the hazards home as an unprivileged user', () => {
  it('gives the mode-000 file and directory error rows and goes on (uid 65534)', async () => {
    const outDir = join(T, 'nobody-out');
    mkdirSync(outDir);
    chownSync(outDir, 65534, 65534);
    for (const d of [made.dest, made.home]) chmodSync(d, 0o755);
    const run = cli(['collect', '--home', made.home, '--out', join(outDir, 'c.zip')], {
      uid: 65534,
      cwd: outDir,
      env: { HOME: outDir, XDG_CONFIG_HOME: outDir, XDG_CACHE_HOME: outDir, XDG_DATA_HOME: outDir },
    });
    expect(run.code, run.stderr).toBe(0);
    const { rows } = await archive(join(outDir, 'c.zip'));
    const f = rows.find((r) => r.rel === '.copilot/unreadable.json');
    expect(f).toMatchObject({ status: 'error', archive_path: '', sha256: '' });
    expect(f!.reason).toBe('permission denied (EACCES)');
    const d = rows.find((r) => r.rel === '.copilot/locked-dir');
    expect(d).toMatchObject({ status: 'error', kind: 'dir' });
    expect(d!.reason).toMatch(/cannot list directory \(EACCES\)/);
    expect(rows.find((r) => r.rel === '.copilot/command-history-state.json')).toMatchObject({ status: 'collected' });
    expect(run.stderr).toMatch(/error: .*unreadable\.json: permission denied/);
    expect(readdirSync(outDir).sort()).toEqual(['c.zip', 'c.zip.sha256']);
    expect(existsSync(join(outDir, 'c.zip.partial'))).toBe(false);
  });
});
