import type { BigIntStats } from 'node:fs';

const strict = new TextDecoder('utf-8', { fatal: true });

/** A file name as text: valid UTF-8 as is, else every invalid byte written `\xNN` (escaped: true). */
export function decodeName(buf: Buffer): { text: string; escaped: boolean } {
  try {
    return { text: strict.decode(buf), escaped: false };
  } catch {
    // fall through to the byte-by-byte escape
  }
  let out = '';
  let i = 0;
  while (i < buf.length) {
    const b = buf[i];
    const n = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (n > 0 && i + n <= buf.length) {
      try {
        out += strict.decode(buf.subarray(i, i + n));
        i += n;
        continue;
      } catch {
        // an invalid sequence: escape its first byte and go on
      }
    }
    out += `\\x${b.toString(16).padStart(2, '0')}`;
    i += 1;
  }
  return { text: out, escaped: true };
}

/** A rel path made safe as a zip member name: `\xNN` escapes become `%NN`, backslashes `%5C`, `%` `%25`. */
export function memberRel(rel: string, escaped: boolean): string {
  let r = rel.replace(/%/g, '%25');
  if (escaped) r = r.replace(/\\x([0-9a-f]{2})/g, '%$1');
  return r.replace(/\\/g, '%5C');
}

/** One path segment for `projects/<encoded root>/`: the root with `%`, `/`, `\`, `:` and controls percent-encoded (reversible). */
export function encodeRoot(root: string): string {
  return root.replace(/[%/\\:\u0000-\u001f\u007f]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

/** The inverse of encodeRoot. */
export function decodeRoot(seg: string): string {
  return decodeURIComponent(seg);
}

/** The `kind` of a manifest row, from lstat. */
export function kindOf(st: BigIntStats): string {
  if (st.isFile()) return 'file';
  if (st.isDirectory()) return 'dir';
  if (st.isSymbolicLink()) return 'symlink';
  if (st.isFIFO()) return 'fifo';
  if (st.isSocket()) return 'socket';
  if (st.isBlockDevice()) return 'block_device';
  if (st.isCharacterDevice()) return 'char_device';
  return 'unknown';
}

/** Milliseconds from 1970 a Date holds, either way; toISOString throws past them. */
const DATE_RANGE_MS = 8_640_000_000_000_000n;

/**
 * ISO-8601 UTC from a bigint ms time; '' when the file system gives none (0). A time past the
 * range of a date (year 275760; tmpfs, btrfs and XFS store one, and `touch -d` sets it) keeps its
 * raw value in words: thrown, it ended the whole collection.
 */
export function iso(ms: bigint): string {
  if (ms === 0n) return '';
  if (ms > DATE_RANGE_MS || ms < -DATE_RANGE_MS) return `${ms} ms from 1970-01-01T00:00:00Z (past the range of a date)`;
  return new Date(Number(ms)).toISOString();
}

/** The metadata columns of a manifest row, from the lstat taken before reading. */
export function statColumns(st: BigIntStats): {
  size: number;
  mtime: string;
  atime: string;
  ctime: string;
  birthtime: string;
  mode: string;
} {
  return {
    size: Number(st.size),
    mtime: iso(st.mtimeMs),
    atime: iso(st.atimeMs),
    ctime: iso(st.ctimeMs),
    birthtime: iso(st.birthtimeMs),
    mode: (Number(st.mode) & 0o7777).toString(8).padStart(4, '0'),
  };
}
