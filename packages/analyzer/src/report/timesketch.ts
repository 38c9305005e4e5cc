import { join } from 'node:path';
import { AtomicFile } from '../atomic.js';
import { TIMELINE_COLUMNS } from '../csv.js';
import type { TimelineRow } from '../row.js';
import { ByteWriter } from '../byte-writer.js';
import type { RowSink } from './sink.js';

/** Characters of the row's text kept in `message` (the whole text stays in the `text` attribute). */
const MESSAGE_CHARS = 500;

/** timestamp_desc of an undated row; its datetime is the epoch, as plaso does for "Not a time". */
export const UNDATED_DESC = 'No time recorded';

/** What each turn type's time means (timestamp_desc). */
const DESC: Record<string, string> = {
  user: 'Prompt time',
  assistant: 'Reply time',
  tool_use: 'Tool call time',
  tool_result: 'Tool result time',
  thinking: 'Reasoning time',
};

/** timestamp_desc of a dated row: its turn type's, or 'Record time' (never an Object.prototype key's value). */
const descOf = (turnType: string): string => (Object.hasOwn(DESC, turnType) ? DESC[turnType] : 'Record time');

/**
 * `{ datetime, timestamp }` of an aitrail UTC time (`...Z`, any fraction): ISO 8601 with an
 * explicit `+00:00` offset and microseconds since the epoch; null when the text is not a time.
 */
export function timesketchTime(ts: string): { datetime: string; timestamp: number } | null {
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d+))?(?:Z|[+-]00:?00)$/.exec(ts);
  if (!m) return null;
  const secs = Date.parse(`${m[1]}Z`);
  if (Number.isNaN(secs)) return null;
  const micro = Number((m[2] ?? '').padEnd(6, '0').slice(0, 6));
  return { datetime: `${m[1]}${m[2] ? `.${m[2]}` : ''}+00:00`, timestamp: secs * 1000 + micro };
}

/** Timesketch's `message`: who and what, then the text, cut at {@link MESSAGE_CHARS}. */
function messageOf(r: TimelineRow): string {
  const what = [r.agent, r.turn_type, r.tool_name].filter(Boolean).join(' ');
  const text = r.text ?? '';
  return `${what}: ${text.length > MESSAGE_CHARS ? `${text.slice(0, MESSAGE_CHARS)}… [${text.length} chars]` : text}`;
}

/** The importer's mandatory fields of a row's event, and whether the row has a time. */
function eventHead(r: TimelineRow): { head: Record<string, unknown>; dated: boolean } {
  const t = r.timestamp_utc ? timesketchTime(r.timestamp_utc) : null;
  const head: Record<string, unknown> = {
    message: messageOf(r),
    datetime: t?.datetime ?? '1970-01-01T00:00:00+00:00',
    timestamp: t?.timestamp ?? 0,
    timestamp_desc: t ? descOf(r.turn_type) : UNDATED_DESC,
    data_type: 'aitrail:timeline:row',
  };
  return { head, dated: t !== null };
}

/** One Timesketch event of a timeline row (the importer's mandatory fields, then every column). */
export function timesketchEvent(r: TimelineRow): Record<string, unknown> {
  const { head: ev, dated } = eventHead(r);
  for (const c of TIMELINE_COLUMNS) ev[c] = r[c] ?? null;
  ev.undated = !dated;
  // Timesketch reads a `tag` field as its own list of tags: the aitrail tag goes there as a
  // one-item list (never split on commas) and stays whole in `aitrail_tag`.
  ev.aitrail_tag = r.tag ?? '';
  ev.tag = r.tag ? [r.tag] : [];
  return ev;
}

const TAG_KEY = ',"tag":';

/**
 * The JSON text of {@link timesketchEvent}, its columns copied from the row's timeline.jsonl
 * `line` (the columns in the same order, then the tag, the last key) rather than escaped again:
 * the texts are most of the bytes.
 */
export function timesketchLine(r: TimelineRow, line: string): string {
  const [head, body, tail] = timesketchParts(r, line);
  return head + body + tail;
}

/** {@link timesketchLine} in three pieces: the head, the columns (a slice of `line`, not a copy), the tail. */
export function timesketchParts(r: TimelineRow, line: string): [string, string, string] {
  // The head's text as JSON.stringify gives it for eventHead's object (report.test.ts checks
  // they agree), built without the object: a flood of small rows spent a tenth of the thread there.
  const ts = r.timestamp_utc;
  const t = ts ? lastTime(ts) : null;
  const when = t ? `"datetime":${JSON.stringify(t.datetime)},"timestamp":${t.timestamp},"timestamp_desc":${JSON.stringify(descOf(r.turn_type))}` : UNDATED_HEAD;
  // The tag's value is a JSON string, where a quote is always escaped: the last `,"tag":` is the key.
  const cut = line.lastIndexOf(TAG_KEY);
  const tag = r.tag ?? '';
  return [`{"message":${JSON.stringify(messageOf(r))},${when},"data_type":"aitrail:timeline:row",`, line.slice(1, cut), `,"undated":${!t},"aitrail_tag":${JSON.stringify(tag)},"tag":${tag ? `[${JSON.stringify(tag)}]` : '[]'}}`];
}

const UNDATED_HEAD = `"datetime":"1970-01-01T00:00:00+00:00","timestamp":0,"timestamp_desc":${JSON.stringify(UNDATED_DESC)}`;

/** {@link timesketchTime} of the last time asked for, kept: a log's rows come in time order, many to a time. */
let last: { ts: string; t: ReturnType<typeof timesketchTime> } = { ts: '', t: null };
function lastTime(ts: string): ReturnType<typeof timesketchTime> {
  if (last.ts !== ts) last = { ts, t: timesketchTime(ts) };
  return last.t;
}

const TAG_KEY_BYTES = Buffer.from(TAG_KEY);

/** timeline.timesketch.jsonl: one event per kept row, for Timesketch's JSONL importer. */
export class TimesketchSink implements RowSink {
  private readonly file: AtomicFile;
  private readonly out: ByteWriter;

  constructor(outDir: string) {
    this.file = new AtomicFile(join(outDir, 'timeline.timesketch.jsonl'));
    this.out = new ByteWriter((b) => this.file.writeAll(b), { reuse: true });
  }

  /**
   * Add one row's event, from its timeline.jsonl line when given; with the line's UTF-8 `bytes`
   * too (a sink thread has them), the columns are copied as bytes rather than encoded again: that
   * encoding was a tenth of the thread's time. A promise only when a full buffer is handed over.
   */
  row(r: TimelineRow, line?: string, bytes?: Buffer): Promise<void> | undefined {
    if (line === undefined) return both(this.out.putString(JSON.stringify(timesketchEvent(r))), () => this.out.putString('\n'));
    const [head, body, tail] = timesketchParts(r, line);
    const o = this.out;
    // The three pieces in turn, each written only once the one before is in (a large piece may wait for the disk).
    if (bytes) return both(o.putString(head), () => both(o.put(bytes, 1, bytes.lastIndexOf(TAG_KEY_BYTES)), () => o.putString(`${tail}\n`)));
    // A long line goes in its pieces: as one string it would be flattened whole before the write,
    // and at two bytes a character when the message's ellipsis (not Latin-1) joins a one-byte
    // text: a 64 MB prompt took 256 MB of heap, past the default cap.
    return both(o.putString(head), () => both(o.putString(body), () => o.putString(`${tail}\n`)));
  }

  /** Write what is left and rename. */
  async end(): Promise<void> {
    await this.out.flush();
    await this.file.close();
  }

  /** Drop the partial file. */
  async abort(): Promise<void> {
    await Promise.allSettled([this.out.flush()]);
    await this.file.abort();
  }
}

/** `first`, then `next()`: synchronously when `first` did not wait. */
function both(first: Promise<void> | undefined, next: () => Promise<void> | undefined): Promise<void> | undefined {
  if (!first) return next();
  return first.then(() => next());
}
