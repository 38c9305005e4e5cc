import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readJsonl, REPO, stackTraceLines } from './test-helpers/hostile-harness.js';
import { sharedAnalyze, sharedCollect, sharedRun } from './test-helpers/shared-run.js';

// Cline, Roo Code, Kilo Code, Continue and Aider end to end: the built CLI collects the three
// fixture homes (cline-family, continue-spec, aider-spec; their READMEs say what each holds), a dry
// run first, then an archive it analyzes, once per test run; the tests read the outputs.

type R = Record<string, unknown>;
const HOMES = ['cline-family', 'continue-spec', 'aider-spec'].map((h) => join(REPO, 'fixtures/homes', h));
/** Every credential the three homes hold: none may appear in any output. */
const TOKENS = [
  'ghp_FIXTUREfixture',
  'fixture-mcp-bearer-0042',
  'fixture-global-state-header-7',
  'sk-ant-api03-FIXTURE',
  'sk-ant-api03-STATEVSCDB',
  'roo-fixture-secret-0001',
  'sk-ant-FAKEcontinueFixtureKey',
  'FAKEcontinueDbPassword',
  'sk-FAKEcontinueEnvKey',
  'FAKEaiderCmdlineKey',
  'sk-FAKEaiderConfKey',
  'FAKEaiderEnvKey',
];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? files(join(dir, n)) : [join(dir, n)]));
}

let dry: { code: number | null; stdout: string; stderr: string };
let run: { code: number | null; stdout: string; stderr: string };
let out: string;
let tl: R[];
let inv: R;
beforeAll(async () => {
  dry = (await sharedRun(['collect', ...HOMES.flatMap((h) => ['--home', h]), '--dry-run'], { timeoutMs: 300_000 })).run;
  const c = await sharedCollect(HOMES);
  expect(c.run.code, c.run.stderr).toBe(0);
  ({ run, out } = await sharedAnalyze(c.zip, ['--json']));
  tl = readJsonl<R>(join(out, 'timeline.jsonl'));
  inv = JSON.parse(readFileSync(join(out, 'inventory.json'), 'utf8')) as R;
}, 600_000);

const agentOf = (user: string, agent: string) => (((inv.homes as R[]).find((h) => h.user === user)?.agents ?? []) as R[]).find((a) => a.agent === agent) as R;

describe('aitrail collect --dry-run over the three homes', () => {
  it('lists every agent under its home, the state.vscdb claimed by every extension, the secret files flagged', () => {
    expect(dry.code, dry.stderr).toBe(0);
    for (const [user, agent] of [
      ['cline-family', 'cline'],
      ['cline-family', 'roo-code'],
      ['cline-family', 'kilo-code'],
      ['continue-spec', 'continue'],
      ['aider-spec', 'aider'],
    ]) expect(dry.stdout).toMatch(new RegExp(`^${user}\\s+${agent}\\s+home\\b`, 'm'));
    expect(dry.stdout).toMatch(/state\.vscdb .*\(claimed by cline, kilo-code, roo-code, vscode-copilot-chat\)/);
    for (const f of ['.cline/data/secrets.json', 'cline_mcp_settings.json', 'rooveterinaryinc.roo-cline/settings/mcp_settings.json', '.continue/config.yaml', '.continue/.env', '.aider.conf.yml', 'aider-spec/.env']) {
      expect(dry.stdout, f).toMatch(new RegExp(`SECRET\\s+\\S*${f.replace(/\./g, '\\.')} ->`));
    }
    // The shadow git of checkpoints and the codebase index are excluded, not read.
    expect(dry.stdout).toMatch(/skipped_excluded dir .*saoudrizwan\.claude-dev\/checkpoints/);
    expect(dry.stdout).toMatch(/skipped_excluded file .*\.continue\/index\/index\.sqlite/);
    // An excluded file shows its own size, not a directory's count.
    expect(dry.stdout).not.toMatch(/undefined files/);
    expect(dry.stdout).toMatch(/skipped_excluded file\s+\d+(\.\d+)? (B|KB|MB|GB) .*\.continue\/index\/index\.sqlite/);
  });
});

describe('aitrail analyze of the collection', () => {
  it('exits 0 without a stack trace; a summary per agent with the sessions and prompts the fixtures hold', () => {
    expect(run.code, run.stderr).toBe(0);
    expect(stackTraceLines(run.stderr)).toEqual([]);
    const s = JSON.parse(run.stdout) as { integrity_ok: boolean; summary: R[] };
    expect(s.integrity_ok).toBe(true);
    expect(s.summary.map((x) => [x.user, x.agent, x.sessions, x.prompts, x.tool_calls])).toEqual([
      // two sessions; three prompts in the transcript and the orphan of the input history
      ['aider-spec', 'aider', 2, 4, 1],
      // the 3.51 task (prompt + feedback), the deleted task of the index, the state.vscdb task, the 2.x and Cursor tasks, two CLI sessions (three prompts)
      ['cline-family', 'cline', 7, 9, 7],
      ['cline-family', 'kilo-code', 1, 1, 1],
      // the task, and the CLI history's other prompt
      ['cline-family', 'roo-code', 1, 2, 2],
      // two sessions and the deleted one of the dev data
      ['continue-spec', 'continue', 3, 4, 3],
    ]);
  });

  it('every typed prompt once, from its primary file where one holds it', () => {
    const prompts = tl.filter((r) => r.turn_type === 'user').map((r) => `${r.agent}\0${String(r.text).split('\n')[0]}`);
    expect(prompts.sort()).toEqual(
      [
        'aider\0make add() handle floats',
        'aider\0delete the build folder',
        'aider\0what does calc.py export?',
        'aider\0a prompt typed in a run whose transcript was deleted',
        'cline\0Fix the failing test in src/math.test.ts and run the tests.',
        'cline\0Use a named export instead.',
        'cline\0Clean the build folder',
        'cline\0List the files here',
        'cline\0Rotate the staging credentials',
        'cline\0Summarise the changelog',
        'cline\0Say hello in one short sentence.',
        'cline\0Run the shell command echo aitrail-live-marker and tell me what it printed.',
        'cline\0Thanks. Summarise in one line what you just did.',
        'roo-code\0Add a README section about installation.',
        'roo-code\0explain the build',
        'kilo-code\0How big is the repository?',
        'continue\0Why does test/date.test.ts fail on Mondays?',
        'continue\0Do not touch src/, only explain.',
        'continue\0What does the build script do?',
        'continue\0Print the production database URL from .env',
      ].sort(),
    );
    const src = (text: string) => String(tl.find((r) => r.turn_type === 'user' && String(r.text).startsWith(text))?.source_file).split('/').pop();
    expect(src('Fix the failing test')).toBe('ui_messages.json');
    expect(src('Add a README')).toBe('ui_messages.json');
    expect(src('make add()')).toBe('.aider.chat.history.md');
    expect(src('Why does test/date')).toBe('3f0c1a52-7d4e-4b8a-9c61-2e5f8a7b9d10.json');
  });

  it('joins the family\'s UI log and API history: each Cline tool call once, with its id, and the denial of the edit', () => {
    const task = tl.filter((r) => r.agent === 'cline' && r.session_id === '1767225600000');
    expect(task.filter((r) => r.turn_type === 'tool_use').map((r) => [r.tool_name, r.tool_use_id])).toEqual([
      ['read_file', 'toolu_01AAAA'],
      ['replace_in_file', 'toolu_01BBBB'],
      ['replace_in_file', 'toolu_01CCCC'],
      ['execute_command', 'toolu_01DDDD'],
    ]);
    expect(task.filter((r) => r.tag === 'permission_decision').map((r) => String(r.text).split('\n')[0])).toEqual(['denied: replace_in_file']);
    expect(task.map((r) => r.project_path)).toContain('/home/dev/calc');
  });

  it('drops the secondary copies (indexes, dev data, input history) and keeps what only they hold', () => {
    const dups = readJsonl<R>(join(out, 'duplicates.jsonl'));
    expect(dups.length).toBeGreaterThan(0);
    const kept = (agent: string, text: string) => tl.filter((r) => r.agent === agent && String(r.text) === text).length;
    expect(kept('continue', 'It bundles src/ with esbuild.')).toBe(1);
    expect(kept('continue', 'I cannot read secrets for you.')).toBe(1);
    expect(kept('aider', 'what does calc.py export?')).toBe(1);
    expect(kept('roo-code', 'Add a README section about installation.')).toBe(1);
  });

  it('the inventory: artifacts and sessions per agent, secret files by path and hash, MCP servers by name with key names only', () => {
    expect([agentOf('cline-family', 'cline').artifacts, agentOf('cline-family', 'roo-code').artifacts, agentOf('cline-family', 'kilo-code').artifacts, agentOf('continue-spec', 'continue').artifacts, agentOf('aider-spec', 'aider').artifacts]).toEqual([20, 8, 4, 9, 5]);
    const secretFiles = (user: string, agent: string) => (agentOf(user, agent).secret_files as R[]).map((f) => String(f.path).split(`${user}/`)[1]);
    expect(secretFiles('aider-spec', 'aider')).toEqual(['.aider.conf.yml', '.env']);
    expect(secretFiles('continue-spec', 'continue')).toEqual(['.continue/.env', '.continue/config.yaml']);
    for (const f of agentOf('cline-family', 'cline').secret_files as R[]) expect(f.sha256).toMatch(/^[0-9a-f]{64}$/);
    const mcp = (user: string, agent: string) => (agentOf(user, agent).mcp_servers as R[]).map((m) => [m.name, m.env_keys, m.header_keys]);
    expect(mcp('cline-family', 'cline')).toEqual([
      ['docs', [], ['Authorization']],
      ['github', ['GITHUB_PERSONAL_ACCESS_TOKEN'], []],
    ]);
    expect(mcp('cline-family', 'roo-code')).toEqual([['fs', ['API_TOKEN'], []]]);
    expect(mcp('continue-spec', 'continue')).toEqual([['sqlite', ['DB_PASSWORD'], []]]);
    // The unknown UI kind is counted, not dropped.
    expect(agentOf('cline-family', 'cline').unknown_records).toEqual({ 'cline/ui-messages': { 'say quantum_notice': 1 } });
    // The key on aider's echoed command line is a credential finding (a preview only).
    expect((agentOf('aider-spec', 'aider').credential_findings as R[]).map((f) => [String(f.file).split('/').pop(), f.line, f.kind])).toEqual([['.aider.chat.history.md', 4, 'anthropic_api_key']]);
  });

  it('no credential value in any output', () => {
    for (const f of files(out)) {
      const text = readFileSync(f, 'utf8');
      for (const t of TOKENS) expect(text.includes(t), `${t} in ${f}`).toBe(false);
    }
    for (const t of TOKENS) expect(`${run.stdout}${run.stderr}${dry.stdout}`.includes(t), t).toBe(false);
  });
});
