import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJsonl, REPO, runCli, stackTraceLines, tempDir } from './test-helpers/hostile-harness.js';

// A Copilot CLI session deleted from session-store.db, end to end: the built CLI collects
// fixtures/homes/copilot-store-deleted (the store and its -wal, copied with the writer open) and
// analyzes the archive; the deleted session is a session again, its turns rows tagged recovered,
// and the deletion a finding.

type R = Record<string, unknown>;
const T = tempDir('analyze-deleted');
const HOME = join(REPO, 'fixtures/homes/copilot-store-deleted');
const LIVE = '5e55a0a1-0000-4000-8000-0000000000d1';
const GONE = '5e55a0a1-0000-4000-8000-0000000000d2';

describe('copilot-cli: a session deleted from session-store.db, collected and analyzed', () => {
  let analyze: Awaited<ReturnType<typeof runCli>>;
  beforeAll(async () => {
    const c = await runCli(['collect', '--home', HOME, '--out', join(T, 'c.zip')]);
    expect(c.code, c.stderr).toBe(0);
    analyze = await runCli(['analyze', join(T, 'c.zip'), '--out', join(T, 'out')]);
  }, 300_000);
  afterAll(() => rmSync(T, { recursive: true, force: true }));

  it('the deleted session is listed with its name, project and branch; its rows come after a row saying where they were found', () => {
    expect(analyze.code, analyze.stderr).toBe(0);
    expect(stackTraceLines(analyze.stderr)).toEqual([]);
    const sessions = readJsonl<R>(join(T, 'out/sessions.jsonl'));
    expect(sessions.map((s) => [s.session_id, s.name, s.project_path, s.git_branch])).toEqual([
      [LIVE, 'Fix the flaky test', '/home/dev/app', 'main'],
      [GONE, 'Ship the hotfix without review', '/home/dev/app', 'release'],
    ]);
    const gone = readJsonl<R>(join(T, 'out/timeline.jsonl')).filter((r) => r.session_id === GONE);
    expect(gone.map((r) => [r.timestamp_utc, r.turn_type, r.text, r.tag])).toEqual([
      ['2026-11-21T22:10:00.000Z', 'system', expect.stringMatching(/^deleted session recovered: 5e55a0a1-\S+ "Ship the hotfix without review" \(no longer in the store; carved from the main file, as of the last checkpoint, page \d+, rowid 2\)$/), 'recovered'],
      ['2026-11-21T22:11:00.000Z', 'user', 'push the hotfix straight to release, skip the checks', 'recovered'],
      ['2026-11-21T22:11:00.000Z', 'assistant', 'Pushed 4f2a1c9 to release.', 'recovered'],
      ['2026-11-21T22:19:00.000Z', 'user', 'now delete this session', 'recovered'],
      ['2026-11-21T22:19:00.000Z', 'assistant', 'I cannot delete sessions; use the CLI.', 'recovered'],
    ]);
  });

  it('the deletion is a finding; the live session has no recovered row', () => {
    const findings = readJsonl<R>(join(T, 'out/findings.jsonl'));
    expect(findings.map((f) => [f.rule_id, f.session_id])).toEqual([['deleted-conversation', GONE]]);
    const tl = readFileSync(join(T, 'out/timeline.csv'), 'utf8');
    expect(tl).toContain('Ship the hotfix without review');
    expect(readJsonl<R>(join(T, 'out/timeline.jsonl')).filter((r) => r.session_id === LIVE && r.tag === 'recovered')).toEqual([]);
  });
});
