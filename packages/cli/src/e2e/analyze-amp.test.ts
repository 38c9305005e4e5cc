import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJsonl, REPO, runCli, stackTraceLines, tempDir } from './test-helpers/hostile-harness.js';

// Amp end to end: the built CLI collects fixtures/homes/amp-spec and analyzes the archive: the two
// thread copies are sessions in the project their trees name, the rejected call a permission
// decision, and the API key and MCP header (FAKE) appear in no output.

type R = Record<string, unknown>;
const T = tempDir('analyze-amp');
const HOME = join(REPO, 'fixtures/homes/amp-spec');

describe('amp: collect and analyze the fixture home', () => {
  let analyze: Awaited<ReturnType<typeof runCli>>;
  beforeAll(async () => {
    const c = await runCli(['collect', '--home', HOME, '--out', join(T, 'c.zip')]);
    expect(c.code, c.stderr).toBe(0);
    analyze = await runCli(['analyze', join(T, 'c.zip'), '--out', join(T, 'out')]);
  }, 300_000);
  afterAll(() => rmSync(T, { recursive: true, force: true }));

  it('exits 0; each thread a session with its name, project, models, tools and decision', () => {
    expect(analyze.code, analyze.stderr).toBe(0);
    expect(stackTraceLines(analyze.stderr)).toEqual([]);
    const sessions = readJsonl<R>(join(T, 'out/sessions.jsonl')).filter((s) => s.agent === 'amp');
    expect(sessions.map((s) => [s.session_id, s.name, s.project_path, s.models, s.tools, s.permission_decisions])).toEqual([
      ['T-019ca26f-0000-7000-8000-000000000001', 'Speed up the importer', '/home/dev/src/amp-app', ['claude-sonnet-4'], ['Bash'], {}],
      ['T-019ca26f-0000-7000-8000-000000000002', 'Rename a flag', '/home/dev/src/amp-app', ['claude-opus-4', 'claude-sonnet-4'], ['Bash', 'Read', 'edit_file', 'shell_command'], { rejected: 1 }],
    ]);
  });

  it('no secret of the home reaches an output; the inventory has the two threads as session files and rows', () => {
    const out = ['timeline.jsonl', 'timeline.csv', 'sessions.jsonl', 'inventory.json'].map((n) => readFileSync(join(T, 'out', n), 'utf8')).join('\n');
    const secrets = ['.local/share/amp/secrets.json', '.config/amp/settings.json'].flatMap((f) => readFileSync(join(HOME, f), 'utf8').match(/sgamp_[A-Za-z0-9_-]+|[A-Za-z0-9_-]*FAKE[A-Za-z0-9_-]*/g) ?? []);
    expect(secrets.length).toBeGreaterThan(0);
    for (const s of secrets) expect(out.includes(s), s).toBe(false);
    const inv = JSON.parse(readFileSync(join(T, 'out/inventory.json'), 'utf8')) as { homes: { agents: R[] }[] };
    expect(inv.homes[0].agents.find((a) => a.agent === 'amp')).toEqual(expect.objectContaining({ sessions: 2, session_files: 2, unknown_records: {} }));
  });

  it('settings.json: its MCP servers in the inventory with redacted findings, its standing grants as permission settings', () => {
    const inv = JSON.parse(readFileSync(join(T, 'out/inventory.json'), 'utf8')) as { homes: { agents: R[] }[] };
    const amp = inv.homes[0].agents.find((a) => a.agent === 'amp') as { mcp_servers: R[]; credential_findings: R[] };
    expect(amp.mcp_servers.map((s) => [s.name, s.scope, s.transport, s.env_keys, s.header_keys])).toEqual([
      ['github', 'user', 'stdio', ['GITHUB_PERSONAL_ACCESS_TOKEN'], []],
      ['sentry', 'user', 'http', [], ['Authorization']],
    ]);
    expect(amp.credential_findings.map((c) => [c.server, c.key, c.kind, c.preview])).toEqual([
      ['github', 'env:GITHUB_PERSONAL_ACCESS_TOKEN', 'github_token', 'ghp_…'],
      ['sentry', 'header:Authorization', 'bearer_token', 'Bear…'],
    ]);
    const settings = readJsonl<R>(join(T, 'out/timeline.jsonl')).filter((r) => r.agent === 'amp' && r.tag === 'permission_setting');
    expect(settings.map((r) => r.text)).toEqual(expect.arrayContaining(['permission setting: dangerouslyAllowAll=true']));
  });
});
