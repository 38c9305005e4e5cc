/**
 * Aider's sessions: each launch appends "# aider chat started at YYYY-MM-DD HH:MM:SS" (aider/io.py,
 * local wall-clock time, no zone) to the chat history; nothing else names a session. A session's id
 * is its start time plus a digest of the folder the history sits in, so the chat history and the
 * input history beside it (whose entries are timed, not numbered) give the same id, and two
 * projects started in the same second stay apart. Times are local and zoneless in both files:
 * they are written as if UTC (docs/agents/aider.md says so) and compare with each other exactly.
 */
import { createHash } from 'node:crypto';
import { readLines } from '../../sdk/line-reader.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { Artifact } from '../../sdk/types.js';

/** The session header of a chat history line, or undefined. */
export const HEADER = /^# aider chat started at (\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2})\s*$/;

/** One session: its id and start time (naive local, written as UTC). */
export interface AiderSession {
  id: string;
  start: string;
}

/** The folder an artifact's history belongs to (the project root, or the home). */
function folderKey(a: Artifact): string {
  return a.scope === 'project' && a.projectRoot ? a.projectRoot : `home:${a.user}`;
}

/** The session a header line starts, in the folder of artifact `a`. */
export function sessionOf(a: Artifact, header: string): AiderSession {
  const start = toUtc(header.replace(' ', 'T'));
  const digest = createHash('sha1').update(folderKey(a)).digest('hex').slice(0, 8);
  return { id: `${header.replace(/[-: ]/g, '').replace(/^(\d{8})/, '$1T')}-${digest}`, start };
}

/** The sessions of a chat history, in order (a pass over its header lines). */
export async function readSessions(chat: Artifact | undefined): Promise<AiderSession[]> {
  const out: AiderSession[] = [];
  if (!chat) return out;
  for await (const l of readLines(chat.stream())) {
    const m = HEADER.exec(l.text);
    if (m) out.push(sessionOf(chat, m[1]));
  }
  return out;
}

/** The session in force at a time: the last one started at or before it ('' before the first). */
export function sessionAt(sessions: readonly AiderSession[], ts: string): AiderSession | undefined {
  let found: AiderSession | undefined;
  for (const s of sessions) {
    if (s.start && ts && s.start <= ts) found = s;
    else if (s.start > ts) break;
  }
  return found;
}
