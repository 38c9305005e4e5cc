import { makeRow } from '../../sdk/row.js';
import { readLines } from '../../sdk/line-reader.js';
import { tableNames } from '../../sdk/sqlite.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { Artifact, ParseContext, Parser, Row } from '../../sdk/types.js';
import { callText } from './content.js';
import { LOGS_DB_RE, TUI_LOG_RE } from './paths.js';
import { openStore, tableRows, text } from './sqlite-store.js';
import { epoch } from './state-db.js';

/** A log line is written as the call is dispatched, beside the rollout's line. */
export const LOGS_TOLERANCE_SECONDS = 3600;

/** What a log message says that the timeline keeps. */
export interface LogEvidence {
  turn: 'system' | 'tool_use';
  text: string;
  session: string;
  tool_name?: string;
  tag: string;
}

const THREAD = /\bthread[._]id=([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/i;

/**
 * The evidence in one tracing message (the TUI log's or the log store's): an approval the user
 * answered (`codex.op="exec_approval"`: the rollout never records one; the decision itself is not
 * logged), a command the sandbox denied, and the model's tool calls (`ToolCall: <name> <args>`,
 * copies of the rollout's that outlive a deleted rollout for the store's 90 days). Else nothing.
 */
export function logEvidence(message: string, threadColumn = ''): LogEvidence | undefined {
  const session = (threadColumn || THREAD.exec(message)?.[1] || '').toLowerCase();
  const op = /codex\.op="([a-z_]*approval[a-z_]*)"/.exec(message);
  if (op && /codex_core::codex: new\b|: new$/.test(message.trimEnd())) {
    const sub = /submission\.id="([^"]+)"/.exec(message)?.[1];
    return { turn: 'system', text: `permission decision: answered op=${op[1]}${sub ? ` submission=${sub}` : ''} (the log does not record the choice)`, session, tag: 'permission_decision' };
  }
  if (/Sandbox\(Denied/.test(message)) {
    const m = /(\w+) failed for `([^`]*)`/.exec(message);
    const exit = /exit_code: (-?\d+)/.exec(message)?.[1];
    return { turn: 'system', text: `permission decision: denied source=sandbox tool=${m?.[1] ?? '-'} command=${m?.[2] ?? '-'}${exit ? ` exit=${exit}` : ''}`, session, tool_name: m?.[1], tag: 'permission_decision' };
  }
  const call = /\bToolCall: (\S+) ([\s\S]*?)(?: thread_id=[0-9a-f-]{36})?\s*$/.exec(message);
  if (call) return { turn: 'tool_use', text: callText(call[1], call[2]), session, tool_name: call[1], tag: 'log_tool_call' };
  return undefined;
}

const RECORD = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z)\s+(TRACE|DEBUG|INFO|WARN|ERROR)\s/;

/** log/codex-tui.log: records start with an RFC 3339 time and a level; other lines continue the record above. */
async function* parseTuiLog(a: Artifact): AsyncGenerator<Row> {
  let rec: { ts: string; line: number; text: string } | undefined;
  const emit = (r: { ts: string; line: number; text: string }): Row[] => {
    const ev = logEvidence(r.text);
    return ev ? [makeRow(ev.turn, ev.text, { timestamp_utc: toUtc(r.ts), session_id: ev.session, tool_name: ev.tool_name ?? '', source_line: r.line, tag: ev.tag })] : [];
  };
  for await (const l of readLines(a.stream(), { maxLineBytes: 16 * 1024 * 1024 })) {
    const m = RECORD.exec(l.text);
    if (m) {
      if (rec) yield* emit(rec);
      rec = { ts: m[1], line: l.line, text: l.text };
    } else if (rec && rec.text.length < 1024 * 1024) rec.text += `\n${l.text}`;
  }
  if (rec) yield* emit(rec);
}

/** logs_<n>.sqlite: the same tracing as rows; only the messages that can be evidence are selected. */
async function* parseLogDb(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const o = await openStore(a);
  if (!o.ok) {
    yield o.row;
    return;
  }
  try {
    if (!tableNames(o.db).has('logs')) {
      ctx.warn(`${a.rel} has no logs table: its -wal was not collected or holds no committed schema`);
      return;
    }
    // The body column was `message`, later `feedback_log_body`; filtering in SQL keeps a 90-day store cheap.
    const cols = new Set((o.db.prepare("SELECT name FROM pragma_table_info('logs')").all() as { name: string }[]).map((c) => c.name));
    const body = cols.has('feedback_log_body') ? 'feedback_log_body' : 'message';
    if (!cols.has(body)) return;
    const where = `"${body}" LIKE '%ToolCall: %' OR "${body}" LIKE '%approval"%' OR "${body}" LIKE '%Sandbox(Denied%'`;
    yield* tableRows(
      o.db,
      'logs',
      ['ts', 'ts_nanos', body, 'thread_id'],
      (r, n) => {
        const ev = logEvidence(text(r[body]), text(r.thread_id));
        if (!ev) return [];
        const base = epoch(r.ts);
        // Nanoseconds that are not a number, or carry the time past what a Date holds, leave the second as it is.
        const t = base && r.ts_nanos != null ? Date.parse(base) + Math.floor(Number(r.ts_nanos) / 1e6) : Number.NaN;
        const ms = Number.isFinite(t) && Math.abs(t) <= 8.64e15 ? new Date(t).toISOString() : base;
        return [makeRow(ev.turn, ev.text, { timestamp_utc: ms, session_id: ev.session, tool_name: ev.tool_name ?? '', source_line: n, tag: ev.tag })];
      },
      where,
    );
  } finally {
    o.db.close();
  }
}

/** The TUI log and the log store: approvals answered, sandbox denials, tool calls (secondary: the calls repeat the rollout's). */
export const logsParser: Parser = {
  agent: 'codex-cli',
  name: 'logs',
  patterns: ['<codex>/log/codex-tui.log', '<codex>/logs_<n>.sqlite'],
  wants: (rel) => TUI_LOG_RE.test(rel) || LOGS_DB_RE.test(rel),
  secondary: () => true,
  secondaryToleranceSeconds: () => LOGS_TOLERANCE_SECONDS,
  recordsSync: false,
  parse: (a, ctx) => (LOGS_DB_RE.test(a.rel) ? parseLogDb(a, ctx) : parseTuiLog(a)),
};
