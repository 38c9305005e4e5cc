import { describe, expect, it } from 'vitest';
import { iso } from './names.js';

describe('iso (a manifest row time from lstat)', () => {
  it('is ISO-8601 UTC within the range of a date, and empty for none', () => {
    expect(iso(0n)).toBe('');
    expect(iso(1_790_845_199_000n)).toBe('2026-10-01T08:59:59.000Z');
    expect(iso(8_640_000_000_000_000n)).toBe('+275760-09-13T00:00:00.000Z');
    expect(iso(-1n)).toBe('1969-12-31T23:59:59.999Z');
  });

  it('keeps a time past that range as its raw value instead of throwing (which ended the whole collection)', () => {
    // `touch -d @9000000000000` on tmpfs gives this mtime: year 287168.
    expect(iso(9_000_000_000_000_000n)).toBe('9000000000000000 ms from 1970-01-01T00:00:00Z (past the range of a date)');
    expect(iso(-8_640_000_000_000_001n)).toBe('-8640000000000001 ms from 1970-01-01T00:00:00Z (past the range of a date)');
  });
});
