import { cpSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, runCli, stackTraceLines, tempDir } from './test-helpers/hostile-harness.js';

// One home that holds both agents, built from the two seed fixture homes. Both seeds use the
// same session id on purpose of this test: joins, names and dedup must stay per agent.
const SESSION = '5e55a0a1-0000-4000-8000-000000000001';

interface AgentEntry {
  agent: string;
  sessions: number;
  projects: string[];
  secret_files: { path: string; size: number; sha256: string }[];
}

describe('aitrail scan of one home with Copilot CLI and Claude Code', () => {
  let dir: string;
  let home: string;
  let out: string;
  let stderr = '';
  let code: number | null = null;

  beforeAll(async () => {
    dir = tempDir('mixed');
    home = join(dir, 'alice');
    mkdirSync(home);
    for (const seed of ['seed-copilot', 'seed-claude']) {
      cpSync(join(REPO, 'fixtures/homes', seed), home, { recursive: true, filter: (src) => !src.endsWith('README.md') });
    }
    out = join(dir, 'out');
    const run = await runCli(['scan', '--home', home, '--out', out]);
    stderr = run.stderr;
    code = run.code;
  }, 180_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('finishes cleanly', () => {
    expect(code, stderr.slice(-2000)).toBe(0);
    expect(stackTraceLines(stderr)).toEqual([]);
  });

  it('lists both agents under the one home, each with its own sessions, projects and secrets', () => {
    const inv = JSON.parse(readFileSync(join(out, 'inventory.json'), 'utf8')) as { homes: { user: string; agents: AgentEntry[] }[] };
    expect(inv.homes.map((h) => h.user)).toEqual(['alice']);
    const agents = new Map(inv.homes[0].agents.map((a) => [a.agent, a]));
    expect([...agents.keys()].sort()).toEqual(['claude-code', 'copilot-cli']);
    for (const a of agents.values()) {
      expect(a.sessions).toBe(1);
      expect(a.projects).toEqual(['/srv/proj']);
    }
    const secrets = (agent: string) => agents.get(agent)!.secret_files.map((s) => s.path.slice(home.length + 1)).sort();
    expect(secrets('copilot-cli')).toEqual(['.copilot/config.json', '.copilot/settings.json']);
    expect(secrets('claude-code')).toEqual(['.claude.json', '.claude/settings.json']);
    for (const a of agents.values()) for (const s of a.secret_files) expect(s.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('keeps the two sessions that share an id apart: one record each, with its own name and client', () => {
    const sessions = readFileSync(join(out, 'sessions.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { agent: string; session_id: string; name: string; client: string });
    const byAgent = new Map(sessions.map((s) => [s.agent, s]));
    expect(sessions).toHaveLength(2);
    expect(byAgent.get('copilot-cli')).toMatchObject({ session_id: SESSION, name: 'Fix failing test', client: 'copilot-cli' });
    expect(byAgent.get('claude-code')).toMatchObject({ session_id: SESSION, name: 'Run tests via subagent' });
  });

  it('puts both agents in one timeline, each prompt under its own agent, and dedups per agent', () => {
    const rows = readFileSync(join(out, 'timeline.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { agent: string; turn_type: string; text: string; timestamp_utc: string });
    const prompts = (agent: string) => rows.filter((r) => r.agent === agent && r.turn_type === 'user').map((r) => r.text);
    expect(prompts('copilot-cli')).toContain('fix the failing test');
    expect(prompts('claude-code').length).toBeGreaterThan(0);
    // Dated rows are in time order across agents.
    const dated = rows.map((r) => r.timestamp_utc).filter((t) => t !== '');
    expect(dated).toEqual([...dated].sort());
    const dups = readFileSync(join(out, 'duplicates.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { dropped: { agent: string }; kept: { agent: string } });
    expect(dups.length).toBeGreaterThan(0);
    for (const d of dups) expect(d.dropped.agent).toBe(d.kept.agent);
  });
});
