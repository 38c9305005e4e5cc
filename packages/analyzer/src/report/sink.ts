import type { TimelineRow } from '../row.js';
import type { SessionRecord } from '../sessions.js';

/** A duplicates.jsonl line: the dropped row, the kept row it matched and the row it was paired with. */
export interface DuplicateRecord {
  dropped: Record<string, string | number | null> | undefined;
  kept: Record<string, string | number | null> | null;
  paired_with: Record<string, string | number | null> | null;
}

/** What a sink gets once the timeline, sessions, duplicates and inventory are written. */
export interface SinkEnd {
  /** The output folder. */
  out: string;
  sessions: SessionRecord[];
  /** inventory.json's object (credential values already redacted there). */
  inventory: Record<string, unknown>;
  duplicates: DuplicateRecord[];
}

/**
 * An extra output fed by the streaming pass: `row` once per kept timeline row, after dedup, in
 * output order; `end` once at the end of the run, in the order the sinks were given (a sink that
 * reads another's output comes after it); `abort` when the run fails (remove partial files).
 */
export interface RowSink {
  row(r: TimelineRow): void | Promise<void>;
  end(info: SinkEnd): Promise<void>;
  abort(): Promise<void>;
}
