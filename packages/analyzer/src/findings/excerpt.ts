import { redactCredentials } from '../credential-scan.js';
import type { TimelineRow } from '../row.js';
import type { FindingRow } from './types.js';

const BEFORE = 80;
const AFTER = 200;
// Texts up to this size are redacted whole; longer ones around the match only.
const WHOLE = 1 << 18;
const MARGIN = 8192;
const KEY_BLOCK = /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|$)/g;

/**
 * A short piece of a text around the first needle found (else its start), with every credential
 * the inventory's scanner knows replaced by `[REDACTED]`. A piece cut out of a longer text loses
 * its partial first and last words, so a token cut in two (which the scanner might not know any
 * more) is never shown in part.
 */
export function excerpt(text: string, needles: readonly string[] = []): string {
  // Redact before cutting: a multi-line key cut in half would no longer look like one.
  let src = text;
  if (src.length > WHOLE) {
    const at = firstNeedle(src.slice(0, WHOLE), needles);
    src = src.slice(Math.max(0, at - MARGIN), Math.max(at, 0) + MARGIN);
  }
  // The scanner knows a private key by its header line only: the body goes too, up to its END
  // line or the end of the piece.
  const red = redactCredentials(src.includes('PRIVATE KEY') ? src.replace(KEY_BLOCK, '[REDACTED]') : src).text;
  const at = firstNeedle(red, needles);
  const start = Math.max(0, at - BEFORE);
  const end = Math.min(red.length, Math.max(at, 0) + AFTER);
  let piece = red.slice(start, end);
  if (start > 0) piece = piece.replace(/^\S*\s?/, '');
  if (end < red.length) piece = piece.replace(/\s?\S*$/, '');
  piece = piece.replace(/\s+/g, ' ').trim();
  return `${start > 0 || src !== text ? '…' : ''}${piece}${end < red.length || src !== text ? '…' : ''}`;
}

function firstNeedle(text: string, needles: readonly string[]): number {
  if (needles.length === 0) return -1;
  const low = text.toLowerCase();
  let at = -1;
  for (const n of needles) {
    const i = low.indexOf(n);
    if (i >= 0 && (at < 0 || i < at)) at = i;
  }
  return at;
}

/** The row as a finding lists it. */
export function findingRow(r: TimelineRow, needles?: readonly string[]): FindingRow {
  return { source_file: r.source_file, source_line: r.source_line, timestamp_utc: r.timestamp_utc, turn_type: r.turn_type, tool_name: r.tool_name, tag: r.tag ?? '', excerpt: excerpt(r.text, needles) };
}
