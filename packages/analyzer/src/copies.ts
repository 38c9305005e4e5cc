import { createHash } from 'node:crypto';
import type { TimelineRow } from './row.js';

// Rows that say something about one file, not about the session: never copies of each other.
const PER_FILE_TAGS = new Set(['bad_line', 'unreadable', 'parser_error']);

/** What the copy rule reads of a row besides its content. */
export interface CopyCandidate {
  timestamp_utc: string;
  session_id: string;
  sec?: boolean;
  tag?: string;
  host: string;
  user: string;
  agent: string;
  turn_type: string;
  source_file: string;
}

/**
 * How rows' content (text, tool, tool id, model) is compared: `size` buckets them (rows of equal
 * content have equal sizes) and `same` decides. The last pass compares the bytes of the rows'
 * timeline.jsonl lines instead of their text (outputs.ts), with the same result.
 */
export interface CopyContent<T> {
  size(r: T): number;
  same(a: T, b: T): boolean;
  /** A digest of the content (equal content, equal digest), asked for only in a bucket grown large. */
  digest(r: T): string;
}

const ROW_CONTENT: CopyContent<TimelineRow> = {
  size: (r) => r.text.length,
  same: (o, r) => o.text === r.text && o.tool_use_id === r.tool_use_id && o.tool_name === r.tool_name && o.model === r.model,
  digest: (r) => createHash('sha1').update(`${r.text}\0${r.tool_use_id}\0${r.tool_name}\0${r.model}`).digest('base64'),
};

/**
 * Rows a bucket compares one by one before it indexes them by digest: a millisecond holding
 * thousands of rows of one size (a log whose rows all carry the file's time, a hostile one)
 * compared each row with every one before it, 40,000 rows in 5 s.
 */
const BIG_BUCKET = 32;

/** The candidates of one bucket (host, user, agent, session, turn type and content size) in the current millisecond. */
interface Bucket<T> {
  /** In arrival order, while there are few. */
  list: T[];
  /** Past {@link BIG_BUCKET}: by digest, then by file, each file's first row of each content, with its arrival number. */
  byDigest?: Map<string, Map<string, { seq: number; row: T }[]>>;
  seq: number;
}

/**
 * Copies of one session kept in several files: Gemini CLI's hash-to-slug migration copies every
 * chat and leaves the original, a resumed legacy `.json` chat is continued in a `.jsonl` twin that
 * begins with the same messages, VS Code keeps a session in two workspace folders, Claude Code
 * sets a transcript aside. Every copy is a primary log, and dedup never drops a primary row, so
 * this rule does: a primary row that equals an earlier primary row of another file in everything
 * the row says (host, user, agent, session, time to the millisecond, turn type, text, tool, tool
 * id, model) is a copy; it goes to duplicates.jsonl paired with the earlier row. Dated rows of a
 * session only: a row without time or session says too little to be called the same event.
 *
 * Rows arrive in timeline order (time, then global order), so the candidates are the rows of the
 * current millisecond: memory holds those, and the first file in archive order keeps its rows.
 */
export class CopyFilter<T extends CopyCandidate = TimelineRow> {
  private ts = '';
  private readonly seen = new Map<string, Bucket<T>>();

  constructor(private readonly content: CopyContent<T> = ROW_CONTENT as unknown as CopyContent<T>) {}

  /** The earlier row `r` copies, or undefined. Call once per kept row, in timeline order. */
  copyOf(r: T): T | undefined {
    if (r.timestamp_utc === '' || r.session_id === '' || r.sec || (r.tag !== undefined && PER_FILE_TAGS.has(r.tag))) return undefined;
    if (r.timestamp_utc !== this.ts) {
      this.ts = r.timestamp_utc;
      this.seen.clear();
    }
    const k = `${r.host}\0${r.user}\0${r.agent}\0${r.session_id}\0${r.turn_type}\0${this.content.size(r)}`;
    const b = this.seen.get(k);
    if (!b) {
      this.seen.set(k, { list: [r], seq: 1 });
      return undefined;
    }
    if (!b.byDigest) {
      const same = b.list.find((o) => o.source_file !== r.source_file && this.content.same(o, r));
      if (same) return same;
      b.list.push(r);
      if (b.list.length > BIG_BUCKET) {
        b.byDigest = new Map();
        for (const [i, o] of b.list.entries()) this.index(b, o, i, this.content.digest(o));
        b.seq = b.list.length;
        b.list = [];
      }
      return undefined;
    }
    // As the list would: the earliest row of another file with the same content.
    const d = this.content.digest(r);
    let first: { seq: number; row: T } | undefined;
    for (const [file, rows] of b.byDigest.get(d) ?? []) {
      if (file === r.source_file) continue;
      const e = rows.find((x) => this.content.same(x.row, r));
      if (e && (!first || e.seq < first.seq)) first = e;
    }
    if (first) return first.row;
    this.index(b, r, b.seq++, d);
    return undefined;
  }

  private index(b: Bucket<T>, r: T, seq: number, d: string): void {
    let files = b.byDigest!.get(d);
    if (!files) {
      files = new Map();
      b.byDigest!.set(d, files);
    }
    let rows = files.get(r.source_file);
    if (!rows) {
      rows = [];
      files.set(r.source_file, rows);
    }
    // A file's later row of a content it already holds is never the one found: its first is earlier.
    if (!rows.some((x) => this.content.same(x.row, r))) rows.push({ seq, row: r });
  }
}
