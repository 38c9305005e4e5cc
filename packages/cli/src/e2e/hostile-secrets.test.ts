import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliRun, HOSTILE_HOMES, manifestOf, runCli, stackTraceLines, tempDir } from './test-helpers/hostile-harness.js';

// Secret files' contents never leave the archive: every log, progress line, error message and
// output of collect, verify, analyze and scan is searched for a marker that only secret files
// hold (fixtures/hostile/homes/secret-marker, plus project-local secrets and broken secret
// files written here, whose parse errors could quote them).

const MARKER = 'SECRETMARKER7f3c1e9aDoNotPrint000000';
const SID = '5e55a0a1-0000-4000-8000-000000000009';

let T: string;
let homes: string[];
const texts: { label: string; text: string }[] = [];

function keep(label: string, r: CliRun): CliRun {
  texts.push({ label: `${label} stdout`, text: r.stdout }, { label: `${label} stderr`, text: r.stderr });
  return r;
}

// Every file below `dir` except archives: their text, for the marker search.
function outputsBelow(dir: string): { label: string; text: string }[] {
  const out: { label: string; text: string }[] = [];
  const walk = (d: string) => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else if (!n.endsWith('.zip')) out.push({ label: relative(T, p), text: readFileSync(p, 'latin1') });
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

async function archiveHolds(zip: string, needle: string): Promise<string[]> {
  const m = await manifestOf(zip);
  const hits: string[] = [];
  for (const name of m.members) if ((await m.read(name)).includes(needle)) hits.push(name);
  return hits;
}

beforeAll(async () => {
  T = tempDir('secrets');
  const sean = join(T, 'homes/sean');
  cpSync(join(HOSTILE_HOMES, 'secret-marker'), sean, { recursive: true });
  // A project the session names, holding the catalog's project-local secret files.
  const proj = join(T, 'proj');
  mkdirSync(join(proj, '.github/copilot'), { recursive: true });
  writeFileSync(join(proj, '.mcp.json'), JSON.stringify({ servers: { x: { headers: { Authorization: `Bearer ${MARKER}-project` } } } }));
  writeFileSync(join(proj, '.github/mcp.json'), JSON.stringify({ servers: { y: { env: { TOKEN: `${MARKER}-github-mcp` } } } }));
  writeFileSync(join(proj, '.github/copilot/settings.local.json'), `{"env": {"KEY": "${MARKER}-settings-local"}}`);
  writeFileSync(join(proj, 'AGENTS.md'), '# agents\n');
  writeFileSync(join(sean, '.copilot/session-state', SID, 'workspace.yaml'), `id: ${SID}\ncwd: ${proj}\nname: secrets\n`);
  const ev = join(sean, '.copilot/session-state', SID, 'events.jsonl');
  writeFileSync(ev, readFileSync(ev, 'utf8').replace('/srv/secret-test', proj));
  // Broken secret files: a parser or loader that quotes the text near a syntax error would leak.
  const broken = join(T, 'homes/broken');
  mkdirSync(join(broken, '.copilot'), { recursive: true });
  writeFileSync(join(broken, '.copilot/settings.json'), `{"allowedUrls": ["https://a.example.org"], "sandbox": {"password": ${MARKER}-broken-settings}}`);
  writeFileSync(join(broken, '.copilot/mcp-config.json'), `{"mcpServers": {"github": {"env": {"GITHUB_PERSONAL_ACCESS_TOKEN": "ghp_${MARKER.slice(0, 36)}`);
  writeFileSync(join(broken, '.copilot/config.json'), `${MARKER}-not-json-at-all\n`);
  homes = [sean, broken];

  const h = homes.flatMap((x) => ['--home', x]);
  keep('collect', await runCli(['collect', ...h, '--out', join(T, 'c.zip')]));
  keep('collect --json', await runCli(['collect', ...h, '--out', join(T, 'cj.zip'), '--json']));
  keep('verify', await runCli(['verify', join(T, 'c.zip')]));
  keep('analyze', await runCli(['analyze', join(T, 'c.zip'), '--out', join(T, 'out')]));
  keep('analyze --json', await runCli(['analyze', join(T, 'c.zip'), '--out', join(T, 'outj'), '--json', '--include-thinking', '--no-dedup']));
  keep('scan', await runCli(['scan', ...h, '--out', join(T, 'scan')]));
  keep('collect --secrets hash', await runCli(['collect', ...h, '--secrets', 'hash', '--out', join(T, 'hash.zip')]));
  keep('collect --secrets skip', await runCli(['collect', ...h, '--secrets', 'skip', '--out', join(T, 'skip.zip')]));
  keep('analyze hash', await runCli(['analyze', join(T, 'hash.zip'), '--out', join(T, 'out-hash')]));
  keep('collect --dry-run', await runCli(['collect', ...h, '--dry-run']));
}, 300_000);
afterAll(() => rmSync(T, { recursive: true, force: true }));

describe('secret files: flagged, archived, never printed', () => {
  it('every run finished without a stack trace', () => {
    for (const t of texts) expect(stackTraceLines(t.text), t.label).toEqual([]);
    expect(existsSync(join(T, 'c.zip'))).toBe(true);
    expect(existsSync(join(T, 'out/timeline.jsonl'))).toBe(true);
  });

  it('flags every secret file of the seed (mcp-config.json env token, config.json, settings.json, mcp-oauth-config, mcp-secrets, the XDG copy, project .mcp.json and .github/mcp.json)', async () => {
    const rows = (await manifestOf(join(T, 'c.zip'))).rows;
    const secret = (rel: string) => rows.find((r) => r.rel === rel && r.user === 'sean');
    for (const rel of ['.copilot/mcp-config.json', '.copilot/config.json', '.copilot/settings.json', '.copilot/mcp-oauth-config.json', '.copilot/mcp-secrets/github', '.config/.copilot/config.json']) {
      expect(secret(rel), rel).toMatchObject({ secret: true, status: 'collected' });
    }
    for (const rel of ['.mcp.json', '.github/mcp.json', '.github/copilot/settings.local.json']) {
      expect(rows.find((r) => r.scope === 'project' && r.rel === rel), rel).toMatchObject({ secret: true });
    }
  });

  it('the default archive holds the marker (so its absence elsewhere means something)', async () => {
    const hits = await archiveHolds(join(T, 'c.zip'), MARKER);
    expect(hits.length).toBeGreaterThanOrEqual(8);
    for (const h of hits) expect(h).toMatch(/mcp|config\.json|settings|mcp-secrets/);
  });

  it('the marker appears in no stdout or stderr of collect, verify, analyze, scan or a dry run', () => {
    for (const t of texts) expect(t.text.includes(MARKER), t.label).toBe(false);
  });

  it('the marker appears in no output file: timeline.csv/jsonl, sessions.jsonl, inventory.json, duplicates.jsonl (default, --json, scan, --secrets hash)', () => {
    const files = ['out', 'outj', 'scan', 'out-hash'].flatMap((d) => outputsBelow(join(T, d)));
    expect(files.map((f) => f.label)).toEqual(expect.arrayContaining(['out/timeline.csv', 'out/timeline.jsonl', 'out/sessions.jsonl', 'out/inventory.json', 'out/duplicates.jsonl']));
    for (const f of files) expect(f.text.includes(MARKER), f.label).toBe(false);
    // Nor any part of a token: the prefix a scanner would match.
    for (const f of files) expect(f.text.includes(`ghp_${MARKER.slice(0, 8)}`), f.label).toBe(false);
  });

  it('inventory.json lists the secret files by path, size and hash', () => {
    const inv = readFileSync(join(T, 'out/inventory.json'), 'utf8');
    const parsed = JSON.parse(inv) as { homes: { user: string; agents: { secret_files: { path: string; size: number; sha256: string }[] }[] }[] };
    const files = parsed.homes.flatMap((h) => h.agents.flatMap((a) => a.secret_files));
    const mcp = files.find((f) => f.path.endsWith('homes/sean/.copilot/mcp-config.json'));
    expect(mcp).toMatchObject({ size: statSync(join(T, 'homes/sean/.copilot/mcp-config.json')).size, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });

  it('--secrets hash and --secrets skip keep the marker out of the archive itself', async () => {
    expect(await archiveHolds(join(T, 'hash.zip'), MARKER)).toEqual([]);
    expect(await archiveHolds(join(T, 'skip.zip'), MARKER)).toEqual([]);
    const hashed = (await manifestOf(join(T, 'hash.zip'))).rows.find((r) => r.user === 'sean' && r.rel === '.copilot/mcp-config.json');
    expect(hashed).toMatchObject({ secret: true, archive_path: '', sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const skipped = (await manifestOf(join(T, 'skip.zip'))).rows.find((r) => r.user === 'sean' && r.rel === '.copilot/mcp-config.json');
    expect(skipped).toMatchObject({ secret: true, archive_path: '', sha256: '' });
  });
});
