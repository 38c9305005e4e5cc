// What report.html counts over the whole timeline, counted as the SQLite sink inserts the rows.
// The report ran these as SQL over the finished timeline.sqlite: four of its queries read `tag`,
// which sits after the text, through every overflow page of every long text, and the activity
// chart read every timestamp. They ran at the end of the analysis, alone on one core (0.2-0.3 s
// at 160 MiB, growing with the database). Counted here, the report only reads the rows it shows.
import type { SqliteValues } from './csv-feed.js';
import { MAX_TABLE, PERMISSION_TAGS } from './report-data.js';

/** Distinct keys (days × agents, agents × models) or row ids a tally keeps at most before it gives up and the report asks SQLite. */
export const TALLY_MAX = 100_000;

/** A timestamp the activity chart counts (SQL: `timestamp_utc GLOB '[0-9][0-9][0-9][0-9]-*'`). */
const DATED = /^[0-9]{4}-/;

/**
 * SQLite's BINARY order of two well-formed strings (their UTF-8 bytes' order, which is code
 * point order): UTF-16 order but for a character past U+FFFF, which sorts after U+E000-U+FFFF.
 */
export function binaryCompare(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const sx = x >= 0xd800 && x <= 0xdfff;
    const sy = y >= 0xd800 && y <= 0xdfff;
    if (sx !== sy && (sx ? y : x) >= 0xe000) return sx ? 1 : -1;
    return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

/** The first `n` characters (code points, as SQLite's substr counts them) of a well-formed string. */
function firstChars(s: string, n: number): string {
  let end = 0;
  for (let k = 0; k < n && end < s.length; k++) end += s.codePointAt(end)! > 0xffff ? 2 : 1;
  return s.slice(0, end);
}

/** Counts per first value, then per second value, and how many pairs in all. */
class PairCounts {
  readonly byFirst = new Map<string, Map<string, number>>();
  pairs = 0;

  /** Count the pair once more; false when that would make more than `max` pairs. */
  bump(a: string, b: string, max: number): boolean {
    let m = this.byFirst.get(a);
    if (!m) {
      m = new Map();
      this.byFirst.set(a, m);
    }
    const n = m.get(b);
    if (n !== undefined) m.set(b, n + 1);
    else if (this.pairs >= max) return false;
    else {
      m.set(b, 1);
      this.pairs++;
    }
    return true;
  }

  /** Every pair with its count. */
  list(): [string, string, number][] {
    return [...this.byFirst].flatMap(([a, m]) => [...m].map(([b, n]): [string, string, number] => [a, b, n]));
  }
}

/**
 * The report's counts over every row inserted (fed in id order by the SQLite sink). Each part is
 * null once it passed {@link TALLY_MAX} (hostile evidence: a million distinct models), and the
 * report then asks SQLite for it as before.
 */
export class ReportTally {
  /** Rows counted. */
  rows = 0;
  /** Rows the activity chart counts (dated ones). */
  dated = 0;
  /** Rows per day and agent. */
  private activityCounts: PairCounts | null = new PairCounts();
  /** Rows per agent and model (a model named, not the utility model's rows). */
  private modelCounts: PairCounts | null = new PairCounts();
  /** Rows of a permission tag. */
  permissionRows = 0;
  /** Ids of the rows of a permission tag, in id order, as many as the report shows. */
  readonly permissionIds: number[] = [];
  /** Ids of the `permission_mode` rows, in id order (null: too many). */
  modeIds: number[] | null = [];

  constructor(private readonly max = TALLY_MAX) {}

  /** Count one row, inserted with this id. */
  add(id: number, v: SqliteValues): void {
    this.rows++;
    const ts = v[0];
    const agent = v[3];
    if (DATED.test(ts)) {
      this.dated++;
      if (this.activityCounts && !this.activityCounts.bump(firstChars(ts, 10), agent, this.max)) this.activityCounts = null;
    }
    const tag = v[14];
    const model = v[7];
    if (model !== '' && tag !== 'utility_model' && this.modelCounts && !this.modelCounts.bump(agent, model, this.max)) this.modelCounts = null;
    if (!PERMISSION_TAGS.has(tag)) return;
    this.permissionRows++;
    if (this.permissionIds.length < MAX_TABLE) this.permissionIds.push(id);
    if (tag === 'permission_mode' && this.modeIds) {
      if (this.modeIds.length < this.max) this.modeIds.push(id);
      else this.modeIds = null;
    }
  }

  /** Rows per day and agent, by day then agent (null: ask SQLite). */
  activity(): { day: string; agent: string; n: number }[] | null {
    if (!this.activityCounts) return null;
    return this.activityCounts.list().map(([day, agent, n]) => ({ day, agent, n })).sort((a, b) => binaryCompare(a.day, b.day) || binaryCompare(a.agent, b.agent));
  }

  /** Models per agent with their row counts, by agent, then most rows, then model (null: ask SQLite). */
  models(): { agent: string; model: string; n: number }[] | null {
    if (!this.modelCounts) return null;
    return this.modelCounts.list().map(([agent, model, n]) => ({ agent, model, n })).sort((a, b) => binaryCompare(a.agent, b.agent) || b.n - a.n || binaryCompare(a.model, b.model));
  }
}
