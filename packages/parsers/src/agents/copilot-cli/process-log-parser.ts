import { readLines } from '../../sdk/line-reader.js';
import { makeRow, unreadableRow } from '../../sdk/row.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { Artifact, Parser, Row } from '../../sdk/types.js';
import { copilotParser } from './common.js';
import { COPILOT_PATTERNS } from './paths.js';

// `<ISO ms Z> [LEVEL] <message>`; continuation lines of a multi-line message have no prefix.
const LINE = /^(\d{4}-\d{2}-\d{2}T\S+) \[[A-Z]+\] (.*)$/;
const SIGNED_IN = /^Signed in to (\S+) as (.+?)\.?\s*$/;
const WORKSPACE = /^Workspace initialized: ([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\b/i;

/** Sign-in rows held back until the file's session is known; past this, a second pass yields the rest. */
const MAX_BUFFERED = 10_000;

/**
 * logs/process-<ms>-<pid>.log and its rotations (.<n>.log, issue 152): only the sign-in line,
 * `signed in: <host> as <login>` at the line's time. The session id is known only at the end
 * (the file's one distinct `Workspace initialized:` id, else none), so the few sign-in rows
 * are buffered, never the file; the logs stream (a pending login wrote 45 MB of them).
 */
export const copilotProcessLogParser: Parser = copilotParser({
  name: 'process-log',
  patterns: COPILOT_PATTERNS.processLog,
  secondary: false,
  toleranceSeconds: 0,
  parse: parseProcessLog,
});

interface SignIn {
  line: number;
  time: string;
  host: string;
  login: string;
}

async function* parseProcessLog(a: Artifact): AsyncGenerator<Row> {
  const ids = new Set<string>();
  const buffered: SignIn[] = [];
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
      const s = signIn(l.line, m);
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
      const s = m ? signIn(l.line, m) : undefined;
      if (s) yield row(s, session_id);
    }
  } catch (e) {
    yield unreadableRow(`second read failed: ${(e as Error).message}`);
  }
}

function signIn(line: number, m: RegExpExecArray): SignIn | undefined {
  const s = SIGNED_IN.exec(m[2]);
  return s ? { line, time: toUtc(m[1]), host: s[1], login: s[2] } : undefined;
}

function row(s: SignIn, session_id: string): Row {
  return makeRow('system', `signed in: ${s.host} as ${s.login}`, { timestamp_utc: s.time, session_id, source_line: s.line, tag: 'signed_in' });
}
