import type Database from 'better-sqlite3';
import { redactCredentials } from '../credential-scan.js';
import type { ReportTally } from './report-tally.js';

/** Sessions whose conversation report.html shows (the most recent ones). */
export const MAX_CONVERSATIONS = 100;
/** Entries shown per conversation. */
export const MAX_TURNS = 100;
/** Characters shown per entry. */
export const MAX_TEXT = 1500;
/** Rows shown per summary table (sessions, permission events, warnings...). */
export const MAX_TABLE = 1000;

/** Tags of the report's permission table. */
export const PERMISSION_TAGS: ReadonlySet<string> = new Set(['permission_decision', 'permission_request', 'permission_mode', 'permission_setting']);

/** Words in a permission mode that mean the agent ran without asking (an inference, said so in the report). */
export const UNATTENDED = /bypass|yolo|allow[-_ ]?all|dangerous|auto[-_ ]?approve|full[-_ ]?auto|never[-_ ]?ask|skip[-_ ]?permissions|--trust/i;

/** One timeline row as the report reads it. */
export interface ReportRow {
  id: number;
  timestamp_utc: string | null;
  host: string;
  user: string;
  agent: string;
  session_id: string;
  project_path: string;
  model: string;
  turn_type: string;
  tool_name: string;
  tool_use_id: string;
  text: string;
  text_length: number;
  source_file: string;
  source_line: number | null;
  tag: string;
}

/** A session as the report lists it. */
export interface ReportSession {
  host: string;
  user: string;
  agent: string;
  session_id: string;
  name: string;
  project_path: string;
  first_timestamp: string;
  last_timestamp: string;
  rows: number;
  models: string;
  permission_decisions: string;
}

/** An unattended period: from a permission mode that runs without asking to the next mode change or the session's end. */
export interface UnattendedPeriod {
  agent: string;
  session_id: string;
  mode: string;
  from: string;
  to: string;
  source_file: string;
  source_line: number | null;
}

/** Characters read past a cap so a credential across the cut is still recognised and redacted. */
const REDACT_MARGIN = 256;

/**
 * A text as the report shows it: credential values redacted as in inventory.json, then cut. The
 * report is read by people who need not see a secret; the timeline files keep the evidence whole.
 */
function reportText(text: string, cap: number): string {
  return redactCredentials(text).text.slice(0, cap);
}

const ROW_COLS = `id, timestamp_utc, host, user, agent, session_id, project_path, model, turn_type, tool_name, tool_use_id,
  substr(text, 1, ${MAX_TEXT + REDACT_MARGIN}) AS text, length(text) AS text_length, source_file, source_line, tag`;

/**
 * Read-only queries behind report.html (all bounded by the caps above). With the tally the
 * SQLite sink kept while inserting (report-tally.ts), the counts over the whole timeline come
 * from it and only the rows shown are read; each answer is the same either way.
 */
export class ReportData {
  constructor(
    private readonly db: Database.Database,
    private readonly tally?: ReportTally,
  ) {}

  /** Rows per day, per agent, by day then agent. */
  activity(): { day: string; agent: string; n: number }[] {
    return (
      this.tally?.activity() ??
      (this.db.prepare(`SELECT substr(timestamp_utc, 1, 10) AS day, agent, count(*) AS n FROM timeline
      WHERE timestamp_utc GLOB '[0-9][0-9][0-9][0-9]-*' GROUP BY day, agent ORDER BY day, agent`).all() as { day: string; agent: string; n: number }[])
    );
  }

  /** Undated rows. */
  undated(): number {
    if (this.tally) return this.tally.rows - this.tally.dated;
    return (this.db.prepare(`SELECT count(*) AS n FROM timeline WHERE NOT (coalesce(timestamp_utc, '') GLOB '[0-9][0-9][0-9][0-9]-*')`).get() as { n: number }).n;
  }

  /** Sessions, most recent first, capped; and how many there are. */
  sessions(limit = MAX_TABLE): { list: ReportSession[]; total: number } {
    const total = (this.db.prepare('SELECT count(*) AS n FROM sessions').get() as { n: number }).n;
    const list = this.db.prepare(`SELECT host, user, agent, session_id, name, project_path, first_timestamp, last_timestamp, rows, models, permission_decisions
      FROM sessions ORDER BY last_timestamp DESC, agent, session_id LIMIT ?`).all(limit) as ReportSession[];
    return { list, total };
  }

  /** The first entries of one session's conversation in time order, and how many it has. */
  conversation(s: ReportSession): { rows: ReportRow[]; total: number } {
    const where = 'host = ? AND user = ? AND agent = ? AND session_id = ?';
    const args = [s.host, s.user, s.agent, s.session_id];
    // Named: without it SQLite may walk the agent index, every row of an agent for each session
    // (5 of the 27 s of a default analyze at 160 MiB).
    const total = (this.db.prepare(`SELECT count(*) AS n FROM timeline INDEXED BY timeline_session WHERE ${where}`).get(...args) as { n: number }).n;
    const rows = this.db.prepare(`SELECT ${ROW_COLS} FROM timeline INDEXED BY timeline_session WHERE ${where} ORDER BY id LIMIT ?`).all(...args, MAX_TURNS) as ReportRow[];
    for (const r of rows) r.text = reportText(r.text, MAX_TEXT);
    return { rows, total };
  }

  /** Models per agent with their row counts, by agent, then most rows, then model. */
  models(): { agent: string; model: string; n: number }[] {
    return (
      this.tally?.models() ??
      (this.db.prepare(`SELECT agent, model, count(*) AS n FROM timeline WHERE model != '' AND tag != 'utility_model' GROUP BY agent, model ORDER BY agent, n DESC, model`).all() as { agent: string; model: string; n: number }[])
    );
  }

  /** Permission decisions, requests, modes and settings, in time order, capped; and the count. */
  permissions(): { list: ReportRow[]; total: number } {
    if (this.tally) return { list: this.db.prepare(`SELECT ${ROW_COLS} FROM timeline WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id`).all(JSON.stringify(this.tally.permissionIds)) as ReportRow[], total: this.tally.permissionRows };
    const where = `tag IN (${[...PERMISSION_TAGS].map((t) => `'${t}'`).join(', ')})`;
    const total = (this.db.prepare(`SELECT count(*) AS n FROM timeline WHERE ${where}`).get() as { n: number }).n;
    const list = this.db.prepare(`SELECT ${ROW_COLS} FROM timeline WHERE ${where} ORDER BY id LIMIT ?`).all(MAX_TABLE) as ReportRow[];
    return { list, total };
  }

  /** Unattended periods inferred from `permission_mode` rows (see {@link UNATTENDED}). */
  unattended(): UnattendedPeriod[] {
    const ids = this.tally?.modeIds;
    const modes = this.db.prepare(`SELECT t.agent, t.session_id, t.timestamp_utc, substr(t.text, 1, ${300 + REDACT_MARGIN}) AS text, t.source_file, t.source_line, s.last_timestamp
      FROM timeline t LEFT JOIN sessions s ON s.host = t.host AND s.user = t.user AND s.agent = t.agent AND s.session_id = t.session_id
      WHERE ${ids ? 't.id IN (SELECT value FROM json_each(?))' : "t.tag = 'permission_mode'"} ORDER BY t.host, t.user, t.agent, t.session_id, t.id`).iterate(...(ids ? [JSON.stringify(ids)] : [])) as Iterable<{ agent: string; session_id: string; timestamp_utc: string; text: string; source_file: string; source_line: number | null; last_timestamp: string | null }>;
    const out: UnattendedPeriod[] = [];
    let open: UnattendedPeriod | null = null;
    let openKey = '';
    for (const m of modes) {
      const key = `${m.agent}\0${m.session_id}`;
      if (open) {
        // Same session: the next mode change ends the period; another session: its own end did.
        if (key === openKey) open.to = m.timestamp_utc;
        out.push(open);
        open = null;
      }
      m.text = reportText(m.text, 300);
      if (UNATTENDED.test(m.text) && out.length < MAX_TABLE) {
        open = { agent: m.agent, session_id: m.session_id, mode: m.text, from: m.timestamp_utc, to: m.last_timestamp ?? '', source_file: m.source_file, source_line: m.source_line };
        openKey = key;
      }
    }
    if (open) out.push(open);
    return out;
  }

  /** Rows of the `findings` table (findings.jsonl of the same run), capped; and the count. */
  findings(): { list: Record<string, unknown>[]; total: number } {
    const total = (this.db.prepare('SELECT count(*) AS n FROM findings').get() as { n: number }).n;
    const list = (this.db.prepare('SELECT json FROM findings ORDER BY id LIMIT ?').all(MAX_TABLE) as { json: string }[]).map((r) => {
      const v = JSON.parse(r.json) as unknown;
      return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : { value: v };
    });
    return { list, total };
  }
}
