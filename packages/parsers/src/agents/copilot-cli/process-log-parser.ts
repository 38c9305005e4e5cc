import { isObject } from '../../sdk/decode.js';
import { readLines } from '../../sdk/line-reader.js';
import { makeRow, unreadableRow } from '../../sdk/row.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { Artifact, ParseContext, Parser, Row } from '../../sdk/types.js';
import { copilotParser } from './common.js';
import { COPILOT_PATTERNS } from './paths.js';
import { jsonText } from '../../sdk/compact-json.js';

// `<ISO ms Z> [LEVEL] <message>`; continuation lines of a multi-line message have no prefix.
const LINE = /^(\d{4}-\d{2}-\d{2}T\S+) \[[A-Z]+\] (.*)$/;
const SIGNED_IN = /^Signed in to (\S+) as (.+?)\.?\s*$/;
const WORKSPACE = /^Workspace initialized: ([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\b/i;
// Copilot Desktop's bundled CLI 1.0.99-2 (seed, Process logs), after any `[rust:...]` module tags.
const MCP_FAILED = /^(?:\[[^\]]*\]\s*)*MCP server connection failed\s*(.*)$/;

/** Rows held back until the file's session is known; past this, a second pass yields the rest. */
const MAX_BUFFERED = 10_000;

/**
 * logs/process-<ms>-<pid>.log and its rotations (.<n>.log, issue 152): the sign-in line,
 * `signed in: <host> as <login>`, and each failed MCP server start (`MCP server connection
 * failed {"server_name":..,"raw_error":..}`): `MCP server connection failed: <server>: <raw_error>`
 * tagged mcp_failure, also reported to inventory.json mcp_servers[].failures; both at the
 * line's time. Other lines give no row (seed: the sign-in line only). The session id is known
 * only at the end (the file's one distinct `Workspace initialized:` id, else none), so the few
 * rows are buffered, never the file; the logs stream (a pending login wrote 45 MB of them).
 */
export const copilotProcessLogParser: Parser = copilotParser({
  name: 'process-log',
  patterns: COPILOT_PATTERNS.processLog,
  secondary: false,
  toleranceSeconds: 0,
  parse: parseProcessLog,
});

/** One line that gives a row: its number, time, text and tag. */
interface Hit {
  line: number;
  time: string;
  text: string;
  tag: 'signed_in' | 'mcp_failure';
}

async function* parseProcessLog(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const ids = new Set<string>();
  const buffered: Hit[] = [];
  let overflowFrom = 0; // first line not buffered, when the buffer filled up
  let lastLine = 0;
  try {
    for await (const l of readLines(a.stream())) {
      lastLine = l.line;
      const m = LINE.exec(l.text);
      if (!m) continue;
      const w = WORKSPACE.exec(m[2]);
      // Two ids are enough to know the file names no single session; stop growing the set.
      if (w && ids.size < 2) ids.add(w[1].toLowerCase());
      const s = hit(l.line, m, ctx);
      if (s && overflowFrom === 0) {
        if (buffered.length < MAX_BUFFERED) buffered.push(s);
        else overflowFrom = l.line;
      }
    }
  } catch (e) {
    // The rows read so far stand; the session id is then only as good as the lines seen.
    for (const s of buffered) yield row(s, ids.size === 1 ? [...ids][0] : '');
    yield unreadableRow(`read failed after line ${lastLine}: ${(e as Error).message}`, { source_line: lastLine || null });
    return;
  }
  const session_id = ids.size === 1 ? [...ids][0] : '';
  for (const s of buffered) yield row(s, session_id);
  if (overflowFrom === 0) return;
  try {
    for await (const l of readLines(a.stream())) {
      if (l.line < overflowFrom) continue;
      const m = LINE.exec(l.text);
      // The MCP reports were made on the first pass; this one only yields the rows.
      const s = m ? hit(l.line, m) : undefined;
      if (s) yield row(s, session_id);
    }
  } catch (e) {
    yield unreadableRow(`second read failed: ${(e as Error).message}`);
  }
}

/** The row a line gives, if any; with `ctx`, an MCP failure is also reported to the inventory. */
function hit(line: number, m: RegExpExecArray, ctx?: ParseContext): Hit | undefined {
  const s = SIGNED_IN.exec(m[2]);
  if (s) return { line, time: toUtc(m[1]), text: `signed in: ${s[1]} as ${s[2]}`, tag: 'signed_in' };
  const f = MCP_FAILED.exec(m[2]);
  if (!f) return undefined;
  const time = toUtc(m[1]);
  const { server, error } = mcpFailure(f[1]);
  ctx?.mcp({ name: server, scope: '', failure: { timestamp_utc: time, message: error }, line });
  return { line, time, text: `MCP server connection failed: ${server || '-'}: ${error}`, tag: 'mcp_failure' };
}

/** The server and error of a failure's JSON tail; a tail that is not that JSON is the error as written. */
function mcpFailure(tail: string): { server: string; error: string } {
  try {
    const v: unknown = JSON.parse(tail);
    if (isObject(v)) {
      const str = (x: unknown) => (typeof x === 'string' ? x : x === undefined || x === null ? '' : jsonText(x));
      return { server: str(v.server_name), error: str(v.raw_error ?? v.error ?? v.message) };
    }
  } catch {
    // Not JSON: keep the text.
  }
  return { server: '', error: tail.trim() };
}

function row(s: Hit, session_id: string): Row {
  return makeRow('system', s.text, { timestamp_utc: s.time, session_id, source_line: s.line, tag: s.tag });
}
