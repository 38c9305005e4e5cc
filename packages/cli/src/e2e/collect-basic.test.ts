import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, createWriteStream, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ManifestRow, openArchive, readCollection } from '@aitrail/collector';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import type yazlTypes from 'yazl';

// End-to-end: the built CLI collects the three fixture homes from mounted-image layouts and
// every manifest row is checked against the fixture on disk, hashed here independently.

const REPO = resolve(fileURLToPath(new URL('../../../../', import.meta.url)));
const BIN = join(REPO, 'packages/cli/bin/run.js');
const HOMES = join(REPO, 'fixtures/homes');
const yazl = createRequire(join(REPO, 'packages/collector/package.json'))('yazl') as typeof yazlTypes;
const FAKE_TOKEN = 'ghp_FAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKEFAKE';

/** Run the built CLI; returns exit code and outputs. */
export function cli(args: string[], env: Record<string, string> = {}): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', OCLIF_SKIP_NEW_VERSION_CHECK: 'true', ...env },
    maxBuffer: 64 << 20,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Every regular file below dir, `/`-relative. */
function files(dir: string, base = dir): string[] {
  const out: string[] = [];
  for (const n of readdirSync(dir)) {
    const p = join(dir, n);
    if (lstatSync(p).isDirectory()) out.push(...files(p, base));
    else out.push(relative(base, p).split('\\').join('/'));
  }
  return out;
}

async function readAll(zip: string): Promise<{ rows: ManifestRow[]; members: Map<string, Buffer>; problems: string[] }> {
  const r = await openArchive(zip);
  const { manifest, problems } = await readCollection(r);
  const members = new Map<string, Buffer>();
  for (const name of r.members.keys()) {
    const parts: Buffer[] = [];
    for await (const c of await r.openMember(name)) parts.push(c as Buffer);
    members.set(name, Buffer.concat(parts));
  }
  r.close();
  return { rows: manifest, members, problems };
}

async function writeZip(out: string, members: Map<string, Buffer>): Promise<void> {
  const z = new yazl.ZipFile();
  for (const [name, data] of members) z.addBuffer(data, name, { mtime: new Date('2026-10-01T00:00:00Z') });
  z.end();
  await new Promise<void>((res, rej) => z.outputStream.pipe(createWriteStream(out)).on('close', res).on('error', rej));
}

interface Case {
  fixture: string;
  /** Where the home goes inside the image, and the top folders that give the layout away. */
  homeAt: string;
  marker: string;
  layout: string;
  project: string;
  /** Fixture rel → expected status and secret flag (files not listed: not collected at all). */
  expect: Record<string, 'collected' | 'secret' | 'project' | 'project-secret'>;
  excluded: string[];
}

const CASES: Case[] = [
  {
    fixture: 'linux-basic',
    homeAt: 'home/sean',
    marker: 'etc',
    layout: 'linux',
    project: '/home/sean/demo',
    expect: {
      '.copilot/config.json': 'secret',
      '.copilot/settings.json': 'secret',
      '.config/gh/hosts.yml': 'secret',
      'demo/AGENTS.md': 'project',
      'demo/.github/copilot-instructions.md': 'project',
      'demo/.github/instructions/ts.instructions.md': 'project',
      'demo/.mcp.json': 'project-secret',
    },
    excluded: ['.cache/copilot/pkg', '.cache/copilot/marketplaces'],
  },
  {
    fixture: 'macos-basic',
    homeAt: 'Users/sean',
    marker: 'Library',
    layout: 'darwin',
    project: '/Users/sean/demo',
    expect: {
      '.copilot/config.json': 'secret',
      '.copilot/settings.json': 'secret',
      'demo/CLAUDE.md': 'project',
      'demo/.github/copilot/settings.local.json': 'project-secret',
    },
    excluded: ['Library/Caches/copilot/pkg', 'Library/Caches/copilot/marketplaces'],
  },
  {
    fixture: 'windows-basic',
    homeAt: 'Users/sean',
    marker: 'Windows',
    layout: 'win32',
    project: 'C:\\Users\\sean\\demo',
    expect: { '.copilot/config.json': 'secret', '.copilot/mcp-config.json': 'secret', 'demo/AGENTS.md': 'project' },
    excluded: ['AppData/Local/copilot/pkg', 'AppData/Local/copilot/marketplaces'],
  },
];

/** Home-collected: everything under the catalog's roots except excluded dirs and the project. */
function homeCollected(c: Case, rel: string): boolean {
  if (rel === 'README.md' || rel.startsWith('demo/')) return false;
  if (c.excluded.some((d) => rel.startsWith(`${d}/`))) return false;
  return /^(\.copilot|\.cache\/copilot|Library\/Caches\/copilot|AppData\/Local\/copilot)\//.test(rel) || rel === '.config/gh/hosts.yml';
}

describe.each(CASES)('aitrail collect --root on $fixture', (c) => {
  const T = mkdtempSync(join(tmpdir(), `aitrail-e2e-${c.fixture}-`));
  const img = join(T, 'img');
  const src = join(HOMES, c.fixture);
  mkdirSync(join(img, c.marker), { recursive: true });
  cpSync(src, join(img, c.homeAt), { recursive: true });
  if (c.layout === 'linux') {
    mkdirSync(join(img, 'etc/github-copilot/policy.d'), { recursive: true });
    writeFileSync(join(img, 'etc/github-copilot/managed-settings.json'), '{"policy":"managed"}\n');
    writeFileSync(join(img, 'etc/github-copilot/policy.d/10-org.json'), '{"org":"example"}\n');
  }
  const out = join(T, 'out', 'c.zip');
  const run = cli(['collect', '--root', img, '--out', out, '--json']);
  afterAll(() => rmSync(T, { recursive: true, force: true }));
  const all = files(src);

  it('exits 0, writes the zip and its .sha256, prints a JSON summary and never the fake token', () => {
    expect(run.code, run.stderr).toBe(0);
    const summary = JSON.parse(run.stdout);
    expect(summary).toMatchObject({ out, layout: c.layout, homes: [{ user: 'sean' }] });
    expect(readFileSync(`${out}.sha256`, 'utf8')).toBe(`${sha(readFileSync(out))}  c.zip\n`);
    expect(existsSync(`${out}.partial`)).toBe(false);
    expect(run.stdout + run.stderr).not.toContain(FAKE_TOKEN);
    expect(summary.projects).toEqual([{ root: c.project, user: 'sean', agent: 'copilot-cli', status: 'collected' }]);
  });

  it('has one correct row per collected file: status, kind, secret, size, sha256, archive path', async () => {
    const { rows, members, problems } = await readAll(out);
    expect(problems).toEqual([]);
    // copilot-cli's rows: a file the copilot-desktop catalog claims too (mcp-config.json) is one
    // row naming both agents (`agents`), one member.
    const home = rows.filter((r) => r.scope === 'home' && r.agent === 'copilot-cli');
    const wanted = all.filter((rel) => homeCollected(c, rel)).sort();
    expect(home.filter((r) => r.kind === 'file').map((r) => r.rel).sort()).toEqual(wanted);
    for (const rel of wanted) {
      const r = home.find((x) => x.rel === rel)!;
      const bytes = readFileSync(join(src, rel));
      expect(r, rel).toMatchObject({
        user: 'sean',
        agent: 'copilot-cli',
        status: 'collected',
        kind: 'file',
        secret: c.expect[rel] === 'secret',
        size: bytes.length,
        bytes_read: bytes.length,
        sha256: sha(bytes),
        archive_path: `homes/sean/${rel}`,
      });
      expect(members.get(r.archive_path)!.equals(bytes), rel).toBe(true);
      const ns = lstatSync(join(img, c.homeAt, rel), { bigint: true }).mtimeNs;
      expect(r.mtime).toBe(new Date(Number(ns / 1_000_000n)).toISOString());
      expect(r.mode).toMatch(/^0[0-7]{3}$/);
    }
    const proj = rows.filter((r) => r.scope === 'project');
    const projFiles = Object.entries(c.expect).filter(([, v]) => v.startsWith('project'));
    expect(proj.map((r) => r.rel).sort()).toEqual(projFiles.map(([k]) => k.slice('demo/'.length)).sort());
    for (const [rel, kind] of projFiles) {
      const r = proj.find((x) => x.rel === rel.slice('demo/'.length))!;
      const bytes = readFileSync(join(src, rel));
      expect(r, rel).toMatchObject({ status: 'collected', secret: kind === 'project-secret', sha256: sha(bytes), project_root: c.project });
      expect(r.archive_path.startsWith('projects/')).toBe(true);
      expect(members.get(r.archive_path)!.equals(bytes)).toBe(true);
    }
  });

  it('skips the excluded directories with one row each, counting files and bytes without reading', async () => {
    const { rows } = await readAll(out);
    for (const d of c.excluded) {
      const inside = all.filter((rel) => rel.startsWith(`${d}/`));
      const bytes = inside.reduce((n, rel) => n + lstatSync(join(src, rel)).size, 0);
      expect(rows.find((r) => r.rel === d), d).toMatchObject({ status: 'skipped_excluded', kind: 'dir', files: inside.length, bytes, archive_path: '' });
      expect(rows.filter((r) => r.rel.startsWith(`${d}/`))).toEqual([]);
    }
  });

  it('collects the system policy files on Linux and macOS layouts only', async () => {
    const { rows } = await readAll(out);
    const sys = rows.filter((r) => r.scope === 'system');
    if (c.layout !== 'linux') expect(sys).toEqual([]);
    else {
      expect(sys.map((r) => [r.rel, r.archive_path, r.status])).toEqual([
        ['etc/github-copilot/managed-settings.json', 'system/etc/github-copilot/managed-settings.json', 'collected'],
        ['etc/github-copilot/policy.d/10-org.json', 'system/etc/github-copilot/policy.d/10-org.json', 'collected'],
      ]);
    }
  });

  it('holds exactly the collected members plus manifest.jsonl and collection.json', async () => {
    const { rows, members } = await readAll(out);
    // Rows that share a member (a file two catalogs claim) name it once.
    const expected = [...new Set(rows.filter((r) => r.archive_path).map((r) => r.archive_path))];
    expect([...members.keys()].sort()).toEqual([...expected, 'manifest.jsonl', 'collection.json'].sort());
    const info = JSON.parse(members.get('collection.json')!.toString('utf8'));
    expect(info).toMatchObject({ format: 'aitrail-collection', complete: true, layout: c.layout, tool: { name: 'aitrail' } });
    expect(info.catalog.find((x: { agent: string }) => x.agent === 'copilot-cli').sha256).toBe(
      sha(readFileSync(join(REPO, 'packages/collector/catalog/copilot-cli.yaml'))),
    );
    expect(info.counts.collected).toBe(rows.filter((r) => r.status === 'collected').length);
  });

  it('verifies, then fails naming the member once one byte of it changes', async () => {
    const ok = cli(['verify', out]);
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/: OK/);
    const { members } = await readAll(out);
    const victim = `homes/sean/.copilot/config.json`;
    const data = Buffer.from(members.get(victim)!);
    data[0] ^= 0x01;
    members.set(victim, data);
    const bad = join(T, 'tampered.zip');
    await writeZip(bad, members);
    const r = cli(['verify', bad, '--json']);
    expect(r.code).toBe(1);
    const rep = JSON.parse(r.stdout);
    expect(rep.ok).toBe(false);
    expect(rep.mismatched.map((m: { member: string }) => m.member)).toEqual([victim]);
    const human = cli(['verify', bad]);
    expect(human.code).toBe(1);
    expect(human.stdout).toContain(`MISMATCH ${victim}: sha256 differs`);
    // A member dropped and one added are reported too.
    members.delete(victim);
    members.set('homes/sean/planted.txt', Buffer.from('planted'));
    await writeZip(join(T, 'edited.zip'), members);
    const e = JSON.parse(cli(['verify', join(T, 'edited.zip'), '--json']).stdout);
    expect(e).toMatchObject({ ok: false, missing: [victim], extra: ['homes/sean/planted.txt'] });
  });
});

describe('aitrail collect --dry-run, --secrets and mistakes', () => {
  const T = mkdtempSync(join(tmpdir(), 'aitrail-e2e-opts-'));
  const home = join(T, 'Users', 'sean');
  mkdirSync(join(T, 'Windows'));
  cpSync(join(HOMES, 'windows-basic'), home, { recursive: true });
  afterAll(() => rmSync(T, { recursive: true, force: true }));

  it('--dry-run lists the rows and writes nothing', () => {
    const out = join(T, 'dry', 'c.zip');
    const r = cli(['collect', '--root', T, '--out', out, '--dry-run', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const s = JSON.parse(r.stdout);
    expect(s.dry_run).toBe(true);
    expect(s.rows.find((x: ManifestRow) => x.rel === '.copilot/mcp-config.json')).toMatchObject({ status: 'collected', secret: true, sha256: '' });
    expect(existsSync(join(T, 'dry'))).toBe(false);
    const human = cli(['collect', '--root', T, '--out', out, '--dry-run']);
    expect(human.stdout).toMatch(/skipped_excluded +dir .*AppData\/Local\/copilot\/pkg/);
    expect(human.stdout).toContain('dry run: nothing was read or written');
    expect(existsSync(join(T, 'dry'))).toBe(false);
  });

  it('--secrets hash keeps the hash and not the bytes; --secrets skip keeps metadata only', async () => {
    const bytes = readFileSync(join(home, '.copilot/mcp-config.json'));
    const h = cli(['collect', '--root', T, '--out', join(T, 'h.zip'), '--secrets', 'hash']);
    expect(h.code, h.stderr).toBe(0);
    const a = await readAll(join(T, 'h.zip'));
    expect(a.rows.find((r) => r.rel === '.copilot/mcp-config.json')).toMatchObject({ status: 'skipped_secret', secret: true, archive_path: '', sha256: sha(bytes), bytes_read: bytes.length });
    expect([...a.members.values()].some((b) => b.includes(FAKE_TOKEN))).toBe(false);
    const s = cli(['collect', '--root', T, '--out', join(T, 's.zip'), '--secrets', 'skip']);
    expect(s.code, s.stderr).toBe(0);
    const b = await readAll(join(T, 's.zip'));
    expect(b.rows.find((r) => r.rel === '.copilot/mcp-config.json')).toMatchObject({ status: 'skipped_secret', sha256: '', bytes_read: null, size: bytes.length });
    expect(cli(['verify', join(T, 's.zip')]).code).toBe(0);
  });

  it('--full collects the excluded directories', async () => {
    const r = cli(['collect', '--root', T, '--out', join(T, 'full.zip'), '--full']);
    expect(r.code, r.stderr).toBe(0);
    const { rows } = await readAll(join(T, 'full.zip'));
    expect(rows.filter((x) => x.status === 'skipped_excluded')).toEqual([]);
    expect(rows.find((x) => x.rel === 'AppData/Local/copilot/pkg/win32-arm64/1.0.99-2/cli-main.js')).toMatchObject({ status: 'collected' });
  });

  it('answers mistakes with exit 2 and a message, never a stack trace', () => {
    const cases: [string[], RegExp][] = [
      [['collect', '--root', join(T, 'nope')], /--root .*expected a directory/],
      [['collect', '--root', T, '--agent', 'nobody', '--dry-run'], /unknown --agent nobody; known agents: .*copilot-cli/],
      [['collect', '--root', T, '--out', join(T, 'h.zip')], /h\.zip already exists; choose another --out/],
      [['verify', join(T, 'missing.zip')], /expected a collection zip file/],
    ];
    for (const [args, msg] of cases) {
      const r = cli(args);
      expect(r.code, args.join(' ')).toBe(2);
      // oclif wraps long messages at the terminal width: join the lines back.
      expect(r.stderr.replace(/\s*\n\s*(›\s*)?/g, ' ')).toMatch(msg);
      expect(r.stderr).not.toMatch(/^\s+at /m);
    }
  });
});

describe('aitrail catalog', () => {
  it('lists the agents and globs, as text and as JSON', () => {
    const t = cli(['catalog']);
    expect(t.code).toBe(0);
    expect(t.stdout).toMatch(/copilot-cli +GitHub Copilot CLI/);
    expect(t.stdout).toContain('AppData/Local/copilot/marketplaces/**');
    const j = JSON.parse(cli(['catalog', '--json']).stdout);
    expect(j.find((c: { agent: string }) => c.agent === 'copilot-cli').secrets).toContain('.copilot/mcp-config.json');
  });
  it('adds --catalog files and reports a bad one with its file and line (exit 2)', () => {
    const T = mkdtempSync(join(tmpdir(), 'aitrail-e2e-cat-'));
    onTestFinished(() => rmSync(T, { recursive: true, force: true }));
    writeFileSync(join(T, 'demo-agent.yaml'), 'agent: demo-agent\nname: Demo\ncollect: [".demo/**"]\n');
    const ok = JSON.parse(cli(['catalog', '--json', '--catalog', join(T, 'demo-agent.yaml')]).stdout);
    expect(ok.map((c: { agent: string }) => c.agent)).toContain('demo-agent');
    writeFileSync(join(T, 'bad.yaml'), 'agent: bad\nname: Bad\ncollect: [".bad/**"]\nsecret: [x]\n');
    const r = cli(['catalog', '--catalog', join(T, 'bad.yaml')]);
    expect(r.code).toBe(2);
    expect(r.stderr.replace(/\s*\n\s*(›\s*)?/g, ' ')).toContain(`${join(T, 'bad.yaml')}:4: unknown key "secret"`);
    expect(r.stderr).not.toMatch(/^\s+at /m);
  });
});
