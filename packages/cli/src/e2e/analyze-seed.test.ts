import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifestOf, readJsonl, REPO, runCli, stackTraceLines, unwrapOclif } from './test-helpers/hostile-harness.js';
import { sharedAnalyze, sharedCollect } from './test-helpers/shared-run.js';

// The seed fixture home, collected and analyzed by the built CLI: the timeline against the seed's
// "Expected rows" paragraph, exactly six secondary rows dropped and four kept.

const SID = '5e55a0a1-0000-4000-8000-000000000001';
const HOME = join(REPO, 'fixtures/homes/seed-copilot');
const SD = `homes/seed-copilot/.copilot/session-state/${SID}`;
const EVENTS = `${SD}/events.jsonl`;
const STORE = 'homes/seed-copilot/.copilot/session-store.db';
const HIST = 'homes/seed-copilot/.copilot/command-history-state.json';
const SNAP = `${SD}/rewind-file-snapshots/index.json`;
const WS = `${SD}/workspace.yaml`;

type R = Record<string, string | number | null>;
const jsonl = (p: string): R[] => readJsonl<R>(p);

let T: string;
// The collection and its plain analysis are shared with other test files (shared-run.ts).
let ZIP: string;
beforeAll(async () => {
  T = mkdtempSync(join(tmpdir(), 'aitrail-e2e-seed-'));
  const c = await sharedCollect([HOME]);
  expect(c.run.code, c.run.stderr).toBe(0);
  ZIP = c.zip;
}, 120_000);
afterAll(() => rmSync(T, { recursive: true, force: true }));

describe('aitrail analyze on the seed collection', () => {
  let run: Awaited<ReturnType<typeof runCli>>;
  let tl: R[];
  let out: string;
  beforeAll(async () => {
    ({ run, out } = await sharedAnalyze(ZIP, ['--json']));
    tl = jsonl(join(out, 'timeline.jsonl'));
  }, 120_000);

  it('exits 0 with a JSON summary and no stack trace', () => {
    expect(run.code, run.stderr).toBe(0);
    expect(stackTraceLines(run.stderr)).toEqual([]);
    const s = JSON.parse(run.stdout);
    expect(s).toMatchObject({ integrity_ok: true, duplicates: 6, sessions: 1 });
    expect(s.summary).toEqual([{ host: expect.any(String), user: 'seed-copilot', agent: 'copilot-cli', sessions: 1, prompts: 3, tool_calls: 2, permission_decisions: 2, rows: tl.length, models: ['auto', 'gpt-6.1-sol'], first_activity: '2026-10-01T08:59:59.400Z', last_activity: expect.any(String) }]);
  });

  it('has the events.jsonl rows of the seed, in order, with project and branch filled', () => {
    const ev = tl.filter((r) => r.source_file === EVENTS);
    expect(ev.map((r) => [r.source_line, r.turn_type, String(r.text).split('\n')[0]])).toEqual([
      [1, 'system', 'session start: copilot 1.0.98 producer=copilot-agent cwd=/srv/proj'],
      [2, 'system', 'model: gpt-6.1-sol cause=initial_resolution source=automatic effort=medium'],
      [3, 'system', 'system prompt: You are the GitHub Copilot CLI.'],
      [4, 'user', 'fix the failing test'],
      [10, 'system', 'utility model gpt-4o-mini: Fix failing test'],
      [14, 'tool_use', 'npm test'],
      [15, 'system', 'permission request: shell npm test intention=Run the test suite'],
      [15, 'system', 'permission mode: manual agent=interactive'],
      [16, 'system', 'permission decision: approved-for-location source=human_response location=/srv/proj approval={"commandIdentifiers":["npm test"],"kind":"commands"}'],
      [18, 'tool_result', '[exit 1] 1 failing'],
      [21, 'tool_use', '*** Begin Patch'],
      [22, 'system', 'permission request: write /srv/proj/date.test.js intention=Update the fixture year'],
      [23, 'system', 'permission decision: approved source=human_response'],
      [25, 'tool_result', 'Modified 1 file: /srv/proj/date.test.js'],
      [28, 'assistant', 'The fixture year was stale; it now reads 2026.'],
      [31, 'system', 'model: gpt-6.1-sol -> auto source=model_picker'],
      [32, 'system', 'session.info model: Model changed from GitHub Copilot • GPT-6.1 Sol (medium) to GitHub Copilot • Auto for this session'],
      [33, 'system', 'session.info model: Auto routing profile change to Balance requested.'],
      [34, 'system', 'session end: routine files modified: /srv/proj/date.test.js'],
      [35, 'system', expect.stringMatching(/^parser: unparseable line \(.*\): \{"id":"e0000000-0000-4000-8000-000000000035"/)],
    ]);
    expect(ev.find((r) => r.source_line === 18)?.text).toBe('[exit 1] 1 failing\n  date.test.js: expected 2026\nCommand exited with code 1');
    for (const r of ev) expect([r.session_id, r.project_path, r.git_branch, r.host, r.user, r.agent]).toEqual([SID, '/srv/proj', 'main', expect.any(String), 'seed-copilot', 'copilot-cli']);
    expect(ev.filter((r) => r.source_line === 32 || r.source_line === 33).map((r) => r.model)).toEqual(['auto', 'auto']);
    expect(tl.some((r) => r.turn_type === 'thinking')).toBe(false);
  });

  it('drops exactly the six secondary rows the seed names, each with its match', () => {
    const d = jsonl(join(out, 'duplicates.jsonl')) as unknown as { dropped: R; kept: R; paired_with: R }[];
    const at = (r: R) => `${r.source_file}#${r.source_line} ${r.turn_type} ${String(r.text).slice(0, 30)}`;
    expect(d.map((x) => `${at(x.dropped)} -> ${at(x.kept)} (paired ${at(x.paired_with)})`).sort()).toEqual(
      [
        `${SNAP}#1 user fix the failing test -> ${EVENTS}#4 user fix the failing test (paired ${EVENTS}#4 user fix the failing test)`,
        `${STORE}#1 user fix the failing test -> ${EVENTS}#4 user fix the failing test (paired ${SNAP}#1 user fix the failing test)`,
        `${STORE}#1 assistant The fixture year was stale; it -> ${EVENTS}#28 assistant The fixture year was stale; it (paired ${EVENTS}#28 assistant The fixture year was stale; it)`,
        `${STORE}#1 system session name: Fix failing test -> ${WS}#4 system session name: Fix failing test (paired ${WS}#4 system session name: Fix failing test)`,
        `${HIST}#3 user fix the failing test -> ${EVENTS}#4 user fix the failing test (paired ${EVENTS}#4 user fix the failing test)`,
        `${HIST}#1 user and run lint -> ${STORE}#2 user and run lint (paired ${STORE}#2 user and run lint)`,
      ].sort(),
    );
  });

  it('keeps turns row 1, the history /model, file changed and rewind snapshot', () => {
    const secondary = tl.filter((r) => [STORE, HIST, SNAP].includes(String(r.source_file)));
    expect(secondary.map((r) => [r.source_file, r.turn_type, r.text, r.timestamp_utc])).toEqual([
      [SNAP, 'system', 'rewind snapshot: 1 files +1 -1: /srv/proj/date.test.js', '2026-10-01T09:00:01.150Z'],
      [STORE, 'system', 'file changed: /srv/proj/date.test.js tool=apply_patch', '2026-10-01T09:00:12.500Z'],
      [STORE, 'user', 'and run lint', '2026-10-01T09:01:05.000Z'],
      [HIST, 'user', '/model', ''],
    ]);
    expect(tl.find((r) => r.text === 'and run lint')).toMatchObject({ session_id: SID, project_path: '/srv/proj' });
  });

  it('has the rows of the other primary files: sign-in, workspace.yaml, standing grants (settings.json read for its URLs only)', () => {
    // The standing grants are stamped with the files' mtimes (checkout time): compare as a set.
    const other = tl.filter((r) => ![EVENTS, STORE, HIST, SNAP].includes(String(r.source_file)));
    const key = (x: unknown[]) => JSON.stringify(x);
    expect(other.map((r) => [String(r.source_file).split('/').pop(), r.text, r.session_id, r.project_path]).sort((a, b) => key(a).localeCompare(key(b)))).toEqual([
      ['process-1790845199000-4242.log', 'signed in: https://github.com as octo-user', SID, '/srv/proj'],
      ['workspace.yaml', 'session name: Fix failing test', SID, '/srv/proj'],
      ['workspace.yaml', 'session metadata: user_named=false forks=0 compactions=0 client=copilot-cli', SID, '/srv/proj'],
      ['permissions-config.json', 'permission setting: locations./srv/proj.tool_approvals={"kind":"write"}', '', '/srv/proj'],
      ['permissions-config.json', 'permission setting: locations./srv/proj.tool_approvals={"commandIdentifiers":["npm test"],"kind":"commands"}', '', '/srv/proj'],
      ['settings.json', 'permission setting: allowedUrls=https://registry.example.org', '', ''],
    ].sort((a, b) => key(a).localeCompare(key(b))));
  });

  it('orders the timeline by time, undated rows last', () => {
    const ts = tl.map((r) => String(r.timestamp_utc));
    const firstUndated = ts.indexOf('');
    expect(ts.slice(firstUndated).every((t) => t === '')).toBe(true);
    expect(ts.slice(0, firstUndated)).toEqual([...ts.slice(0, firstUndated)].sort());
  });

  it('writes the same rows to timeline.csv (BOM, CRLF, header)', () => {
    const csv = readFileSync(join(out, 'timeline.csv'), 'utf8');
    expect(csv.startsWith('\uFEFFtimestamp_utc,host,user,agent,session_id,project_path,git_branch,model,turn_type,tool_name,tool_use_id,text,source_file,source_line\r\n')).toBe(true);
    // One record per row: count the CRLF record ends outside quoted fields.
    let records = 0;
    let q = false;
    for (let i = 0; i < csv.length; i++) {
      if (csv[i] === '"') q = !q;
      else if (!q && csv[i] === '\r' && csv[i + 1] === '\n') records++;
    }
    expect(records).toBe(tl.length + 1);
  });

  it('writes one session record with name, client, counts, decisions, sync and sources', () => {
    const s = jsonl(join(out, 'sessions.jsonl'));
    expect(s).toHaveLength(1);
    expect(s[0]).toMatchObject({
      session_id: SID,
      name: 'Fix failing test',
      client: 'copilot-cli',
      project_path: '/srv/proj',
      git_branch: 'main',
      first_timestamp: '2026-10-01T08:59:59.400Z',
      last_timestamp: '2026-10-01T09:01:05.000Z',
      counts: { user: 2, assistant: 1, tool_use: 2, tool_result: 2 },
      models: ['auto', 'gpt-6.1-sol'],
      utility_models: ['gpt-4o-mini'],
      tools: ['apply_patch', 'bash'],
      permission_decisions: { 'approved-for-location': 1, approved: 1 },
      synced: 'no',
      secondary_only: false,
    });
    expect(s[0].sources).toEqual(expect.arrayContaining([EVENTS, WS, SNAP, STORE]));
  });

  it('writes the inventory: integrity, the flagged config.json by hash only, the project, no warnings', async () => {
    const inv = JSON.parse(readFileSync(join(out, 'inventory.json'), 'utf8'));
    expect(inv.collections).toHaveLength(1);
    expect(inv.collections[0].integrity).toMatchObject({ ok: true, mismatched: [], missing: [], extra: [] });
    const agent = inv.homes[0].agents.find((a: { agent: string }) => a.agent === 'copilot-cli');
    const m = await manifestOf(ZIP);
    const secrets = m.rows.filter((r) => r.secret);
    expect(secrets.length).toBeGreaterThan(0);
    expect(agent.secret_files).toEqual(secrets.map((r) => ({ path: r.source_path, size: r.size, sha256: r.sha256 })));
    expect(agent).toMatchObject({ sessions: 1, synced_sessions: 0, projects: ['/srv/proj'], scratch_directories: [], parse_warnings: [] });
    expect(inv.totals).toMatchObject({ sessions: 1, synced_sessions: 0, duplicates: 6, rows: tl.length, integrity_ok: true });
  });
});

describe('aitrail analyze options on the seed collection', () => {
  it('--no-dedup keeps every row; --include-thinking adds the reasoning row', async () => {
    const a = join(T, 'dedup');
    const b = join(T, 'nodedup');
    expect((await runCli(['analyze', ZIP, '--out', a, '--include-thinking'])).code).toBe(0);
    const r = await runCli(['analyze', ZIP, '--out', b, '--no-dedup']);
    expect(r.code, r.stderr).toBe(0);
    const withDedup = jsonl(join(a, 'timeline.jsonl'));
    const all = jsonl(join(b, 'timeline.jsonl'));
    expect(withDedup.filter((x) => x.turn_type === 'thinking').map((x) => [x.source_line, x.text])).toEqual([[14, 'Run the tests first.']]);
    expect(all.length).toBe(withDedup.length - 1 + 6);
    expect(readFileSync(join(b, 'duplicates.jsonl'), 'utf8')).toBe('');
  });

  it('an unpacked copy of the archive analyzes to the same timeline', async () => {
    const dir = join(T, 'unpacked');
    const m = await manifestOf(ZIP);
    for (const name of m.members) {
      mkdirSync(dirname(join(dir, name)), { recursive: true });
      writeFileSync(join(dir, name), await m.read(name));
    }
    const r2 = await runCli(['analyze', dir, '--out', join(T, 'd')]);
    expect(r2.code, r2.stderr).toBe(0);
    const zipped = await sharedAnalyze(ZIP, ['--json']);
    expect(readFileSync(join(T, 'd', 'timeline.csv'), 'utf8')).toBe(readFileSync(join(zipped.out, 'timeline.csv'), 'utf8'));
  });

  it('a corrupted member is reported and not parsed; --strict exits non-zero with no output', async () => {
    const dir = join(T, 'unpacked');
    writeFileSync(join(dir, HIST), '{"commandHistory":["tampered"]}');
    const r = await runCli(['analyze', dir, '--out', join(T, 'bad')]);
    expect(r.code, r.stderr).toBe(0);
    expect(unwrapOclif(r.stderr)).toContain(`mismatch ${HIST}: expected`);
    expect(readFileSync(join(T, 'bad', 'timeline.jsonl'), 'utf8')).not.toContain('tampered');
    const inv = JSON.parse(readFileSync(join(T, 'bad', 'inventory.json'), 'utf8'));
    expect(inv.collections[0].integrity.mismatched.map((x: { archive_path: string }) => x.archive_path)).toEqual([HIST]);
    const s = await runCli(['analyze', dir, '--out', join(T, 'strict'), '--strict']);
    expect(s.code).toBe(2);
    // The list --strict points at names the file.
    expect(unwrapOclif(s.stderr)).toContain(`mismatch ${HIST}: expected`);
    expect(unwrapOclif(s.stderr)).toContain('--strict: expected every member to match the manifest and every archive its sidecar, found 1 problem (listed above, each with its member or archive)');
    expect(stackTraceLines(s.stderr)).toEqual([]);
    expect(() => readFileSync(join(T, 'strict', 'timeline.csv'))).toThrow();
  });

  it('the stringified encoding of the same log gives the same events.jsonl rows', async () => {
    const z = join(T, 'stringified.zip');
    expect((await runCli(['collect', '--home', join(REPO, 'fixtures/homes/seed-copilot-stringified'), '--out', z])).code).toBe(0);
    const r = await runCli(['analyze', z, '--out', join(T, 'str')]);
    expect(r.code, r.stderr).toBe(0);
    const cols = (x: R) => [x.timestamp_utc, x.session_id, x.project_path, x.git_branch, x.model, x.turn_type, x.tool_name, x.tool_use_id, x.text, x.source_line];
    const plain = jsonl(join((await sharedAnalyze(ZIP, ['--json'])).out, 'timeline.jsonl')).filter((x) => x.source_file === EVENTS);
    const str = jsonl(join(T, 'str', 'timeline.jsonl'));
    expect(str.every((x) => String(x.source_file).endsWith(`${SID}/events.jsonl`))).toBe(true);
    expect(str.map(cols)).toEqual(plain.map(cols));
  });

  it('a missing input is a usage error (exit 2) that says what to do', async () => {
    const r = await runCli(['analyze', join(T, 'nope.zip'), '--out', join(T, 'x')]);
    expect(r.code).toBe(2);
    expect(unwrapOclif(r.stderr)).toContain('expected an aitrail collection (a .zip or an unpacked folder), found nothing at');
    expect(stackTraceLines(r.stderr)).toEqual([]);
  });
});
