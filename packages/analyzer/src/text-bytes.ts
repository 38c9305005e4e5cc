/*
 * A long text written straight into a record as its JSON string and its CSV field, from one
 * UTF-8 encoding: no escaped copy of the text is built as a JS string (those copies, several per
 * row, made most of the analysis's garbage). The bytes are exactly JSON.stringify(text) and the
 * RFC 4180 field csv.ts writes; a string with a lone surrogate (which JSON.stringify escapes and
 * UTF-8 cannot hold) goes through those functions instead.
 */

let scratch = Buffer.allocUnsafeSlow(1 << 16);

const HEX = '0123456789abcdef';
/** JSON's short escapes, by control character. */
const SHORT: Record<number, number> = { 8: 0x62, 9: 0x74, 10: 0x6e, 12: 0x66, 13: 0x72 };

/** One text, encoded once, measured for both outputs. */
export interface TextBytes {
  /** The UTF-8 bytes (a view of a shared scratch buffer: valid until the next call). */
  raw: Buffer;
  /** Bytes of its JSON string, quotes included. */
  jsonLength: number;
  /** Bytes of its CSV field. */
  csvLength: number;
  jsonEscapes: number;
  csvQuoted: boolean;
}

/** Encode `s` (well-formed) and measure it; see {@link writeJson} and {@link writeCsv}. */
export function measureText(s: string): TextBytes {
  const n = Buffer.byteLength(s, 'utf8');
  if (scratch.length < n) scratch = Buffer.allocUnsafeSlow(Math.max(n, scratch.length * 2));
  scratch.write(s, 0, 'utf8');
  const raw = scratch.subarray(0, n);
  let extra = 0;
  let quotes = 0;
  let quoted = false;
  for (let i = 0; i < n; i++) {
    const c = raw[i];
    if (c >= 0x5d) continue; // past '\\': nothing to escape in either output
    if (c < 0x20) {
      extra += SHORT[c] !== undefined ? 1 : 5;
      if (c === 0x0a || c === 0x0d) quoted = true;
    } else if (c === 0x22) {
      extra++;
      quotes++;
      quoted = true;
    } else if (c === 0x5c) extra++;
    else if (c === 0x2c) quoted = true;
  }
  return { raw, jsonLength: n + 2 + extra, csvLength: quoted ? n + 2 + quotes : n, jsonEscapes: extra, csvQuoted: quoted };
}

/** Write the JSON string of a measured text at `b[p]`; returns the next position. */
export function writeJson(t: TextBytes, b: Buffer, p: number): number {
  b[p++] = 0x22;
  if (t.jsonEscapes === 0) {
    p += t.raw.copy(b, p);
  } else {
    const raw = t.raw;
    let from = 0;
    for (let i = 0; i < raw.length; i++) {
      const c = raw[i];
      if (c >= 0x20 && c !== 0x22 && c !== 0x5c) continue;
      p += raw.copy(b, p, from, i);
      from = i + 1;
      b[p++] = 0x5c;
      if (c === 0x22 || c === 0x5c) b[p++] = c;
      else if (SHORT[c] !== undefined) b[p++] = SHORT[c];
      else {
        b[p++] = 0x75;
        b[p++] = 0x30;
        b[p++] = 0x30;
        b[p++] = HEX.charCodeAt(c >> 4);
        b[p++] = HEX.charCodeAt(c & 15);
      }
    }
    p += raw.copy(b, p, from, raw.length);
  }
  b[p++] = 0x22;
  return p;
}

/** Write the CSV field of a measured text at `b[p]`; returns the next position. */
export function writeCsv(t: TextBytes, b: Buffer, p: number): number {
  const raw = t.raw;
  if (!t.csvQuoted) return p + raw.copy(b, p);
  b[p++] = 0x22;
  let from = 0;
  for (let i = raw.indexOf(0x22); i >= 0; i = raw.indexOf(0x22, i + 1)) {
    p += raw.copy(b, p, from, i + 1);
    b[p++] = 0x22;
    from = i + 1;
  }
  p += raw.copy(b, p, from, raw.length);
  b[p++] = 0x22;
  return p;
}
