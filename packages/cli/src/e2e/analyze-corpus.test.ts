import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJsonl, REPO, runCli, stackTraceLines } from './test-helpers/hostile-harness.js';

// The real corpus (shared/corpus/real), copied at test time into a temp folder laid out as user
// homes (never into the project: its owners did not license redistribution), collected and
// analyzed by the built CLI.

const CORPUS = join(REPO, '../shared/corpus/real');
type R = Record<string, unknown>;
const jsonl = (p: string): R[] => readJsonl<R>(p);

/** Copilot homes: the folder that is the user's ~/.copilot in each corpus entry. */
const COPILOT: Record<string, string> = {
  kaijon: 'Kaijon__little-hou-claw/.copilot',
  xeff09: 'XEFF09__dotfiles/.copilot',
  lantern: 'WildChildForLife__lantern/fixtures/copilot-home',
};
const IRRLICHT = 'ingo-eichhorst__Irrlicht/replaydata/agents/claudecode/scenarios';

/** The typed prompts of one events.jsonl (either encoding), as the Parser plan makes user rows of them. */
function typedPrompts(file: string): string[] {
  const out: string[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    let e: R;
    try {
      e = JSON.parse(line);
    } catch {
      continue;
    }
    if (e.type !== 'user.message') continue;
    let d = e.data as R | string;
    if (typeof d === 'string') d = JSON.parse(d) as R;
    const source = d.source ?? '';
    const cont = d.isAutopilotContinuation === true || d.isAutopilotContinuation === 'true';
    if (typeof d.content === 'string' && !e.agentId && !d.agentId && (source === '' || source === 'user') && !cont) out.push(d.content);
  }
  return out;
}

const present = existsSync(CORPUS);
describe.skipIf(!present)('aitrail collect + analyze over the real corpus laid out as homes', () => {
  let T: string;
  let run: Awaited<ReturnType<typeof runCli>>;
  let tl: R[];
  let sessions: R[];
  const homes: string[] = [];
  beforeAll(async () => {
    T = mkdtempSync(join(tmpdir(), 'aitrail-e2e-corpus-'));
    for (const [user, rel] of Object.entries(COPILOT)) {
      cpSync(join(CORPUS, rel), join(T, 'homes', user, '.copilot'), { recursive: true });
      homes.push(join(T, 'homes', user));
    }
    // Irrlicht's transcripts go where Claude Code keeps them: ~/.claude/projects/<slug>/<session>.jsonl.
    for (const sc of readdirSync(join(CORPUS, IRRLICHT))) {
      const recDir = join(CORPUS, IRRLICHT, sc, 'recordings');
      for (const rec of readdirSync(recDir)) {
        const t = join(recDir, rec, 'transcript.jsonl');
        if (!existsSync(t)) continue;
        const sid = String(jsonl(t).find((l) => typeof l.sessionId === 'string')?.sessionId ?? rec);
        const dir = join(T, 'homes', 'irrlicht', '.claude', 'projects', `-tmp-${sc}`);
        mkdirSync(dir, { recursive: true });
        cpSync(t, join(dir, `${sid}.jsonl`));
      }
    }
    homes.push(join(T, 'homes', 'irrlicht'));
    const c = await runCli(['collect', ...homes.flatMap((h) => ['--home', h]), '--out', join(T, 'c.zip')], { timeoutMs: 120_000 });
    expect(c.code, c.stderr).toBe(0);
    run = await runCli(['analyze', join(T, 'c.zip'), '--out', join(T, 'out')], { timeoutMs: 300_000 });
    tl = jsonl(join(T, 'out', 'timeline.jsonl'));
    sessions = jsonl(join(T, 'out', 'sessions.jsonl'));
  }, 600_000);
  afterAll(() => rmSync(T, { recursive: true, force: true }));

  it('finishes with exit 0, intact integrity and no stack trace', () => {
    expect(run.code, run.stderr.slice(-3000)).toBe(0);
    expect(stackTraceLines(run.stderr)).toEqual([]);
    const inv = JSON.parse(readFileSync(join(T, 'out', 'inventory.json'), 'utf8'));
    expect(inv.collections[0].integrity.ok).toBe(true);
    expect(inv.homes.map((h: R) => h.user).sort()).toEqual(['irrlicht', 'kaijon', 'lantern', 'xeff09']);
  });

  it('finds every Copilot session directory and every Claude Code transcript as a session', () => {
    const found = new Set(sessions.map((s) => `${s.user}/${s.agent}/${s.session_id}`));
    const expected: string[] = [];
    for (const user of Object.keys(COPILOT)) {
      const sd = join(T, 'homes', user, '.copilot', 'session-state');
      for (const id of readdirSync(sd)) {
        if (!/^[0-9a-f-]{36}$/.test(id)) continue;
        if (existsSync(join(sd, id, 'events.jsonl')) || existsSync(join(sd, id, 'workspace.yaml'))) expected.push(`${user}/copilot-cli/${id}`);
      }
    }
    for (const dir of readdirSync(join(T, 'homes', 'irrlicht', '.claude', 'projects'))) {
      for (const f of readdirSync(join(T, 'homes', 'irrlicht', '.claude', 'projects', dir))) expected.push(`irrlicht/claude-code/${basename(f, '.jsonl')}`);
    }
    expect(expected.length).toBeGreaterThan(20);
    expect(expected.filter((e) => !found.has(e))).toEqual([]);
  });

  it('puts every typed prompt of every events.jsonl in the timeline, from that file', () => {
    let total = 0;
    for (const user of Object.keys(COPILOT)) {
      const sd = join(T, 'homes', user, '.copilot', 'session-state');
      for (const id of readdirSync(sd)) {
        const ev = join(sd, id, 'events.jsonl');
        if (!existsSync(ev)) continue;
        const src = `homes/${user}/.copilot/session-state/${id}/events.jsonl`;
        const got = tl.filter((r) => r.source_file === src && r.turn_type === 'user').map((r) => r.text);
        const want = typedPrompts(ev);
        total += want.length;
        expect(got, src).toEqual(want);
      }
    }
    expect(total).toBeGreaterThan(5);
  });
});
