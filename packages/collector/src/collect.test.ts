import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openArchive, readCollection } from './archive-reader.js';
import { loadCatalogs } from './catalog.js';
import { collect } from './collect.js';
import { verifyArchive } from './verify.js';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

function makeHome(): string {
  const base = mkdtempSync(join(tmpdir(), 'aitrail-collect-'));
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
});
