import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openArchive, readCollection } from './archive-reader.js';
import { loadCatalogs, parseCatalog } from './catalog.js';
import { collect, systemGlobs } from './collect.js';
import { verifyArchive } from './verify.js';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

function makeHome(): string {
  const base = mkdtempSync(join(tmpdir(), 'aitrail-collect-'));
  made.push(base);
  const home = join(base, 'sean');
  const w = (rel: string, text: string) => {
    mkdirSync(join(home, rel, '..'), { recursive: true });
    writeFileSync(join(home, rel), text);
  };
  w('.copilot/session-state/s1/workspace.yaml', `id: s1\ncwd: ${join(base, 'proj')}\n`);
  w('.copilot/config.json', '{"loggedInUsers":[]}');
  w('.copilot/pkg/linux-x64/1.0.98/app.js', 'x'.repeat(100));
  w('.copilot/pkg/linux-x64/1.0.98/b.js', 'y'.repeat(50));
  w('.config/gh/hosts.yml', 'github.com:\n  oauth_token: gho_FAKE\n');
  w('Documents/private.txt', 'not collected');
  symlinkSync('/etc', join(home, '.copilot', 'etc-link'));
  mkdirSync(join(base, 'proj', '.github'), { recursive: true });
  symlinkSync('/etc', join(base, 'proj', '.github', 'instructions'));
  writeFileSync(join(base, 'proj', 'AGENTS.md'), '# agents');
  writeFileSync(join(base, 'proj', '.mcp.json'), '{}');
  writeFileSync(join(base, 'proj', 'README.md'), 'not a project glob');
  return home;
}

describe('collect', () => {
  it('collects a home, its project and writes a verifiable archive', async () => {
    const home = makeHome();
    const out = join(home, '..', 'out.zip');
    const summary = await collect({
      homes: [home],
      out,
      full: false,
      secrets: 'collect',
      dryRun: false,
      catalogs: loadCatalogs(),
      platform: 'linux',
      currentHome: '/nonexistent',
    });
    expect(summary.out).toBe(out);
    expect(readFileSync(`${out}.sha256`, 'utf8')).toBe(`${summary.sha256}  out.zip\n`);
    const r = await openArchive(out);
    const { manifest, info } = await readCollection(r);
    r.close();
    expect(info.complete).toBe(true);
    const byRel = new Map(manifest.map((m) => [`${m.scope}:${m.rel}`, m]));
    const ws = byRel.get('home:.copilot/session-state/s1/workspace.yaml')!;
    expect(ws.status).toBe('collected');
    expect(ws.archive_path).toBe('homes/sean/.copilot/session-state/s1/workspace.yaml');
    expect(byRel.get('home:.copilot/config.json')).toMatchObject({ secret: true, status: 'collected', sha256: sha('{"loggedInUsers":[]}') });
    expect(byRel.get('home:.copilot/pkg')).toMatchObject({ status: 'skipped_excluded', files: 2, bytes: 150, kind: 'dir' });
    expect(byRel.get('home:.copilot/etc-link')).toMatchObject({ status: 'skipped_special', kind: 'symlink', link_target: '/etc' });
    expect(byRel.get('home:.config/gh/hosts.yml')).toMatchObject({ secret: true, status: 'collected' });
    expect(byRel.has('home:Documents/private.txt')).toBe(false);
    expect(byRel.get('project:AGENTS.md')).toMatchObject({ status: 'collected', project_root: join(home, '..', 'proj') });
    expect(byRel.get('project:.mcp.json')).toMatchObject({ secret: true });
    expect(byRel.has('project:README.md')).toBe(false);
    expect(byRel.get('project:.github/instructions')).toMatchObject({ status: 'skipped_special', kind: 'symlink', link_target: '/etc' });
    expect(summary.projects).toEqual([{ root: join(home, '..', 'proj'), user: 'sean', agent: 'copilot-cli', status: 'collected' }]);
    const v = await verifyArchive(out);
    expect(v).toMatchObject({ ok: true, mismatched: [], missing: [], extra: [] });
    expect(v.sidecar.status).toBe('ok');
  });
  it('hashes or skips secrets, and a dry run writes nothing', async () => {
    const home = makeHome();
    const base = { homes: [home], full: false, catalogs: loadCatalogs(), platform: 'linux' as const, currentHome: '/x' };
    const out = join(home, '..', 'h.zip');
    const s = await collect({ ...base, out, secrets: 'hash', dryRun: false });
    const r = await openArchive(out);
    const { manifest } = await readCollection(r);
    r.close();
    const cfg = manifest.find((m) => m.rel === '.copilot/config.json')!;
    expect(cfg).toMatchObject({ status: 'skipped_secret', archive_path: '', sha256: sha('{"loggedInUsers":[]}') });
    expect(s.counts.skipped_secret).toBeGreaterThanOrEqual(2);
    const dry = join(home, '..', 'dry.zip');
    const d = await collect({ ...base, out: dry, secrets: 'skip', dryRun: true });
    expect(existsSync(dry)).toBe(false);
    expect(existsSync(`${dry}.partial`)).toBe(false);
    expect(d.rows!.find((m) => m.rel === '.copilot/config.json')).toMatchObject({ status: 'skipped_secret', sha256: '' });
  });
  it('removes the .partial and rejects when aborted (Ctrl-C, SIGTERM)', async () => {
    const home = makeHome();
    const out = join(home, '..', 'abort', 'c.zip');
    const ac = new AbortController();
    const run = collect(
      { homes: [home], out, full: false, secrets: 'collect', dryRun: false, catalogs: loadCatalogs(), platform: 'linux', currentHome: '/x', signal: ac.signal },
      { row: () => ac.abort(new Error('interrupted by SIGINT')) },
    );
    await expect(run).rejects.toThrow('interrupted by SIGINT');
    expect(readdirSync(join(home, '..', 'abort'))).toEqual([]);
  });
  it('finds catalog folders whatever their case on a Windows or macOS layout', async () => {
    const home = makeHome();
    mkdirSync(join(home, 'appdata/local/COPILOT/pkg'), { recursive: true });
    writeFileSync(join(home, 'appdata/local/COPILOT/copilot-user-cache.json'), '{}');
    writeFileSync(join(home, 'appdata/local/COPILOT/pkg/x.js'), 'x');
    mkdirSync(join(home, '.COPILOT'));
    writeFileSync(join(home, '.COPILOT/Config.json'), '{}');
    const base = { homes: [home], out: '', full: false, secrets: 'collect' as const, dryRun: true, catalogs: loadCatalogs(), currentHome: '/x' };
    const win = await collect({ ...base, platform: 'win32' });
    const rows = win.rows!.filter((r) => r.rel.toLowerCase().startsWith('appdata') || r.rel.startsWith('.COPILOT'));
    expect(rows.map((r) => [r.rel, r.status, r.secret])).toEqual([
      ['.COPILOT/Config.json', 'collected', true],
      ['appdata/local/COPILOT/copilot-user-cache.json', 'collected', false],
      ['appdata/local/COPILOT/pkg', 'skipped_excluded', false],
    ]);
    const linux = await collect({ ...base, platform: 'linux' });
    expect(linux.rows!.filter((r) => r.rel.toLowerCase().startsWith('appdata') || r.rel.startsWith('.COPILOT'))).toEqual([]);
  });
  it('never collects its own archive when written inside a walked system folder', async () => {
    // An out inside a home or project is refused (out-guard.test.ts); a system glob's folder is not.
    const home = makeHome();
    const sys = join(home, '..', 'sys');
    mkdirSync(sys);
    writeFileSync(join(sys, 'policy.json'), '{}');
    const { catalog } = parseCatalog('demo.yaml', `agent: demo\nname: Demo\ncollect: [".demo/**"]\nsystem: [${JSON.stringify(`${sys}/**`)}]\n`);
    const s = await collect({ homes: [home], system: true, out: join(sys, 'own.zip'), full: false, secrets: 'collect', dryRun: false, catalogs: [catalog], platform: 'linux', currentHome: '/x' });
    const r = await openArchive(s.out!);
    const { manifest } = await readCollection(r);
    r.close();
    expect(manifest.filter((m) => m.rel.includes('own.zip'))).toEqual([]);
    expect(manifest.filter((m) => m.scope === 'system').map((m) => m.status)).toEqual(['collected']);
  });
  it('takes the system paths with named homes only when asked (--system), and says so otherwise', async () => {
    const home = makeHome();
    const sys = join(home, '..', 'sys');
    mkdirSync(sys);
    writeFileSync(join(sys, 'policy.json'), '{}');
    const { catalog } = parseCatalog('demo.yaml', `agent: demo\nname: Demo\ncollect: [".demo/**"]\nsystem: [${JSON.stringify(`${sys}/**`)}]\n`);
    const base = { homes: [home], out: '', full: false, secrets: 'collect' as const, dryRun: true, catalogs: [catalog], platform: 'linux' as const, currentHome: '/x' };
    const named = await collect(base);
    expect(named.rows!.filter((r) => r.scope === 'system')).toEqual([]);
    expect(named.notes).toContain('system paths of demo not collected: --home names the homes to collect; add --system to collect this host\'s system paths too');
    const asked = await collect({ ...base, system: true });
    expect(asked.rows!.filter((r) => r.scope === 'system').map((r) => [r.source_path, r.user, r.home])).toEqual([[join(sys, 'policy.json'), '', '']]);
    expect(asked.notes.filter((n) => n.startsWith('system paths'))).toEqual([]);
  });
  it('walks the real /private/etc for macOS system globs (/etc is a link there)', () => {
    const g = ['/etc/github-copilot/managed-settings.json', '/etc/github-copilot/policy.d/**', '/opt/x'];
    expect(systemGlobs(g, 'darwin')).toEqual(['/private/etc/github-copilot/managed-settings.json', '/private/etc/github-copilot/policy.d/**', '/opt/x']);
    expect(systemGlobs(g, 'linux')).toEqual(g);
    // Drive-letter globs belong to Windows layouts, /-rooted ones to the others.
    const mixed = ['/etc/claude-code/**', 'C:/Program Files/ClaudeCode/**'];
    expect(systemGlobs(mixed, 'linux')).toEqual(['/etc/claude-code/**']);
    expect(systemGlobs(mixed, 'win32')).toEqual(['C:/Program Files/ClaudeCode/**']);
  });
  it('does not collect COPILOT_HOME twice when it names the default place, and notes a bad value', async () => {
    const home = makeHome();
    const base = { homes: [home], out: '', full: false, secrets: 'collect' as const, dryRun: true, catalogs: loadCatalogs(), platform: 'linux' as const, currentHome: home };
    const plain = await collect(base);
    const same = await collect({ ...base, env: { COPILOT_HOME: join(home, '.copilot') } });
    expect(same.rows!.map((r) => r.rel)).toEqual(plain.rows!.map((r) => r.rel));
    expect(same.notes.filter((n) => n.includes('COPILOT_HOME'))).toEqual([]);
    const bad = await collect({ ...base, env: { COPILOT_HOME: join(home, 'nope') } });
    expect(bad.notes).toContain(`COPILOT_HOME=${join(home, 'nope')} is set but is not a directory; nothing collected from it`);
    // Not the running user: the variable is ignored.
    const other = await collect({ ...base, currentHome: '/elsewhere', env: { COPILOT_HOME: join(home, 'nope') } });
    expect(other.notes.filter((n) => n.includes('COPILOT_HOME'))).toEqual([]);
  });
});
