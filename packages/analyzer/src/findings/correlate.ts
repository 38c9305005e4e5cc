import type { TimelineRow } from '../row.js';
import { findingRow } from './excerpt.js';
import type { CorrelationRule, Finding, FindingRow } from './types.js';

/** The state of one correlation rule as the rows go by. */
export interface CorrelationState {
  /** `matched`: names of the detection rules this row matched (null: none). */
  row(r: TimelineRow, matched: ReadonlySet<string> | null): void;
  /** End of the timeline: report what is still open. */
  finish(): void;
}

/** A row as a correlation keeps it: the finding's view of it plus what grouping needs. */
interface Seen {
  fr: FindingRow;
  r: Pick<TimelineRow, 'host' | 'user' | 'agent' | 'session_id' | 'project_path' | 'timestamp_utc'>;
  t: number;
}

// Bounds per group, so a session of a million tool calls holds a few hundred of them at most.
const MAX_CALLS = 64;
const MAX_GROUPS = 64;
const MAX_DENIALS = 32;
/** Characters of a row's text kept for later: the targets are read from the first 4 KB. */
const HEAD = 4096;

/** The row with its text cut to {@link HEAD} characters (the same row when it is short). */
function head(r: TimelineRow): TimelineRow {
  return r.text.length > HEAD ? { ...r, text: r.text.slice(0, HEAD) } : r;
}

/** Build the state of a correlation; `needles(name)` are the literals of a detection rule (for excerpts). */
export function correlationState(rule: CorrelationRule, needles: (name: string) => string[], emit: (f: Finding) => void): CorrelationState {
  const key = (r: TimelineRow) => rule.groupBy.map((f) => String((r as unknown as Record<string, unknown>)[f] ?? '')).join('\0');
  const seen = (r: TimelineRow, name?: string): Seen => ({ fr: findingRow(r, name ? needles(name) : []), r: { host: r.host, user: r.user, agent: r.agent, session_id: r.session_id, project_path: r.project_path, timestamp_utc: r.timestamp_utc }, t: r.timestamp_utc ? Date.parse(r.timestamp_utc) : Number.NaN });
  const within = (a: Seen, t: number) => rule.timespan === 0 || Number.isNaN(a.t) || Number.isNaN(t) || t - a.t <= rule.timespan;
  const finding = (rows: Seen[], reason: string): Finding => {
    const first = rows[0].r;
    const dated = rows.filter((s) => s.r.timestamp_utc !== '');
    return { rule_id: rule.id, title: rule.title, severity: rule.level, host: first.host, user: first.user, agent: first.agent, session_id: first.session_id, project_path: first.project_path, time: dated[0]?.r.timestamp_utc ?? '', end_time: dated.at(-1)?.r.timestamp_utc ?? '', reason, rows: rows.map((s) => s.fr) };
  };
  const m = (matched: ReadonlySet<string> | null, name: string | undefined) => !!name && !!matched?.has(name);
  if (rule.type === 'temporal_ordered') return temporalOrdered(rule, key, seen, within, finding, m, emit);
  if (rule.type === 'aitrail_period') return period(rule, key, seen, finding, m, emit);
  return deniedRetry(rule, key, seen, within, finding, m, emit);
}

type Key = (r: TimelineRow) => string;
type See = (r: TimelineRow, name?: string) => Seen;
type Within = (a: Seen, t: number) => boolean;
type Make = (rows: Seen[], reason: string) => Finding;
type M = (matched: ReadonlySet<string> | null, name: string | undefined) => boolean;

/** Sigma temporal_ordered: the rules match in their order within the timespan, in one group. */
function temporalOrdered(rule: CorrelationRule, key: Key, seen: See, within: Within, make: Make, m: M, emit: (f: Finding) => void): CorrelationState {
  const progress = new Map<string, Seen[]>();
  return {
    row(r, matched) {
      if (!matched) return;
      const k = key(r);
      let p = progress.get(k);
      const t = r.timestamp_utc ? Date.parse(r.timestamp_utc) : Number.NaN;
      if (p && !within(p[0], t)) p = undefined;
      const step = p?.length ?? 0;
      if (!m(matched, rule.rules[step])) {
        if (step > 0 && m(matched, rule.rules[0]) && !p) progress.set(k, [seen(r, rule.rules[0])]);
        return;
      }
      p = [...(p ?? []), seen(r, rule.rules[step])];
      if (p.length < rule.rules.length) {
        progress.set(k, p);
        return;
      }
      progress.delete(k);
      emit(make(p, `${rule.rules.join(' then ')} in one ${rule.groupBy.at(-1)}${rule.timespan ? ` within ${rule.timespan / 1000}s` : ''}`));
    },
    finish() {},
  };
}

/** aitrail_period: rules[0] opens a period, rules[1] closes it; rows of rules[2] (default: tool calls) inside are counted. */
function period(rule: CorrelationRule, key: Key, seen: See, make: Make, m: M, emit: (f: Finding) => void): CorrelationState {
  const open = new Map<string, { start: Seen; last: TimelineRow; during: number; first?: Seen }>();
  const close = (p: { start: Seen; during: number; first?: Seen }, end: Seen, how: string) => {
    const rows = [p.start, ...(p.first ? [p.first] : []), ...(end.fr !== p.start.fr ? [end] : [])];
    emit(make(rows, `${p.start.fr.excerpt} from ${p.start.r.timestamp_utc || 'an undated row'} to ${end.r.timestamp_utc || 'an undated row'} (${how}); ${p.during} ${rule.rules[2] ?? 'tool call'}${p.during === 1 ? '' : 's'} in that period`));
  };
  return {
    row(r, matched) {
      const starts = m(matched, rule.rules[0]);
      if (!starts && open.size === 0) return;
      const k = key(r);
      const p = open.get(k);
      if (starts) {
        if (!p) open.set(k, { start: seen(r, rule.rules[0]), last: head(r), during: 0 });
        else p.last = head(r);
        return;
      }
      if (!p) return;
      if (m(matched, rule.rules[1])) {
        open.delete(k);
        close(p, seen(r, rule.rules[1]), 'ended by a later mode change');
        return;
      }
      p.last = head(r);
      if (rule.rules[2] ? m(matched, rule.rules[2]) : r.turn_type === 'tool_use') {
        p.during++;
        p.first ??= seen(r);
      }
    },
    finish() {
      for (const p of open.values()) close(p, seen(p.last), 'still in effect at the last row of the session');
      open.clear();
    },
  };
}

/** aitrail_denied_retry: after a denial (rules[0]), a call by another tool (matching rules[1], when given) on the same target (path, file, host). */
function deniedRetry(rule: CorrelationRule, key: Key, seen: See, within: Within, make: Make, m: M, emit: (f: Finding) => void): CorrelationState {
  // Every tool call is kept cheaply (its head, no excerpt, no targets): a denial is rare, and
  // only then is the denied call's excerpt and target list worked out.
  const calls = new Map<string, Map<string, TimelineRow>>();
  const denials = new Map<string, { tool: string; targets: Set<string>; rows: Seen[] }[]>();
  return {
    row(r, matched) {
      if (r.turn_type !== 'tool_use' && !m(matched, rule.rules[0])) return;
      const k = key(r);
      if (r.turn_type === 'tool_use') {
        const list = denials.get(k);
        if (list && list.length > 0 && r.tool_name && (rule.rules.length < 2 || m(matched, rule.rules[1]))) {
          const targets = targetsOf(r.text);
          const t = r.timestamp_utc ? Date.parse(r.timestamp_utc) : Number.NaN;
          const i = list.findIndex((d) => d.tool !== r.tool_name && within(d.rows.at(-1)!, t) && [...d.targets].some((x) => targets.has(x)));
          if (i >= 0) {
            const d = list.splice(i, 1)[0];
            const shared = [...d.targets].filter((x) => targets.has(x));
            emit(make([...d.rows, seen(r)], `${d.tool} was denied, then ${r.tool_name} acted on the same ${shared.slice(0, 3).join(', ')}`));
          }
        }
        if (r.tool_use_id) {
          // The most recently active groups only: a denial follows its call closely.
          const byId = calls.get(k) ?? new Map<string, TimelineRow>();
          calls.delete(k);
          calls.set(k, byId);
          if (calls.size > MAX_GROUPS) calls.delete(calls.keys().next().value!);
          byId.set(r.tool_use_id, head(r));
          if (byId.size > MAX_CALLS) byId.delete(byId.keys().next().value!);
        }
      }
      if (!m(matched, rule.rules[0])) return;
      const denied = r.tool_use_id ? calls.get(k)?.get(r.tool_use_id) : undefined;
      const call = denied ? { tool: denied.tool_name, targets: targetsOf(denied.text), s: seen(denied) } : undefined;
      const tool = r.tool_name || call?.tool || '';
      const targets = call?.targets ?? targetsOf(r.text);
      if (!tool || targets.size === 0) return;
      let list = denials.get(k);
      if (!list) {
        list = [];
        denials.set(k, list);
      }
      list.push({ tool, targets, rows: [...(call ? [call.s] : []), seen(r, rule.rules[0])] });
      if (list.length > MAX_DENIALS) list.shift();
    },
    finish() {},
  };
}

const SPLIT = /[\s"'`,;(){}[\]<>|&=]+/;

/**
 * What a call acts on, comparable across tools: paths by their last two segments (a shell's
 * `~/.ssh/id_rsa` and a reader's `/home/u/.ssh/id_rsa` are one), URLs by host, file names.
 */
export function targetsOf(text: string): Set<string> {
  const out = new Set<string>();
  for (let tok of text.slice(0, 4096).split(SPLIT)) {
    tok = tok.replace(/^[:.]+(?=[^./])|[:.,]+$/g, '').toLowerCase();
    if (tok.length < 4) continue;
    const url = /^[a-z][a-z0-9+.-]*:\/\/([^/\s:]+)/.exec(tok);
    if (url) {
      out.add(url[1]);
      continue;
    }
    if (tok.includes('/') || tok.includes('\\')) {
      const segs = tok.split(/[\\/]+/).filter((s) => s !== '' && s !== '.' && s !== '..' && s !== '~');
      if (segs.length === 0) continue;
      const tail = segs.slice(-2).join('/');
      if (tail.length >= 4) out.add(tail);
      const last = segs.at(-1)!;
      if (last.length >= 4 && /[a-z]\.[a-z0-9]{1,8}$|^\./.test(last)) out.add(last);
      continue;
    }
    if (/^[\w.-]*[a-z][\w-]*\.[a-z0-9]{1,8}$/.test(tok) && !/^\d/.test(tok)) out.add(tok);
  }
  return out;
}
