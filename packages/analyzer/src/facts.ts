import type { FactKey, SessionFact } from '@aitrail/parsers';

interface Held {
  value: string;
  priority: number;
  seq: number;
}

/** One timed report of a session's history (a cwd or branch as of a time). */
interface Point {
  at: string;
  value: string;
  seq: number;
}

/** The timed reports of one key at its best priority, sorted by time once all are in. */
interface History {
  priority: number;
  points: Point[];
  sorted: boolean;
}

/** Where a session lives: facts never cross hosts, users or agents. */
export function sessionKey(host: string, user: string, agent: string, session: string): string {
  return `${host}\0${user}\0${agent}\0${session}`;
}

const TIMED_KEYS = new Set<FactKey>(['cwd', 'branch']);
/** Timed changes kept per session and key (memory bound; a real session changes directory a few times). */
const MAX_POINTS = 10_000;

/**
 * Session facts reported by parsers (docs/architecture.md): for each session and key the lowest
 * priority number wins, and among equal priorities the latest report (parse order). A `cwd` or
 * `branch` reported with a time (`at`) is also a point of the session's history: {@link asOf}
 * gives the value in force at a row's time (DESIGN, "Working directory as of the row").
 */
export class FactStore {
  private readonly facts = new Map<string, Map<FactKey, Held>>();
  private readonly histories = new Map<string, Map<FactKey, History>>();
  private seq = 0;

  /** Record one fact for a session scoped by host, user and agent. */
  report(scope: string, f: SessionFact): void {
    if (!f.session_id || typeof f.value !== 'string') return;
    const timed = typeof f.at === 'string' && f.at !== '' && TIMED_KEYS.has(f.key);
    if (f.value === '') {
      // "None from this time" (a move out of a git repository: no branch): a point of the
      // history only, never a session's value.
      if (timed) this.point(scope, f, ++this.seq);
      return;
    }
    let m = this.facts.get(scope);
    if (!m) {
      m = new Map();
      this.facts.set(scope, m);
    }
    const cur = m.get(f.key);
    const seq = ++this.seq;
    if (!cur || f.priority < cur.priority || (f.priority === cur.priority && seq > cur.seq)) m.set(f.key, { value: f.value, priority: f.priority, seq });
    if (timed) this.point(scope, f, seq);
  }

  private point(scope: string, f: SessionFact, seq: number): void {
    let hs = this.histories.get(scope);
    if (!hs) {
      hs = new Map();
      this.histories.set(scope, hs);
    }
    let h = hs.get(f.key);
    if (!h || f.priority < h.priority) {
      h = { priority: f.priority, points: [], sorted: true };
      hs.set(f.key, h);
    } else if (f.priority > h.priority) return;
    const last = h.points[h.points.length - 1];
    // A log reports its cwd on many lines: keep the changes (and the first), not every repeat.
    if (last && last.value === f.value && last.at <= f.at!) return;
    if (h.points.length >= MAX_POINTS) return;
    if (last && f.at! < last.at) h.sorted = false;
    h.points.push({ at: f.at!, value: f.value, seq });
  }

  private history(scope: string, key: FactKey): Point[] | undefined {
    const h = this.histories.get(scope)?.get(key);
    if (!h || h.points.length === 0) return undefined;
    // Timed reports only lead when they are at the key's winning priority (a log over a store).
    const win = this.facts.get(scope)?.get(key);
    if (win && win.priority < h.priority) return undefined;
    if (!h.sorted) {
      h.points.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : a.seq - b.seq));
      h.sorted = true;
    }
    return h.points;
  }

  /** The winning value of a fact, or ''. */
  get(scope: string, key: FactKey): string {
    return this.facts.get(scope)?.get(key)?.value ?? '';
  }

  /**
   * The value in force at `time` (`YYYY-MM-DDTHH:mm:ss.sssZ`): the latest timed report at or
   * before it, the first report for earlier rows, and the winning value for an undated row or a
   * session without timed reports. '' when the report in force says there was none (no branch).
   */
  asOf(scope: string, key: FactKey, time: string): string {
    const pts = time === '' ? undefined : this.history(scope, key);
    if (!pts) return this.get(scope, key);
    let lo = 0;
    let hi = pts.length - 1;
    if (time < pts[0].at) return pts[0].value;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (pts[mid].at <= time) lo = mid;
      else hi = mid - 1;
    }
    return pts[lo].value;
  }

  /** Every distinct timed value of a key for a session, in time order (every directory it worked in). */
  values(scope: string, key: FactKey): string[] {
    const pts = this.history(scope, key) ?? [];
    return [...new Set(pts.map((p) => p.value).filter((v) => v !== ''))];
  }

  /** Every session scope that has facts. */
  scopes(): IterableIterator<string> {
    return this.facts.keys();
  }
}

/** Fill a row's project_path and git_branch from its session's facts (as of its time) when it has none. */
export function fillFromFacts<T extends { session_id: string; project_path: string; git_branch: string; timestamp_utc?: string }>(row: T, facts: FactStore, scope: string): T {
  if (row.session_id === '') return row;
  const time = row.timestamp_utc ?? '';
  if (row.project_path === '') {
    const cwd = facts.asOf(scope, 'cwd', time);
    if (cwd) row.project_path = cwd;
  }
  if (row.git_branch === '') {
    const b = facts.asOf(scope, 'branch', time);
    if (b) row.git_branch = b;
  }
  return row;
}
