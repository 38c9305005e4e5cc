import { describe, expect, it } from 'vitest';
import { callRecorder, MAX_RECORDED_WARNINGS, type RecordedCall } from './job.js';

// A file of ten million records of an unknown kind (or that many warnings) must not become ten
// million recorded calls held until the replay: the recorder folds them, keeping what the
// inventory shows (the first line of each kind, every count).

describe('callRecorder', () => {
  it('records an unknown kind once, with its first line and how many times it came', () => {
    const calls: RecordedCall[] = [];
    const rec = callRecorder(calls);
    rec('unknown', ['x.y', 1]);
    rec('fact', [{ session_id: 's', key: 'cwd', value: '/a' }]);
    for (let n = 2; n <= 100_000; n++) rec('unknown', ['x.y', n]);
    rec('unknown', ['__proto__', 7]);
    expect(calls).toEqual([
      ['unknown', ['x.y', 1, 100_000]],
      ['fact', [{ session_id: 's', key: 'cwd', value: '/a' }]],
      ['unknown', ['__proto__', 7, 1]],
    ]);
  });

  it('keeps the first warnings call by call and counts the rest in one call', () => {
    const calls: RecordedCall[] = [];
    const rec = callRecorder(calls);
    const total = MAX_RECORDED_WARNINGS + 5_000;
    for (let n = 1; n <= total; n++) rec('warn', [`bad line ${n}`, n]);
    expect(calls).toHaveLength(MAX_RECORDED_WARNINGS + 1);
    expect(calls[0]).toEqual(['warn', ['bad line 1', 1]]);
    expect(calls.at(-1)).toEqual(['warn', [`bad line ${MAX_RECORDED_WARNINGS + 1}`, MAX_RECORDED_WARNINGS + 1, 5_000]]);
    const counted = calls.reduce((n, [, a]) => n + (typeof a[2] === 'number' ? a[2] : 1), 0);
    expect(counted).toBe(total);
  });
});
