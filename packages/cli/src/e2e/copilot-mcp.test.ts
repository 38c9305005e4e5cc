import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliRun, manifestOf, REPO, readJsonl, runCli, stackTraceLines, tempDir } from './test-helpers/hostile-harness.js';

// Issue 11, item 4 (the seed's issue 150): the Copilot CLI's MCP servers through the built CLI.
// fixtures/homes/copilot-mcp (see its README) is a Windows home inside an image (--root): the
// user's mcp-config.json (a FAKE PAT in env, a FAKE bearer token in a header), a project with
// .mcp.json, .github/mcp.json and .github/copilot/settings.json (FAKE values in env and a header),
// a process log with two failed spawns, and a cached tool list. Collected and analyzed once.

const FIXTURE = join(REPO, 'fixtures/homes/copilot-mcp');
const SID = '5e55a0a1-0000-4000-8000-0000000000f1';
const PROJ = 'C:\\Users\\ann\\proj';
const grab = (rel: string, re: RegExp) => re.exec(readFileSync(join(FIXTURE, rel), 'utf8'))![1];
// Read from the fixture, so no credential-shaped literal sits in this file.
const TOKENS = [
  grab('.copilot/mcp-config.json', /"GITHUB_PERSONAL_ACCESS_TOKEN": "([^"]+)"/),
  grab('.copilot/mcp-config.json', /"Authorization": "Bearer ([^"]+)"/),
  grab('proj/.mcp.json', /"DB_PASSWORD": "([^"]+)"/),
  grab('proj/.github/mcp.json', /"X-Api-Key": "([^"]+)"/),
];

interface Server {
  name: string;
  scope: string;
  project_path: string;
  transport: string;
  command: string;
  url: string;
  env_keys: string[];
  header_keys: string[];
  file: string;
  line: number | null;
  tools: { name: string; annotations?: Record<string, unknown> }[] | null;
  failures: { timestamp_utc: string; message: string; file: string; line: number | null }[];
  failures_total: number;
  secrets: number;
}
interface Agent {
  agent: string;
  projects: string[];
  mcp_servers: Server[];
  credential_findings: { file: string; line: number | null; kind: string; preview: string; key?: string; server?: string }[];
  unknown_records: Record<string, Record<string, number>>;
}

let T: string;
const runs: { label: string; run: CliRun }[] = [];
async function cli(label: string, args: string[]): Promise<CliRun> {
  const run = await runCli(args);
  runs.push({ label, run });
  return run;
}
const inventory = (dir: string) => JSON.parse(readFileSync(join(T, dir, 'inventory.json'), 'utf8')) as { homes: { user: string; agents: Agent[] }[]; totals: Record<string, number> };
const agent = (dir: string, id = 'copilot-cli') => inventory(dir).homes.find((h) => h.user === 'ann')!.agents.find((a) => a.agent === id)!;

beforeAll(async () => {
  T = tempDir('copilot-mcp');
  const img = join(T, 'img');
  cpSync(FIXTURE, join(img, 'Users', 'ann'), { recursive: true, filter: (src) => !src.endsWith('README.md') });
  mkdirSync(join(img, 'Windows', 'System32'), { recursive: true });
  writeFileSync(join(img, 'Windows', 'System32', 'hosts'), '');
  await cli('collect', ['collect', '--root', img, '--out', join(T, 'c.zip')]);
  await cli('analyze', ['analyze', join(T, 'c.zip'), '--out', join(T, 'out')]);
  await cli('analyze --json', ['analyze', join(T, 'c.zip'), '--out', join(T, 'outj'), '--json']);
}, 300_000);
afterAll(() => rmSync(T, { recursive: true, force: true }));

describe('Copilot CLI MCP servers (built CLI, issue 11)', () => {
  it('every run succeeds without a stack trace', () => {
    for (const { label, run } of runs) {
      expect(run.code, `${label}: ${run.stderr}`).toBe(0);
      expect(stackTraceLines(run.stderr), label).toEqual([]);
    }
  });

  it('inventory lists the user and project servers with their transport, key names, file and line', () => {
    const servers = agent('out').mcp_servers.map((s) => [s.name, s.scope, s.project_path, s.transport, s.command || s.url, s.env_keys, s.header_keys, s.file, s.line, s.secrets]);
    const P = 'projects/C%3A%5CUsers%5Cann%5Cproj';
    expect(servers).toEqual([
      ['db', 'project', PROJ, 'stdio', 'db-mcp', ['DB_HOST', 'DB_PASSWORD'], [], `${P}/.mcp.json`, 3, 1],
      ['github', 'user', '', 'stdio', 'npx', ['GITHUB_PERSONAL_ACCESS_TOKEN'], [], 'homes/ann/.copilot/mcp-config.json', 3, 1],
      ['issues', 'project', PROJ, 'http', 'https://issues.example.com/mcp', [], ['X-Api-Key'], `${P}/.github/mcp.json`, 3, 1],
      ['jira', 'user', '', 'stdio', 'jira-mcp', [], [], 'homes/ann/.copilot/mcp-config.json', 17, 0],
      ['lint', 'project', PROJ, 'stdio', 'lint-mcp', [], [], `${P}/.github/copilot/settings.json`, 4, 0],
      ['playwright', 'user', '', 'stdio', 'npx', [], [], 'homes/ann/.copilot/mcp-config.json', 28, 0],
      ['search', 'user', '', 'http', 'https://mcp.example.com/mcp', [], ['Authorization'], 'homes/ann/.copilot/mcp-config.json', 38, 1],
    ]);
    expect(agent('outj').mcp_servers).toEqual(agent('out').mcp_servers);
  });

  it("the failed spawns are the jira server's failures and timeline rows; the tool cache is playwright's tools with their hints", () => {
    const servers = agent('out').mcp_servers;
    const jira = servers.find((s) => s.name === 'jira')!;
    const log = 'homes/ann/.copilot/logs/process-1792267080000-5120.log';
    expect([jira.failures_total, jira.failures]).toEqual([
      2,
      [
        { timestamp_utc: '2026-10-17T19:58:01.000Z', message: 'failed to spawn MCP server process: program not found', file: log, line: 4 },
        { timestamp_utc: '2026-10-17T19:58:31.000Z', message: 'failed to spawn MCP server process: program not found', file: log, line: 6 },
      ],
    ]);
    const pw = servers.find((s) => s.name === 'playwright')!;
    expect(pw.tools?.map((t) => [t.name, t.annotations?.destructiveHint, t.annotations?.readOnlyHint])).toEqual([
      ['browser_navigate', false, false],
      ['browser_file_upload', true, false],
      ['browser_snapshot', false, true],
    ]);
    expect(servers.filter((s) => s.name !== 'jira').every((s) => s.failures_total === 0)).toBe(true);
    const timeline = readJsonl<{ session_id: string; project_path: string; text: string; tag?: string; source_line: number }>(join(T, 'out/timeline.jsonl'));
    expect(timeline.filter((r) => r.text.startsWith('MCP server connection failed')).map((r) => [r.session_id, r.project_path, r.source_line, r.text])).toEqual([
      [SID, PROJ, 4, 'MCP server connection failed: jira: failed to spawn MCP server process: program not found'],
      [SID, PROJ, 6, 'MCP server connection failed: jira: failed to spawn MCP server process: program not found'],
    ]);
    expect(timeline.filter((r) => r.text.startsWith('MCP tools cached')).map((r) => r.text)).toEqual(['MCP tools cached: playwright: 3 tools: browser_navigate, browser_file_upload, browser_snapshot']);
  });

  it('each token is a credential finding by key and server with a 4-character preview', () => {
    expect(agent('out').credential_findings.map((f) => [f.key, f.server, f.preview])).toEqual([
      ['env:GITHUB_PERSONAL_ACCESS_TOKEN', 'github', 'ghp_…'],
      ['header:Authorization', 'search', 'Bear…'],
      ['header:X-Api-Key', 'issues', 'FAKE…'],
      ['env:DB_PASSWORD', 'db', 'FAKE…'],
    ]);
  });

  it('the archive holds every token (so their absence elsewhere means something); no output file, stdout or stderr does', async () => {
    const m = await manifestOf(join(T, 'c.zip'));
    const all = (await Promise.all(m.members.map((n) => m.read(n)))).map((b) => b.toString('latin1')).join('\n');
    for (const t of TOKENS) expect(all.includes(t), t.slice(0, 4)).toBe(true);
    const texts = [
      ...runs.flatMap(({ label, run }) => [
        { label: `${label} stdout`, text: run.stdout },
        { label: `${label} stderr`, text: run.stderr },
      ]),
      ...['out', 'outj'].flatMap((d) =>
        readdirSync(join(T, d))
          .filter((n) => statSync(join(T, d, n)).isFile())
          .map((n) => ({ label: relative(T, join(T, d, n)), text: readFileSync(join(T, d, n), 'utf8') })),
      ),
    ];
    expect(texts.length).toBeGreaterThan(10);
    for (const { label, text } of texts) for (const t of TOKENS) expect(text.includes(t), `${label} holds ${t.slice(0, 4)}…`).toBe(false);
  });

  it('mcp-config.json is archived once, though the Copilot Desktop catalog claims it too; only copilot-cli reads it', async () => {
    const rows = (await manifestOf(join(T, 'c.zip'))).rows.filter((r) => r.rel === '.copilot/mcp-config.json');
    expect(new Set(rows.map((r) => r.archive_path)).size).toBe(1);
    const claimants = new Set(rows.flatMap((r) => [r.agent, ...((r as { agents?: string[] }).agents ?? [])]));
    expect([...claimants].sort()).toEqual(['copilot-cli', 'copilot-desktop']);
    expect(agent('out', 'copilot-desktop')?.mcp_servers ?? []).toEqual([]);
  });
});
