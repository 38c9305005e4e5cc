import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { openCollectedSqlite } from '@aitrail/parsers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJsonl, REPO, runCli, stackTraceLines, tempDir } from './test-helpers/hostile-harness.js';

// OpenCode, goose, Crush and Amazon Q / Kiro CLI end to end: one Linux image whose home /home/dev
// holds the four fixture homes (opencode-live, goose-source, crush-source, amazon-q-kiro), and the
// OpenCode project /home/live-opencode/proj the real run worked in. The built CLI collects it
// (dry run, then an archive) and analyzes the archive, once; the tests read the outputs.

type R = Record<string, unknown>;
const HOMES = join(REPO, 'fixtures/homes');
const FIXTURES = ['opencode-live', 'goose-source', 'crush-source', 'amazon-q-kiro'];
const AGENTS = ['amazon-q', 'crush', 'goose', 'opencode'];
/** Every credential the fixtures hold: none may appear in any output. */
const TOKENS = ['ghp_FAKEfixtureTOKEN00000000000000000000', 'FAKE-fixture-bearer-0000', 'ghp_FAKEgooseFixtureToken000000000000000', 'FAKE-goose-bearer-0000', 'sk-ant-FAKEgooseFixtureKey', 'sk-ant-FAKEcrushFixtureKey', 'FAKEpw', 'FAKEquery', 'FAKE-crush-linear-0000', 'FAKEdbpass', 'aoaAAAAFAKEqCliAccessToken', 'aorAAAAFAKEqCliRefreshToken', 'd-FAKE.awsapps', 'FAKE-jira-token-0000', 'FAKEjiraEnvToken', 'FAKEssoAccessToken', 'FAKEsvcPgPassword', 'FAKE-share-secret', 'FAKEprojPw'];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? files(join(dir, n)) : [join(dir, n)]));
}

/** The typed prompts of the image's stores, read without the parsers (plain SQL and JSON). */
async function typedPrompts(home: string): Promise<string[]> {
  const out: string[] = [];
  const sql = async (rel: string, q: string) => {
    const db = await openCollectedSqlite(join(home, rel));
    try {
      return db.prepare(q).all() as R[];
    } finally {
      db.close();
    }
  };
  // OpenCode: non-synthetic text parts of user messages, in the database and the legacy-only session.
  for (const r of await sql('.local/share/opencode/opencode.db', "SELECT p.data FROM part p JOIN message m ON m.id = p.message_id WHERE json_extract(m.data, '$.role') = 'user'")) {
    const p = JSON.parse(String(r.data)) as R;
    if (p.type === 'text' && !p.synthetic) out.push(`opencode\0${p.text}`);
  }
  // Kilo Code's CLI (an OpenCode fork): the same tables in kilo.db.
  for (const r of await sql('.local/share/kilo/kilo.db', "SELECT p.data FROM part p JOIN message m ON m.id = p.message_id WHERE json_extract(m.data, '$.role') = 'user'")) {
    const p = JSON.parse(String(r.data)) as R;
    if (p.type === 'text' && !p.synthetic) out.push(`kilo-code\0${p.text}`);
  }
  for (const f of files(join(home, '.local/share/opencode/storage/part'))) {
    const p = JSON.parse(readFileSync(f, 'utf8')) as R;
    const m = JSON.parse(readFileSync(join(home, '.local/share/opencode/storage/message', String(p.sessionID), `${p.messageID}.json`), 'utf8')) as R;
    if (m.role === 'user' && p.type === 'text' && !p.synthetic && String(p.sessionID).includes('LegacyOnly')) out.push(`opencode\0${p.text}`);
  }
  for (const f of files(join(home, '.local/share/opencode/project'))) {
    const m = JSON.parse(readFileSync(f, 'utf8')) as R;
    if (m.role === 'user') for (const p of m.parts as R[]) if (p.type === 'text') out.push(`opencode\0${p.text}`);
  }
  // goose: user text of the live store, the backup and the legacy-only file (the imported file's copies drop).
  for (const rel of ['.local/share/goose/sessions/sessions.db', '.local/share/goose/backups/pre_migration_v4_to_v5.db']) {
    for (const r of await sql(rel, "SELECT content_json FROM messages WHERE role = 'user'")) {
      for (const c of JSON.parse(String(r.content_json)) as R[]) if (c.type === 'text' && !String(c.text).startsWith('Summary so far')) out.push(`goose\0${c.text}`);
    }
  }
  for (const l of readFileSync(join(home, '.local/share/goose/sessions/cli-spike.jsonl'), 'utf8').split('\n').slice(1)) {
    try {
      const m = JSON.parse(l) as R;
      if (m.role === 'user') for (const c of m.content as R[]) if (c.type === 'text') out.push(`goose\0${c.text}`);
    } catch {
      // the cut last line
    }
  }
  // Crush: text parts of user messages.
  for (const r of await sql('app/.crush/crush.db', "SELECT parts FROM messages WHERE role = 'user'")) {
    for (const p of JSON.parse(String(r.parts)) as R[]) if (p.type === 'text') out.push(`crush\0${(p.data as R).text}`);
  }
  // Amazon Q / Kiro: Prompt and CancelledToolUses prompts, Kiro CLI Prompt records (each message id once), the history line no conversation holds.
  for (const [rel, q] of [
    ['.local/share/amazon-q/data.sqlite3', 'SELECT value FROM conversations'],
    ['.local/share/kiro-cli/data.sqlite3', 'SELECT value FROM conversations_v2 ORDER BY updated_at DESC LIMIT 1'],
  ]) {
    for (const r of await sql(rel, q)) {
      for (const e of (JSON.parse(String(r.value)) as R).history as unknown[]) {
        const c = ((Array.isArray(e) ? e[0] : (e as R).user) as R).content as R;
        const p = (c.Prompt ?? c.CancelledToolUses) as R | undefined;
        if (p?.prompt) out.push(`amazon-q\0${p.prompt}`);
      }
    }
  }
  for (const f of files(join(home, '.kiro/sessions/cli')).filter((x) => x.endsWith('.jsonl'))) {
    const seen = new Set<string>();
    for (const l of readFileSync(f, 'utf8').split('\n')) {
      try {
        const r = JSON.parse(l) as { kind: string; data: { message_id: string; content: R[] } };
        if (r.kind === 'Prompt' && !seen.has(r.data.message_id)) out.push(`amazon-q\0${r.data.content.map((c) => c.data).join('\n')}`);
        seen.add(r.data.message_id);
      } catch {
        // the cut last line
      }
    }
  }
  out.push('amazon-q\0write a haiku\nabout logs');
  return out.sort();
}

describe('opencode + goose + crush + amazon-q end to end: one home holding all four', () => {
  const T = tempDir('sql-agents');
  const img = join(T, 'img');
  const home = join(img, 'home/dev');
  let dry: Awaited<ReturnType<typeof runCli>>;
  let run: Awaited<ReturnType<typeof runCli>>;
  let tl: R[];
  let dups: { dropped: R; kept: R | null }[];
  let sessions: R[];
  let inv: R;
  let outputs: string;
  beforeAll(async () => {
    for (const f of FIXTURES) cpSync(join(HOMES, f), home, { recursive: true, filter: (src) => !/\/(?:make|README\.md)$/.test(src) });
    mkdirSync(join(img, 'home/live-opencode/proj'), { recursive: true });
    writeFileSync(join(img, 'home/live-opencode/proj/opencode.json'), JSON.stringify({ mcp: { 'proj-db': { type: 'local', command: ['pg-mcp'], environment: { PGPASSWORD: 'FAKEprojPw' } } } }));
    writeFileSync(join(img, 'home/live-opencode/proj/AGENTS.md'), '# proj\n');
    dry = await runCli(['collect', '--root', img, '--dry-run'], { timeoutMs: 120_000 });
    const c = await runCli(['collect', '--root', img, '--out', join(T, 'c.zip')], { timeoutMs: 120_000 });
    expect(c.code, c.stderr).toBe(0);
    run = await runCli(['analyze', join(T, 'c.zip'), '--out', join(T, 'out'), '--json'], { timeoutMs: 300_000 });
    const out = join(T, 'out');
    tl = readJsonl<R>(join(out, 'timeline.jsonl'));
    dups = readJsonl(join(out, 'duplicates.jsonl'));
    sessions = readJsonl<R>(join(out, 'sessions.jsonl'));
    inv = JSON.parse(readFileSync(join(out, 'inventory.json'), 'utf8')) as R;
    outputs = ['timeline.jsonl', 'timeline.csv', 'sessions.jsonl', 'inventory.json', 'duplicates.jsonl'].map((n) => readFileSync(join(out, n), 'utf8')).join('\n') + run.stdout + run.stderr;
  }, 600_000);
  afterAll(() => rmSync(T, { recursive: true, force: true }));

  it('collect --dry-run lists every agent; the run exits 0 with a summary for each and no stack trace', () => {
    expect(dry.code, dry.stderr).toBe(0);
    for (const a of AGENTS) expect(dry.stdout).toMatch(new RegExp(`\\bdev\\s+${a}\\s+home\\b`));
    expect(run.code, run.stderr).toBe(0);
    expect(stackTraceLines(run.stderr)).toEqual([]);
    const s = JSON.parse(run.stdout) as { summary: R[] };
    expect(s.summary.map((x) => [x.agent, x.sessions])).toEqual([
      ['amazon-q', 5],
      ['crush', 2],
      ['goose', 5],
      // Kilo Code's CLI store (kilo.db of opencode-live): two sessions, parsed by the kilo-code plugin.
      ['kilo-code', 2],
      ['opencode', 4],
    ]);
  });

  it('finds every session with its project: the project stores (crush) and the -wal-only, backup-only and legacy-only sessions included', () => {
    const got = sessions.map((s) => [s.agent, String(s.session_id), s.project_path]).sort();
    expect(got).toEqual(
      [
        ['amazon-q', '0a0b0c0d-0000-4000-8000-00000000000e', '/home/dev/old'],
        ['amazon-q', '3f1c9a2e-5b7d-4e8f-9a0b-1c2d3e4f5a6b', '/home/dev/svc'],
        ['amazon-q', '7e57c0de-1111-4222-8333-444455556666', '/home/dev/svc'],
        ['amazon-q', 'a11ce000-0000-4000-8000-000000000001', '/home/dev/svc'],
        ['amazon-q', 'a11ce000-0000-4000-8000-000000000002', '/home/dev/svc'],
        ['crush', 'b5a1c0de-0000-4000-8000-000000000001', '/home/dev/app'],
        ['crush', 'b5a1c0de-0000-4000-8000-000000000002', '/home/dev/app'],
        ['goose', '20260913_1', '/home/dev/infra'],
        ['goose', '20260914_1', '/home/dev/shop'],
        ['goose', '20260915_1', '/home/dev/shop'],
        ['goose', 'cli-spike', '/home/dev/infra'],
        ['goose', 'old-session', '/home/dev/shop'],
        ['kilo-code', 'ses_dd0548be9ffeaDUif6AQtTYm0y', '/home/live-kilo-code/proj'],
        ['kilo-code', 'ses_dd05655f5ffe98h3F423wRiLxU', '/home/live-kilo-code/proj'],
        ['opencode', 'ses_0ldest0000000000000000001', '/home/live-opencode/proj'],
        ['opencode', 'ses_6aade4081ffeLegacyOnly0001', '/home/live-opencode/proj'],
        ['opencode', 'ses_dd059960effeE0W7BAII0xHCUR', '/home/live-opencode/proj'],
        ['opencode', 'ses_dd05a8037ffeJZInD8euLCyD9b', '/home/live-opencode/proj'],
      ].sort(),
    );
  });

  it('puts every typed prompt in the timeline exactly once', async () => {
    const want = await typedPrompts(home);
    expect(want.length).toBeGreaterThan(20);
    const got = tl.filter((r) => r.turn_type === 'user' && !String(r.text).startsWith('[') && !String(r.text).startsWith('!') && !String(r.text).startsWith('elicitation')).map((r) => `${r.agent}\0${r.text}`).sort();
    expect(got).toEqual(want);
  });

  it("drops the copies: OpenCode's legacy JSON of a migrated session, goose's imported legacy file, the q prompt history lines the conversations hold", () => {
    const by = (agent: string) => dups.filter((d) => d.dropped.agent === agent).map((d) => [String(d.dropped.source_file).split('/').pop(), String(d.kept?.source_file).split('/').pop()]);
    expect(by('opencode').length).toBe(5);
    expect(new Set(by('opencode').map((x) => x[1]))).toEqual(new Set(['opencode.db']));
    expect(by('goose')).toEqual(Array(4).fill(['old-session.jsonl', 'sessions.db']));
    expect(by('amazon-q')).toEqual(Array(3).fill(['.cli_bash_history', 'data.sqlite3']));
  });

  it('inventory: every agent with artifacts, its secret files flagged (mixed stores included), MCP servers by name with key names only, unknown kinds counted', () => {
    const agents = ((inv.homes as R[]).find((h) => h.user === 'dev')!.agents as R[]).filter((a) => AGENTS.includes(String(a.agent)));
    expect(agents.map((a) => a.agent)).toEqual(AGENTS);
    const of = (a: string) => agents.find((x) => x.agent === a)!;
    const secrets = (a: string) => (of(a).secret_files as R[]).map((s) => relative(img, String(s.path))).sort();
    expect(secrets('opencode')).toEqual(['home/dev/.config/opencode/opencode.json', 'home/dev/.local/share/opencode/opencode.db', 'home/dev/.local/share/opencode/storage/session_share/ses_6aade4081ffeLegacyOnly0001.json', 'home/live-opencode/proj/opencode.json']);
    expect(secrets('amazon-q')).toEqual(['home/dev/.aws/amazonq/.cli_bash_history', 'home/dev/.aws/amazonq/cli-agents/ops.json', 'home/dev/.aws/amazonq/mcp.json', 'home/dev/.aws/sso/cache/8f1e2d.json', 'home/dev/.kiro/settings/mcp.json', 'home/dev/.local/share/amazon-q/data.sqlite3', 'home/dev/.local/share/kiro-cli/data.sqlite3', 'home/dev/svc/.amazonq/mcp.json']);
    expect(secrets('goose')).toEqual(['home/dev/.config/goose/config.yaml', 'home/dev/.config/goose/secrets.yaml']);
    expect(secrets('crush')).toEqual(['home/dev/.config/crush/crush.json', 'home/dev/.local/share/crush/crush.json', 'home/dev/app/crush.json']);
    const mcp = (a: string) => (of(a).mcp_servers as R[]).map((m) => `${m.name}:${m.scope}`).sort();
    expect(mcp('opencode')).toEqual(['docs:user', 'github:user', 'proj-db:project']);
    expect(mcp('goose')).toEqual(['developer:user', 'github:user', 'tracker:user']);
    expect(mcp('crush')).toEqual(['db:project', 'filesystem:user', 'linear:user']);
    expect(mcp('amazon-q')).toEqual(['aws-cost:user', 'aws-docs:user', 'fetch:user', 'jira:user', 'svc-db:project']);
    expect(agents.map((a) => a.unknown_records)).toEqual([{ 'amazon-q/kiro-session': { 'record Checkpoint': 1 } }, { 'crush/db': { 'part hologram': 1 } }, { 'goose/sessions-db': { 'content lunarPhase': 1 } }, {}]);
    expect(of('amazon-q').manifest_status).toMatchObject({ skipped_excluded: 1 });
  });

  it('no credential of any fixture reaches any output', () => {
    for (const t of TOKENS) expect(outputs.includes(t), t).toBe(false);
  });

  it('rows of each kind the parsers give: permission decisions and settings, models, thinking kept out by default', () => {
    const count = (agent: string, f: (r: R) => boolean) => tl.filter((r) => r.agent === agent && f(r)).length;
    for (const a of AGENTS) {
      expect(count(a, (r) => r.tag === 'permission_decision'), a).toBeGreaterThan(0);
      expect(count(a, (r) => r.tag === 'permission_setting' || r.tag === 'permission_mode'), a).toBeGreaterThan(0);
      expect(count(a, (r) => r.turn_type === 'tool_use'), a).toBeGreaterThan(0);
      expect(count(a, (r) => r.turn_type === 'thinking'), a).toBe(0);
    }
    expect(tl.filter((r) => r.agent === 'goose' && r.session_id === '20260915_1' && r.turn_type === 'user').map((r) => r.text)).toEqual(['Write the nightly sales report to reports/today.md']);
  });
});

// The same stores where macOS and Windows keep them (the spec's per-OS paths), in images the
// collector recognizes by layout: a dry run lists each file under its agent, secrets flagged,
// and the Windows image is analyzed too (the parsers' Windows spellings).
describe('the four agents on macOS and Windows layouts', () => {
  const T = tempDir('sql-agents-os');
  afterAll(() => rmSync(T, { recursive: true, force: true }));
  const put = (home: string, from: string, to: string) => {
    mkdirSync(join(home, to, '..'), { recursive: true });
    cpSync(join(HOMES, from), join(home, to), { recursive: true });
  };
  /** The image's home with each fixture file at its OS place; `[fixture/path, place]` pairs. */
  function image(os: 'mac' | 'win', places: [string, string][]): string {
    const root = join(T, os);
    const home = join(root, 'Users/dev');
    mkdirSync(join(home, os === 'mac' ? 'Library' : 'AppData'), { recursive: true });
    for (const [from, to] of places) put(home, from, to);
    return root;
  }
  const common: [string, string][] = [
    ['opencode-live/.local/share/opencode/opencode.db', '.local/share/opencode/opencode.db'],
    ['opencode-live/.config/opencode/opencode.json', '.config/opencode/opencode.json'],
    ['crush-source/.config/crush/crush.json', '.config/crush/crush.json'],
    ['amazon-q-kiro/.aws', '.aws'],
    ['amazon-q-kiro/.kiro', '.kiro'],
  ];
  const rowsOf = (stdout: string) => stdout.split('\n').filter((l) => /^collected\s/.test(l));
  const listed = (stdout: string, rel: string, secret: boolean) => rowsOf(stdout).some((l) => l.includes(`/Users/dev/${rel} ->`) && /\bSECRET\b/.test(l) === secret);

  it('macOS: Library/Application Support for amazon-q, kiro-cli and goose\'s Block folder; XDG folders for the rest', async () => {
    const root = image('mac', [
      ...common,
      ['amazon-q-kiro/.local/share/amazon-q/data.sqlite3', 'Library/Application Support/amazon-q/data.sqlite3'],
      ['amazon-q-kiro/.local/share/kiro-cli/data.sqlite3', 'Library/Application Support/kiro-cli/data.sqlite3'],
      ['goose-source/.local/share/goose/sessions', 'Library/Application Support/Block/goose/data/sessions'],
      ['goose-source/.config/goose/config.yaml', 'Library/Application Support/Block/goose/config/config.yaml'],
      ['crush-source/.local/share/crush/projects.json', '.local/share/crush/projects.json'],
    ]);
    const r = await runCli(['collect', '--root', root, '--dry-run'], { timeoutMs: 120_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('layout: darwin');
    for (const [rel, secret] of [
      ['Library/Application Support/amazon-q/data.sqlite3', true],
      ['Library/Application Support/kiro-cli/data.sqlite3', true],
      ['Library/Application Support/Block/goose/data/sessions/sessions.db', false],
      ['Library/Application Support/Block/goose/data/sessions/sessions.db-wal', false],
      ['Library/Application Support/Block/goose/config/config.yaml', true],
      ['.local/share/opencode/opencode.db', true],
      ['.local/share/crush/projects.json', false],
      ['.aws/amazonq/.cli_bash_history', true],
      ['.kiro/sessions/cli/a11ce000-0000-4000-8000-000000000001.jsonl', false],
    ] as const) expect(listed(r.stdout, rel, secret), rel).toBe(true);
  });

  it('Windows: AppData/Local for amazon-q, kiro-cli and crush, AppData/Roaming/Block/goose; collected and analyzed', async () => {
    const root = image('win', [
      ...common,
      ['amazon-q-kiro/.local/share/amazon-q/data.sqlite3', 'AppData/Local/amazon-q/data.sqlite3'],
      ['amazon-q-kiro/.local/share/kiro-cli/data.sqlite3', 'AppData/Local/kiro-cli/data.sqlite3'],
      ['goose-source/.local/share/goose/sessions', 'AppData/Roaming/Block/goose/data/sessions'],
      ['goose-source/.config/goose/permission.yaml', 'AppData/Roaming/Block/goose/config/permission.yaml'],
      ['goose-source/.config/goose/secrets.yaml', 'AppData/Roaming/Block/goose/config/secrets.yaml'],
      ['crush-source/.local/share/crush/projects.json', 'AppData/Local/crush/projects.json'],
    ]);
    const dryRun = await runCli(['collect', '--root', root, '--dry-run'], { timeoutMs: 120_000 });
    expect(dryRun.stdout).toContain('layout: win32');
    for (const [rel, secret] of [
      ['AppData/Local/amazon-q/data.sqlite3', true],
      ['AppData/Local/kiro-cli/data.sqlite3', true],
      ['AppData/Roaming/Block/goose/data/sessions/sessions.db', false],
      ['AppData/Roaming/Block/goose/config/secrets.yaml', true],
      ['AppData/Local/crush/projects.json', false],
      ['.local/share/opencode/opencode.db', true],
    ] as const) expect(listed(dryRun.stdout, rel, secret), rel).toBe(true);
    const c = await runCli(['collect', '--root', root, '--out', join(T, 'w.zip')], { timeoutMs: 120_000 });
    expect(c.code, c.stderr).toBe(0);
    const a = await runCli(['analyze', join(T, 'w.zip'), '--out', join(T, 'w'), '--json'], { timeoutMs: 300_000 });
    expect(a.code, a.stderr).toBe(0);
    expect((JSON.parse(a.stdout) as { summary: R[] }).summary.map((x) => [x.agent, x.sessions])).toEqual([
      ['amazon-q', 5],
      ['crush', 0],
      ['goose', 4],
      ['opencode', 2],
    ]);
    const perms = readJsonl<R>(join(T, 'w/timeline.jsonl')).filter((r) => r.agent === 'goose' && r.tag === 'permission_setting');
    expect(perms.length).toBe(4);
  }, 300_000); // four CLI runs (dry run, collect, analyze) over an image: minutes on a loaded machine
});
