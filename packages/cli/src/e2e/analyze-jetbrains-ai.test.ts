import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJsonl, REPO, runCli, stackTraceLines, tempDir } from './test-helpers/hostile-harness.js';

// JetBrains AI end to end: the built CLI collects fixtures/homes/jetbrains-ai-spec and analyzes the
// archive: the Junie session and the agent task it ran for are sessions, the denial a permission
// decision, and no value of the session's environment or of the flagged files reaches an output.

type R = Record<string, unknown>;
const T = tempDir('analyze-jetbrains-ai');
const HOME = join(REPO, 'fixtures/homes/jetbrains-ai-spec');
const SESSION = 'session-261003-080000-ab12';

describe('jetbrains-ai: collect and analyze the fixture home', () => {
  let analyze: Awaited<ReturnType<typeof runCli>>;
  beforeAll(async () => {
    const c = await runCli(['collect', '--home', HOME, '--out', join(T, 'c.zip')]);
    expect(c.code, c.stderr).toBe(0);
    analyze = await runCli(['analyze', join(T, 'c.zip'), '--out', join(T, 'out')]);
  }, 300_000);
  afterAll(() => rmSync(T, { recursive: true, force: true }));

  it('exits 0; the Junie session has its project, name, model, tools and decisions; the task names its delegation', () => {
    expect(analyze.code, analyze.stderr).toBe(0);
    expect(stackTraceLines(analyze.stderr)).toEqual([]);
    const sessions = readJsonl<R>(join(T, 'out/sessions.jsonl')).filter((s) => s.agent === 'jetbrains-ai');
    expect(sessions.map((s) => s.session_id).sort()).toEqual(['chat-0001', SESSION, 'task-0001']);
    expect(sessions.find((s) => s.session_id === SESSION)).toEqual(expect.objectContaining({ name: 'Unit test for parse()', project_path: '/home/dev/src/jb-app', models: ['gpt-5.6-luna'], tools: ['edit', 'idea/execute_terminal_command', 'terminal'], permission_decisions: { Deny: 1, rejected: 1 } }));
    const tl = readJsonl<R>(join(T, 'out/timeline.jsonl'));
    // The agent chat (workspace XML) and its task log are one session: its title from the chat, the delegation from the log.
    expect(sessions.find((s) => s.session_id === 'task-0001')?.name).toBe('Notes test');
    // The chats' workspace id names their project (recentProjects.xml), under the home collected.
    for (const id of ['chat-0001', 'task-0001']) expect(sessions.find((s) => s.session_id === id)?.project_path, id).toBe(join(HOME, 'src/jb-app'));
    expect(tl.filter((r) => r.session_id === 'task-0001' && r.turn_type === 'system' && String(r.text).startsWith('delegated')).map((r) => r.text)).toEqual([`delegated to junie: session ${SESSION}`]);
  });

  it('no secret value reaches an output', () => {
    const out = ['timeline.jsonl', 'timeline.csv', 'sessions.jsonl', 'inventory.json'].map((n) => readFileSync(join(T, 'out', n), 'utf8')).join('\n');
    for (const s of ['RkFLRS1zZWNyZXQ=', 'FAKE-secret']) expect(out.includes(s), s).toBe(false);
    const inv = JSON.parse(readFileSync(join(T, 'out/inventory.json'), 'utf8')) as { homes: { agents: R[] }[] };
    expect(inv.homes[0].agents.find((a) => a.agent === 'jetbrains-ai')).toEqual(expect.objectContaining({ sessions: 3, unknown_records: {} }));
  });
});
