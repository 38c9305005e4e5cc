import { cpSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliRun, readJsonl, REPO, runCli, stackTraceLines, tempDir } from './test-helpers/hostile-harness.js';

// End-to-end over fixtures/homes/live-claude (real Claude Code 2.1.332 and 2.1.143 output, and the
// MCP configs and logs of a run with four MCP servers; see its README). The home sits in a
// mounted-image layout (`home/live-claude-code`) so the project the transcripts name is found and
// its `.mcp.json` collected. The configs hold FAKE tokens that must reach no output.

const FIXTURE = join(REPO, 'fixtures/homes/live-claude');
const PROJECT = '/home/live-claude-code/proj';
const MCP_SESSION = 'f93e6479-cafa-4d9d-8136-b01aa44e5813';

// The token values, read from the fixture's configs, so none is written in this file.
function fakeTokens(): string[] {
  const user = JSON.parse(readFileSync(join(FIXTURE, '.claude.json'), 'utf8'));
  const project = JSON.parse(readFileSync(join(FIXTURE, 'proj/.mcp.json'), 'utf8'));
  return [
    user.mcpServers.echo.env.ECHO_TOKEN,
    user.mcpServers.broken.args[1],
    user.projects[PROJECT].mcpServers.localhttp.headers.Authorization,
    user.projects[PROJECT].mcpServers.localhttp.headers.Authorization.replace(/^Bearer /, ''),
    project.mcpServers.projecho.env.PROJ_SECRET,
  ];
}

interface McpEntry {
  name: string;
  scope: string;
  project_path: string;
  transport: string;
  env_keys: string[];
  header_keys: string[];
  args: string[];
  file: string;
  tools: { name: string }[] | null;
  failures: { message: string; file: string }[];
  failures_total: number;
  secrets: number;
}
interface Agent {
  agent: string;
  mcp_servers: McpEntry[];
  credential_findings: { file: string; kind: string; preview: string; key: string; server: string }[];
  unknown_records: Record<string, unknown>;
  projects: string[];
}
interface Row {
  session_id: string;
  turn_type: string;
  tag: string;
  text: string;
  source_file: string;
  project_path: string;
}

let T: string;
const runs: CliRun[] = [];
let agent: Agent;
let rows: Row[];
let sessions: { session_id: string; project_paths: string[]; rows: number }[];

beforeAll(async () => {
  T = tempDir('live-claude');
  cpSync(FIXTURE, join(T, 'img/home/live-claude-code'), { recursive: true, filter: (src) => !src.endsWith('README.md') && !src.includes('/make') });
  runs.push(await runCli(['collect', '--root', join(T, 'img'), '--agent', 'claude-code', '--out', join(T, 'c.zip')]));
  runs.push(await runCli(['analyze', join(T, 'c.zip'), '--out', join(T, 'out')]));
  const inv = JSON.parse(readFileSync(join(T, 'out/inventory.json'), 'utf8')) as { homes: { agents: Agent[] }[] };
  agent = inv.homes[0].agents.find((a) => a.agent === 'claude-code')!;
  rows = readJsonl<Row>(join(T, 'out/timeline.jsonl'));
  sessions = readJsonl(join(T, 'out/sessions.jsonl'));
}, 300_000);
afterAll(() => rmSync(T, { recursive: true, force: true }));

describe('aitrail collect + analyze over real Claude Code 2.1.332 output with MCP servers', () => {
  it('both commands succeed without a stack trace', () => {
    for (const r of runs) {
      expect(r.code, r.stderr).toBe(0);
      expect(stackTraceLines(r.stderr)).toEqual([]);
    }
  });

  it('lists the four configured servers with their scope, key names, tools and failures', () => {
    const view = agent.mcp_servers.map((s) => [s.name, s.scope, s.project_path, s.transport, s.env_keys, s.header_keys, s.tools?.map((t) => t.name) ?? null, s.failures_total > 0, s.secrets]);
    expect(view).toEqual([
      ['broken', 'user', '', 'stdio', [], [], null, true, 1],
      ['echo', 'user', '', 'stdio', ['ECHO_TOKEN'], [], ['echo_marker'], false, 1],
      ['localhttp', 'user', PROJECT, 'http', [], ['Authorization'], null, true, 1],
      ['projecho', 'project', PROJECT, 'stdio', ['PROJ_SECRET'], [], ['echo_marker'], false, 1],
    ]);
    expect(agent.mcp_servers.find((s) => s.name === 'projecho')?.file).toMatch(/\.mcp\.json$/);
    // The failures come from the transcript's deferred-tools record and from the MCP logs.
    const broken = agent.mcp_servers.find((s) => s.name === 'broken')!;
    expect(new Set(broken.failures.map((f) => f.file.split('/').at(-2)))).toEqual(new Set(['-home-live-claude-code-proj', 'mcp-logs-broken']));
    expect(broken.failures.every((f) => f.message.includes('ENOENT'))).toBe(true);
  });

  it('turns every config value into a redacted credential finding and prints none anywhere', () => {
    expect(agent.credential_findings.map((f) => [f.server, f.key]).sort()).toEqual([
      ['broken', 'arg:--api-key'],
      ['echo', 'env:ECHO_TOKEN'],
      ['localhttp', 'header:Authorization'],
      ['projecho', 'env:PROJ_SECRET'],
    ]);
    expect(agent.mcp_servers.find((s) => s.name === 'broken')?.args).toEqual(['--api-key', '[REDACTED]']);
    const texts = [...runs.flatMap((r) => [r.stdout, r.stderr])];
    for (const f of readdirSync(join(T, 'out'))) if (statSync(join(T, 'out', f)).isFile()) texts.push(readFileSync(join(T, 'out', f), 'utf8'));
    const tokens = fakeTokens();
    expect(tokens.every((t) => typeof t === 'string' && t.length > 20)).toBe(true);
    for (const token of tokens) for (const t of texts) expect(t.includes(token)).toBe(false);
  });

  it('one system prompt row per 2.1.332 session, the offered tools, model, cost and MCP rows; nothing unknown', () => {
    const count = (tag: string) => rows.filter((r) => r.tag === tag).length;
    const prompts = rows.filter((r) => r.tag === 'system_prompt');
    expect(prompts.map((r) => r.session_id).sort()).toEqual(['62e839ac-9a2a-4fb5-8cf9-55d66ba25fe6', MCP_SESSION]);
    expect(count('model')).toBe(2);
    expect(count('cost')).toBe(4);
    expect(rows.filter((r) => r.tag === 'tools_offered' && r.session_id === MCP_SESSION).map((r) => r.text.split(':')[0])).toEqual([
      'tools offered (deferred)',
      'tools offered',
      'tools offered (deferred)',
    ]);
    expect(rows.filter((r) => r.tag === 'mcp_connected').map((r) => r.text.split(' connected')[0]).sort()).toEqual(['mcp server echo', 'mcp server echo', 'mcp server projecho', 'mcp server projecho']);
    expect(count('mcp_failure')).toBeGreaterThanOrEqual(4);
    expect(agent.unknown_records).toEqual({});
  });

  it('every session worked in the project, and the project was collected', () => {
    expect(agent.projects).toEqual([PROJECT]);
    for (const s of sessions) expect(s.project_paths).toEqual([PROJECT]);
    for (const r of rows.filter((x) => x.session_id)) expect(r.project_path).toBe(PROJECT);
  });
});
