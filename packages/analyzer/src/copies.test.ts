import { describe, expect, it } from 'vitest';
import type { Parser } from '@aitrail/parsers';
import { planUnits } from './artifacts.js';
import { CopyFilter } from './copies.js';
import type { TimelineRow } from './row.js';

// Copies of one session in several primary files: the later file's exact copy of a row is dropped.

let ord = 0;
function row(file: string, over: Partial<TimelineRow> = {}): TimelineRow {
  return { timestamp_utc: '2026-01-10T09:00:10.000Z', host: 'h', user: 'u', agent: 'gemini-cli', session_id: 's1', project_path: '/srv', git_branch: '', model: 'm', turn_type: 'user', tool_name: '', tool_use_id: '', text: 'run the tests', source_file: file, source_line: 1, ord: ord++, ...over };
}

describe('CopyFilter', () => {
  it('drops a row that repeats another file\'s row exactly, paired with the first', () => {
    const f = new CopyFilter();
    const a = row('slug.json');
    expect(f.copyOf(a)).toBeUndefined();
    expect(f.copyOf(row('hash.json'))).toBe(a);
    expect(f.copyOf(row('twin.jsonl'))).toBe(a);
  });

  it('keeps a repeat inside one file, and rows that differ in anything the row says', () => {
    const f = new CopyFilter();
    f.copyOf(row('a'));
    expect(f.copyOf(row('a'))).toBeUndefined();
    for (const over of [{ session_id: 's2' }, { text: 'run the test' }, { turn_type: 'assistant' as const }, { model: 'other' }, { tool_use_id: 'c1' }, { agent: 'qwen-code' }, { user: 'v' }, { timestamp_utc: '2026-01-10T09:00:10.001Z' }]) {
      expect(f.copyOf(row('b', over)), JSON.stringify(over)).toBeUndefined();
    }
  });

  it('never calls undated rows, rows of no session, secondary rows or per-file rows copies', () => {
    const f = new CopyFilter();
    for (const over of [{ timestamp_utc: '' }, { session_id: '' }, { sec: true }, { tag: 'bad_line' }, { tag: 'unreadable' }]) {
      f.copyOf(row('a', over));
      expect(f.copyOf(row('b', over)), JSON.stringify(over)).toBeUndefined();
    }
  });

  it('forgets the candidates when the time moves on (memory holds one millisecond)', () => {
    const f = new CopyFilter();
    f.copyOf(row('a'));
    f.copyOf(row('a', { timestamp_utc: '2026-01-10T09:00:11.000Z' }));
    expect(f.copyOf(row('b'))).toBeUndefined();
  });

  it('a millisecond of many rows of one size finds what comparing each row with all before it finds (randomized)', () => {
    // The rule stated row by row: the earliest earlier candidate of another file with the same content.
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let trial = 0; trial < 20; trial++) {
      const f = new CopyFilter();
      const candidates: TimelineRow[] = [];
      for (let i = 0; i < 300; i++) {
        const r = row(`f${rand(4)}`, { text: `t${rand(6)}`, model: `m${rand(2)}`, tool_use_id: rand(3) === 0 ? 'c1' : '' });
        const expected = candidates.find((o) => o.source_file !== r.source_file && o.text === r.text && o.model === r.model && o.tool_use_id === r.tool_use_id && o.tool_name === r.tool_name);
        expect(f.copyOf(r), `trial ${trial} row ${i}`).toBe(expected);
        if (!expected) candidates.push(r);
      }
    }
  });

  it('40,000 distinct rows of one size in one millisecond, then a copy of one: found, in one pass', () => {
    const f = new CopyFilter();
    const rows = Array.from({ length: 40_000 }, (_, i) => row(i % 2 ? 'a.jsonl' : 'b.jsonl', { text: `message ${String(i).padStart(8, '0')}` }));
    for (const r of rows) expect(f.copyOf(r)).toBeUndefined();
    // The same text again from a third file: the earliest row holding it.
    expect(f.copyOf(row('c.jsonl', { text: 'message 00031337' }))).toBe(rows[31_337]);
    // One file repeating one text 40,000 times keeps a single candidate of it.
    const g = new CopyFilter();
    for (let i = 0; i < 40_000; i++) expect(g.copyOf(row('same.jsonl'))).toBeUndefined();
    expect(g.copyOf(row('other.jsonl'))).toBeDefined();
  });
});

describe('planUnits and Parser.copyRank', () => {
  const parser = (rank: (rel: string) => number): Parser => ({ agent: 'a', name: 'p', patterns: [], wants: () => true, secondary: () => false, secondaryToleranceSeconds: () => 0, recordsSync: false, copyRank: rank, async *parse() {} });
  const rows = ['homes/u/0-hash/x', 'homes/u/a-slug/x', 'homes/u/b-other/x'].map((archive_path) => ({ archive_path, rel: archive_path.slice(8), agent: 'a', status: 'collected' })) as never[];
  const input = { index: 0, host: 'h', src: {} as never };

  it('orders the files of a higher copy rank after the others, keeping archive order within a rank', () => {
    const units = planUnits([{ input, rows }], [parser((rel) => (rel.startsWith('0-hash') ? 2 : 0))]);
    expect(units.map((u) => [u.row.archive_path, u.index, u.rank])).toEqual([
      ['homes/u/a-slug/x', 0, 0],
      ['homes/u/b-other/x', 1, 0],
      ['homes/u/0-hash/x', 2, 2],
    ]);
  });

  it('a parser without copyRank (or one that throws) leaves archive order as it was', () => {
    const none = { ...parser(() => 0), copyRank: undefined };
    expect(planUnits([{ input, rows }], [none]).map((u) => u.row.archive_path)).toEqual(['homes/u/0-hash/x', 'homes/u/a-slug/x', 'homes/u/b-other/x']);
    const throwing = parser(() => {
      throw new Error('bug');
    });
    expect(planUnits([{ input, rows }], [throwing]).map((u) => u.rank)).toEqual([0, 0, 0]);
  });
});
