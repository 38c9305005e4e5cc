import type { FactKey, SessionFact } from '@aitrail/parsers';

interface Held {
  value: string;
  priority: number;
  seq: number;
}

/** Where a session lives: facts never cross hosts, users or agents. */
export function sessionKey(host: string, user: string, agent: string, session: string): string {
  return `${host}\0${user}\0${agent}\0${session}`;
}

/**
 * Session facts reported by parsers (docs/architecture.md): for each session and key the lowest
 * priority number wins, and among equal priorities the latest report (parse order).
 */
export class FactStore {
  private readonly facts = new Map<string, Map<FactKey, Held>>();
  private seq = 0;

  /** Record one fact for a session scoped by host, user and agent. */
  report(scope: string, f: SessionFact): void {
    if (!f.session_id || typeof f.value !== 'string' || f.value === '') return;
    let m = this.facts.get(scope);
    if (!m) {
      m = new Map();
      this.facts.set(scope, m);
    }
    const cur = m.get(f.key);
    const seq = ++this.seq;
    if (!cur || f.priority < cur.priority || (f.priority === cur.priority && seq > cur.seq)) m.set(f.key, { value: f.value, priority: f.priority, seq });
  }

  /** The winning value of a fact, or ''. */
  get(scope: string, key: FactKey): string {
    return this.facts.get(scope)?.get(key)?.value ?? '';
  }

  /** Every session scope that has facts. */
  scopes(): IterableIterator<string> {
    return this.facts.keys();
  }
}

/** Fill a row's project_path and git_branch from its session's facts when it has none. */
export function fillFromFacts<T extends { session_id: string; project_path: string; git_branch: string }>(row: T, facts: FactStore, scope: string): T {
  if (row.session_id === '') return row;
  if (row.project_path === '') {
    const cwd = facts.get(scope, 'cwd');
    if (cwd) row.project_path = cwd;
  }
  if (row.git_branch === '') {
    const b = facts.get(scope, 'branch');
    if (b) row.git_branch = b;
  }
  return row;
}
