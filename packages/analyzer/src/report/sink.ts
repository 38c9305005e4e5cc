import type { TimelineRow } from '../row.js';
import type { SqliteValues } from './csv-feed.js';

/** A duplicates.jsonl line: the dropped row, the kept row it matched and the row it was paired with. */
export interface DuplicateRecord {
  dropped: Record<string, string | number | null> | undefined;
  kept: Record<string, string | number | null> | null;
  paired_with: Record<string, string | number | null> | null;
}

/**
 * What a sink gets once the timeline, sessions, duplicates and inventory are written: sessions.jsonl
 * and duplicates.jsonl are in `out`, complete, under their staged names (atomic.ts).
 */
export interface SinkEnd {
  /** The output folder. */
  out: string;
  /** inventory.json's object (credential values already redacted there). */
  inventory: Record<string, unknown>;
}

/**
 * An extra output fed by the streaming pass: `row` once per kept timeline row, after dedup, in
 * output order; `rowsDone` (when it has one) after the last; `end` once at the end of the run, in
 * the order the sinks were given (a sink that reads another's output comes after it); `abort`
 * when the run fails (remove partial files).
 */
export interface RowSink {
  /** One kept row; `line` is its timeline.jsonl line (without the newline) when the caller has it, `bytes` that line in UTF-8 when it has those too. */
  row(r: TimelineRow, line?: string, bytes?: Buffer): void | Promise<void>;
  /** Optional: one kept row as the SQLite feed gives it (csv-feed.ts); a sink fed that way has it. */
  values?(v: SqliteValues): void;
  /** Optional: the last row has been given (work that needs every row may start before `end`). */
  rowsDone?(): void | Promise<void>;
  end(info: SinkEnd): Promise<void>;
  abort(): Promise<void>;
}

/**
 * Row sinks elsewhere (a thread: sink-threads.ts), fed the bytes of timeline.jsonl as the last pass
 * writes them; then `rowsDone`, `end` and `abort` as for a {@link RowSink}.
 */
export interface LineFeed {
  /** The bytes it takes: timeline.jsonl lines, or the SQLite feed's records (csv-feed.ts). */
  readonly kind: 'jsonl' | 'csv';
  /**
   * A chunk of the feed (a record may continue in the next). A chunk on a SharedArrayBuffer
   * is shared, not given away: `release` is called once the feed is done with it; any other
   * buffer is given away.
   */
  write(b: Buffer, release?: () => void): Promise<void>;
  rowsDone(): void;
  end(info: SinkEnd): Promise<void>;
  abort(): Promise<void>;
}
