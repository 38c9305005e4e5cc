import type { ManifestRow } from '@aitrail/collector';
import { describe, expect, it } from 'vitest';
import type { Unit } from './artifacts.js';
import type { MemberRead } from './integrity.js';
import type { UnitOutcome, WireRecord } from './job.js';
import type { ParsePlan } from './plan.js';
import { MAX_PREFIX_LENGTHS, PrefixIndex, prefixKey } from './prefix-keys.js';
import { secondaryKeys } from './secondary-keys.js';

// The prefix index is built from the jobs' cut rows in plan order, whatever order the jobs ran
// in: the same rows give the same index and the same records on one thread or several.

const row = (path: string): ManifestRow => ({ archive_path: path, size: 10, sha256: 'x'.repeat(64) }) as unknown as ManifestRow;

function unit(index: number, path: string, secondary: boolean): Unit {
  return { index, row: row(path), secondary, input: { index: 0 } } as unknown as Unit;
}

/** A secondary unit whose rows are all cut copies of `turn` with prefixes of these lengths. */
function cutOutcome(index: number, lengths: number[]): UnitOutcome {
  const records: WireRecord[] = lengths.map((n, i) => [index * 1e9 + i, prefixKey('h', 'u', 'a', 'user', 'p'.repeat(n)), 's', null, 0]);
  return { index, rows: lengths.length, calls: [], records, keys: [], shapes: [], observed: [], cuts: lengths.map((n, i) => [i, 'user', n, `exact-${index}-${i}`, `user\0${n + 3}`]) };
}

function planOf(units: Unit[]): ParsePlan {
  return { ordered: units } as unknown as ParsePlan;
}

describe('secondaryKeys', () => {
  it('takes prefix lengths in plan order up to the cap; a cut past it is keyed by its exact text', () => {
    const full = Array.from({ length: MAX_PREFIX_LENGTHS }, (_, i) => i + 1);
    const a = cutOutcome(0, full);
    const b = cutOutcome(1, [5, MAX_PREFIX_LENGTHS + 10]);
    const outcomes = new Map([
      [1, b],
      [0, a],
    ]);
    const k = secondaryKeys(planOf([unit(0, 'a', true), unit(1, 'b', true), unit(2, 'c', false)]), outcomes, new Map());
    expect(k.prefixes.lengths).toEqual([['user', full]]);
    // Length 5 was already known: its key is taken. The new length does not fit.
    expect(b.records[0][1]).toBe(prefixKey('h', 'u', 'a', 'user', 'ppppp'));
    expect(b.records[1][1]).toBe('exact-1-1');
    expect(k.keys).toEqual(['exact-1-1']);
    expect(k.shapes).toEqual([`user\0${MAX_PREFIX_LENGTHS + 13}`]);
    // A primary text matches every known prefix it begins with, shortest first.
    expect(PrefixIndex.from(k.prefixes).match('h', 'u', 'a', 'user', 'ppppp and more')).toEqual([1, 2, 3, 4, 5].map((n) => prefixKey('h', 'u', 'a', 'user', 'p'.repeat(n))));
  });

  it('leaves out the units of a member whose read failed its check', () => {
    const a = cutOutcome(0, [7]);
    a.keys = ['k0'];
    a.shapes = ['user\x0010'];
    const bad: MemberRead = { bytes: 10, sha256: 'y'.repeat(64), findings: [], seen: 0 };
    const k = secondaryKeys(planOf([unit(0, 'a', true)]), new Map([[0, a]]), new Map([['0\0a', bad]]));
    expect(k).toEqual({ keys: [], shapes: [], prefixes: { lengths: [], keys: [] } });
  });
});

describe('PrefixIndex state', () => {
  it('round-trips through plain data, lengths in the order first seen', () => {
    const idx = new PrefixIndex();
    expect(idx.add('h', 'u', 'a', 'user', 'fix the failing...')).toBe(prefixKey('h', 'u', 'a', 'user', 'fix the failing'));
    expect(idx.add('h', 'u', 'a', 'assistant', 'done[truncated]')).toBe(prefixKey('h', 'u', 'a', 'assistant', 'done'));
    expect(idx.add('h', 'u', 'a', 'user', 'ab...')).toBe(prefixKey('h', 'u', 'a', 'user', 'ab'));
    const copy = PrefixIndex.from(JSON.parse(JSON.stringify(idx.state())));
    expect(copy.state()).toEqual(idx.state());
    expect(copy.state().lengths).toEqual([
      ['user', [15, 2]],
      ['assistant', [4]],
    ]);
    expect(copy.match('h', 'u', 'a', 'user', '  fix the failing test')).toEqual([prefixKey('h', 'u', 'a', 'user', 'fix the failing')]);
  });
});
