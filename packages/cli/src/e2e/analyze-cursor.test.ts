import { cpSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliRun, manifestOf, readJsonl, REPO, runCli, stackTraceLines, tempDir } from './test-helpers/hostile-harness.js';

// End to end over the two Cursor fixture homes (fixtures/homes/cursor-spec, cursor-variants; see
// their READMEs): the built CLI collects each from a mounted-image layout and analyzes it, once per
// home, and the outputs are read in the tests below. Every token in these homes is FAKE; the tests
// read them from the fixtures so that none is written here, and check that none reaches an output.

const SPEC = join(REPO, 'fixtures/homes/cursor-spec');
const VARIANTS = join(REPO, 'fixtures/homes/cursor-variants');
const S = 'c0c0c0c0-0000-4000-8000-000000000001';
const A = 'a0a0a0a0-0000-4000-8000-00000000000a';

interface Row {
  timestamp_utc: string;
  session_id: string;
  project_path: string;
  git_branch: string;
  model: string;
  turn_type: string;
  tool_name: string;
  tool_use_id: string;
  text: string;
  source_file: string;
  source_line: number | null;
  tag: string;
}
interface Dup {
  dropped: Row;
  kept: Row;
}
interface Agent {
  agent: string;
  projects: string[];
  scratch_directories: string[];
  secret_files: { path: string }[];
  not_parsed: { file: string; reason: string }[];
  mcp_servers: { name: string; scope: string; env_keys: string[]; header_keys: string[]; url: string; tools: { name: string }[] | null; secrets: number }[];
  credential_findings: { file: string; key: string; server: string }[];
  unknown_records: Record<string, Record<string, number>>;
}
interface Run {
  cli: CliRun[];
  out: string;
  rows: Row[];
  dups: Dup[];
  sessions: { session_id: string; name: string; client: string; project_path: string; git_branch: string; synced: string; sources: string[]; secondary_only: boolean }[];
  agent: Agent;
  texts: string[];
}

let T: string;
const runs: Record<'spec' | 'variants' | 'skip', Run> = {} as never;

async function collectAndAnalyze(name: keyof typeof runs, from: string, homeInImage: string, collectArgs: string[] = [], analyzeArgs: string[] = []): Promise<void> {
  const img = join(T, `img-${name}`);
  cpSync(from, join(img, homeInImage), { recursive: true, filter: (src) => !src.endsWith('README.md') });
  const zip = join(T, `${name}.zip`);
  const out = join(T, `out-${name}`);
  const cli = [await runCli(['collect', '--root', img, '--agent', 'cursor', '--out', zip, ...collectArgs]), await runCli(['analyze', zip, '--out', out, ...analyzeArgs])];
  const inv = JSON.parse(readFileSync(join(out, 'inventory.json'), 'utf8')) as { homes: { agents: Agent[] }[] };
  const texts = [...cli.flatMap((c) => [c.stdout, c.stderr]), ...readdirSync(out).filter((f) => statSync(join(out, f)).isFile()).map((f) => readFileSync(join(out, f), 'utf8'))];
  runs[name] = { cli, out, rows: readJsonl<Row>(join(out, 'timeline.jsonl')), dups: readJsonl<Dup>(join(out, 'duplicates.jsonl')), sessions: readJsonl(join(out, 'sessions.jsonl')), agent: inv.homes[0].agents.find((a) => a.agent === 'cursor')!, texts };
}

beforeAll(async () => {
  T = tempDir('cursor');
  await collectAndAnalyze('spec', SPEC, 'home/alex');
  await collectAndAnalyze('variants', VARIANTS, 'Users/dana', [], ['--include-thinking']);
  await collectAndAnalyze('skip', SPEC, 'home/alex', ['--secrets', 'skip']);
}, 600_000);
afterAll(() => rmSync(T, { recursive: true, force: true }));

const base = (p: string) => p.split('/').pop();

describe('aitrail over the spec fixture home', () => {
  it('every command succeeds without a stack trace', () => {
    for (const r of Object.values(runs).flatMap((x) => x.cli)) {
      expect(r.code, r.stderr).toBe(0);
      expect(stackTraceLines(r.stderr)).toEqual([]);
    }
  });

  it("keeps the database's rows and the secondary rows no other source has; project, branch and model filled", () => {
    const rows = runs.spec.rows.filter((r) => r.session_id === S);
    expect(rows.map((r) => [r.turn_type, r.text, base(r.source_file)])).toEqual([
      ['system', 'session start: cursor composer mode=agent agentic=true status=completed', 'state.vscdb'],
      ['system', 'model: claude-4.5-sonnet max=false', 'state.vscdb'],
      ['user', 'fix the failing test', 'state.vscdb'],
      ['system', 'checkpoint: files=1: /srv/proj/date.test.js', 'state.vscdb'],
      ['tool_use', 'npm test', 'state.vscdb'],
      ['system', 'permission decision: accepted review=Done option=run', 'state.vscdb'],
      ['tool_result', '1 failing', 'state.vscdb'],
      ['system', 'terminal exit: 1 rejected=false', 'state.vscdb'],
      ['tool_use', '{"file_path":"/srv/proj/date.test.js","new_string":"2026","old_string":"2025"}', 'state.vscdb'],
      ['tool_result', '{"diff":{"chunks":[{"diffString":"-2025\\n+2026","linesAdded":1,"linesRemoved":1}]}}', 'state.vscdb'],
      ['system', 'ai code: /srv/proj/date.test.js hashes=1 model=claude-4.5-sonnet', 'ai-code-tracking.db'],
      ['assistant', 'The fixture year was stale; it now reads 2026.', 'state.vscdb'],
      ['system', 'session name: Fix failing test', 'state.vscdb'],
      ['system', 'session stats: +1 -1 files=1 archived=false', 'state.vscdb'],
      ['system', 'session summary: Fix failing test: Updated the fixture year in date.test.js model=claude-4.5-sonnet mode=agent', 'ai-code-tracking.db'],
      ['assistant', 'Running the tests first.', `${S}.jsonl`],
      ['system', 'parser: unparseable line (cut line, no newline at end of file: invalid JSON): {"role":"user","message":{"content":[{"type":"text","text":"and ru', `${S}.jsonl`],
    ]);
    expect(rows.every((r) => r.project_path === '/srv/proj' && r.git_branch === 'main')).toBe(true);
    expect(rows.filter((r) => r.model !== 'claude-4.5-sonnet').map((r) => base(r.source_file))).toEqual([`${S}.jsonl`, `${S}.jsonl`]);
    expect(runs.spec.rows.filter((r) => r.turn_type === 'thinking')).toEqual([]);
  });

  it('drops the five copies the spec names and the StrReplace copy of search_replace, each beside the row it repeats', () => {
    expect(runs.spec.dups.map((d) => [d.dropped.turn_type, d.dropped.text, base(d.dropped.source_file), base(d.kept.source_file)]).sort()).toEqual(
      [
        ['system', 'session name: Fix failing test', 'state.vscdb', 'state.vscdb'],
        ['user', 'fix the failing test', 'state.vscdb', 'state.vscdb'],
        ['user', 'fix the failing test', `${S}.jsonl`, 'state.vscdb'],
        ['tool_use', 'npm test', `${S}.jsonl`, 'state.vscdb'],
        // The spec's known gap, closed: one call named and argued differently in the two stores.
        ['tool_use', '{"new_string":"2026","old_string":"2025","path":"/srv/proj/date.test.js"}', `${S}.jsonl`, 'state.vscdb'],
        ['assistant', 'The fixture year was stale; it now reads 2026.', `${S}.jsonl`, 'state.vscdb'],
      ].sort(),
    );
    expect(runs.spec.dups.every((d) => !d.dropped.source_file.includes('globalStorage'))).toBe(true);
    const edit = runs.spec.dups.find((d) => d.dropped.tool_name === 'StrReplace')!;
    expect([edit.kept.tool_name, edit.kept.tool_use_id]).toEqual(['search_replace', 'toolu_02']);
  });

  it('counts the two tool calls the conversation made, once each', () => {
    // The analyzer's summary line (summary.ts): `<host> / <user> / <agent>: N sessions, N prompts, N tool calls, ...`.
    const line = runs.spec.cli[1].stdout.split('\n').filter((l) => / \/ alex \/ cursor: /.test(l));
    expect(line.map((l) => l.replace(/^.* \/ cursor: /, ''))).toEqual([expect.stringMatching(/^1 session, 1 prompt, 2 tool calls, /)]);
  });

  it('one session, built from the four stores, synced unknown; the account row; the workspace as a project', () => {
    expect(runs.spec.sessions.map((s) => [s.session_id, s.name, s.client, s.project_path, s.git_branch, s.synced, s.sources.length, s.secondary_only])).toEqual([[S, 'Fix failing test', 'Cursor', '/srv/proj', 'main', 'unknown', 4, false]]);
    expect(runs.spec.rows.filter((r) => r.tag === 'signed_in').map((r) => [r.text, r.timestamp_utc, r.session_id])).toEqual([['signed in: alex@example.com plan=pro', '', '']]);
    expect(runs.spec.agent.projects).toEqual(['/srv/proj']);
  });

  it('flags the mixed stores and mcp.json; lists the MCP servers by key names; the installed extension folder is excluded', async () => {
    expect(runs.spec.agent.secret_files.map((f) => base(f.path))).toEqual(['state.vscdb', 'state.vscdb', 'mcp.json']);
    expect(runs.spec.agent.mcp_servers.map((s) => [s.name, s.scope, s.env_keys, s.header_keys, s.secrets])).toEqual([
      ['docs', 'user', [], ['Authorization'], 1],
      ['github', 'user', ['GITHUB_PERSONAL_ACCESS_TOKEN'], [], 1],
    ]);
    expect(runs.spec.agent.credential_findings.map((f) => [f.key, f.server])).toEqual([
      ['env:GITHUB_PERSONAL_ACCESS_TOKEN', 'github'],
      ['header:Authorization', 'docs'],
    ]);
    const m = await manifestOf(join(T, 'spec.zip'));
    expect(m.rows.filter((r) => r.status === 'skipped_excluded').map((r) => r.rel)).toEqual(['.cursor/extensions/anysphere.cursorpyright-1.0.10']);
    expect(m.rows.filter((r) => r.rel === '.cursor/extensions/extensions.json').map((r) => r.status)).toEqual(['collected']);
  });

  it('no token value in any output, log or message', () => {
    const mcp = JSON.parse(readFileSync(join(SPEC, '.cursor/mcp.json'), 'utf8'));
    const tokens = ['eyJhbGciOiJIUzI1NiJ9.synthetic.synthetic', mcp.mcpServers.github.env.GITHUB_PERSONAL_ACCESS_TOKEN, mcp.mcpServers.docs.headers.Authorization.replace(/^Bearer /, '')];
    for (const run of [runs.spec, runs.skip]) for (const t of run.texts) for (const token of tokens) expect(t.includes(token)).toBe(false);
  });

  it('with --secrets skip the flagged files an opted-in parser reads are given up and said so; the transcript still reads', () => {
    // The analyzer's generic notice names every flagged file a parser would have read: the two
    // mixed stores, and mcp.json (its servers are then missing from the inventory too).
    const lost = runs.skip.agent.not_parsed.filter((n) => n.reason.includes('not archived')).map((n) => base(n.file));
    expect(lost).toEqual(['state.vscdb', 'state.vscdb', 'mcp.json']);
    expect(runs.skip.agent.mcp_servers).toEqual([]);
    expect(runs.skip.rows.filter((r) => r.source_file.endsWith('state.vscdb'))).toEqual([]);
    expect(runs.skip.rows.filter((r) => r.turn_type === 'user').map((r) => [r.text, base(r.source_file)])).toEqual([['fix the failing test', `${S}.jsonl`]]);
  });
});

describe('aitrail over the variants home (macOS layout)', () => {
  const v = () => runs.variants;

  it('reads the conversation that lives only in the -wal of a database copied while Cursor held it open', () => {
    const fromWal = v().rows.filter((r) => r.session_id === A && r.source_file.endsWith('globalStorage/state.vscdb'));
    expect(fromWal.filter((r) => r.turn_type === 'user').map((r) => r.text)).toEqual(['add retries to client.ts', 'run the tests']);
    expect(fromWal.filter((r) => r.turn_type === 'thinking').map((r) => r.text)).toEqual(['Where is the HTTP call?\n\nclient.ts line 10.']);
  });

  it('reads a workspace database copied mid-write as committed: the half-written name appears nowhere', () => {
    for (const t of v().texts) expect(t.includes('UNCOMMITTED')).toBe(false);
    const ws = v().dups.filter((d) => d.dropped.source_file.includes('workspaceStorage') && d.dropped.tag === 'session_name');
    expect(ws.map((d) => d.dropped.text)).toEqual(['session name: Add retry to the client']);
  });

  it('the .backup copy adds nothing: every row of it repeats the database', () => {
    expect(v().rows.filter((r) => r.source_file.endsWith('state.vscdb.backup'))).toEqual([]);
    expect(v().dups.filter((d) => d.dropped.source_file.endsWith('state.vscdb.backup')).length).toBeGreaterThan(20);
  });

  it('one set of rows per conversation: the transcripts and the CLI prompt history join the stores', () => {
    const prompts = v().rows.filter((r) => r.turn_type === 'user').map((r) => `${r.session_id.slice(0, 8)} ${r.text.split('\n')[0]} [${base(r.source_file)}]`);
    expect(prompts.sort()).toEqual(
      [
        'a0a0a0a0 add retries to client.ts [state.vscdb]',
        'a0a0a0a0 run the tests [state.vscdb]',
        // The .txt holds this query with more text than the bubble (a blank line and "assistant:" inside the query).
        'a0a0a0a0 run the tests [a0a0a0a0-0000-4000-8000-00000000000a.txt]',
        '5c5c5c5c bump the patch version [store.db]',
        '4c4c4c4c list the files [store.db]',
        'f0f0f0f0 what does retry.ts export? [state.vscdb]',
        '90909090 explain the Makefile [state.vscdb]',
        '70707070 restart the service [state.vscdb]',
        '80808080 orphan prompt [state.vscdb]',
        'tab-1 what is this repo? [state.vscdb]',
        '1e1e1e1e a question from an empty window [1e1e1e1e-0000-4000-8000-00000000001e.txt]',
        '2e2e2e2e scratch question [2e2e2e2e-0000-4000-8000-00000000002e.jsonl]',
        '0e0e0e0e what is in the json form? [0e0e0e0e-0000-4000-8000-00000000000e.json]',
        'task-too Find the HTTP client [task-toolu_0sub0000000000000000000001.jsonl]',
        ' a prompt only the list keeps [state.vscdb]',
        ' an object entry [prompt_history.json]',
      ].sort(),
    );
  });

  it('tool calls: a transcript copy drops only against the same call; transcript-only and unmatched calls keep their rows', () => {
    const calls = (rs: Row[]) => rs.filter((r) => r.turn_type === 'tool_use').map((r) => `${r.session_id.slice(0, 8)} ${r.tool_name} [${base(r.source_file)}]`);
    expect(calls(v().rows).sort()).toEqual(
      [
        'a0a0a0a0 run_terminal_cmd [state.vscdb]',
        'a0a0a0a0 run_terminal_cmd [state.vscdb]',
        'a0a0a0a0 mcp_github_create_issue [state.vscdb]',
        'a0a0a0a0 edit_file_v2 [state.vscdb]',
        '5c5c5c5c run_terminal_cmd [store.db]',
        // Composer 0e0e is in no database: its transcript is the only record of the call.
        '0e0e0e0e Read [0e0e0e0e-0000-4000-8000-00000000000e.json]',
        // The database holds composer a0a0 but no read of client.ts and no edit of it (its
        // edit_file_v2 is another file, and a name with no evidenced counterpart): kept.
        'a0a0a0a0 Read [a0a0a0a0-0000-4000-8000-00000000000a.txt]',
        'a0a0a0a0 StrReplace [a0a0a0a0-0000-4000-8000-00000000000a.txt]',
      ].sort(),
    );
    expect(calls(v().dups.map((d) => d.dropped)).sort()).toEqual(
      [
        '5c5c5c5c Shell [5c5c5c5c-0000-4000-8000-00000000005c.jsonl]',
        'a0a0a0a0 Shell [a0a0a0a0-0000-4000-8000-00000000000a.txt]',
        // The nested .jsonl and the .txt are two transcripts of one composer: one Read is kept.
        'a0a0a0a0 Read [a0a0a0a0-0000-4000-8000-00000000000a.jsonl]',
      ].sort(),
    );
  });

  it('sessions: the Remote-SSH project kept remote, the agent worktree a scratch directory, the header-only composer present', () => {
    const s = (id: string) => v().sessions.find((x) => x.session_id === id)!;
    expect(s('70707070-0000-4000-8000-000000000007').project_path).toBe('vscode-remote://ssh-remote%2Bbuild-box/home/dana/svc');
    expect(v().agent.scratch_directories).toEqual(['/Users/dana/.cursor/worktrees/api/x1']);
    expect(s('b0b0b0b0-0000-4000-8000-00000000000b').name).toBe('Old question');
    expect([s(A).client, s('5c5c5c5c-0000-4000-8000-00000000005c').client, s('1e1e1e1e-0000-4000-8000-00000000001e').client]).toEqual(['Cursor', 'cursor-agent', '']);
    // A conversation only a transcript keeps is built from secondary sources only.
    expect(s('1e1e1e1e-0000-4000-8000-00000000001e').secondary_only).toBe(true);
    expect(v().rows.filter((r) => r.tag === 'messages_missing').map((r) => r.session_id)).toEqual(['b0b0b0b0-0000-4000-8000-00000000000b']);
    expect(v().agent.projects).toContain('/Users/dana/api');
  });

  it('unknown record kinds are counted in the inventory, never dropped silently', () => {
    const kinds = Object.values(v().agent.unknown_records).flatMap((m) => Object.keys(m));
    expect(kinds.sort()).toEqual(['ai_code_hashes source cli', 'bubble type 3', 'cli message part source', 'cli message role critic', 'cursorDiskKV futureThing', 'transcript line checkpoint_saved', 'transcript part redacted_thinking'].sort());
  });

  it('MCP: the configured servers with their cached tools; excluded folders counted, not read', async () => {
    expect(v().agent.mcp_servers.map((s) => [s.name, s.scope, s.env_keys, s.tools?.map((t) => t.name) ?? null])).toEqual([
      ['github', 'user', ['GITHUB_PERSONAL_ACCESS_TOKEN'], ['create_issue', 'list_issues']],
      ['linear', 'user', [], null],
    ]);
    const m = await manifestOf(join(T, 'variants.zip'));
    expect(m.rows.filter((r) => r.status === 'skipped_excluded').map((r) => r.rel).sort()).toEqual(['.cursor/extensions/ms-python.python-2026.1.0', '.cursor/projects/Users-dana-api/canvases/c1/node_modules', '.cursor/worktrees']);
    expect(m.rows.some((r) => r.rel.startsWith('.cursor-server/bin') || r.rel.includes('CachedData'))).toBe(false);
    expect(m.rows.filter((r) => r.rel.endsWith('state.vscdb-journal') || r.rel.endsWith('state.vscdb-wal')).map((r) => r.secret)).toEqual([true, true]);
  });

  it('no FAKE token of the home in any output, log or message', async () => {
    const { FAKE } = (await import(join(REPO, 'fixtures/scripts/make-cursor-variants.mjs'))) as { FAKE: Record<string, string> };
    const mcp = JSON.parse(readFileSync(join(VARIANTS, '.cursor/mcp.json'), 'utf8'));
    const cli = JSON.parse(readFileSync(join(VARIANTS, '.cursor/cli-config.json'), 'utf8'));
    const tokens = [...Object.values(FAKE), mcp.mcpServers.github.env.GITHUB_PERSONAL_ACCESS_TOKEN, new URL(mcp.mcpServers.linear.url).searchParams.get('api_key')!, cli.authInfo.apiKey];
    expect(tokens.every((t) => t.length > 20)).toBe(true);
    for (const t of v().texts) for (const token of tokens) expect(t.includes(token)).toBe(false);
  });
});
