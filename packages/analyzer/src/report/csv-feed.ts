// The feed of the SQLite sink thread: each kept row as its tag and its timeline.csv record, ended
// by a 0xFF byte. The CSV record holds the text as UTF-8, quotes doubled at most, so the thread
// binds the text's bytes as they are instead of decoding a whole JSON line and parsing it (two
// strings the size of the text, and SQLite encoding the text back to UTF-8, twice): a third of
// that thread's time at 160 MiB, and the thread bounds the run's last pass.
import type { ByteWriter } from '../byte-writer.js';
import { csvField } from '../csv.js';

/** Ends each record of the feed: a byte no UTF-8 text holds, so records are found without parsing. */
export const CSV_FEED_END = 0xff;

/**
 * A timeline row as the SQLite sink inserts it: the 14 timeline columns then the tag. The text
 * (index 11) is its UTF-8 bytes when it came from the feed; strings are well formed (a lone
 * surrogate is U+FFFD, as in timeline.csv).
 */
export type SqliteValues = [string, string, string, string, string, string, string, string, string, string, string, string | Buffer, string, number | null, string];

/** Index of the text in {@link SqliteValues}. */
export const TEXT_AT = 11;

const END = Buffer.from([CSV_FEED_END]);

/** A piece of bytes to put: a buffer and a range of it. */
export type Piece = readonly [Buffer, number, number];

/**
 * Put one row on the feed: its tag, the pieces of its timeline.csv record (CRLF included), the
 * end byte; each piece after the one before.
 */
export function putCsvFeedRow(out: ByteWriter, tag: string, record: readonly Piece[]): Promise<void> | undefined {
  const head = Buffer.from(`${csvField(tag)},`, 'utf8');
  return putAll(out, [[head, 0, head.length], ...record, [END, 0, 1]]);
}

/** Put `pieces` in order, each once the one before is in. */
export function putAll(out: ByteWriter, pieces: readonly Piece[]): Promise<void> | undefined {
  for (let i = 0; i < pieces.length; i++) {
    const p = out.put(...pieces[i]);
    if (p) return pieces.slice(i + 1).reduce((chain, piece) => chain.then(() => out.put(...piece)), p);
  }
  return undefined;
}

/** Said of a record the writer cannot have made. */
const BUG = " (the feed is the analysis's own: this is a bug in aitrail, please report it)";
const QUOTE = 0x22;
const COMMA = 0x2c;
const CR = 0x0d;

/**
 * The row of one feed record, `b[at, end)` (end at its end byte). Throws on a record the writer
 * cannot have made: the feed is the analysis's own, never evidence.
 */
export function readCsvFeedRecord(b: Buffer, at: number, end: number): SqliteValues {
  const v = new Array<string | Buffer | number | null>(15);
  let p = at;
  // Field 0 is the tag; fields 1 to 14 the timeline columns; the tag goes last in the values.
  for (let f = 0; f < 15; f++) {
    const text = f === TEXT_AT + 1;
    let value: string | Buffer;
    if (b[p] === QUOTE) {
      const parts: Buffer[] = [];
      let s = p + 1;
      let q = b.indexOf(QUOTE, s);
      // A doubled quote is one quote of the value; the first single one closes the field.
      while (q >= 0 && q + 1 < end && b[q + 1] === QUOTE) {
        parts.push(b.subarray(s, q + 1));
        s = q + 2;
        q = b.indexOf(QUOTE, s);
      }
      if (q < 0 || q >= end) throw new Error(`SQLite feed: a quoted field without its closing quote at byte ${p - at} of a record${BUG}`);
      parts.push(b.subarray(s, q));
      const bytes = parts.length === 1 ? parts[0] : Buffer.concat(parts);
      value = text ? bytes : bytes.toString('utf8');
      p = q + 1;
    } else {
      // An unquoted value holds no comma, quote, CR or LF: the first separator ends it.
      const e = b.indexOf(f < 14 ? COMMA : CR, p);
      if (e < 0 || e >= end) throw new Error(`SQLite feed: field ${f} runs past the end of its record (expected 15 fields)${BUG}`);
      value = text ? b.subarray(p, e) : b.toString('utf8', p, e);
      p = e;
    }
    const sep = b[p];
    if (f < 14 ? sep !== COMMA : sep !== CR) throw new Error(`SQLite feed: expected ${f < 14 ? 'a comma' : 'CRLF'} after field ${f}, found byte ${sep}${BUG}`);
    p += 1;
    if (f === 0) v[14] = value;
    else if (f === 14) {
      const n = value === '' ? Number.NaN : Number(value);
      v[13] = Number.isFinite(n) ? n : null;
    } else v[f - 1] = value;
  }
  return v as SqliteValues;
}

const wellFormed = (s: string): string => ((s as unknown as { isWellFormed(): boolean }).isWellFormed() ? s : (s as unknown as { toWellFormed(): string }).toWellFormed());

/** A row's values as the feed gives them, from the row itself (an in-process sink). */
export function sqliteValues(r: { timestamp_utc: string | null; host: string; user: string; agent: string; session_id: string; project_path: string; git_branch: string; model: string; turn_type: string; tool_name: string; tool_use_id: string; text: string; source_file: string; source_line: number | null; tag?: string }): SqliteValues {
  const line = r.source_line;
  return [
    wellFormed(r.timestamp_utc ?? ''),
    wellFormed(r.host),
    wellFormed(r.user),
    wellFormed(r.agent),
    wellFormed(r.session_id),
    wellFormed(r.project_path),
    wellFormed(r.git_branch),
    wellFormed(r.model),
    wellFormed(r.turn_type),
    wellFormed(r.tool_name),
    wellFormed(r.tool_use_id),
    wellFormed(r.text ?? ''),
    wellFormed(r.source_file),
    typeof line === 'number' && Number.isFinite(line) ? line : null,
    wellFormed(r.tag ?? ''),
  ];
}
