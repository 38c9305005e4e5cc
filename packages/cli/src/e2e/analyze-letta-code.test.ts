import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJsonl, REPO, runCli, stackTraceLines, tempDir } from './test-helpers/hostile-harness.js';

// Letta Code end to end: the built CLI collects fixtures/homes/letta-code-spec and analyzes the
// archive: the local-backend conversation, and the two api-backend sessions known only from
// sessions.jsonl and a chunk log, whose rows take the project sessions.jsonl names.

type R = Record<string, unknown>;
const T = tempDir('analyze-letta');
const HOME = join(REPO, 'fixtures/homes/letta-code-spec');
const S1 = '1791014390000-k3j9x0q2m7a1b';
const S2 = '1791104990000-p0q1r2s3t4u5v';

describe('letta-code: collect and analyze the fixture home', () => {
  let analyze: Awaited<ReturnType<typeof runCli>>;
  beforeAll(async () => {
    const c = await runCli(['collect', '--home', HOME, '--out', join(T, 'c.zip')]);
    expect(c.code, c.stderr).toBe(0);
    analyze = await runCli(['analyze', join(T, 'c.zip'), '--out', join(T, 'out'), '--json']);
  }, 300_000);
  afterAll(() => rmSync(T, { recursive: true, force: true }));

  it('exits 0; the conversation and both CLI sessions are sessions, each in the project', () => {
    expect(analyze.code, analyze.stderr).toBe(0);
    expect(stackTraceLines(analyze.stderr)).toEqual([]);
    const sessions = readJsonl<R>(join(T, 'out/sessions.jsonl')).filter((s) => s.agent === 'letta-code');
    expect(sessions.map((s) => s.session_id).sort()).toEqual(['local-conv-3', S1, S2].sort());
    expect(sessions.every((s) => s.project_path === '/home/dev/src/letta-app')).toBe(true);
    expect(sessions.find((s) => s.session_id === 'local-conv-3')).toEqual(expect.objectContaining({ models: ['anthropic/claude-haiku-4-5', 'anthropic/claude-sonnet-4-5'], permission_decisions: { denied: 1 } }));
  });

  it('the chunk log\'s rows join the session sessions.jsonl opened and closed', () => {
    const tl = readJsonl<R>(join(T, 'out/timeline.jsonl')).filter((r) => r.session_id === S1);
    expect(tl.map((r) => [String(r.source_file).split('/').pop(), r.turn_type, r.tag])).toEqual([
      ['sessions.jsonl', 'system', 'session_start'],
      ['1791014390000-k3j9x0q2m7a1b.jsonl', 'assistant', ''],
      ['1791014390000-k3j9x0q2m7a1b.jsonl', 'tool_use', ''],
      ['1791014390000-k3j9x0q2m7a1b.jsonl', 'tool_result', ''],
      ['sessions.jsonl', 'system', 'session_end'],
      ['1791014390000-k3j9x0q2m7a1b.jsonl', 'system', 'time_file'],
    ]);
    expect(tl.every((r) => r.project_path === '/home/dev/src/letta-app')).toBe(true);
  });

  it('the denial is a permission decision; the inventory has rows for letta-code and no unknown records', () => {
    const tl = readJsonl<R>(join(T, 'out/timeline.jsonl')).filter((r) => r.agent === 'letta-code');
    expect(tl.filter((r) => r.tag === 'permission_decision').map((r) => r.text)).toEqual(['permission decision: denied Bash']);
    expect((JSON.parse(analyze.stdout) as { collected_no_rows: R[] }).collected_no_rows).toEqual([]);
    const inv = JSON.parse(readFileSync(join(T, 'out/inventory.json'), 'utf8')) as { homes: { agents: R[] }[] };
    expect(inv.homes[0].agents.find((a) => a.agent === 'letta-code')).toEqual(expect.objectContaining({ sessions: 3, session_files: 1, unknown_records: {} }));
  });
});
