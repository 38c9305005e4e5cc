import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TIMELINE_COLUMNS } from '@aitrail/analyzer';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { readJsonl, REPO } from './test-helpers/hostile-harness.js';
import { sharedAnalyze, sharedCollect } from './test-helpers/shared-run.js';

// The report outputs of the seed collection's analysis (the run analyze-seed.test.ts shares):
// timeline.sqlite against timeline.jsonl row for row, its FTS index, and the Timesketch file
// against the importer's field contract (Timesketch's read_and_validate_jsonl, docs/formats.md).

type R = Record<string, string | number | null>;
let out: string;
let tl: R[];
beforeAll(async () => {
  const c = await sharedCollect([join(REPO, 'fixtures/homes/seed-copilot')]);
  expect(c.run.code, c.run.stderr).toBe(0);
  const a = await sharedAnalyze(c.zip, ['--json']);
  expect(a.run.code, a.run.stderr).toBe(0);
  out = a.out;
  tl = readJsonl<R>(join(out, 'timeline.jsonl'));
}, 300_000);

describe('timeline.sqlite', () => {
  let db: Database.Database;
  beforeAll(() => {
    db = new Database(join(out, 'timeline.sqlite'), { readonly: true, fileMustExist: true });
    return () => db.close();
  });

  it('holds exactly the rows of timeline.jsonl, in order, every column and the tag', () => {
    expect(tl.length).toBeGreaterThan(20);
    const rows = db.prepare(`SELECT ${[...TIMELINE_COLUMNS, 'tag'].join(', ')} FROM timeline ORDER BY id`).all() as R[];
    expect(rows).toEqual(tl);
  });

  it('finds the seed prompt through its FTS5 index', () => {
    const hits = db.prepare(`SELECT t.turn_type, t.text FROM timeline_fts f JOIN timeline t ON t.id = f.rowid WHERE timeline_fts MATCH ?`).all('failing test') as R[];
    expect(hits).toContainEqual({ turn_type: 'user', text: 'fix the failing test' });
    expect(hits.every((h) => /failing/i.test(String(h.text)) && /test/i.test(String(h.text)))).toBe(true);
  });

  it('holds the sessions, duplicates and collections the other outputs list', () => {
    const count = (t: string) => (db.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n;
    const lines = (f: string) => readFileSync(join(out, f), 'utf8').split('\n').filter(Boolean);
    expect(count('sessions')).toBe(lines('sessions.jsonl').length);
    expect((db.prepare('SELECT json FROM sessions').all() as { json: string }[]).map((r) => JSON.parse(r.json))).toEqual(lines('sessions.jsonl').map((l) => JSON.parse(l)));
    expect(count('duplicates')).toBe(lines('duplicates.jsonl').length);
    expect(count('duplicates')).toBeGreaterThan(0);
    // Each duplicates.jsonl line, its rows as text and its key columns, in file order.
    const dups = db.prepare('SELECT agent, session_id, source_file, source_line, kept_source_file, kept_source_line, dropped, kept, paired_with FROM duplicates ORDER BY id').all();
    const text = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));
    expect(dups).toEqual(
      lines('duplicates.jsonl').map((l) => {
        const d = JSON.parse(l);
        return { agent: d.dropped.agent, session_id: d.dropped.session_id, source_file: d.dropped.source_file, source_line: d.dropped.source_line, kept_source_file: d.kept?.source_file ?? null, kept_source_line: d.kept?.source_line ?? null, dropped: text(d.dropped), kept: text(d.kept), paired_with: text(d.paired_with) };
      }),
    );
    const inv = JSON.parse(readFileSync(join(out, 'inventory.json'), 'utf8'));
    expect(count('collections')).toBe(inv.collections.length);
    // No findings.jsonl in this output: the table is there and empty.
    expect(count('findings')).toBe(0);
  });

  it('has the indexes the documented queries use', () => {
    const names = (db.prepare(`SELECT name FROM sqlite_master WHERE type IN ('index', 'table')`).all() as { name: string }[]).map((r) => r.name);
    expect(names).toEqual(expect.arrayContaining(['timeline_time', 'timeline_session', 'timeline_agent', 'timeline_turn', 'timeline_fts']));
  });
});

describe('timeline.timesketch.jsonl', () => {
  const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?[+-]\d{2}:\d{2}$/;
  let events: Record<string, unknown>[];
  beforeAll(() => {
    events = readFileSync(join(out, 'timeline.timesketch.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  });

  it('has one event per timeline row, carrying every column unchanged', () => {
    expect(events.length).toBe(tl.length);
    events.forEach((e, i) => {
      for (const c of TIMELINE_COLUMNS) expect(e[c], `line ${i + 1} ${c}`).toEqual(tl[i][c]);
      expect(e.aitrail_tag).toBe(tl[i].tag);
      expect(e.tag).toEqual(tl[i].tag ? [tl[i].tag] : []);
    });
  });

  it('gives every line the importer\'s mandatory fields with their types', () => {
    events.forEach((e, i) => {
      const at = `line ${i + 1}`;
      expect(typeof e.message, at).toBe('string');
      expect((e.message as string).length, at).toBeGreaterThan(0);
      expect(typeof e.timestamp_desc, at).toBe('string');
      expect((e.timestamp_desc as string).length, at).toBeGreaterThan(0);
      expect(e.datetime, at).toMatch(ISO);
      // timestamp: integer microseconds, the same instant as datetime.
      expect(Number.isInteger(e.timestamp), at).toBe(true);
      expect(Math.floor((e.timestamp as number) / 1000), at).toBe(Date.parse(e.datetime as string));
      for (const k of Object.keys(e)) expect(k.startsWith('_'), `${at}: ${k} (Timesketch drops _ fields)`).toBe(false);
    });
  });

  it('dates each dated row at its own time and marks undated rows as Timesketch cannot place them', () => {
    const undated = events.filter((e) => e.timestamp_utc === '');
    expect(undated.length).toBe(tl.filter((r) => r.timestamp_utc === '').length);
    expect(undated.length).toBeGreaterThan(0);
    for (const e of undated) expect([e.datetime, e.timestamp, e.timestamp_desc, e.undated]).toEqual(['1970-01-01T00:00:00+00:00', 0, 'No time recorded', true]);
    for (const e of events.filter((x) => x.timestamp_utc !== '')) {
      expect(Date.parse(e.datetime as string)).toBe(Date.parse(e.timestamp_utc as string));
      expect(e.undated).toBe(false);
    }
    expect(events.find((e) => e.text === 'fix the failing test')).toMatchObject({ timestamp_desc: 'Prompt time', datetime: '2026-10-01T09:00:01.200+00:00', message: 'copilot-cli user: fix the failing test' });
  });
});
