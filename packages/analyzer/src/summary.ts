import type { SessionRecord } from './sessions.js';

/** Per host/user/agent counts gathered on the output pass. */
export type KeptCounts = Map<string, { host: string; user: string; agent: string; prompts: number; tool_calls: number; permission_decisions: number; rows: number; models: Set<string>; first: string; last: string }>;

/** The closing summary of one host/user/agent (printed, or `--json`). */
export interface SummaryEntry {
  host: string;
  user: string;
  agent: string;
  sessions: number;
  prompts: number;
  tool_calls: number;
  permission_decisions: number;
  rows: number;
  models: string[];
  first_activity: string;
  last_activity: string;
}

/** Build the summary from the kept-row counts and the sessions. */
export function buildSummary(sessions: SessionRecord[], kept: KeptCounts): SummaryEntry[] {
  const bySessions = new Map<string, number>();
  for (const s of sessions) {
    const k = `${s.host}\0${s.user}\0${s.agent}`;
    bySessions.set(k, (bySessions.get(k) ?? 0) + 1);
  }
  const out: SummaryEntry[] = [];
  for (const [k, c] of kept) {
    out.push({ host: c.host, user: c.user, agent: c.agent, sessions: bySessions.get(k) ?? 0, prompts: c.prompts, tool_calls: c.tool_calls, permission_decisions: c.permission_decisions, rows: c.rows, models: [...c.models].sort(), first_activity: c.first, last_activity: c.last });
  }
  out.sort((a, b) => (a.host + '\0' + a.user + '\0' + a.agent < b.host + '\0' + b.user + '\0' + b.agent ? -1 : 1));
  return out;
}

/** An agent with collected files and no timeline row (a catalog-only agent, or no readable record). */
export interface UnparsedEntry {
  host: string;
  user: string;
  agent: string;
  artifacts: number;
  session_files: number;
}

/** Run totals printed under the per-agent blocks. */
export interface SummaryTotals {
  rows: number;
  duplicates: number;
  warnings: number;
  integrityOk: boolean;
  /** The report outputs were written (not `--no-reports`). */
  reports?: boolean;
  /** Agents collected with no row: listed so a responder does not read "nothing found". */
  unparsed?: UnparsedEntry[];
}

/** The summary as lines for a terminal. */
export function formatSummary(entries: SummaryEntry[], out: string, totals?: SummaryTotals): string {
  const lines: string[] = [];
  const unparsed = totals?.unparsed ?? [];
  if (entries.length === 0) lines.push(unparsed.length ? 'No timeline rows.' : 'No agent activity found.');
  for (const e of entries) {
    lines.push(`${e.host} / ${e.user || '(system)'} / ${e.agent}: ${n(e.sessions, 'session')}, ${n(e.prompts, 'prompt')}, ${n(e.tool_calls, 'tool call')}, ${n(e.permission_decisions, 'permission decision')}`);
    lines.push(`  models: ${e.models.length ? e.models.join(', ') : '-'}`);
    lines.push(`  activity: ${e.first_activity || '-'} .. ${e.last_activity || '-'}`);
  }
  for (const u of unparsed) {
    lines.push(`${u.host} / ${u.user || '(system)'} / ${u.agent}: collected, no rows: ${n(u.artifacts, 'file')}${u.session_files ? `, ${n(u.session_files, 'session file')}` : ''} (inventory.json)`);
  }
  if (totals) lines.push(`${totals.rows} timeline rows, ${totals.duplicates} duplicates dropped (duplicates.jsonl), ${totals.warnings} parse warnings; integrity ${totals.integrityOk ? 'ok' : 'FAILED (inventory.json)'}`);
  lines.push(`Outputs in ${out}: timeline.csv, timeline.jsonl, sessions.jsonl, inventory.json, duplicates.jsonl${totals?.reports ? ', report.html, timeline.sqlite (aitrail serve), timeline.timesketch.jsonl' : ''}`);
  return lines.join('\n');
}

function n(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
