import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { publishOutputs } from '../atomic.js';
import type { TimelineRow } from '../row.js';
import { sqliteValues } from './csv-feed.js';
import { MAX_TABLE, ReportData } from './report-data.js';
import { binaryCompare, ReportTally } from './report-tally.js';
import { OUTPUT_FILES } from './sinks.js';
import { SqliteSink } from './sqlite-writer.js';

const T = mkdtempSync(join(tmpdir(), 'aitrail-report-tally-'));
afterAll(() => rmSync(T, { recursive: true, force: true }));

let ord = 0;
function row(p: Partial<TimelineRow>): TimelineRow {
  return { timestamp_utc: '2026-05-01T10:00:00.000Z', host: 'h', user: 'u', agent: 'claude-code', session_id: 's1', project_path: '/p', git_branch: '', model: '', turn_type: 'user', tool_name: '', tool_use_id: '', text: '', source_file: 'f.jsonl', source_line: 1, ord: ord++, ...p };
}

/** timeline.sqlite of `rows` as the SQLite sink writes it, and the tally it kept. */
async function build(name: string, rows: TimelineRow[]): Promise<{ db: Database.Database; tally: ReportTally }> {
  const out = join(T, name);
  mkdirSync(out);
  const s = new SqliteSink(out);
  for (const r of rows) s.row(r);
  await s.end({ out, inventory: {} });
  await publishOutputs(out, OUTPUT_FILES);
  return { db: new Database(join(out, 'timeline.sqlite'), { readonly: true }), tally: s.tally };
}

/** Every answer of the report's queries that a tally stands in for. */
function answers(d: ReportData) {
  return { activity: d.activity(), undated: d.undated(), models: d.models(), permissions: d.permissions(), unattended: d.unattended() };
}

// Ties, orders SQLite sorts by UTF-8 bytes (a character past U+FFFF after U+E000-U+FFFF, the
// reverse of UTF-16), times that are and are not dated, the utility model's rows, every
// permission tag, and more permission rows than the report lists.
const agents = ['claude-code', 'codex-cli', 'z\u{e000}', 'z\u{1f600}', 'a'];
const stamps = ['2026-05-01T10:00:00.000Z', '2026-05-02T00:00:00Z', '', 'yesterday', '12345-01-01T00:00:00Z', '2026-\u{1f600}\u{1f600}-01T10', '2026-05-01 10:00', '0000-'];
const models = ['', 'gpt-5', 'claude-opus', 'm\u{e000}', 'm\u{1f600}'];
const tags = ['', 'utility_model', 'permission_decision', 'permission_request', 'permission_mode', 'permission_setting', 'hook'];
const texts = ['permission mode: default', 'permission mode: default -> yolo', 'approval policy: never', 'allow-all', ''];
const rows: TimelineRow[] = [];
for (let i = 0; i < 2100; i++) {
  rows.push(
    row({
      agent: agents[i % agents.length],
      timestamp_utc: stamps[(i * 7) % stamps.length],
      model: models[Math.floor(i / agents.length) % models.length],
      tag: tags[(i * 5) % tags.length] || undefined,
      session_id: `s${i % 9}`,
      text: texts[i % texts.length],
    }),
  );
}

describe('the report counts kept as the rows are inserted', () => {
  it('give every answer the SQL over the finished database gives', async () => {
    const { db, tally } = await build('mixed', rows);
    try {
      const sql = answers(new ReportData(db));
      const counted = answers(new ReportData(db, tally));
      expect(counted).toEqual(sql);
      // The case is not empty: ties, both kinds of row, and more permission rows than are listed.
      expect(sql.activity.length).toBeGreaterThan(5);
      expect(sql.undated).toBeGreaterThan(0);
      expect(sql.models.length).toBeGreaterThan(5);
      expect(sql.permissions.total).toBeGreaterThan(MAX_TABLE);
      expect(sql.permissions.list).toHaveLength(MAX_TABLE);
      expect(sql.unattended.length).toBeGreaterThan(0);
    } finally {
      db.close();
    }
  });

  it('hand back to SQL a part that grew past its bound, with the same answers', async () => {
    const { db } = await build('bounded', rows);
    try {
      const small = new ReportTally(2);
      for (const [i, r] of rows.entries()) small.add(i + 1, sqliteValues(r));
      expect([small.activity(), small.models(), small.modeIds]).toEqual([null, null, null]);
      expect(answers(new ReportData(db, small))).toEqual(answers(new ReportData(db)));
    } finally {
      db.close();
    }
  });

  it('give an empty timeline empty answers', async () => {
    const { db, tally } = await build('empty', []);
    try {
      expect(answers(new ReportData(db, tally))).toEqual(answers(new ReportData(db)));
      expect(answers(new ReportData(db, tally))).toEqual({ activity: [], undated: 0, models: [], permissions: { list: [], total: 0 }, unattended: [] });
    } finally {
      db.close();
    }
  });
});

describe('binaryCompare', () => {
  it('orders as the UTF-8 bytes do', () => {
    const words = ['', 'a', 'ab', 'b', 'é', '\u{e000}', '\u{ffff}', '\u{10000}', '\u{1f600}', '\u{1f600}a', 'a\u{1f600}', 'a\u{e000}', 'Z', '\u{7ff}', '\u{800}'];
    for (const a of words) {
      for (const b of words) expect(Math.sign(binaryCompare(a, b)), `${JSON.stringify(a)} ${JSON.stringify(b)}`).toBe(Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b))));
    }
  });
});
