import { decodeName } from '../names.js';

/**
 * A path as a foreign collector recorded it (`C:\Users\x`, `\\?\C:\Users\x`, `\\.\C:\Users\x`,
 * `/home/x`, `C:/Users/x`), as a target path: `/`-separated, a Windows drive upper-cased
 * (`C:/Users/x`). Volume shadow copies and device paths without a drive give undefined.
 */
export function targetPath(recorded: string): string | undefined {
  let p = recorded.trim().replace(/\\/g, '/');
  p = p.replace(/^\/\/[?.]\//, '');
  const drive = /^([A-Za-z]):(?:\/|$)(.*)$/.exec(p);
  if (drive) return `${drive[1].toUpperCase()}:/${squash(drive[2])}`.replace(/\/$/, '');
  if (p.startsWith('/') && !p.startsWith('//')) return `/${squash(p)}`.replace(/(.)\/$/, '$1');
  return undefined;
}

function squash(p: string): string {
  return p
    .split('/')
    .filter((s) => s !== '' && s !== '.')
    .join('/');
}

/** The key a target path is looked up by: case folded where the target's file system ignores case. */
export function pathKey(target: string, nocase: boolean): string {
  return nocase ? target.toLowerCase() : target;
}

/**
 * Percent-decoding as Velociraptor's writers escape names (`%2E` for a leading dot, `%3A`, `%5C`,
 * `%25`, UTF-8 bytes as `%XX` in older versions): every `%XX` (either case) becomes its byte; a
 * `%` not followed by two hex digits is kept. Bytes that are not valid UTF-8 become `\xNN` text.
 */
export function percentDecode(seg: string): string {
  if (!seg.includes('%')) return seg;
  const out: number[] = [];
  const raw = Buffer.from(seg, 'utf8');
  for (let i = 0; i < raw.length; i++) {
    if (raw[i] === 0x25 && i + 2 < raw.length && isHex(raw[i + 1]) && isHex(raw[i + 2])) {
      out.push(Number.parseInt(String.fromCharCode(raw[i + 1], raw[i + 2]), 16));
      i += 2;
    } else out.push(raw[i]);
  }
  return decodeName(Buffer.from(out)).text;
}

function isHex(c: number | undefined): boolean {
  return c !== undefined && ((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66));
}

/** Why a decoded name cannot be one file name on the analyst's machine, or undefined. */
export function badSegment(seg: string): string | undefined {
  if (seg === '' || seg === '.' || seg === '..') return `"${seg}" is not a file name`;
  if (seg.includes('/') || seg.includes('\0')) return 'holds "/" or NUL after decoding';
  if (process.platform === 'win32' && /[<>:"|?*\\\u0000-\u001f]/.test(seg)) return 'holds a character Windows does not allow in a file name';
  return undefined;
}

/** ISO-8601 UTC of epoch milliseconds, or undefined past the range a Date holds (±8.64e15 ms), where toISOString throws. */
export function isoFromMs(ms: number): string | undefined {
  return Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? new Date(ms).toISOString() : undefined;
}

/** ISO-8601 UTC from what a collector wrote (RFC 3339 with nanoseconds, `2024-01-02 03:04:05.1234567`, epoch seconds), or undefined. */
export function isoTime(v: unknown): string | undefined {
  if (typeof v === 'number') return v > 0 ? isoFromMs(v > 1e11 ? v : v * 1000) : undefined;
  if (typeof v !== 'string') return undefined;
  let s = v.trim();
  if (s === '' || /^0+(\.0*)?$/.test(s)) return undefined;
  if (/^\d+(\.\d+)?$/.test(s)) return isoTime(Number(s));
  // .NET's invariant culture: 04/05/2019 17:40:40 (or 5:40:40 PM), month first, UTC here.
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})[ T](\d{1,2}):(\d\d)(?::(\d\d)(\.\d+)?)?(?:\s*([AP]M))?$/i.exec(s);
  if (us) {
    let hour = Number(us[4]) % (us[8] ? 12 : 24);
    if (us[8]?.toUpperCase() === 'PM') hour += 12;
    const pad = (n: number | string) => String(n).padStart(2, '0');
    s = `${us[3]}-${pad(us[1])}-${pad(us[2])}T${pad(hour)}:${us[5]}:${us[6] ?? '00'}${us[7] ?? ''}`;
  }
  // A space for the T, fractions past milliseconds, no zone (KAPE writes UTC without one).
  s = s.replace(/^(\d{4}-\d\d-\d\d) (\d)/, '$1T$2').replace(/(\.\d{3})\d+/, '$1');
  if (/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?$/.test(s)) s += 'Z';
  const t = Date.parse(s);
  // Go's zero time (0001-01-01) and the like mean "none".
  return t > 0 ? isoFromMs(t) : undefined;
}
