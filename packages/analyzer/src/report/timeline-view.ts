import Database from 'better-sqlite3';
import { TIMELINE_DB_VERSION } from './sqlite-writer.js';

/** Filters of a timeline query (all optional; empty means any). */
export interface TimelineFilter {
  agent?: string;
  user?: string;
  host?: string;
  session?: string;
  turn_type?: string;
  /** Inclusive lower bound on timestamp_utc (a prefix such as `2026-04-30` works). */
  from?: string;
  /** Inclusive upper bound on timestamp_utc (a prefix covers that whole day or hour). */
  to?: string;
  /** Full-text search: every word must occur (FTS5 over the row's text). */
  q?: string;
}

/** One page of rows. */
export interface TimelinePage {
  total: number;
  offset: number;
  rows: Record<string, string | number | null>[];
}

/** Characters of text sent per row (the rest is counted in `text_length`). */
export const VIEW_TEXT = 4000;
/** Largest page. */
export const MAX_PAGE = 500;

/** The error {@link openTimelineView} throws for a file that is not an aitrail timeline.sqlite. */
export class TimelineViewError extends Error {}

/** Words as an FTS5 query of quoted phrases (ANDed): the user's text is never FTS syntax. */
export function ftsQuery(q: string): string {
  return q
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => `"${w.replace(/"/g, '""')}"`)
    .join(' ');
}

/** A read-only view of timeline.sqlite for `aitrail serve`. */
export class TimelineView {
  private constructor(private readonly db: Database.Database) {}

  /** Open read-only; a missing file or another kind of database is a clear error. */
  static open(path: string): TimelineView {
    let db: Database.Database;
    try {
      db = new Database(path, { readonly: true, fileMustExist: true });
    } catch (e) {
      throw new TimelineViewError(`cannot open ${path} (${(e as Error).message}): expected the timeline.sqlite that \`aitrail analyze\` writes in its output folder`);
    }
    try {
      const v = db.prepare(`SELECT value FROM meta WHERE key = 'format_version'`).get() as { value: string } | undefined;
      if (v?.value !== String(TIMELINE_DB_VERSION)) throw new Error(`format_version ${v?.value ?? 'missing'}`);
    } catch (e) {
      db.close();
      throw new TimelineViewError(`${path} is not an aitrail timeline database of version ${TIMELINE_DB_VERSION} (${(e as Error).message}): run \`aitrail analyze\` again with this version`);
    }
    db.pragma('query_only = ON');
    return new TimelineView(db);
  }

  /** Distinct values for the filter menus. */
  facets(): Record<string, string[]> {
    const col = (c: string) => (this.db.prepare(`SELECT DISTINCT ${c} AS v FROM timeline ORDER BY v LIMIT 1000`).all() as { v: string }[]).map((r) => r.v);
    return { agent: col('agent'), user: col('user'), host: col('host'), turn_type: col('turn_type') };
  }

  /** One page of rows matching the filter, in timeline order. */
  query(f: TimelineFilter, offset = 0, limit = 100): TimelinePage {
    const where: string[] = [];
    const args: (string | number)[] = [];
    for (const [k, c] of [['agent', 'agent'], ['user', 'user'], ['host', 'host'], ['session', 'session_id'], ['turn_type', 'turn_type']] as const) {
      if (f[k]) {
        where.push(`t.${c} = ?`);
        args.push(f[k]);
      }
    }
    if (f.from) {
      where.push('t.timestamp_utc >= ?');
      args.push(f.from);
    }
    if (f.to) {
      // A prefix bound covers everything that starts with it; undated rows ('') are outside any range.
      where.push(`t.timestamp_utc != '' AND t.timestamp_utc <= ?`);
      args.push(`${f.to}\uffff`);
    }
    const q = f.q ? ftsQuery(f.q) : '';
    if (q) {
      where.push('t.id IN (SELECT rowid FROM timeline_fts WHERE timeline_fts MATCH ?)');
      args.push(q);
    }
    const w = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const total = (this.db.prepare(`SELECT count(*) AS n FROM timeline t ${w}`).get(...args) as { n: number }).n;
    const lim = Math.max(1, Math.min(MAX_PAGE, Math.floor(limit) || 100));
    const off = Math.max(0, Math.floor(offset) || 0);
    const rows = this.db
      .prepare(`SELECT t.id, t.timestamp_utc, t.host, t.user, t.agent, t.session_id, t.project_path, t.git_branch, t.model, t.turn_type, t.tool_name, t.tool_use_id,
        substr(t.text, 1, ${VIEW_TEXT}) AS text, length(t.text) AS text_length, t.source_file, t.source_line, t.tag FROM timeline t ${w} ORDER BY t.id LIMIT ? OFFSET ?`)
      .all(...args, lim, off) as Record<string, string | number | null>[];
    return { total, offset: off, rows };
  }

  /** Close the database. */
  close(): void {
    this.db.close();
  }
}
