import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { artifactFromFile } from '../../sdk/fs-artifact.js';
import { parseYaml } from './workspace-parser.js';
import { copilotWorkspaceParser } from './workspace-parser.js';
import { CORPUS_ROOT, parseText, runParser } from './test-helpers/harness.js';

const SID = '5e55a0a1-0000-4000-8000-000000000001';
const DIR = `.copilot/session-state/${SID}`;
const REL = `${DIR}/workspace.yaml`;
const EVENTS = { [`${DIR}/events.jsonl`]: '{}\n' };
const MTIME = '2026-10-02T12:00:00.000Z';
const CORPUS = `${CORPUS_ROOT}`;
const SEED = `id: ${SID}
cwd: /srv/proj
client_name: copilot-cli
name: Fix failing test
user_named: false
summary_count: 0
fork_count: 0
created_at: 2026-10-01T09:00:00.000Z
updated_at: 2026-10-01T09:00:30.000Z
remote_steerable: false
mc_task_id: null
mc_session_id: null
mc_last_event_id: null
`;

const parse = (body: string, withEvents = true) => parseText(copilotWorkspaceParser, REL, body, { mtime: MTIME, extra: withEvents ? EVENTS : {} });

describe('workspace.yaml parser', () => {
  it('gives the seed session name and metadata rows at created_at, and no sync row for null mc_ keys', async () => {
    const { rows, facts } = await parse(SEED);
    // project_path stays empty: the analyzer fills it from the facts (the log's cwd first).
    const fields = { session_id: SID, project_path: '', git_branch: '', model: '', tool_name: '', tool_use_id: '', turn_type: 'system', timestamp_utc: '2026-10-01T09:00:00.000Z' };
    expect(rows).toEqual([
      { ...fields, text: 'session name: Fix failing test', source_line: 4, tag: 'session_name' },
      { ...fields, text: 'session metadata: user_named=false forks=0 compactions=0 client=copilot-cli', source_line: 5, tag: 'session_metadata' },
    ]);
    expect(facts).toEqual([
      { session_id: SID, key: 'cwd', value: '/srv/proj', priority: 2 },
      { session_id: SID, key: 'name', value: 'Fix failing test', priority: 1 },
      { session_id: SID, key: 'client', value: 'copilot-cli', priority: 2 },
    ]);
  });

  it('gives the sync row at the file mtime when mc_session_id is set, with - for empty keys', async () => {
    const body = SEED.replace('mc_session_id: null', 'mc_session_id: 43046531-c438-4ead-8110-d9eb07c7cf94').replace('mc_task_id: null', 'mc_task_id: b5008cc6');
    const { rows, facts } = await parse(body);
    expect(rows[2]).toEqual({
      session_id: SID,
      project_path: '',
      git_branch: '',
      model: '',
      tool_name: '',
      tool_use_id: '',
      turn_type: 'system',
      text: 'session synced: remote session 43046531-c438-4ead-8110-d9eb07c7cf94 task b5008cc6 last event - remote_steerable=false',
      timestamp_utc: MTIME,
      source_line: 12,
      tag: 'sync',
    });
    expect(facts).toContainEqual({ session_id: SID, key: 'synced', value: 'yes', priority: 1 });
  });

  it('gives the scratch directory row after the metadata when the session has no events.jsonl', async () => {
    const body = `id: ${SID}\ncwd: C:\\Users\\sean\\AppData\\pool\nclient_name: github/autopilot\nuser_named: false\nsummary_count: 0\nfork_count: 0\ncreated_at: 2026-10-17T19:00:00.000Z\n`;
    const { rows } = await parse(body, false);
    expect(rows.map((r) => [r.text, r.tag, r.timestamp_utc])).toEqual([
      ['session metadata: user_named=false forks=0 compactions=0 client=github/autopilot', 'session_metadata', '2026-10-17T19:00:00.000Z'],
      ['scratch directory: C:\\Users\\sean\\AppData\\pool', 'scratch_directory', '2026-10-17T19:00:00.000Z'],
    ]);
    expect(rows[1]).toMatchObject({ project_path: 'C:\\Users\\sean\\AppData\\pool', session_id: SID, source_line: 2 });
  });

  it('gives no scratch row when cwd is absent, even without events.jsonl', async () => {
    const { rows } = await parse(`id: ${SID}\ncreated_at: 2026-10-17T19:00:00.000Z\n`, false);
    expect(rows.map((r) => r.text)).toEqual(['session metadata: user_named= forks= compactions= client=']);
  });

  it('reads the older summary key as the name', async () => {
    const { rows, facts } = await parse(`id: ${SID}\ncwd: /w\nbranch: issue-3\nsummary: "請將最終結果寫入"\nsummary_count: 0\ncreated_at: 2026-04-06T14:12:01.949Z\n`);
    expect(rows[0]).toMatchObject({ text: 'session name: 請將最終結果寫入', tag: 'session_name', git_branch: '', source_line: 4 });
    expect(rows[1].text).toBe('session metadata: user_named= forks= compactions=0 client=');
    // The branch key (Kaijon corpus; written by 1.0.102 too) is a fallback below the log's context.branch.
    expect(facts.filter((f) => f.key === 'branch')).toEqual([{ session_id: SID, key: 'branch', value: 'issue-3', priority: 2 }]);
    expect(facts).toContainEqual({ session_id: SID, key: 'name', value: '請將最終結果寫入', priority: 1 });
  });

  it('the metadata row names the line of a metadata key even when user_named and client_name are absent (Kaijon corpus)', async () => {
    const { rows } = await parse(`id: ${SID}\ncwd: /w\nsummary: "t"\nsummary_count: 0\ncreated_at: 2026-04-06T14:12:01.949Z\n`);
    expect(rows.map((r) => [r.tag, r.source_line])).toEqual([
      ['session_name', 3],
      ['session_metadata', 4],
    ]);
  });

  it('a key written twice: the last value is read, with a warning naming the key, instead of losing the file', async () => {
    const { rows, warnings } = await parse(`${SEED}name: Renamed later\nmc_session_id: abc\n`, true);
    expect(rows.map((r) => [r.text, r.source_line])).toEqual([
      ['session name: Renamed later', 14],
      ['session metadata: user_named=false forks=0 compactions=0 client=copilot-cli', 5],
      ['session synced: remote session abc task - last event - remote_steerable=false', 15],
    ]);
    expect(warnings).toEqual([
      { message: 'workspace.yaml key name written more than once; the last value is read', line: 14 },
      { message: 'workspace.yaml key mc_session_id written more than once; the last value is read', line: 15 },
    ]);
  });

  it('a file cut mid-write (invalid YAML): the top-level keys are read line by line, with a warning naming the bad line', async () => {
    const cut = `id: ${SID}\ncwd: /srv/proj\nclient_name: github/cli\nuser_named: false\ncreated_at: 2026-10-01T09:00:00.000Z\nmc_session_id: 'abc'\nname: "Fix fail`;
    const { rows, facts, warnings } = await parse(cut);
    expect(rows.map((r) => [r.text, r.source_line, r.timestamp_utc])).toEqual([
      ['session name: Fix fail', 7, '2026-10-01T09:00:00.000Z'],
      ['session metadata: user_named=false forks= compactions= client=github/cli', 4, '2026-10-01T09:00:00.000Z'],
      ['session synced: remote session abc task - last event - remote_steerable=-', 6, MTIME],
    ]);
    expect(facts).toContainEqual({ session_id: SID, key: 'cwd', value: '/srv/proj', priority: 2 });
    expect(warnings).toEqual([{ message: expect.stringMatching(/^workspace.yaml is not valid YAML \(.+\) at line 7; its top-level key: value lines were read one by one$/), line: 7 }]);
  });

  it('a file nested deep or far too large is not given to the YAML library: its top-level lines are read, with a warning saying why', async () => {
    const deep = `id: ${SID}\ncwd: /srv/proj\nname: kept\nextra: ${'['.repeat(100_000)}\n`;
    const d = await parse(deep);
    expect(d.rows.map((r) => r.text)).toContain('session name: kept');
    expect(d.facts).toContainEqual({ session_id: SID, key: 'cwd', value: '/srv/proj', priority: 2 });
    expect(d.warnings).toEqual([{ message: 'workspace.yaml nests deeper than 64 levels; its top-level key: value lines were read one by one', line: 1 }]);
    const big = `id: ${SID}\ncwd: /srv/big\nname: large\nsummary: "${'x'.repeat(1024 * 1024)}"\n`;
    const b = await parse(big);
    expect(b.rows.map((r) => r.text)).toContain('session name: large');
    expect(b.warnings).toEqual([{ message: `workspace.yaml is ${big.length} characters, over the 1048576 the YAML reader is given; its top-level key: value lines were read one by one`, line: 1 }]);
  });

  it('an unquoted value holding ": " (hand-edited): read as written, and the keys after it are kept', async () => {
    const body = SEED.replace('name: Fix failing test', 'name: Fix: the date test # a comment').replace('mc_session_id: null', 'mc_session_id: "m-1"');
    const { rows, warnings } = await parse(body);
    expect(rows.map((r) => r.text)).toEqual([
      'session name: Fix: the date test',
      'session metadata: user_named=false forks=0 compactions=0 client=copilot-cli',
      'session synced: remote session m-1 task - last event - remote_steerable=false',
    ]);
    expect(warnings).toHaveLength(1);
  });

  it('invalid YAML with no top-level key line: one unreadable row naming the line', async () => {
    const { rows } = await parse('[unclosed\n  - x\n');
    expect(rows).toEqual([expect.objectContaining({ tag: 'unreadable', source_line: expect.any(Number), text: expect.stringMatching(/found invalid YAML: .+ at line \d+\)$/) })]);
  });

  it('keeps timestamps as strings (core schema), so an offset time is normalized, not mangled', async () => {
    const { rows } = await parse(`cwd: /w\ncreated_at: 2026-10-01T11:00:00+02:00\n`);
    expect(rows[0].timestamp_utc).toBe('2026-10-01T09:00:00.000Z');
    const p = parseYaml('created_at: 2026-10-01T09:00:00.000Z\n');
    expect('value' in p && typeof p.value.created_at).toBe('string');
  });

  it('reads a file with a BOM and CRLF line ends', async () => {
    const { rows } = await parse(`\uFEFF${SEED.replaceAll('\n', '\r\n')}`);
    expect(rows.map((r) => [r.text, r.source_line])).toEqual([
      ['session name: Fix failing test', 4],
      ['session metadata: user_named=false forks=0 compactions=0 client=copilot-cli', 5],
    ]);
  });

  it('gives one unreadable row for invalid YAML, a non-mapping or an alias bomb', async () => {
    // No top-level key line to fall back on (a file with one is read line by line, below).
    const invalid = await parse('{id: [unclosed\n  cwd: /x\n');
    expect(invalid.rows).toEqual([expect.objectContaining({ tag: 'unreadable', text: expect.stringContaining('found invalid YAML') })]);
    const list = await parse('- a\n- b\n');
    expect(list.rows).toEqual([expect.objectContaining({ tag: 'unreadable', text: expect.stringContaining('found an array') })]);
    const levels = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]'];
    for (let i = 0; i < 9; i++) levels.push(`${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(10).fill(`*${String.fromCharCode(97 + i)}`).join(',')}]`);
    const bomb = await parse(`${levels.join('\n')}\n`);
    expect(bomb.rows).toEqual([expect.objectContaining({ tag: 'unreadable', text: expect.stringContaining('cannot be read safely') })]);
  });

  const xeff = `${CORPUS}/XEFF09__dotfiles`;
  const lantern = `${CORPUS}/WildChildForLife__lantern/fixtures`;
  it.skipIf(!existsSync(xeff) || !existsSync(lantern))('reads every real workspace.yaml: a metadata row each, names, sync rows for the mc_ keys', async () => {
    const cases: [string, string][] = [];
    for (const d of readdirSync(`${xeff}/.copilot/session-state`)) cases.push([xeff, `.copilot/session-state/${d}/workspace.yaml`]);
    for (const d of readdirSync(`${lantern}/copilot-home/session-state`)) cases.push([lantern, `copilot-home/session-state/${d}/workspace.yaml`]);
    cases.push([`${CORPUS}/Kaijon__little-hou-claw`, '.copilot/session-state/f9a21148-76ca-4542-aed8-695085f3b388/workspace.yaml']);
    expect(cases).toHaveLength(22);
    let synced = 0;
    let scratch = 0;
    for (const [home, rel] of cases) {
      const text = readFileSync(`${home}/${rel}`, 'utf8');
      const { rows, warnings } = await runParser(copilotWorkspaceParser, artifactFromFile(home, rel));
      const id = rel.split('/')[2];
      expect(warnings).toEqual([]);
      expect(rows.every((r) => r.session_id === id && r.tag !== 'unreadable')).toBe(true);
      expect(rows.filter((r) => r.tag === 'session_metadata')).toHaveLength(1);
      expect(rows.find((r) => r.tag === 'session_metadata')!.text).toMatch(/^session metadata: user_named=(false)? forks=0? compactions=0 client=(github\/cli)?$/);
      const name = /^(?:name|summary): (.*)$/m.exec(text)?.[1].replace(/^"|"$/g, '');
      expect(rows.filter((r) => r.tag === 'session_name').map((r) => r.text)).toEqual(name ? [`session name: ${name}`] : []);
      const mc = /^mc_session_id: (\S+)$/m.exec(text)?.[1];
      const sync = rows.filter((r) => r.tag === 'sync');
      expect(sync.map((r) => r.text.split(' ')[4])).toEqual(mc ? [mc] : []);
      synced += sync.length;
      scratch += rows.filter((r) => r.tag === 'scratch_directory').length;
      for (const r of rows) expect(r.timestamp_utc).toMatch(/^2026-/);
    }
    expect(synced).toBe(15);
    // XEFF09 holds 13 session directories with no events.jsonl (CLI sessions quit before a prompt).
    expect(scratch).toBe(13);
  });
});
