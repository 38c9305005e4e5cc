import { beforeAll, describe, expect, it } from 'vitest';
import type { Row } from '../../sdk/types.js';
import { familyParsers } from './family.js';
import { openCodePlugin } from './index.js';
import type { OpenCodeProfile } from './profile.js';
import { copyHome, run, tempHomes } from './test-helpers/harness.js';

// The real opencode.db of fixtures/homes/opencode-live (opencode-ai 1.18.33), row by row. The
// expected rows are written from the database's own rows (sqlite3 dump in the fixture's history)
// and the spec's parser plan, not from a run of the parser.

const DB = '.local/share/opencode/opencode.db';
const S1 = 'ses_dd05a8037ffeJZInD8euLCyD9b';
const S2 = 'ses_dd059960effeE0W7BAII0xHCUR';
const P = '/home/live-opencode/proj';
const RULES = 'permission setting: [{"action":"deny","pattern":"*","permission":"question"},{"action":"deny","pattern":"*","permission":"plan_enter"},{"action":"deny","pattern":"*","permission":"plan_exit"}]';
const TITLE = 'Hello from the stub model. Nothing to run for this one.';
const homes = tempHomes('opencode-db');
const db = (p = openCodePlugin.parsers[0]) => p;

function row(r: Partial<Row> & Pick<Row, 'turn_type' | 'text'>): Row {
  return { timestamp_utc: '', session_id: '', project_path: P, git_branch: '', model: '', tool_name: '', tool_use_id: '', source_line: null, ...r };
}

describe('opencode db parser over the real 1.18.33 database', () => {
  let out: Awaited<ReturnType<typeof run>>;
  beforeAll(async () => {
    const home = copyHome('opencode-live', homes.make());
    out = await run(db(), home, DB);
  });

  it('gives, session by session, the rows the spec plans for each record', () => {
    const s = (sid: string, line: number, at: string) => ({ session_id: sid, source_line: line, timestamp_utc: at });
    const startOf = (sid: string, line: number, at: string) => [
      row({ ...s(sid, line, at), turn_type: 'system', text: `session start: title=${TITLE} version=1.18.33`, tag: 'session_start' }),
      row({ ...s(sid, line, at), turn_type: 'system', text: 'session agent: build model=stub-model', model: 'stub-model', tag: 'session_metadata' }),
      row({ ...s(sid, line, at), turn_type: 'system', text: `session name: ${TITLE}`, tag: 'session_name' }),
      row({ ...s(sid, line, at), turn_type: 'system', text: RULES, tag: 'permission_setting' }),
    ];
    const m = { model: 'stub-model' };
    expect(out.rows).toEqual([
      // session table, oldest first (rowid 1 is the plain prompt's session)
      ...startOf(S1, 1, '2026-12-01T03:28:25.033Z'),
      ...startOf(S2, 2, '2026-12-01T03:29:24.990Z'),
      // messages in session-id order: ses_dd0599… sorts before ses_dd05a8…
      row({ ...s(S2, 3, '2026-12-01T03:29:26.030Z'), ...m, turn_type: 'system', text: 'model: stub-model (stub)', tag: 'model' }),
      row({ ...s(S2, 5, '2026-12-01T03:29:26.030Z'), ...m, turn_type: 'user', text: '"Run the shell command echo aitrail-live-marker and tell me what it printed."' }),
      row({ ...s(S2, 7, '2026-12-01T03:29:52.583Z'), ...m, turn_type: 'assistant', text: 'I will run the marker command.' }),
      row({ ...s(S2, 8, '2026-12-01T03:29:52.741Z'), ...m, turn_type: 'tool_use', tool_name: 'bash', tool_use_id: 'call_stub_mx45271am44883k7', text: 'echo aitrail-live-marker' }),
      row({ ...s(S2, 8, '2026-12-01T03:29:54.144Z'), turn_type: 'tool_result', tool_name: 'bash', tool_use_id: 'call_stub_mx45271am44883k7', text: 'aitrail-live-marker\n' }),
      row({ ...s(S2, 11, '2026-12-01T03:29:58.489Z'), ...m, turn_type: 'assistant', text: 'Done: aitrail-live-marker seen.' }),
      row({ ...s(S2, 13, '2026-12-01T03:30:28.403Z'), ...m, turn_type: 'user', text: '"Thanks. Summarise in one line what you just did."' }),
      row({ ...s(S2, 15, '2026-12-01T03:31:00.756Z'), ...m, turn_type: 'assistant', text: TITLE }),
      row({ ...s(S1, 1, '2026-12-01T03:28:28.983Z'), ...m, turn_type: 'system', text: 'model: stub-model (stub)', tag: 'model' }),
      row({ ...s(S1, 1, '2026-12-01T03:28:28.983Z'), ...m, turn_type: 'user', text: '"Say hello in one short sentence."' }),
      row({ ...s(S1, 3, '2026-12-01T03:29:01.299Z'), ...m, turn_type: 'assistant', text: TITLE }),
    ]);
  });

  it('reports each session directory as a cwd fact at its creation, and the title as the name', () => {
    expect(out.ctx.facts).toEqual([
      { session_id: S1, key: 'cwd', value: P, priority: 3, at: '2026-12-01T03:28:25.033Z' },
      { session_id: S1, key: 'name', value: TITLE, priority: 2 },
      { session_id: S2, key: 'cwd', value: P, priority: 3, at: '2026-12-01T03:29:24.990Z' },
      { session_id: S2, key: 'name', value: TITLE, priority: 2 },
    ]);
  });

  it('accounts for every record: 7 messages and 16 parts (step-start/finish give no row on purpose), 59 events that repeat the tables', () => {
    // 6 parts give rows (4 user/assistant texts + 1 tool = 2 rows + 2 more texts); the event log adds nothing the tables hold.
    expect(out.rows.filter((r) => r.tag === 'recovered' || r.tag === 'removed')).toEqual([]);
    expect(out.ctx.unknowns).toEqual([]);
    expect(out.ctx.warnings).toEqual([]);
  });

  it('never reads the account, control_account or credential tables (it opts in to the flagged store for sessions only)', () => {
    expect(db().readsSecretFile?.(DB)).toBe(true);
    expect(JSON.stringify(out.rows)).not.toMatch(/access_token|refresh_token|credential/);
  });
});

/** The profile Kilo Code's CLI needs (its folder belongs to another piece of work; this is the factory's test). */
const KILO: OpenCodeProfile = {
  agent: 'kilo-code',
  parserPrefix: 'cli-',
  app: 'kilo',
  dbNames: '(?:kilo|opencode)(?:-[^/]+)?\\.db',
  configNames: ['kilo.json', 'kilo.jsonc', 'opencode.json', 'opencode.jsonc'],
  projectConfigNames: ['kilo.json', 'kilo.jsonc', 'opencode.json', 'opencode.jsonc'],
  projectDirs: ['.kilo', '.opencode'],
  transientMetadata: [{ key: 'kilocode.lifecycle', value: 'transient' }],
};

describe('the family factory over the real Kilo CLI 7.7.7 kilo.db', () => {
  const parsers = familyParsers(KILO);
  it('names its parsers with the prefix and agent, and wants kilo.db, kilo-<channel>.db and the fallback opencode-<channel>.db under kilo/', () => {
    expect(parsers.map((p) => `${p.agent}/${p.name}`)).toEqual(['kilo-code/cli-db', 'kilo-code/cli-storage', 'kilo-code/cli-config', 'kilo-code/cli-model-state']);
    for (const rel of ['.local/share/kilo/kilo.db', '.local/share/kilo/kilo-beta.db', '.local/share/kilo/opencode-dev.db']) expect(parsers[0].wants(rel), rel).toBe(true);
    expect(parsers[0].wants('.local/share/opencode/opencode.db')).toBe(false);
    expect(parsers[2].wants('.config/kilo/kilo.json')).toBe(true);
  });

  it('reads its sessions under kilo-code, and drops the transient spinner parts the event log removed', async () => {
    const home = copyHome('opencode-live', homes.make());
    const { rows, ctx } = await run(parsers[0], home, '.local/share/kilo/kilo.db');
    const K1 = 'ses_dd05655f5ffe98h3F423wRiLxU';
    const K2 = 'ses_dd0548be9ffeaDUif6AQtTYm0y';
    expect(rows.filter((r) => r.turn_type !== 'system').map((r) => [r.session_id, r.turn_type, r.text, r.timestamp_utc])).toEqual([
      [K2, 'user', '"Thanks. Summarise in one line what you just did."', '2026-12-01T03:37:52.341Z'],
      [K2, 'assistant', TITLE, '2026-12-01T03:38:04.680Z'],
      [K1, 'user', '"Say hello in one short sentence."', '2026-12-01T03:33:58.789Z'],
    ]);
    expect(rows.filter((r) => r.text.includes('Initializing snapshot') || r.tag === 'removed' || r.tag === 'recovered')).toEqual([]);
    expect(rows.filter((r) => r.tag === 'session_start').map((r) => r.text)).toEqual(['session start: title=New session - 2026-12-01T03:32:57.995Z version=7.7.7', 'session start: title=New session - 2026-12-01T03:34:55.263Z version=7.7.7']);
    expect(ctx.unknowns).toEqual([]);
  });

  it('without the transient rule (OpenCode\'s profile) the same removals are rows: nothing the log holds is lost', async () => {
    const home = copyHome('opencode-live', homes.make());
    const { rows } = await run(familyParsers({ ...KILO, transientMetadata: [] })[0], home, '.local/share/kilo/kilo.db');
    expect(rows.filter((r) => r.tag === 'removed').length).toBe(3);
    expect(rows.filter((r) => r.tag === 'recovered').map((r) => r.text)).toEqual(['context: ⠴ Initializing snapshot…', 'context: ⠼ Initializing snapshot…', 'context: ⠹ Initializing snapshot…']);
  });
});

