import type { JsonObject } from '../../sdk/decode.js';
import { asObject } from '../../sdk/decode.js';
import { readJsonLines } from '../../sdk/line-reader.js';
import { badLineRow, unreadableRow } from '../../sdk/row.js';
import { normalizeTimestamp } from '../../sdk/timestamp.js';
import type { Artifact, ParseContext, Parser, Row } from '../../sdk/types.js';
import { routeType } from './events-handlers.js';
import { type EventLine, EventsState, eventRow, type HandlerContext } from './events-state.js';
import { jsonText } from '../../sdk/compact-json.js';

const HOME = String.raw`(?:\.copilot|\.local/state/\.copilot|\.config/\.copilot)`;
const ID = '[0-9a-f-]{36}';
/** The paths the parser wants, as the seed writes them: the event log, then the legacy flat transcript. */
export const EVENTS_PATTERNS = [
  String.raw`^${HOME}/session-state/${ID}/events\.jsonl$`,
  // Older releases wrote one flat transcript per session beside the directories (Format versions).
  String.raw`^${HOME}/session-state/${ID}\.jsonl$`,
] as const;
// The same, capturing the session id.
const EVENTS = new RegExp(EVENTS_PATTERNS[0].replace(ID, `(${ID})`));
const LEGACY = new RegExp(EVENTS_PATTERNS[1].replace(ID, `(${ID})`));

/** Options of {@link parseEventLines}, the parser's streaming core. */
export interface EventsParseOptions {
  /** The session id every row carries (the directory name, or the legacy file's basename). */
  sessionId: string;
  /** A legacy flat transcript: records the table does not know become bad-line rows, not skips. */
  legacy?: boolean;
  /** Called once for each line that gives no row, with why (blank, a type the table skips...). */
  onSkip?: (line: number, reason: string) => void;
}

/**
 * Parse an event log's bytes into rows, streaming: one line in memory at a time. Never throws:
 * an unreadable line is a bad-line row, a handler failure on an odd shape is a bad-line row
 * naming the error, and a stream that fails mid-way ends with one unreadable row.
 */
export async function* parseEventLines(source: AsyncIterable<Buffer>, ctx: ParseContext, opts: EventsParseOptions): AsyncGenerator<Row> {
  const { sessionId, legacy = false } = opts;
  const onSkip = opts.onSkip ?? (() => {});
  const st = new EventsState(sessionId, (key, value, at) => ctx.fact(at === '' ? { session_id: sessionId, key, value, priority: 1 } : { session_id: sessionId, key, value, priority: 1, at }));
  ctx.fact({ session_id: sessionId, key: 'has_log', value: 'yes', priority: 1 });
  const session = (): Partial<Row> => ({ session_id: sessionId, project_path: st.cwd, git_branch: st.branch, model: st.model });
  try {
    for await (const jl of readJsonLines(source)) {
      if (jl.blank) {
        onSkip(jl.line, 'blank line');
        continue;
      }
      if (jl.value === undefined) {
        yield badLineRow(jl.error ?? 'not a JSON object', jl.text, jl.line, session());
        continue;
      }
      if (jl.error !== undefined) ctx.warn(`events line parsed with a problem: ${jl.error}`, jl.line);
      let out: LineResult;
      try {
        out = handleLine(jl.value, jl.line, st, ctx, legacy);
      } catch (e) {
        // A handler bug on an odd shape: the line is reported, its partial rows dropped.
        out = { bad: `parser error: ${e instanceof Error ? e.message : String(e)}` };
      }
      if ('bad' in out) yield badLineRow(out.bad, jl.text, jl.line, session());
      else if (out.rows.length === 0) onSkip(jl.line, out.skipReason ?? 'no row');
      else yield* out.rows;
    }
  } catch (e) {
    yield unreadableRow(`reading stopped: ${e instanceof Error ? e.message : String(e)}`, { session_id: sessionId });
  }
}

/** One parsed line's outcome: its rows (none: a deliberate skip, with why), or why it is a bad line. */
type LineResult = { rows: Row[]; skipReason?: string } | { bad: string };

function handleLine(envelope: JsonObject, line: number, st: EventsState, ctx: ParseContext, legacy: boolean): LineResult {
  const type = envelope.type;
  if (type === undefined) return { bad: 'JSON object without a "type" key' };
  if (typeof type !== 'string') return { bad: `"type" is not a string: ${type === null ? 'null' : typeof type}` };
  const route = routeType(type);
  if (route.kind === 'skip') return { rows: [], skipReason: route.reason };
  if (route.kind === 'unknown') {
    if (legacy) return { bad: `legacy flat transcript: record type ${jsonText(type)} not recognized` };
    // Counted in inventory.json unknown_records (DESIGN, "Unknown record kinds"), never dropped silently.
    ctx.unknown(type, line);
    return { rows: [], skipReason: `unknown type ${jsonText(type)}` };
  }
  const ev: EventLine = { type, data: asObject(envelope.data) ?? {}, envelope, timestamp: lineTimestamp(envelope.timestamp, line, ctx), line };
  const rows: Row[] = [];
  let skipReason: string | undefined;
  const c: HandlerContext = {
    ev,
    st,
    includeThinking: ctx.options.includeThinking,
    emit: (turn, body, fields) => rows.push(eventRow(ev, st, turn, body, fields)),
    skip: (reason) => {
      skipReason = reason;
    },
    warn: (message) => ctx.warn(message, line),
  };
  route.handler(c);
  return { rows, skipReason };
}

// The envelope's timestamp is always an ISO string with Z; anything else keeps the rows, undated,
// with a warning (no guessing at epoch numbers in a field that never holds one).
function lineTimestamp(raw: unknown, line: number, ctx: ParseContext): string {
  if (typeof raw !== 'string') {
    ctx.warn(raw === undefined ? 'event without a timestamp' : `event timestamp is not a string: ${raw === null ? 'null' : typeof raw}`, line);
    return '';
  }
  const r = normalizeTimestamp(raw);
  if (r.ok) return r.value;
  ctx.warn(`event timestamp not usable (${r.reason})`, line);
  return '';
}

/** The session id a wanted path names (the directory, or the legacy file's basename), and whether it is legacy. */
export function eventsPathInfo(rel: string): { sessionId: string; legacy: boolean } | undefined {
  const m = EVENTS.exec(rel);
  if (m) return { sessionId: m[1], legacy: false };
  const l = LEGACY.exec(rel);
  return l ? { sessionId: l[1], legacy: true } : undefined;
}

/** The Copilot CLI event log parser: session-state/<id>/events.jsonl and the legacy flat <id>.jsonl. */
export const copilotEventsParser: Parser = {
  agent: 'copilot-cli',
  name: 'events',
  patterns: EVENTS_PATTERNS,
  wants: (rel) => EVENTS.test(rel) || LEGACY.test(rel),
  secondary: () => false,
  secondaryToleranceSeconds: () => 0,
  recordsSync: true,
  async *parse(a: Artifact, ctx: ParseContext) {
    const info = eventsPathInfo(a.rel) ?? { sessionId: '', legacy: false };
    let stream: AsyncIterable<Buffer>;
    try {
      stream = a.stream();
    } catch (e) {
      yield unreadableRow(e instanceof Error ? e.message : String(e), { session_id: info.sessionId });
      return;
    }
    yield* parseEventLines(stream, ctx, info);
  },
};
