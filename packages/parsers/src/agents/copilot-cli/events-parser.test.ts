import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { artifactFromFile } from '../../sdk/fs-artifact.js';
import type { ParseContext, Row, SessionFact } from '../../sdk/types.js';
import { copilotEventsParser } from './events-parser.js';
import { stringifyEventLine } from './test-helpers/events-stringify.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', '..');
const HOMES = join(ROOT, 'fixtures', 'homes');
const S = '5e55a0a1-0000-4000-8000-000000000001';
const REL = `.copilot/session-state/${S}/events.jsonl`;

async function parseHome(home: string, includeThinking: boolean): Promise<{ rows: Row[]; facts: SessionFact[]; warnings: string[] }> {
  const facts: SessionFact[] = [];
  const warnings: string[] = [];
  const ctx: ParseContext = { options: { includeThinking }, fact: (f) => facts.push(f), warn: (m) => warnings.push(m), unknown: () => {}, mcp: () => {} };
  const rows: Row[] = [];
  for await (const r of copilotEventsParser.parse(artifactFromFile(join(HOMES, home), REL), ctx)) rows.push(r);
  return { rows, facts, warnings };
}

// The seed's "Expected rows from events.jsonl" and its Parser plan table, written by hand from
// the spec text (fixture line by line), not from a run of the parser. Each entry lists the
// columns that differ from the session defaults below.
type Expected = Partial<Row> & Pick<Row, 'source_line' | 'turn_type' | 'text' | 'timestamp_utc'>;
const DEFAULTS = { session_id: S, project_path: '/srv/proj', git_branch: 'main', model: 'gpt-6.1-sol', tool_name: '', tool_use_id: '' };
const T = (hms: string) => `2026-10-01T${hms}Z`;
const PATCH = '*** Begin Patch\n*** Update File: /srv/proj/date.test.js\n-2025\n+2026\n*** End Patch\n';
const APPLY = { tool_name: 'apply_patch', tool_use_id: 'custom_0000000000000000000000000001' };
const BASH = { tool_name: 'bash', tool_use_id: 'call_01' };
const CUT_LINE =
  '{"id":"e0000000-0000-4000-8000-000000000035","parentId":"e0000000-0000-4000-8000-000000000034","timestamp":"2026-10-01T09:01:00.000Z","type":"user.message","data":{"content":"and run';

const THINKING: Expected = { source_line: 14, timestamp_utc: T('09:00:03.000'), turn_type: 'thinking', text: 'Run the tests first.' };
const EXPECTED: Expected[] = [
  { source_line: 1, timestamp_utc: T('09:00:00.000'), turn_type: 'system', text: 'session start: copilot 1.0.98 producer=copilot-agent cwd=/srv/proj', model: '', tag: 'session_start' },
  { source_line: 2, timestamp_utc: T('09:00:00.100'), turn_type: 'system', text: 'model: gpt-6.1-sol cause=initial_resolution source=automatic effort=medium', tag: 'model' },
  { source_line: 3, timestamp_utc: T('09:00:01.000'), turn_type: 'system', text: "system prompt: You are the GitHub Copilot CLI.\nFollow the user's instructions." },
  { source_line: 4, timestamp_utc: T('09:00:01.200'), turn_type: 'user', text: 'fix the failing test' },
  { source_line: 10, timestamp_utc: T('09:00:02.000'), turn_type: 'system', text: 'utility model gpt-4o-mini: Fix failing test', model: 'gpt-4o-mini', tag: 'utility_model' },
  THINKING,
  { source_line: 14, timestamp_utc: T('09:00:03.000'), turn_type: 'tool_use', text: 'npm test', ...BASH },
  { source_line: 15, timestamp_utc: T('09:00:03.100'), turn_type: 'system', text: 'permission request: shell npm test intention=Run the test suite', ...BASH, tag: 'permission_request' },
  { source_line: 15, timestamp_utc: T('09:00:03.100'), turn_type: 'system', text: 'permission mode: manual agent=interactive', tag: 'permission_mode' },
  {
    source_line: 16,
    timestamp_utc: T('09:00:06.000'),
    turn_type: 'system',
    text: 'permission decision: approved-for-location source=human_response location=/srv/proj approval={"commandIdentifiers":["npm test"],"kind":"commands"}',
    ...BASH,
    tag: 'permission_decision',
  },
  { source_line: 18, timestamp_utc: T('09:00:08.000'), turn_type: 'tool_result', text: '[exit 1] 1 failing\n  date.test.js: expected 2026\nCommand exited with code 1', ...BASH },
  { source_line: 21, timestamp_utc: T('09:00:10.000'), turn_type: 'tool_use', text: PATCH, ...APPLY },
  { source_line: 22, timestamp_utc: T('09:00:10.100'), turn_type: 'system', text: 'permission request: write /srv/proj/date.test.js intention=Update the fixture year', ...APPLY, tag: 'permission_request' },
  { source_line: 23, timestamp_utc: T('09:00:12.000'), turn_type: 'system', text: 'permission decision: approved source=human_response', ...APPLY, tag: 'permission_decision' },
  { source_line: 25, timestamp_utc: T('09:00:12.500'), turn_type: 'tool_result', text: 'Modified 1 file: /srv/proj/date.test.js', ...APPLY },
  { source_line: 28, timestamp_utc: T('09:00:15.000'), turn_type: 'assistant', text: 'The fixture year was stale; it now reads 2026.' },
  { source_line: 31, timestamp_utc: T('09:00:20.000'), turn_type: 'system', text: 'model: gpt-6.1-sol -> auto source=model_picker', model: 'auto', tag: 'model' },
  {
    source_line: 32,
    timestamp_utc: T('09:00:20.395'),
    turn_type: 'system',
    text: 'session.info model: Model changed from GitHub Copilot • GPT-6.1 Sol (medium) to GitHub Copilot • Auto for this session',
    model: 'auto',
    tag: 'session_info',
  },
  { source_line: 33, timestamp_utc: T('09:00:20.396'), turn_type: 'system', text: 'session.info model: Auto routing profile change to Balance requested.', model: 'auto', tag: 'session_info' },
  { source_line: 34, timestamp_utc: T('09:00:30.000'), turn_type: 'system', text: 'session end: routine files modified: /srv/proj/date.test.js', model: 'auto', tag: 'session_end' },
  { source_line: 35, timestamp_utc: '', turn_type: 'system', text: `parser: unparseable line (cut line, no newline at end of file: invalid JSON): ${CUT_LINE}`, model: 'auto', tag: 'bad_line' },
];

const COLUMNS = ['timestamp_utc', 'session_id', 'project_path', 'git_branch', 'model', 'turn_type', 'tool_name', 'tool_use_id', 'text', 'source_line', 'tag'] as const;

function checkRows(rows: Row[], expected: Expected[]): void {
  expect(rows.map((r) => `${r.source_line} ${r.turn_type}`)).toEqual(expected.map((e) => `${e.source_line} ${e.turn_type}`));
  expected.forEach((e, i) => {
    const want = { ...DEFAULTS, tag: undefined, ...e };
    for (const col of COLUMNS) expect(rows[i][col], `row ${i} (line ${e.source_line}) ${col}`).toEqual(want[col]);
  });
}

describe.each(['seed-copilot', 'seed-copilot-stringified'])('events.jsonl of %s', (home) => {
  it('gives the seed expected rows, field by field, without thinking', async () => {
    const { rows } = await parseHome(home, false);
    checkRows(
      rows,
      EXPECTED.filter((e) => e !== THINKING),
    );
  });

  it('gives the thinking row of line 14 with includeThinking', async () => {
    const { rows } = await parseHome(home, true);
    checkRows(rows, EXPECTED);
  });

  it('reports cwd and branch as of the start line, and has_log, as priority-1 facts and no warning', async () => {
    const { facts, warnings } = await parseHome(home, false);
    expect(facts).toEqual([
      { session_id: S, key: 'has_log', value: 'yes', priority: 1 },
      { session_id: S, key: 'cwd', value: '/srv/proj', priority: 1, at: '2026-10-01T09:00:00.000Z' },
      { session_id: S, key: 'branch', value: 'main', priority: 1, at: '2026-10-01T09:00:00.000Z' },
    ]);
    expect(warnings).toEqual([]);
  });
});

describe('the two fixture encodings', () => {
  it('give identical rows', async () => {
    for (const thinking of [false, true]) {
      const a = await parseHome('seed-copilot', thinking);
      const b = await parseHome('seed-copilot-stringified', thinking);
      expect(b.rows).toEqual(a.rows);
    }
  });

  it('the stringified fixture is the native one run through the stringify rules (regenerate with fixtures/scripts/stringify-events.mjs)', () => {
    const native = readFileSync(join(HOMES, 'seed-copilot', REL), 'utf8');
    const str = readFileSync(join(HOMES, 'seed-copilot-stringified', REL), 'utf8');
    expect(str).toBe(native.split('\n').map(stringifyEventLine).join('\n'));
    expect(str.endsWith('"data":{"content":"and run')).toBe(true);
    expect(str).toContain('"version":"1"');
    expect(str).toContain('"toolRequests":"[]"');
    expect(str).toContain('"success":"false"');
  });

  it('the native fixture is the seed text: 35 lines, the last cut, no final newline', () => {
    const native = readFileSync(join(HOMES, 'seed-copilot', REL), 'utf8');
    const seed = readFileSync(join(ROOT, '..', 'shared', 'seeds', '000_27e5fd7b14f6f237.txt'), 'utf8');
    const lines = native.split('\n');
    expect(lines).toHaveLength(35);
    expect(lines[34]).toBe(CUT_LINE);
    for (const l of lines) expect(seed).toContain(`${l}\n`);
  });
});

describe('copilotEventsParser', () => {
  it('names itself and what it reads', () => {
    expect(copilotEventsParser.agent).toBe('copilot-cli');
    expect(copilotEventsParser.name).toBe('events');
    expect(copilotEventsParser.recordsSync).toBe(true);
    expect(copilotEventsParser.secondary(REL)).toBe(false);
    expect(copilotEventsParser.patterns).toHaveLength(2);
  });

  it.each([
    REL,
    `.local/state/.copilot/session-state/${S}/events.jsonl`,
    `.config/.copilot/session-state/${S}/events.jsonl`,
    `.copilot/session-state/${S}.jsonl`,
    `.local/state/.copilot/session-state/${S}.jsonl`,
  ])('wants %s', (rel) => {
    expect(copilotEventsParser.wants(rel)).toBe(true);
  });

  it.each([
    '.copilot/config.json',
    `.copilot/session-state/${S}/rewind-file-snapshots/tracking.json`,
    `.copilot/session-state/${S}/checkpoints/index.md`,
    `.copilot/session-state/${S}/workspace.yaml`,
    `.copilot/session-state/${S}/events.jsonl.bak`,
    `.copilot/session-state/not-a-session/events.jsonl`,
    `projects/x/.copilot/session-state/${S}/events.jsonl`,
    `.copilot/session-state/${S}/sub/events.jsonl`,
    '.copilot/session-store.db',
  ])('does not want %s', (rel) => {
    expect(copilotEventsParser.wants(rel)).toBe(false);
  });

  it('patterns are the regexes wants() applies', () => {
    const res = copilotEventsParser.patterns.map((p) => new RegExp(p));
    for (const rel of [REL, `.copilot/session-state/${S}.jsonl`, '.copilot/config.json']) expect(res.some((re) => re.test(rel))).toBe(copilotEventsParser.wants(rel));
  });
});
