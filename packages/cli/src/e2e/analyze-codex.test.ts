import { cpSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifestOf, readJsonl, REPO, runCli, stackTraceLines, tempDir } from './test-helpers/hostile-harness.js';

// The built CLI over the Codex fixture homes: the spec's fixture collected and analyzed (rows,
// copies dropped, sessions, inventory), then one home holding Copilot CLI, Claude Code and Codex.
const SID = '019a0000-0000-7000-8000-000000000001';
const ROLLOUT = `homes/seed-codex/.codex/sessions/2026/10/01/rollout-2026-10-01T11-00-00-${SID}.jsonl`;
type R = Record<string, string | number | null>;

let dir: string;
beforeAll(() => {
  dir = tempDir('codex');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('aitrail collect and analyze of the seed-codex home', () => {
  let zip: string;
  let out: string;
  let run: Awaited<ReturnType<typeof runCli>>;
  beforeAll(async () => {
    zip = join(dir, 'c.zip');
    const c = await runCli(['collect', '--home', join(REPO, 'fixtures/homes/seed-codex'), '--out', zip]);
    expect(c.code, c.stderr).toBe(0);
    out = join(dir, 'out');
    run = await runCli(['analyze', zip, '--out', out, '--json', '--include-thinking']);
  }, 180_000);

  it('collects CODEX_HOME with its secrets flagged and its helper binaries excluded', async () => {
    const m = await manifestOf(zip);
    const row = (rel: string) => m.rows.find((r) => r.rel === rel);
    for (const rel of ['.codex/auth.json', '.codex/config.toml', `.codex/shell_snapshots/${SID}.sh`]) expect(row(rel)?.secret, rel).toBe(true);
    expect(row('.codex/history.jsonl')?.secret).toBeFalsy();
    expect(m.rows.some((r) => r.status === 'skipped_excluded' && /\.codex\/tmp/.test(String(r.rel)))).toBe(true);
    expect(m.problems).toEqual([]);
  });

  it('exits 0 with a JSON summary and no stack trace', () => {
    expect(run.code, run.stderr).toBe(0);
    expect(stackTraceLines(run.stderr)).toEqual([]);
    expect(JSON.parse(run.stdout)).toMatchObject({ integrity_ok: true, duplicates: 3, sessions: 2 });
  });

  it('gives the rollout’s rows in order, with project, branch and model filled', () => {
    const tl = readJsonl<R>(join(out, 'timeline.jsonl'));
    const ev = tl.filter((r) => r.source_file === ROLLOUT);
    expect(ev.map((r) => [r.source_line, r.turn_type, String(r.text).split('\n')[0]])).toEqual([
      [1, 'system', 'session start: codex 0.130.0 originator=codex-tui source=cli cwd=/srv/proj'],
      [1, 'system', 'system prompt: You are Codex, a coding agent.'],
      [3, 'system', 'developer message: <permissions instructions>'],
      [4, 'system', 'context agents_md: # AGENTS.md instructions for /srv/proj'],
      [4, 'system', 'context environment_context: <environment_context>'],
      [5, 'system', 'model: gpt-5.5 effort=medium summary=auto'],
      [5, 'system', 'approval policy: on-request sandbox=workspace-write network=false writable_roots=[]'],
      [6, 'user', 'fix the failing test'],
      [9, 'thinking', '**Running the tests**'],
      [11, 'tool_use', 'npm test'],
      [12, 'tool_result', '[exit 1] Chunk ID: 1a2b3c'],
      [13, 'tool_use', '*** Begin Patch'],
      [14, 'system', 'file changed: /srv/proj/date.test.js (update) success=true'],
      [15, 'tool_result', 'Success. Updated the following files:'],
      [17, 'assistant', 'The fixture year was stale; it now reads 2026.'],
      [20, 'system', 'session name: Fix failing test'],
      [22, 'system', 'model: gpt-5.5 -> gpt-5.5-mini effort=low summary=auto'],
      [22, 'system', 'approval policy: on-request -> never sandbox=danger-full-access network=- writable_roots=-'],
      [23, 'user', 'and run lint'],
      [24, 'system', 'turn aborted: interrupted'],
      [25, 'system', 'context compacted: summary=Fixed the fixture year; lint not run. replacement history 1 items'],
      [27, 'system', expect.stringMatching(/^parser: unparseable line \(cut line, no newline at end of file: invalid JSON\): \{"timestamp":"2026-10-01T09:02:00.000Z"/)],
    ]);
    for (const r of ev) expect([r.session_id, r.project_path, r.git_branch, r.agent]).toEqual([SID, '/srv/proj', 'main', 'codex-cli']);
    expect(ev.filter((r) => r.source_line === 22 || r.source_line === 23).map((r) => r.model)).toEqual(['gpt-5.5-mini', 'gpt-5.5-mini', 'gpt-5.5-mini']);
  });

  it('drops the history’s two prompts and the index’s name, each paired with its rollout row; keeps the orphan prompt and the settings', () => {
    const d = readJsonl<{ dropped: R; paired_with: R }>(join(out, 'duplicates.jsonl'));
    expect(d.map((x) => [String(x.dropped.source_file).split('/').pop(), x.dropped.text, x.paired_with.source_line]).sort()).toEqual([
      ['history.jsonl', 'and run lint', 23],
      ['history.jsonl', 'fix the failing test', 6],
      ['session_index.jsonl', 'session name: Fix failing test', 20],
    ]);
    const tl = readJsonl<R>(join(out, 'timeline.jsonl'));
    const kept = (file: string) => tl.filter((r) => String(r.source_file).endsWith(file)).map((r) => r.text);
    expect(kept('history.jsonl')).toEqual(['explain the build']);
    expect(kept('config.toml')).toEqual(['permission setting: projects./srv/proj.trust_level=trusted']);
    expect(kept('default.rules')).toEqual(['permission setting: prefix_rule pattern=["npm","test"] decision=allow (from rules/default.rules)']);
  });

  it('sessions: the thread named and placed; the history-only thread marked as surviving only in a secondary source', () => {
    const s = readJsonl<R & { secondary_only: boolean; models: string[] }>(join(out, 'sessions.jsonl'));
    const byId = new Map(s.map((x) => [x.session_id, x]));
    expect(byId.get(SID)).toMatchObject({ name: 'Fix failing test', client: 'codex-tui', project_path: '/srv/proj', git_branch: 'main', secondary_only: false, models: ['gpt-5.5', 'gpt-5.5-mini'] });
    expect(byId.get('019a0000-0000-7000-8000-000000000002')).toMatchObject({ secondary_only: true, rows: 1 });
  });

  it('inventory: the agent, its project, its secret files, no unknown record kind', () => {
    const inv = JSON.parse(readFileSync(join(out, 'inventory.json'), 'utf8'));
    const a = inv.homes[0].agents.find((x: { agent: string }) => x.agent === 'codex-cli');
    expect(a.projects).toEqual(['/srv/proj']);
    expect(a.unknown_records).toEqual({});
    expect(a.secret_files.map((f: { path: string }) => f.path.split('/.codex/')[1]).sort()).toEqual(['auth.json', 'config.toml', `shell_snapshots/${SID}.sh`]);
  });
});

describe('aitrail scan of one home with Copilot CLI, Claude Code and Codex', () => {
  let out: string;
  let run: Awaited<ReturnType<typeof runCli>>;
  beforeAll(async () => {
    const home = join(dir, 'alice');
    mkdirSync(home);
    for (const seed of ['seed-copilot', 'seed-claude', 'seed-codex']) cpSync(join(REPO, 'fixtures/homes', seed), home, { recursive: true, filter: (src) => !src.endsWith('README.md') });
    out = join(dir, 'mixed');
    run = await runCli(['scan', '--home', home, '--out', out]);
  }, 180_000);

  it('finishes cleanly and lists the three agents under the one home', () => {
    expect(run.code, run.stderr.slice(-2000)).toBe(0);
    expect(stackTraceLines(run.stderr)).toEqual([]);
    const inv = JSON.parse(readFileSync(join(out, 'inventory.json'), 'utf8'));
    expect(inv.homes.map((h: { user: string }) => h.user)).toEqual(['alice']);
    expect(inv.homes[0].agents.map((a: { agent: string }) => a.agent).sort()).toEqual(['claude-code', 'codex-cli', 'copilot-cli']);
  });

  it('one timeline in time order, each agent’s sessions apart, copies dropped within an agent only', () => {
    const tl = readJsonl<R>(join(out, 'timeline.jsonl'));
    const agents = new Set(tl.map((r) => r.agent));
    expect([...agents].sort()).toEqual(['claude-code', 'codex-cli', 'copilot-cli']);
    const dated = tl.map((r) => String(r.timestamp_utc)).filter((t) => t !== '');
    expect(dated).toEqual([...dated].sort());
    const sessions = readJsonl<R>(join(out, 'sessions.jsonl'));
    const per = (agent: string) => sessions.filter((s) => s.agent === agent).map((s) => s.session_id).sort();
    expect(per('codex-cli')).toEqual([SID, '019a0000-0000-7000-8000-000000000002']);
    expect(per('copilot-cli')).not.toContain(SID);
    expect(per('claude-code')).not.toContain(SID);
    // Each row's session belongs to its own agent's sessions.
    for (const r of tl.filter((x) => x.session_id)) expect(per(String(r.agent)), `${r.agent} ${r.session_id}`).toContain(r.session_id);
    const d = readJsonl<{ dropped: R; kept: R }>(join(out, 'duplicates.jsonl'));
    for (const x of d) expect(x.dropped.agent).toBe(x.kept.agent);
    expect(d.filter((x) => x.dropped.agent === 'codex-cli')).toHaveLength(3);
  });
});
