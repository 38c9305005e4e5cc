import { cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliRun, manifestOf, REPO, runCli, stackTraceLines, tempDir } from './test-helpers/hostile-harness.js';

// Issue 7 (Secrets): credentials inside collected NON-secret files are reported in inventory.json
// by file, line, kind and a 4-character preview, never the value. The fixture home
// (fixtures/homes/credentials, see its README) holds three FAKE tokens: one pasted into a prompt
// (events.jsonl), one printed by a process log, one in mcp-config.json (a secret file).

const FIXTURE = join(REPO, 'fixtures/homes/credentials');
const SID = '5e55a0a1-0000-4000-8000-0000000000c7';
const EVENTS = `.copilot/session-state/${SID}/events.jsonl`;
const LOG = '.copilot/logs/process-1790845199000-4343.log';

// The tokens are read from the fixture, so no credential-shaped literal sits in this file.
const grab = (rel: string, re: RegExp) => re.exec(readFileSync(join(FIXTURE, rel), 'utf8'))![0];
const PROMPT_TOKEN = grab(EVENTS, /ghp_[A-Za-z0-9]{36}/);
const LOG_TOKEN = grab(LOG, /github_pat_[A-Za-z0-9_]{82}/);
const MCP_TOKEN = grab('.copilot/mcp-config.json', /ghp_[A-Za-z0-9]{36}/);

interface Finding {
  file: string;
  line: number | null;
  kind: string;
  preview: string;
}
interface Agent {
  agent: string;
  secret_files: { path: string; size: number; sha256: string }[];
  credential_scanned_files: number;
  credential_findings: Finding[];
  credential_findings_total: number;
  credential_findings_truncated: number;
}
interface Inventory {
  homes: { user: string; agents: Agent[] }[];
  totals: Record<string, number | boolean>;
}

let T: string;
const texts: { label: string; text: string }[] = [];
const runs: { label: string; run: CliRun }[] = [];

async function cli(label: string, args: string[]): Promise<CliRun> {
  const run = await runCli(args);
  runs.push({ label, run });
  texts.push({ label: `${label} stdout`, text: run.stdout }, { label: `${label} stderr`, text: run.stderr });
  return run;
}

function outputsOf(dir: string): { label: string; text: string }[] {
  return readdirSync(dir)
    .filter((n) => statSync(join(dir, n)).isFile())
    .map((n) => ({ label: relative(T, join(dir, n)), text: readFileSync(join(dir, n), 'utf8') }));
}

const inventory = (dir: string) => JSON.parse(readFileSync(join(T, dir, 'inventory.json'), 'utf8')) as Inventory;
const copilot = (inv: Inventory, user = 'credentials') => inv.homes.find((h) => h.user === user)!.agents.find((a) => a.agent === 'copilot-cli')!;

beforeAll(async () => {
  T = tempDir('credentials');
  const home = join(T, 'credentials');
  cpSync(FIXTURE, home, { recursive: true, filter: (src) => !src.endsWith('README.md') });
  // A second home whose process log printed the same kind of token 150 times: past the per-file cap.
  const noisy = join(T, 'noisy');
  cpSync(home, noisy, { recursive: true });
  writeFileSync(join(noisy, LOG), Array.from({ length: 150 }, (_, i) => `2026-10-01T09:00:${String(i % 60).padStart(2, '0')}.000Z [DEBUG] retry ${i} with ${LOG_TOKEN}\n`).join(''));

  await cli('collect', ['collect', '--home', home, '--out', join(T, 'c.zip')]);
  await cli('collect --json', ['collect', '--home', home, '--out', join(T, 'cj.zip'), '--json']);
  await cli('verify', ['verify', join(T, 'c.zip')]);
  await cli('analyze', ['analyze', join(T, 'c.zip'), '--out', join(T, 'out')]);
  await cli('analyze --json', ['analyze', join(T, 'c.zip'), '--out', join(T, 'outj'), '--json']);
  await cli('scan', ['scan', '--home', home, '--out', join(T, 'scan')]);
  await cli('scan noisy', ['scan', '--home', noisy, '--out', join(T, 'noisy-out')]);
}, 300_000);
afterAll(() => rmSync(T, { recursive: true, force: true }));

describe('credential findings in non-secret files (built CLI)', () => {
  it('every run succeeds without a stack trace', () => {
    for (const { label, run } of runs) {
      expect(run.code, `${label}: ${run.stderr}`).toBe(0);
      expect(stackTraceLines(run.stderr), label).toEqual([]);
    }
  });

  it('inventory.json lists the three findings with file, line, kind and a 4-character preview, and totals', () => {
    for (const dir of ['out', 'outj', 'scan']) {
      const inv = inventory(dir);
      const a = copilot(inv);
      expect(a.credential_findings, dir).toEqual([
        { file: `homes/credentials/${LOG}`, line: 2, kind: 'github_fine_grained_pat', preview: 'gith…' },
        // From the MCP config parser (issue 11): by server and key, not by scanning the secret file.
        { file: 'homes/credentials/.copilot/mcp-config.json', line: 1, kind: 'github_token', preview: 'ghp_…', key: 'env:GITHUB_PERSONAL_ACCESS_TOKEN', server: 'github' },
        { file: `homes/credentials/${EVENTS}`, line: 3, kind: 'github_token', preview: 'ghp_…' },
      ]);
      expect(a, dir).toMatchObject({ credential_scanned_files: 3, credential_findings_total: 3, credential_findings_truncated: 0 });
      // mcp-config.json is claimed by copilot-cli and copilot-desktop (the app writes it): listed under each agent.
      expect(inv.totals, dir).toMatchObject({ credential_findings: 3, credential_scanned_files: 3, secret_files: 2 });
      const desktop = inv.homes[0].agents.find((x) => x.agent === 'copilot-desktop')!;
      expect(desktop.secret_files.map((f) => f.path)).toEqual(a.secret_files.map((f) => f.path));
    }
  });

  it('the secret mcp-config.json is listed by path, size and hash only: flagged, never scanned; its token found through its MCP server', async () => {
    const a = copilot(inventory('out'));
    expect(a.secret_files).toEqual([{ path: join(T, 'credentials/.copilot/mcp-config.json'), size: statSync(join(FIXTURE, '.copilot/mcp-config.json')).size, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
    // The only finding in it is the MCP server's env value, by key; the integrity pass's scan never reads a secret file.
    expect(a.credential_findings.filter((f) => f.file.endsWith('mcp-config.json')).map((f) => (f as { key?: string }).key)).toEqual(['env:GITHUB_PERSONAL_ACCESS_TOKEN']);
    const row = (await manifestOf(join(T, 'c.zip'))).rows.find((r) => r.rel === '.copilot/mcp-config.json');
    expect(row).toMatchObject({ secret: true, status: 'collected' });
  });

  it('the archive holds all three tokens (so their absence elsewhere means something)', async () => {
    const m = await manifestOf(join(T, 'c.zip'));
    const holds = async (rel: string, token: string) => (await m.read(`homes/credentials/${rel}`)).includes(token);
    expect(await holds(EVENTS, PROMPT_TOKEN)).toBe(true);
    expect(await holds(LOG, LOG_TOKEN)).toBe(true);
    expect(await holds('.copilot/mcp-config.json', MCP_TOKEN)).toBe(true);
  });

  it('no token appears on any stdout or stderr; analyze says how many findings and of which kinds', () => {
    for (const t of texts) {
      for (const token of [PROMPT_TOKEN, LOG_TOKEN, MCP_TOKEN]) expect(t.text.includes(token), t.label).toBe(false);
      // Not even past the 4-character preview.
      for (const token of [PROMPT_TOKEN, LOG_TOKEN, MCP_TOKEN]) expect(t.text.includes(token.slice(0, 8)), t.label).toBe(false);
    }
    const analyzeErr = runs.find((r) => r.label === 'analyze')!.run.stderr;
    expect(analyzeErr).toContain('2 credential-like strings in 2 collected files that are not secret files (github_fine_grained_pat, github_token); listed by file, line, kind and a 4-character preview in inventory.json credential_findings');
  });

  it('the pasted prompt stays verbatim in the timeline, at the row the finding points to; nothing else holds a token', () => {
    const timeline = readFileSync(join(T, 'out/timeline.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { turn_type: string; text: string; source_file: string; source_line: number | null });
    const holding = timeline.filter((r) => r.text.includes(PROMPT_TOKEN));
    const finding = copilot(inventory('out')).credential_findings.find((f) => f.kind === 'github_token' && f.file.endsWith('events.jsonl'))!;
    expect(holding).toHaveLength(1);
    expect(holding[0]).toMatchObject({ turn_type: 'user', source_file: finding.file, source_line: finding.line });
    expect(holding[0].text).toBe(`the deploy fails with 401, this is the token it uses:\n${PROMPT_TOKEN}\ncan you check why?`);
    for (const f of ['out', 'outj', 'scan'].flatMap((d) => outputsOf(join(T, d)))) {
      // The timeline in each of its forms keeps the conversation whole (it is the evidence); the
      // report, read by people, shows it redacted like inventory.json.
      const conversation = /timeline\.(csv|jsonl|sqlite|timesketch\.jsonl)$/.test(f.label);
      expect(f.text.includes(PROMPT_TOKEN), f.label).toBe(conversation);
      // The process log's token is no conversation: the process-log parser reads the sign-in line only.
      expect(f.text.includes(LOG_TOKEN), f.label).toBe(false);
      expect(f.text.includes(MCP_TOKEN), f.label).toBe(false);
      // inventory.json points at them with 4 characters: nothing past the preview, no tail.
      if (f.label.endsWith('inventory.json')) for (const token of [PROMPT_TOKEN, LOG_TOKEN]) expect([f.text.includes(token.slice(0, 8)), f.text.includes(token.slice(-16))], f.label).toEqual([false, false]);
    }
    expect(existsSync(join(T, 'out/timeline.csv'))).toBe(true);
  });

  it('past the per-file cap, findings are counted and the count not listed is given', () => {
    const inv = inventory('noisy-out');
    const a = copilot(inv, 'noisy');
    const fromLog = a.credential_findings.filter((f) => f.file.endsWith(LOG));
    expect(fromLog).toHaveLength(100);
    expect(fromLog.map((f) => f.line)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    // 150 from the log (100 listed), the prompt's, and the MCP config's.
    expect(a).toMatchObject({ credential_findings_total: 152, credential_findings_truncated: 50 });
    expect(inv.totals.credential_findings).toBe(152);
    expect(readFileSync(join(T, 'noisy-out/inventory.json'), 'utf8').includes(LOG_TOKEN.slice(0, 8))).toBe(false);
  });
});
