import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeTimestamp, toUtc } from './timestamp.js';

const ok = (input: unknown) => {
  const r = normalizeTimestamp(input);
  if (!r.ok) throw new Error(`expected ${JSON.stringify(input)} to normalize, got: ${r.reason}`);
  return r.value;
};
const refused = (input: unknown) => {
  const r = normalizeTimestamp(input);
  if (r.ok) throw new Error(`expected ${JSON.stringify(input)} to be refused, got ${r.value}`);
  return r.reason;
};

describe('normalizeTimestamp accepts', () => {
  it.each([
    ['2026-10-01T09:00:00.000Z', '2026-10-01T09:00:00.000Z'],
    ['2026-10-01T09:00:00Z', '2026-10-01T09:00:00.000Z'],
    ['2026-10-01t09:00:00.5z', '2026-10-01T09:00:00.500Z'],
    ['2026-04-30T09:47:10.882+08:00', '2026-04-30T01:47:10.882Z'],
    ['2026-10-01T09:00:00+02:00', '2026-10-01T07:00:00.000Z'],
    ['2026-10-01T09:00:00-0530', '2026-10-01T14:30:00.000Z'],
    ['2026-10-01T09:00:00+02', '2026-10-01T07:00:00.000Z'],
    ['2026-10-01T00:30:00+01:00', '2026-09-30T23:30:00.000Z'],
    ['2026-10-01T09:00:00.123456789Z', '2026-10-01T09:00:00.123Z'],
    ['2026-10-01T09:00:00.999999Z', '2026-10-01T09:00:00.999Z'],
    ['2026-10-01T09:00:00,25Z', '2026-10-01T09:00:00.250Z'],
    ['2026-10-01 09:00:00', '2026-10-01T09:00:00.000Z'],
    ['2026-10-01 09:00:00.123', '2026-10-01T09:00:00.123Z'],
    ['2026-10-01', '2026-10-01T00:00:00.000Z'],
    ['  2026-10-01T09:00:00Z  ', '2026-10-01T09:00:00.000Z'],
    ['2024-02-29T12:00:00Z', '2024-02-29T12:00:00.000Z'],
    ['2026-10-01T24:00:00Z', '2026-10-02T00:00:00.000Z'],
  ])('%s', (input, want) => {
    expect(ok(input)).toBe(want);
  });

  it.each([
    [1790845199, '2026-10-01T08:59:59.000Z'],
    [1790845199.5, '2026-10-01T08:59:59.500Z'],
    ['1790845199', '2026-10-01T08:59:59.000Z'],
    [1790845201400, '2026-10-01T09:00:01.400Z'],
    ['1790845201400', '2026-10-01T09:00:01.400Z'],
    [1790845201400123, '2026-10-01T09:00:01.400Z'],
    ['1790845201400123', '2026-10-01T09:00:01.400Z'],
    [0, '1970-01-01T00:00:00.000Z'],
  ])('epoch %s', (input, want) => {
    expect(ok(input)).toBe(want);
  });

  it('reads every instant between 1970 and 9999 back from its own ISO form and its epochs', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 253402300799999 }), (ms) => {
        const iso = new Date(ms).toISOString();
        expect(ok(iso)).toBe(iso);
        // Epoch units are told apart by magnitude: milliseconds from 1e11 up to 1e14.
        if (ms >= 1e11 && ms < 1e14) expect(ok(ms)).toBe(iso);
        if (ms >= 1e11) expect(ok((BigInt(ms) * 1000n).toString())).toBe(iso);
        if (ms % 1000 === 0 && ms < 1e14) expect(ok(ms / 1000)).toBe(iso);
      }),
    );
  });
});

describe('normalizeTimestamp refuses, with a reason', () => {
  it.each([
    ['garbage', 'yesterday'],
    ['empty', ''],
    ['null', null],
    ['undefined', undefined],
    ['boolean', true],
    ['object', { t: 1 }],
    ['February 30th', '2026-02-30T00:00:00Z'],
    ['February 29th of a common year', '2026-02-29'],
    ['month 13', '2026-13-01'],
    ['day 0', '2026-10-00'],
    ['hour 25', '2026-10-01T25:00:00Z'],
    ['24:30', '2026-10-01T24:30:00Z'],
    ['minute 60', '2026-10-01T09:60:00Z'],
    ['offset minutes 75', '2026-10-01T09:00:00+02:75'],
    ['offset hours 25', '2026-10-01T09:00:00+25:00'],
    ['trailing text', '2026-10-01T09:00:00Z and more'],
    ['a year before 1970', '1969-12-31T23:59:59Z'],
    ['year 0050 (never read as 1950)', '0050-01-01T00:00:00Z'],
    ['negative epoch', -5],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['nanoseconds', 1.790845201400123e18],
    ['nanoseconds as digits', '1790845201400123456'],
    ['a 20-digit string', '99999999999999999999'],
    ['a digit string with a sign and spaces inside', '+ 17'],
  ])('%s', (_name, input) => {
    expect(refused(input)).toMatch(/\S/);
  });

  it('says what it found', () => {
    expect(refused('yesterday')).toBe('not a timestamp: "yesterday"');
    expect(refused('2026-02-30')).toMatch(/not a valid date.*2026-02-30/);
    expect(refused(1e20)).toMatch(/out of range/);
  });
});

describe('toUtc', () => {
  it('returns the normalized value or the empty string', () => {
    expect(toUtc('2026-10-01T09:00:00+02:00')).toBe('2026-10-01T07:00:00.000Z');
    expect(toUtc('garbage')).toBe('');
  });
});

describe('normalizeTimestamp, canonical input', () => {
  it('gives back what the full parse gives, for canonical-looking strings valid or not (property)', () => {
    const pad = (n: number, w: number) => String(n).padStart(w, '0');
    const arb = fc
      .tuple(fc.integer({ min: 1960, max: 9999 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }), fc.integer({ min: 0, max: 24 }), fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 61 }), fc.integer({ min: 0, max: 999 }))
      .map(([y, mo, d, h, mi, s, ms]) => `${pad(y, 4)}-${pad(mo, 2)}-${pad(d, 2)}T${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}.${pad(ms, 3)}Z`);
    fc.assert(
      fc.property(arb, (s) => {
        // The slow path is the same input with a space the fast path does not take.
        expect(normalizeTimestamp(s)).toEqual(normalizeTimestamp(` ${s}`));
      }),
      { numRuns: 5000 },
    );
  });
});
