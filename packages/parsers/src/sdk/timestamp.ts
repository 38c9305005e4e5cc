/** The result of normalizing a source timestamp. */
export type TimestampResult = { ok: true; value: string } | { ok: false; reason: string };

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?\s*(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

// Epoch numbers: below 1e11 they are seconds (up to year 5138), below 1e14 milliseconds,
// above that microseconds (some stores keep them); anything past year 9999 is refused.
const MAX_MS = 253402300799999;

/**
 * Normalize a timestamp to `YYYY-MM-DDTHH:mm:ss.sssZ` (UTC, milliseconds).
 * Accepts ISO-8601 strings with any offset (no offset: UTC, as SQLite stores them),
 * epoch seconds, milliseconds or microseconds as numbers or digit strings.
 * Anything else is refused with a reason, never guessed.
 */
export function normalizeTimestamp(input: unknown): TimestampResult {
  if (typeof input === 'string' && input.length === 24 && isCanonical(input)) return { ok: true, value: input };
  if (input === null || input === undefined || input === '') return { ok: false, reason: 'no timestamp' };
  if (typeof input === 'number') return fromEpoch(input);
  if (typeof input !== 'string') return { ok: false, reason: `not a timestamp: ${typeof input}` };
  const s = input.trim();
  // Past 2^53 a Number drops digits; whole digit strings (microseconds) are read exactly.
  if (/^\d+$/.test(s)) return fromEpochDigits(s);
  if (/^-?\d+(\.\d+)?$/.test(s)) return fromEpoch(Number(s));
  const m = ISO.exec(s);
  if (!m) return { ok: false, reason: `not a timestamp: ${JSON.stringify(s.slice(0, 64))}` };
  const [, y, mo, d, h = '00', mi = '00', sec = '00', frac = '', zone = 'Z'] = m;
  const ms = Number((frac + '000').slice(0, 3));
  const invalid: TimestampResult = { ok: false, reason: `not a valid date: ${JSON.stringify(s.slice(0, 64))}` };
  let offsetMin = 0;
  if (zone !== 'Z' && zone !== 'z') {
    const sign = zone[0] === '-' ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const oh = Number(digits.slice(0, 2));
    const om = Number(digits.slice(2, 4) || '0');
    if (oh > 23 || om > 59) return invalid;
    offsetMin = sign * (oh * 60 + om);
  }
  const parts = [y, mo, d, h, mi, sec].map(Number);
  // 24:00:00 is ISO's end of day; 60 seconds is a leap second (read as the next minute).
  const endOfDay = parts[3] === 24 && parts[4] === 0 && parts[5] === 0 && ms === 0;
  if (parts[1] < 1 || parts[1] > 12 || parts[2] < 1 || parts[2] > 31 || (parts[3] > 23 && !endOfDay) || parts[4] > 59 || parts[5] > 60) return invalid;
  // Date.UTC reads years 0-99 as 1900-1999; nothing that old is a real agent's timestamp.
  if (parts[0] < 1970) return { ok: false, reason: `out of range: ${JSON.stringify(s.slice(0, 64))} is before 1970` };
  const t = Date.UTC(parts[0], parts[1] - 1, parts[2], parts[3], parts[4], parts[5], ms) - offsetMin * 60000;
  if (!Number.isFinite(t)) return invalid;
  const check = new Date(Date.UTC(parts[0], parts[1] - 1, parts[2]));
  if (check.getUTCDate() !== parts[2]) return invalid;
  return format(t);
}

const CANONICAL = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const num = (s: string, at: number, n: number) => {
  let v = 0;
  for (let i = at; i < at + n; i++) v = v * 10 + s.charCodeAt(i) - 48;
  return v;
};

/**
 * Already `YYYY-MM-DDTHH:mm:ss.sssZ`, a real instant from 1970 on (no leap second, no 24:00):
 * normalizing would give the same text back, so the common case skips the parse.
 */
function isCanonical(s: string): boolean {
  if (!CANONICAL.test(s)) return false;
  const y = num(s, 0, 4);
  const mo = num(s, 5, 2);
  const d = num(s, 8, 2);
  if (y < 1970 || mo < 1 || mo > 12 || d < 1 || d > DAYS[mo - 1] || num(s, 11, 2) > 23 || num(s, 14, 2) > 59 || num(s, 17, 2) > 59) return false;
  return mo !== 2 || d < 29 || (y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0));
}

function fromEpoch(n: number): TimestampResult {
  if (!Number.isFinite(n) || n < 0) return { ok: false, reason: `not an epoch time: ${n}` };
  const ms = n < 1e11 ? n * 1000 : n < 1e14 ? n : (n - (n % 1000)) / 1000;
  return format(Math.floor(ms));
}

function fromEpochDigits(s: string): TimestampResult {
  if (s.length > 30) return { ok: false, reason: `out of range: ${s.slice(0, 32)}… (${s.length} digits)` };
  const n = BigInt(s);
  const ms = n < 100_000_000_000n ? n * 1000n : n < 100_000_000_000_000n ? n : n / 1000n;
  if (ms > BigInt(MAX_MS)) return { ok: false, reason: `out of range: ${s}` };
  return format(Number(ms));
}

function format(ms: number): TimestampResult {
  if (ms < 0 || ms > MAX_MS) return { ok: false, reason: `out of range: ${ms} ms` };
  return { ok: true, value: new Date(ms).toISOString() };
}

/** Normalize or return '' (for callers that report the failure separately). */
export function toUtc(input: unknown): string {
  const r = normalizeTimestamp(input);
  return r.ok ? r.value : '';
}
