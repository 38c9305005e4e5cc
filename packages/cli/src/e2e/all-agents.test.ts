import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { ManifestRow } from '@aitrail/collector';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOT_PARSED } from '../commands/parsers.js';
import { manifestOf, readJsonl, REPO, runCli, stackTraceLines, tempDir } from './test-helpers/hostile-harness.js';

// Every cataloged agent at once (issue 17, Proof): one Linux home composed at test time from a
// fixture home of EVERY catalog in packages/collector/catalog/ (the first home, by name, whose
// README's `Agents:` line names the agent), so an agent that lands later joins by itself. The
// built CLI lists the catalogs and parsers, collects the image (dry run, then an archive) and
// analyzes the archive, once; the tests read the outputs.

type R = Record<string, unknown>;
type Inv = { agent: string; artifacts: number; bytes: number; sessions: number; session_files: number; secret_files: { path: string }[] };
const HOMES = join(REPO, 'fixtures/homes');
const CATALOGS = join(REPO, 'packages/collector/catalog');

/** The agent id of every catalog file, from its `agent:` line. */
const AGENTS = readdirSync(CATALOGS)
  .filter((f) => f.endsWith('.yaml'))
  .map((f) => /^agent:\s*['"]?([^'"\s]+)/m.exec(readFileSync(join(CATALOGS, f), 'utf8'))?.[1] ?? f)
  .sort();
/** Agents with a parser folder; the others are catalog-only. */
const PARSED = new Set(readdirSync(join(REPO, 'packages/parsers/src/agents')));
const CATALOG_ONLY = AGENTS.filter((a) => !PARSED.has(a));

/** The first fixture home (by name) naming each agent on its `Agents:` line. */
function homeOf(agent: string): string | undefined {
  for (const home of readdirSync(HOMES).sort()) {
    const readme = join(HOMES, home, 'README.md');
    if (!existsSync(readme)) continue;
    const line = /^Agents:\s*(.*)$/m.exec(readFileSync(readme, 'utf8'));
    if (line?.[1].split(/[\s,]+/).includes(agent)) return home;
  }
  return undefined;
}

/** Literal FAKE credentials in the fixtures' secret files: none may reach an output. */
function fakeTokens(home: string, rows: ManifestRow[]): string[] {
  const out = new Set<string>();
  for (const r of rows) {
    if (!r.secret || r.kind !== 'file' || r.scope !== 'home') continue;
    const file = join(home, r.rel);
    if (!existsSync(file) || statSync(file).size > 1 << 20) continue;
    for (const m of readFileSync(file, 'latin1').matchAll(/[A-Za-z0-9_-]*FAKE[A-Za-z0-9_-]{8,}/g)) out.add(m[0]);
  }
  return [...out];
}

describe('every cataloged agent in one home', () => {
  const T = tempDir('all-agents');
  const img = join(T, 'img');
  const home = join(img, 'home/dev');
  const picked = new Map(AGENTS.map((a) => [a, homeOf(a)]));
  let dry: Awaited<ReturnType<typeof runCli>>;
  let analyze: Awaited<ReturnType<typeof runCli>>;
  let catalogJson: { agent: string }[];
  let parsersJson: { agent: string; parser: string | null; note?: string }[];
  let rows: ManifestRow[];
  let inv: Map<string, Inv>;
  let outputs: string;
  beforeAll(async () => {
    mkdirSync(home, { recursive: true });
    for (const h of new Set([...picked.values()].filter((x): x is string => x !== undefined))) {
      cpSync(join(HOMES, h), home, { recursive: true, filter: (src) => !/\/(?:make|README\.md)$/.test(src) });
    }
    const [cat, par] = await Promise.all([runCli(['catalog', '--json']), runCli(['parsers', '--json'])]);
    expect(cat.code, cat.stderr).toBe(0);
    expect(par.code, par.stderr).toBe(0);
    catalogJson = JSON.parse(cat.stdout) as { agent: string }[];
    parsersJson = JSON.parse(par.stdout) as typeof parsersJson;
    dry = await runCli(['collect', '--root', img, '--dry-run'], { timeoutMs: 180_000 });
    const c = await runCli(['collect', '--root', img, '--out', join(T, 'c.zip')], { timeoutMs: 180_000 });
    expect(c.code, c.stderr).toBe(0);
    rows = (await manifestOf(join(T, 'c.zip'))).rows;
    analyze = await runCli(['analyze', join(T, 'c.zip'), '--out', join(T, 'out'), '--json'], { timeoutMs: 600_000, maxOldSpaceMb: 0 });
    const data = JSON.parse(readFileSync(join(T, 'out/inventory.json'), 'utf8')) as { homes: { agents: Inv[] }[] };
    inv = new Map(data.homes.flatMap((h) => h.agents).map((a) => [a.agent, a]));
    outputs = ['timeline.jsonl', 'timeline.csv', 'sessions.jsonl', 'inventory.json', 'duplicates.jsonl'].map((n) => readFileSync(join(T, 'out', n), 'utf8')).join('\n') + analyze.stdout + analyze.stderr + dry.stdout + dry.stderr;
  }, 900_000);
  afterAll(() => rmSync(T, { recursive: true, force: true }));

  const claims = (r: ManifestRow, agent: string) => (r.agents ?? [r.agent]).includes(agent);

  it('derives the agents from the catalogs and finds a fixture home for each', () => {
    // The catalogs on main when this test was written: later ones join without a change here.
    expect(AGENTS).toEqual(expect.arrayContaining(['amazon-q', 'amp', 'claude-code', 'codex-cli', 'copilot-cli', 'copilot-desktop', 'crush', 'cursor', 'gemini-cli', 'goose', 'jetbrains-ai', 'letta-code', 'opencode', 'qwen-code', 'vscode-copilot-chat', 'windsurf', 'zed']));
    const missing = AGENTS.filter((a) => picked.get(a) === undefined);
    expect(missing, `expected a fixtures/homes/*/README.md naming each agent on its Agents: line; none for ${missing.join(', ')}`).toEqual([]);
  });

  it('`aitrail catalog` lists every agent; `aitrail parsers` every agent, catalog-only ones as "collected, not parsed"', () => {
    expect(catalogJson.map((c) => c.agent).sort()).toEqual(AGENTS);
    for (const a of AGENTS) {
      const entries = parsersJson.filter((p) => p.agent === a);
      expect(entries.length, a).toBeGreaterThan(0);
      if (PARSED.has(a)) expect(entries.every((p) => p.parser !== null), a).toBe(true);
      else expect(entries, a).toEqual([expect.objectContaining({ agent: a, parser: null, note: NOT_PARSED })]);
    }
    expect(CATALOG_ONLY).toEqual(expect.arrayContaining(['copilot-desktop']));
  });

  it('the dry run lists every agent in its summary, with files, and exits 0 with no stack trace', () => {
    expect(dry.code, dry.stderr).toBe(0);
    expect(stackTraceLines(dry.stderr)).toEqual([]);
    for (const a of AGENTS) {
      const line = dry.stdout.split('\n').find((l) => new RegExp(`^dev\\s+${a.replace(/[.]/g, '\\.')}\\s+home\\s`).test(l));
      expect(line, `expected a summary line for ${a}`).toBeDefined();
      expect(Number(line?.split(/\s+/)[3]), a).toBeGreaterThan(0);
    }
  });

  it('analyze exits 0 and gives an inventory entry per agent with its artifacts and bytes', () => {
    expect(analyze.code, analyze.stderr).toBe(0);
    expect(stackTraceLines(analyze.stderr)).toEqual([]);
    for (const a of AGENTS) {
      const e = inv.get(a);
      expect(e, `expected an inventory entry for ${a}`).toBeDefined();
      const collected = rows.filter((r) => r.scope === 'home' && r.status === 'collected' && r.kind === 'file' && claims(r, a));
      expect(e?.artifacts, a).toBeGreaterThan(0);
      expect(e?.bytes, a).toBeGreaterThan(0);
      expect(e?.artifacts, a).toBeGreaterThanOrEqual(collected.length);
    }
    // The closing summary names each catalog-only agent (collected, no rows) with its counts.
    const noRows = (JSON.parse(analyze.stdout) as { collected_no_rows: { agent: string; artifacts: number; session_files: number }[] }).collected_no_rows;
    for (const a of CATALOG_ONLY) expect(noRows.find((u) => u.agent === a), a).toEqual(expect.objectContaining({ artifacts: inv.get(a)?.artifacts, session_files: inv.get(a)?.session_files }));
  });

  it('every secret file the collection flagged is in its agents\' inventory entries; every catalog-only agent has one', () => {
    for (const a of AGENTS) {
      const flagged = rows.filter((r) => r.secret && r.kind === 'file' && r.scope !== 'system' && claims(r, a)).map((r) => r.source_path);
      expect(inv.get(a)?.secret_files.map((s) => s.path).sort(), a).toEqual([...new Set(flagged)].sort());
    }
    for (const a of CATALOG_ONLY) expect(inv.get(a)?.secret_files.length, a).toBeGreaterThan(0);
  });

  it('a catalog-only agent with session_files has its sessions counted from the files', () => {
    const withGlobs = CATALOG_ONLY.filter((a) => /^session_files:/m.test(readFileSync(join(CATALOGS, `${a}.yaml`), 'utf8')));
    expect(withGlobs).toEqual(expect.arrayContaining([]));
    for (const a of withGlobs) expect(inv.get(a)?.session_files, a).toBeGreaterThan(0);
    // No parser reads a catalog-only agent: no row claims one.
    const tl = readJsonl<R>(join(T, 'out/timeline.jsonl'));
    for (const a of CATALOG_ONLY) expect(tl.filter((r) => r.agent === a).length, a).toBe(0);
  });

  it('no credential of a flagged secret file reaches any output', () => {
    const tokens = fakeTokens(home, rows);
    expect(tokens.length).toBeGreaterThan(0);
    const leaked = tokens.filter((t) => outputs.includes(t));
    expect(leaked).toEqual([]);
  });
});

// The catalog-only agents' fixture homes hold each OS place their specs give; in a macOS and a
// Windows image (the collector tells them by layout) the dry run lists those places under their
// agent, secrets flagged, and the Windows collection reads Rider's recentSolutions.xml hint.
describe('catalog-only agents at their macOS and Windows places', () => {
  const T = tempDir('all-agents-os');
  afterAll(() => rmSync(T, { recursive: true, force: true }));
  function image(os: 'mac' | 'win'): string {
    const root = join(T, os);
    const home = join(root, 'Users/dev');
    mkdirSync(join(home, os === 'mac' ? 'Library' : 'AppData'), { recursive: true });
    // The other OS's top folder stays out: the collector tells the layout by it.
    const other = os === 'mac' ? '/AppData' : '/Library';
    for (const h of ['windsurf-spec', 'zed-spec', 'jetbrains-ai-spec', 'amp-spec', 'letta-code-spec']) {
      cpSync(join(HOMES, h), home, { recursive: true, filter: (src) => !src.endsWith('/README.md') && src !== join(HOMES, h) + other });
    }
    return root;
  }
  const listed = (stdout: string, rel: string, secret: boolean) =>
    stdout.split('\n').some((l) => /^collected\s/.test(l) && l.includes(`/Users/dev/${rel} ->`) && /\bSECRET\b/.test(l) === secret);

  it('macOS: Library/Application Support for Windsurf, Zed and JetBrains, Library/Logs; the same dot-folders for Amp and Letta', async () => {
    const r = await runCli(['collect', '--root', image('mac'), '--dry-run'], { timeoutMs: 180_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('layout: darwin');
    for (const [rel, secret] of [
      ['Library/Application Support/Windsurf/User/globalStorage/storage.json', false],
      ['Library/Application Support/Zed/threads/threads.db', false],
      ['Library/Logs/Zed/Zed.log', false],
      ['Library/Application Support/JetBrains/PyCharm2025.3/options/recentProjects.xml', false],
      ['Library/Logs/JetBrains/PyCharm2025.3/idea.log', false],
      ['.codeium/windsurf/mcp_config.json', true],
      ['.local/share/amp/secrets.json', true],
      ['.letta/settings.json', true],
    ] as const) expect(listed(r.stdout, rel, secret), rel).toBe(true);
  });

  it('Windows: AppData/Roaming and AppData/Local places, credential files flagged; Rider\'s solution folder is a project', async () => {
    const root = image('win');
    mkdirSync(join(root, 'Users/dev/source/repos/NetApp/.junie'), { recursive: true });
    cpSync(join(HOMES, 'jetbrains-ai-spec/src/jb-app/.junie/guidelines.md'), join(root, 'Users/dev/source/repos/NetApp/.junie/guidelines.md'));
    const r = await runCli(['collect', '--root', root, '--dry-run'], { timeoutMs: 180_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('layout: win32');
    for (const [rel, secret] of [
      ['AppData/Roaming/Windsurf/User/settings.json', true],
      ['AppData/Local/Zed/threads/threads.db', false],
      ['AppData/Roaming/Zed/settings.json', true],
      ['AppData/Roaming/JetBrains/Rider2026.1/c.pwd', true],
      ['AppData/Roaming/JetBrains/Rider2026.1/aia-task-history/task-0002.events', false],
      ['AppData/Local/JetBrains/Rider2026.1/log/idea.log', false],
      ['.junie/mcp/mcp.json', true],
    ] as const) expect(listed(r.stdout, rel, secret), rel).toBe(true);
    const c = await runCli(['collect', '--root', root, '--out', join(T, 'w.zip')], { timeoutMs: 180_000 });
    expect(c.code, c.stderr).toBe(0);
    expect(c.stdout + c.stderr).toMatch(/project C:\\Users\\dev\\source\\repos\\NetApp \(dev, jetbrains-ai\): collected/);
    const { rows: w } = await manifestOf(join(T, 'w.zip'));
    expect(w.some((r) => r.scope === 'project' && r.agent === 'jetbrains-ai' && r.rel === '.junie/guidelines.md' && r.source_path.includes('NetApp'))).toBe(true);
  });
});
