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
