import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJsonl, REPO, runCli, stackTraceLines, tempDir } from './test-helpers/hostile-harness.js';

// Zed end to end: the built CLI collects fixtures/homes/zed-spec (threads.db at its Linux,
// macOS and Windows places, two text threads) and analyzes the archive; the threads come out as
// sessions once each (the other places' copies dropped as duplicates), the cut row as a bad_line
// row, thinking only when asked.

type R = Record<string, unknown>;
const T = tempDir('analyze-zed');
const HOME = join(REPO, 'fixtures/homes/zed-spec');
const THREADS = ['1e9ac100-0000-4000-8000-000000000003', '7e57ab1e-0000-4000-8000-000000000001', '5ab0a9e7-0000-4000-8000-000000000002', 'j50n0000-0000-4000-8000-000000000004', 'c07c07c0-0000-4000-8000-000000000005'];
/** Deleted while Zed ran: carved back from the Linux place's threads.db (its -wal holds the delete). */
const GONE = 'de1e7ed0-0000-4000-8000-000000000006';
const TEXT_THREADS = ['c0nte7t0-0000-4000-8000-000000000001', 'c0nte7t0-0000-4000-8000-000000000002'];

describe('zed: collect and analyze the fixture home', () => {
  let analyze: Awaited<ReturnType<typeof runCli>>;
  let thinking: Awaited<ReturnType<typeof runCli>>;
  beforeAll(async () => {
    const c = await runCli(['collect', '--home', HOME, '--out', join(T, 'c.zip')]);
    expect(c.code, c.stderr).toBe(0);
    analyze = await runCli(['analyze', join(T, 'c.zip'), '--out', join(T, 'out'), '--json']);
    thinking = await runCli(['analyze', join(T, 'c.zip'), '--out', join(T, 'out-thinking'), '--include-thinking', '--no-reports']);
  }, 300_000);
  afterAll(() => rmSync(T, { recursive: true, force: true }));

  it('exits 0 with every thread and text thread a session, each once', () => {
    expect(analyze.code, analyze.stderr).toBe(0);
    expect(stackTraceLines(analyze.stderr)).toEqual([]);
    const sessions = readJsonl<R>(join(T, 'out/sessions.jsonl')).filter((s) => s.agent === 'zed');
    expect(sessions.map((s) => s.session_id).sort()).toEqual([...THREADS, GONE, ...TEXT_THREADS].sort());
    expect(sessions.find((s) => s.session_id === GONE)).toEqual(expect.objectContaining({ name: 'Read the deploy settings', project_path: '/home/dev/src/zed-app', tools: ['terminal'] }));
    const main = sessions.find((s) => s.session_id === THREADS[1]);
    expect(main).toEqual(expect.objectContaining({ name: 'Fix failing cargo test', project_path: '/home/dev/src/zed-app', git_branch: 'main', models: ['anthropic/claude-sonnet-4-5'], tools: ['edit_file', 'terminal'] }));
  });

  it('the copies of threads.db at the macOS and Windows places are dropped as duplicates: each row once, each copy\'s damage its own', () => {
    const all = readJsonl<R>(join(T, 'out/timeline.jsonl')).filter((r) => r.agent === 'zed' && String(r.source_file).endsWith('threads.db'));
    const tl = all.filter((r) => r.tag !== 'bad_line');
    const dup = readJsonl<{ dropped: R }>(join(T, 'out/duplicates.jsonl')).filter((d) => String(d.dropped.source_file).endsWith('threads.db'));
    const key = (r: R) => [r.session_id, r.source_line, r.turn_type, r.tool_use_id, r.text].join('\0');
    expect(new Set(tl.map(key)).size).toBe(tl.length);
    // The deleted thread is only in the Linux place's copy: its rows have no duplicate.
    const gone = tl.filter((r) => r.session_id === GONE);
    expect(gone.length).toBeGreaterThan(0);
    expect(new Set(gone.map((r) => r.source_file))).toEqual(new Set(['homes/zed-spec/.local/share/zed/threads/threads.db']));
    expect(dup.length).toBe(2 * (tl.length - gone.length));
    expect(all.filter((r) => r.tag === 'bad_line').map((r) => [r.source_file, r.session_id, String(r.text).replace(/after \d+ compressed/, 'after N compressed')])).toEqual(
      ['.local/share/zed', 'AppData/Local/Zed', 'Library/Application Support/Zed'].map((d) => [`homes/zed-spec/${d}/threads/threads.db`, THREADS[4], `parser: unreadable thread ${THREADS[4]} "Cut short" (rowid 5): expected zstd-compressed data, but decoding stopped after N compressed bytes (unexpected EOF)`]),
    );
  });

  it('thinking rows only with --include-thinking; the inventory counts the text threads as session files', () => {
    const rows = (dir: string) => readJsonl<R>(join(T, dir, 'timeline.jsonl')).filter((r) => r.agent === 'zed');
    expect(rows('out').filter((r) => r.turn_type === 'thinking')).toEqual([]);
    expect(thinking.code, thinking.stderr).toBe(0);
    expect(rows('out-thinking').filter((r) => r.turn_type === 'thinking').map((r) => r.text)).toEqual(['Read it.', 'Run the tests first.']);
    expect((JSON.parse(analyze.stdout) as { collected_no_rows: { agent: string }[] }).collected_no_rows).toEqual([]);
    const inv = JSON.parse(readFileSync(join(T, 'out/inventory.json'), 'utf8')) as { homes: { agents: R[] }[] };
    expect(inv.homes[0].agents.find((a) => a.agent === 'zed')).toEqual(expect.objectContaining({ sessions: 8, session_files: 2, unknown_records: {} }));
  });

  it('settings.json: its context servers in the inventory, their credentials as redacted findings; no value of the file in any output', () => {
    const inv = JSON.parse(readFileSync(join(T, 'out/inventory.json'), 'utf8')) as { homes: { agents: R[] }[] };
    const zed = inv.homes[0].agents.find((a) => a.agent === 'zed') as { mcp_servers: R[]; credential_findings: R[] };
    expect(zed.mcp_servers.map((s) => [s.name, s.scope, s.transport, s.disabled, s.file])).toEqual([
      ['github', 'user', 'stdio', false, 'homes/zed-spec/.config/zed/settings.json'],
      ['linear', 'user', 'stdio', false, 'homes/zed-spec/.config/zed/settings.json'],
      ['postgres-context-server', 'user', '', false, 'homes/zed-spec/.config/zed/settings.json'],
      ['puppeteer', 'user', 'stdio', true, 'homes/zed-spec/.config/zed/settings.json'],
      ['sentry', 'user', 'http', false, 'homes/zed-spec/.config/zed/settings.json'],
    ]);
    expect(zed.credential_findings.map((c) => [c.server, c.key, c.preview])).toEqual(expect.arrayContaining([['github', 'env:GITHUB_PERSONAL_ACCESS_TOKEN', 'ghp_…']]));
    const rows = readJsonl<R>(join(T, 'out/timeline.jsonl')).filter((r) => r.agent === 'zed' && r.tag === 'permission_setting');
    expect(rows.map((r) => r.text)).toEqual(expect.arrayContaining(['permission setting: always_allow_tool_actions=true', 'permission setting: agent_servers.claude.default_mode=bypassPermissions']));
    const out = ['timeline.jsonl', 'timeline.csv', 'sessions.jsonl', 'inventory.json', 'findings.jsonl', 'timeline.timesketch.jsonl'].map((n) => readFileSync(join(T, 'out', n), 'utf8')).join('\n');
    const values = readFileSync(join(HOME, '.config/zed/settings.json'), 'utf8').match(/[A-Za-z0-9_-]*FAKE[A-Za-z0-9_-]*/g) ?? [];
    expect(values.length).toBeGreaterThan(3);
    for (const v of values) expect(out.includes(v), v).toBe(false);
  });
});
