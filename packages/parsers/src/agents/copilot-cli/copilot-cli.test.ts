import { cpSync, readdirSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactFromFile } from '../../sdk/fs-artifact.js';
import type { Row, SessionFact } from '../../sdk/types.js';
import { copilotCliPlugin } from './index.js';
import { makeHome, removeHome, runParser } from './test-helpers/harness.js';

// The golden test: every copilot-cli parser over every file of the seed fixture home it wants,
// each row checked field by field against the seed's Fixtures section and Expected rows.
const FIXTURE = join(import.meta.dirname, '../../../../../fixtures/homes/seed-copilot');
const SID = '5e55a0a1-0000-4000-8000-000000000001';
const DIR = `.copilot/session-state/${SID}`;
const EVENTS = `${DIR}/events.jsonl`;

const EMPTY = { timestamp_utc: '', session_id: '', project_path: '', git_branch: '', model: '', tool_name: '', tool_use_id: '', source_line: null };
const sys = (text: string, f: Partial<Row>): Row => ({ ...EMPTY, turn_type: 'system', text, ...f });

let home: string;
const rowsByFile = new Map<string, Row[]>();
const parsersByFile = new Map<string, string[]>();
const facts: SessionFact[] = [];
const warnings: string[] = [];
let files: string[] = [];
const mtime = (rel: string) => statSync(join(home, rel)).mtime.toISOString();

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
}

beforeAll(async () => {
  // A private copy: opening the store (even read-only) may touch its -shm.
  home = makeHome();
  cpSync(FIXTURE, home, { recursive: true, preserveTimestamps: true });
  files = walk(home)
    .map((p) => relative(home, p).split(sep).join('/'))
    .filter((rel) => rel !== 'README.md')
    .sort();
  for (const rel of files) {
    const wanted = copilotCliPlugin.parsers.filter((p) => p.wants(rel));
    parsersByFile.set(rel, wanted.map((p) => p.name));
    const rows: Row[] = [];
    for (const p of wanted) {
      const r = await runParser(p, artifactFromFile(home, rel));
      rows.push(...r.rows);
      facts.push(...r.facts);
      warnings.push(...r.warnings.map((w) => `${rel}: ${w.message}`));
    }
    rowsByFile.set(rel, rows);
  }
});

afterAll(() => removeHome(home));

describe('copilot-cli golden test over fixtures/homes/seed-copilot', () => {
  it('wants each seed file with one parser, and no noise file, sidecar or secret', () => {
    const expected: Record<string, string[]> = {
      '.copilot/command-history-state.json': ['command-history'],
      '.copilot/config.json': [],
      '.copilot/logs/process-1790845199000-4242.log': ['process-log'],
      '.copilot/permissions-config.json': ['permissions-config'],
      [`${DIR}/checkpoints/index.md`]: [],
      [`${DIR}/rewind-file-snapshots/index.json`]: ['rewind-snapshots'],
      [`${DIR}/rewind-file-snapshots/tracking.json`]: [],
      [`${DIR}/workspace.yaml`]: ['workspace'],
      '.copilot/session-store.db': ['session-store'],
      '.copilot/session-store.db-shm': [],
      '.copilot/session-store.db-wal': [],
      '.copilot/settings.json': ['settings'],
      '.copilot/sidebar-sessions-state/6b9af143446a411aefa3edb76e4693799bd7513e7ed8d919962d6713d3d3b972.json': ['sidebar-sessions'],
    };
    const mine = Object.fromEntries([...parsersByFile].filter(([rel]) => rel !== EVENTS));
    expect(mine).toEqual(expected);
    expect(parsersByFile.get(EVENTS)).toEqual(['events']);
    expect(warnings).toEqual([]);
  });

  it('session-store.db: session name, turns rows 0 and 1, file changed (through the WAL)', () => {
    const f = { session_id: SID, project_path: '/srv/proj' };
    expect(rowsByFile.get('.copilot/session-store.db')).toEqual([
      sys('session name: Fix failing test', { ...f, timestamp_utc: '2026-10-01T09:00:00.000Z', source_line: 1, tag: 'session_name' }),
      { ...EMPTY, ...f, turn_type: 'user', text: 'fix the failing test', timestamp_utc: '2026-10-01T09:00:15.200Z', source_line: 1 },
      { ...EMPTY, ...f, turn_type: 'assistant', text: 'The fixture year was stale; it now reads 2026.', timestamp_utc: '2026-10-01T09:00:15.200Z', source_line: 1 },
      { ...EMPTY, ...f, turn_type: 'user', text: 'and run lint', timestamp_utc: '2026-10-01T09:01:05.000Z', source_line: 2 },
      sys('file changed: /srv/proj/date.test.js tool=apply_patch', { ...f, timestamp_utc: '2026-10-01T09:00:12.500Z', source_line: 1, tag: 'file_changed' }),
    ]);
  });

  it('workspace.yaml: session name and session metadata at created_at; no sync row (mc_ keys null); no scratch row (events.jsonl present)', () => {
    // project_path empty: the analyzer fills it from the facts below (the log's cwd first).
    const f = { session_id: SID, timestamp_utc: '2026-10-01T09:00:00.000Z' };
    expect(rowsByFile.get(`${DIR}/workspace.yaml`)).toEqual([
      sys('session name: Fix failing test', { ...f, source_line: 4, tag: 'session_name' }),
      sys('session metadata: user_named=false forks=0 compactions=0 client=copilot-cli', { ...f, source_line: 5, tag: 'session_metadata' }),
    ]);
  });

  it('command-history-state.json: three undated user rows, newest first, source_line 1..3', () => {
    expect(rowsByFile.get('.copilot/command-history-state.json')).toEqual([
      { ...EMPTY, turn_type: 'user', text: 'and run lint', source_line: 1 },
      { ...EMPTY, turn_type: 'user', text: '/model', source_line: 2 },
      { ...EMPTY, turn_type: 'user', text: 'fix the failing test', source_line: 3 },
    ]);
  });

  it('rewind-file-snapshots/index.json: the prompt and the rewind snapshot row', () => {
    const f = { session_id: SID, timestamp_utc: '2026-10-01T09:00:01.150Z', source_line: 1 };
    expect(rowsByFile.get(`${DIR}/rewind-file-snapshots/index.json`)).toEqual([
      { ...EMPTY, ...f, turn_type: 'user', text: 'fix the failing test' },
      sys('rewind snapshot: 1 files +1 -1: /srv/proj/date.test.js', { ...f, tag: 'rewind_snapshot' }),
    ]);
  });

  it('permissions-config.json: one permission setting row per tool approval, at the file mtime', () => {
    const rel = '.copilot/permissions-config.json';
    const f = { project_path: '/srv/proj', timestamp_utc: mtime(rel), tag: 'permission_setting' };
    expect(rowsByFile.get(rel)).toEqual([
      sys('permission setting: locations./srv/proj.tool_approvals={"kind":"write"}', { ...f, source_line: 1 }),
      sys('permission setting: locations./srv/proj.tool_approvals={"commandIdentifiers":["npm test"],"kind":"commands"}', { ...f, source_line: 2 }),
    ]);
  });

  it('settings.json (with its comment): the allowedUrls row at the file mtime', () => {
    const rel = '.copilot/settings.json';
    expect(rowsByFile.get(rel)).toEqual([sys('permission setting: allowedUrls=https://registry.example.org', { timestamp_utc: mtime(rel), source_line: 1, tag: 'permission_setting' })]);
  });

  it('process log: the signed in row, with the session id the log names', () => {
    expect(rowsByFile.get('.copilot/logs/process-1790845199000-4242.log')).toEqual([
      sys('signed in: https://github.com as octo-user', { session_id: SID, timestamp_utc: '2026-10-01T08:59:59.400Z', source_line: 2, tag: 'signed_in' }),
    ]);
  });

  it('sidebar file, noise files and sidecars: no rows', () => {
    for (const [rel, rows] of rowsByFile) {
      if (rel.includes('sidebar-sessions-state/') || rel === '.copilot/config.json' || rel.endsWith('.md') || rel.endsWith('tracking.json') || /-(wal|shm)$/.test(rel)) {
        expect(rows, rel).toEqual([]);
      }
    }
  });

  it('reports the session facts with the documented priorities (events 1, workspace.yaml 1-2, store 2-3, sidebar 4)', () => {
    const of = (key: string) =>
      facts
        .filter((f) => f.key === key && f.session_id === SID)
        .map((f) => `${f.priority} ${f.value}`)
        .sort();
    expect([...new Set(of('cwd'))]).toEqual(['1 /srv/proj', '2 /srv/proj', '3 /srv/proj', '4 /srv/proj']);
    expect(of('name')).toEqual(['1 Fix failing test', '2 Fix failing test']);
    expect(of('client')).toEqual(['2 copilot-cli']);
    expect(of('synced')).toEqual([]);
    // The seed's store and workspace.yaml have no branch: only the log's (main) is reported.
    expect([...new Set(of('branch'))]).toEqual(['1 main']);
    expect(facts.filter((f) => f.session_id !== SID)).toEqual([]);
  });

  it('events.jsonl holds the primary copies the seed pairs the secondary rows with (same key, within 3600 s)', () => {
    const events = rowsByFile.get(EVENTS)!;
    const line = (n: number, type: Row['turn_type']) => events.find((r) => r.source_line === n && r.turn_type === type);
    expect(line(4, 'user')).toMatchObject({ text: 'fix the failing test', session_id: SID, timestamp_utc: '2026-10-01T09:00:01.200Z' });
    expect(line(28, 'assistant')).toMatchObject({ text: 'The fixture year was stale; it now reads 2026.', session_id: SID, timestamp_utc: '2026-10-01T09:00:15.000Z' });
    expect(line(35, 'system')).toMatchObject({ tag: 'bad_line', session_id: SID });
    const secs = (a: string, b: string) => Math.abs(Date.parse(a) - Date.parse(b)) / 1000;
    const snapshotPrompt = rowsByFile.get(`${DIR}/rewind-file-snapshots/index.json`)![0];
    expect(secs(snapshotPrompt.timestamp_utc, line(4, 'user')!.timestamp_utc)).toBeLessThanOrEqual(3600);
    const reply = rowsByFile.get('.copilot/session-store.db')![2];
    expect(reply.text).toBe(line(28, 'assistant')!.text);
    expect(secs(reply.timestamp_utc, line(28, 'assistant')!.timestamp_utc)).toBeLessThanOrEqual(3600);
    // What no primary holds, and dedup therefore keeps: and run lint, /model, file changed, rewind snapshot.
    const texts = new Set(events.map((r) => r.text));
    for (const t of ['and run lint', '/model', 'file changed: /srv/proj/date.test.js tool=apply_patch', 'rewind snapshot: 1 files +1 -1: /srv/proj/date.test.js']) {
      expect(texts.has(t), t).toBe(false);
    }
  });

  it('marks exactly the store, history and snapshot rows secondary', () => {
    const secondary = files.filter((rel) => copilotCliPlugin.parsers.some((p) => p.wants(rel) && p.secondary(rel)));
    expect(secondary).toEqual(['.copilot/command-history-state.json', `${DIR}/rewind-file-snapshots/index.json`, '.copilot/session-store.db']);
  });
});
