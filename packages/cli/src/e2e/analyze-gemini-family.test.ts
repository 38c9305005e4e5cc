import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJsonl, REPO, runCli, stackTraceLines } from './test-helpers/hostile-harness.js';

// Gemini CLI and Qwen Code end to end: the built CLI collects and analyzes, once per home, the
// family fixture (both agents, the migration copies, a .json/.jsonl twin, subagents), the spec's
// fixture (its dedup paragraph) and the real corpus laid out as homes.

type R = Record<string, unknown>;
type Dup = { dropped: R; kept: R | null; paired_with: R | null };
const jsonl = (p: string): R[] => readJsonl<R>(p);

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? files(join(dir, n)) : [join(dir, n)]));
}

/** Collect `homes` and analyze the archive, once; the outputs for the tests. */
async function collectAndAnalyze(label: string, homes: string[]) {
  const T = mkdtempSync(join(tmpdir(), `aitrail-e2e-${label}-`));
  const c = await runCli(['collect', ...homes.flatMap((h) => ['--home', h]), '--out', join(T, 'c.zip')], { timeoutMs: 120_000 });
  expect(c.code, c.stderr).toBe(0);
  const run = await runCli(['analyze', join(T, 'c.zip'), '--out', join(T, 'out'), '--json'], { timeoutMs: 300_000 });
  const out = join(T, 'out');
  return { T, run, tl: jsonl(join(out, 'timeline.jsonl')), dups: jsonl(join(out, 'duplicates.jsonl')) as unknown as Dup[], sessions: jsonl(join(out, 'sessions.jsonl')), inv: JSON.parse(readFileSync(join(out, 'inventory.json'), 'utf8')) as R, out };
}

/**
 * The typed prompts of a home by plain JSON: every logs.json entry, every main chat's user text
 * (not a tool response, the session context or a synthetic turn) and Qwen's slash commands.
 * Subagent chats hold prompts the model wrote, not the user.
 */
function typedPrompts(home: string): Map<string, number> {
  // Counted apart in the prompt logs and in the chats (each by distinct entry or message id, so the
  // copies of one file count once); a prompt typed n times is in both n times.
  const logged = new Map<string, Set<string>>();
  const chatted = new Map<string, Set<string>>();
  const add = (agent: string, session: string, text: string, id: string) => {
    const k = `${agent}\0${session}\0${text}`;
    const m = id.startsWith('log:') ? logged : chatted;
    m.set(k, (m.get(k) ?? new Set()).add(id));
  };
  for (const f of files(home)) {
    const rel = relative(home, f).split('\\').join('/');
    const agent = rel.startsWith('.qwen/') ? 'qwen-code' : 'gemini-cli';
    if (rel.endsWith('/logs.json')) for (const e of JSON.parse(readFileSync(f, 'utf8')) as R[]) add(agent, String(e.sessionId), String(e.message), `log:${e.sessionId}#${e.messageId}`);
    if (!/\/chats\/[^/]+\.jsonl?$/.test(rel)) continue;
    const text = readFileSync(f, 'utf8');
    const doc = rel.endsWith('.json') ? (JSON.parse(text) as R) : undefined;
    const recs: R[] = doc ? (doc.messages as R[]).map((m): R => ({ ...m, sessionId: doc.sessionId })) : text.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as R);
    let session = String(doc?.sessionId ?? '');
    for (const m of recs) {
      if (typeof m.sessionId === 'string' && !session) session = m.sessionId;
      const payload = (m.systemPayload ?? {}) as R;
      if (m.subtype === 'slash_command' && payload.phase === 'invocation') add(agent, session, String(payload.rawCommand), `${session}#${String(m.uuid)}`);
      const isUser = m.type === 'user' && (m.provenance === undefined || m.provenance === 'real_user');
      const parts = typeof m.content === 'string' ? [{ text: m.content }] : ((m.content ?? (m.message as R | undefined)?.parts ?? []) as R[]);
      const t = parts.filter((p) => typeof p.text === 'string' && !p.thought).map((p) => p.text).join('\n');
      if (!isUser || !t || t.startsWith('<session_context>') || t === 'System: Please continue.') continue;
      add(agent, session, t, `${session}#${String(m.id ?? m.uuid)}`);
    }
  }
  const keys = new Set([...logged.keys(), ...chatted.keys()]);
  return new Map([...keys].map((k) => [k, Math.max(logged.get(k)?.size ?? 0, chatted.get(k)?.size ?? 0)]));
}

function userRows(tl: R[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const r of tl) if (r.turn_type === 'user' && r.tag !== 'sidechain') m.set(`${r.agent}\0${r.session_id}\0${r.text}`, (m.get(`${r.agent}\0${r.session_id}\0${r.text}`) ?? 0) + 1);
  return m;
}

describe('gemini-cli + qwen-code end to end: fixtures/homes/gemini-family', () => {
  const HOME = join(REPO, 'fixtures/homes/gemini-family');
  let o: Awaited<ReturnType<typeof collectAndAnalyze>>;
  beforeAll(async () => {
    o = await collectAndAnalyze('gemini-family', [HOME]);
  }, 600_000);
  afterAll(() => rmSync(o.T, { recursive: true, force: true }));

  it('exits 0 with a JSON summary for both agents and no stack trace', () => {
    expect(o.run.code, o.run.stderr).toBe(0);
    expect(stackTraceLines(o.run.stderr)).toEqual([]);
    const s = JSON.parse(o.run.stdout) as { summary: R[] };
    expect(s.summary.map((x) => [x.agent, x.sessions])).toEqual([
      ['gemini-cli', 5],
      ['qwen-code', 3],
    ]);
  });

  it('finds every session once, with its project, whichever copy of it there is', () => {
    const got = o.sessions.map((s) => [s.agent, String(s.session_id).slice(0, 8), s.project_path]).sort();
    expect(got).toEqual(
      [
        ['gemini-cli', '2bf066ba', '/home/live-gemini-cli/proj'],
        ['gemini-cli', '77777777', '/home/live-gemini-cli/shop'],
        ['gemini-cli', '88888888', '/home/live-gemini-cli/shop'],
        ['gemini-cli', '9b756792', '/home/live-gemini-cli/proj'],
        ['gemini-cli', 'd4e5f6', '/home/live-gemini-cli/shop'],
        ['qwen-code', '280380ba', '/home/live-qwen-code/proj'],
        ['qwen-code', '99999999', '/home/live-qwen-code/proj'],
        ['qwen-code', 'c8c86544', '/home/live-qwen-code/proj'],
      ].sort(),
    );
  });

  it('puts every typed prompt in the timeline exactly as many times as it was typed', () => {
    const want = typedPrompts(HOME);
    expect(want.size).toBeGreaterThan(12);
    const got = userRows(o.tl);
    const wrong = [...want].filter(([k, n]) => got.get(k) !== n).map(([k, n]) => `${k.replace(/\0/g, ' | ')}: want ${n}, got ${got.get(k) ?? 0}`);
    expect(wrong).toEqual([]);
    expect([...got.keys()].filter((k) => !want.has(k))).toEqual([]);
  });

  it('drops the migration copy and the legacy twin whole, each row paired with the live copy of it', () => {
    const HASH = '.gemini/tmp/7d38748198d2185ae41ba6fe0e487df52ca994b4c812100aabe5e1200c9f373e/chats/session-2026-01-10T09-00-77777777.json';
    const TWIN = '.gemini/tmp/shop/chats/session-2026-01-10T10-00-88888888.json';
    for (const [copy, live] of [
      [HASH, '.gemini/tmp/shop/chats/session-2026-01-10T09-00-77777777.json'],
      [TWIN, '.gemini/tmp/shop/chats/session-2026-01-10T10-00-88888888.jsonl'],
    ]) {
      const src = `homes/gemini-family/${copy}`;
      expect(o.tl.filter((r) => r.source_file === src), copy).toEqual([]);
      const dropped = o.dups.filter((d) => d.dropped.source_file === src);
      expect(dropped.length, copy).toBeGreaterThan(3);
      for (const d of dropped) {
        expect(d.kept?.source_file, copy).toBe(`homes/gemini-family/${live}`);
        expect([d.kept?.text, d.kept?.timestamp_utc, d.kept?.turn_type]).toEqual([d.dropped.text, d.dropped.timestamp_utc, d.dropped.turn_type]);
      }
    }
    // The rows only the live copy has (it kept writing after the migration) stay.
    expect(o.tl.filter((r) => String(r.source_file).endsWith('tmp/shop/chats/session-2026-01-10T09-00-77777777.json')).map((r) => r.text)).toContain('commit it');
  });

  it('ties the subagent chat to its parent session and keeps the background run apart', () => {
    const sub = o.tl.filter((r) => String(r.source_file).includes('/chats/77777777-0000-4000-8000-000000000007/a1b2c3.json'));
    expect(sub.map((r) => r.turn_type)).toEqual(['system', 'user', 'system', 'system', 'assistant']);
    expect(new Set(sub.map((r) => r.session_id))).toEqual(new Set(['77777777-0000-4000-8000-000000000007']));
    expect(o.tl.filter((r) => r.session_id === 'd4e5f6').length).toBe(4);
  });

  it('lists the MCP server by name and env key only, flags the token, and prints its value nowhere', () => {
    const homes = o.inv.homes as R[];
    const servers = homes.flatMap((h) => (h.agents as R[]).flatMap((a) => ((a.mcp_servers ?? []) as R[]).map((m): R => ({ agent: a.agent, ...m }))));
    expect(servers.map((m) => [m.agent, m.name, m.env_keys])).toEqual([['gemini-cli', 'github', ['GITHUB_PERSONAL_ACCESS_TOKEN']]]);
    for (const f of readdirSync(o.out)) expect(readFileSync(join(o.out, f), 'utf8'), f).not.toContain('ghp_SyntheticFixtureToken');
  });

  it('reports the unknown Qwen record kind once, and fills the Qwen rows with their cwd and branch', () => {
    const qwen = ((o.inv.homes as R[])[0].agents as R[]).find((a) => a.agent === 'qwen-code') as R;
    expect(JSON.stringify(qwen.unknown_records)).toContain('system subtype lunar_phase');
    const rows = o.tl.filter((r) => r.agent === 'qwen-code' && r.session_id !== '');
    expect(rows.every((r) => r.project_path === '/home/live-qwen-code/proj')).toBe(true);
    expect(rows.filter((r) => String(r.source_file).includes('/chats/')).every((r) => r.git_branch === 'feature/live-run')).toBe(true);
  });
});

describe('gemini-cli end to end: the spec fixture\'s dedup paragraph', () => {
  let o: Awaited<ReturnType<typeof collectAndAnalyze>>;
  beforeAll(async () => {
    o = await collectAndAnalyze('gemini-spec', [join(REPO, 'fixtures/homes/gemini-spec')]);
  }, 600_000);
  afterAll(() => rmSync(o.T, { recursive: true, force: true }));

  it('drops exactly the copies the spec names, each with its match, and keeps the rest', () => {
    expect(o.run.code, o.run.stderr).toBe(0);
    const at = (r: R | null) => (r ? `${String(r.source_file).split('/').pop()}#${r.source_line ?? '-'} ${r.text}` : '-');
    expect(o.dups.map((d) => [at(d.dropped), at(d.paired_with)])).toEqual([
      ['logs.json#1 fix the failing test in @date.test.js', 'session-2026-10-01T09-00-5e55a0a1.jsonl#3 fix the failing test in @date.test.js'],
      ['logs.json#3 and run lint', 'session-2026-10-01T09-00-5e55a0a1.jsonl#15 and run lint'],
      ['checkpoint-decision.json#1 and run lint', 'session-2026-10-01T09-00-5e55a0a1.jsonl#15 and run lint'],
      ['shell_history#2 npm run lint', 'logs.json#4 npm run lint'],
    ]);
    const kept = o.tl.filter((r) => /logs\.json|shell_history|checkpoint-decision/.test(String(r.source_file))).map((r) => r.text);
    expect(kept).toEqual(['/model', 'npm run lint', 'chat checkpoint saved: decision (1 messages, authType=oauth-personal)', 'git status']);
  });
});

const CORPUS = join(REPO, '../shared/corpus/real');
describe.skipIf(!existsSync(CORPUS))('gemini-cli end to end over the real corpus laid out as homes', () => {
  let o: Awaited<ReturnType<typeof collectAndAnalyze>>;
  let T: string;
  const homes: string[] = [];
  beforeAll(async () => {
    T = mkdtempSync(join(tmpdir(), 'aitrail-e2e-gemini-corpus-'));
    for (const [user, name] of [
      ['fabien', 'fabien-lessirard__dotfiles'],
      ['tarive', 'Tar-ive__brain-system'],
    ]) {
      cpSync(join(CORPUS, name, '.gemini'), join(T, 'homes', user, '.gemini'), { recursive: true });
      homes.push(join(T, 'homes', user));
    }
    // Irrlicht's recordings go where the CLI writes them: ~/.gemini/tmp/<slug>/chats/session-*.jsonl.
    const scen = join(CORPUS, 'ingo-eichhorst__Irrlicht/replaydata/agents/gemini-cli/scenarios');
    for (const sc of readdirSync(scen)) {
      for (const rec of readdirSync(join(scen, sc, 'recordings'))) {
        const dir = join(T, 'homes', 'irrlicht', '.gemini', 'tmp', sc, 'chats');
        mkdirSync(dir, { recursive: true });
        cpSync(join(scen, sc, 'recordings', rec, 'transcript.jsonl'), join(dir, 'session-2026-06-11T21-00-00000000.jsonl'));
      }
    }
    homes.push(join(T, 'homes', 'irrlicht'));
    o = await collectAndAnalyze('gemini-corpus', homes);
  }, 600_000);
  afterAll(() => {
    rmSync(T, { recursive: true, force: true });
    rmSync(o.T, { recursive: true, force: true });
  });

  it('exits 0 and parses every file it collected or says why not', () => {
    expect(o.run.code, o.run.stderr.slice(-3000)).toBe(0);
    expect(stackTraceLines(o.run.stderr)).toEqual([]);
  });

  it('puts every typed prompt of every home in the timeline exactly as many times as it was typed', () => {
    let total = 0;
    for (const home of homes) {
      const user = home.split(/[\\/]/).pop();
      const want = typedPrompts(home);
      const got = userRows(o.tl.filter((r) => r.user === user));
      total += want.size;
      const wrong = [...want].filter(([k, n]) => got.get(k) !== n).map(([k, n]) => `${user}: ${k.replace(/\0/g, ' | ').slice(0, 120)}: want ${n}, got ${got.get(k) ?? 0}`);
      expect(wrong).toEqual([]);
      expect([...got.keys()].filter((k) => !want.has(k)), String(user)).toEqual([]);
    }
    expect(total).toBeGreaterThan(600);
  });

  it('keeps the migrated session once: the hash-directory copy goes to duplicates.jsonl, the slug copy stays', () => {
    const hashCopy = 'homes/fabien/.gemini/tmp/56cfacee57fb9791a4f38e595662752e07022cdeb39cd7127005427d7361037b/chats/session-2026-02-19T16-11-3c3fa9bf.json';
    expect(o.tl.filter((r) => r.source_file === hashCopy)).toEqual([]);
    const dropped = o.dups.filter((d) => d.dropped.source_file === hashCopy);
    expect(dropped.length).toBeGreaterThan(800);
    expect(new Set(dropped.map((d) => d.kept?.source_file))).toEqual(new Set(['homes/fabien/.gemini/tmp/dashboard-mictlan/chats/session-2026-02-19T16-11-3c3fa9bf.json']));
    const s = o.sessions.find((x) => x.session_id === '3c3fa9bf-f059-4646-a0db-492103955550') as R;
    expect([s.project_path, s.name]).toEqual(['C:\\Users\\acodu\\dev\\dashboard_mictlan', 'Implement version history for "cahier des charges".']);
  });
});
