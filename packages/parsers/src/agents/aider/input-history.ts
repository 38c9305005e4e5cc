/**
 * `.aider.input.history`: prompt_toolkit's FileHistory (aider/io.py): each entry is a line
 * "# YYYY-MM-DD HH:MM:SS.ffffff" (local time, no zone) followed by its lines, each prefixed "+".
 * Every line typed is there: prompts, slash commands and the answers typed at confirm questions
 * (real: "+Y", "+n"). The chat history parser reads it for the times of the prompts; this parser
 * gives its entries as secondary rows, which drop where the transcript holds the same prompt.
 */
import { readLines } from '../../sdk/line-reader.js';
import { badLineRow, makeRow } from '../../sdk/row.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { Artifact, Row } from '../../sdk/types.js';
import { readSessions, sessionAt } from './sessions.js';

/** One entry: its time (naive local, written as UTC), text and first line. */
export interface InputEntry {
  ts: string;
  text: string;
  line: number;
}

const STAMP = /^# (\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(?:\.\d+)?)\s*$/;

/** A confirm answer typed at a (Y)es/(N)o question, not a prompt. */
export const ANSWER = /^(?:y|n|a|s|d|yes|no|all|skip|don't)$/i;

/** What a typed input is: a shell run (`/run`, `/test`, `!`), a slash command, or a prompt; and its row text. */
export function classifyInput(text: string): { kind: 'shell' | 'slash' | 'prompt'; text: string; tool: string } {
  const t = text.trim();
  const cmd = /^(?:\/(run|test)\s+([\s\S]+)|!([\s\S]+))$/.exec(t);
  if (cmd) return { kind: 'shell', text: (cmd[2] ?? cmd[3]).trim(), tool: cmd[1] === 'test' ? 'test' : 'shell' };
  // /ask, /code, /architect, /context and /help carry a question for the model: prompts.
  const slash = /^\/([a-z-]+)/.exec(t);
  if (slash && !['ask', 'code', 'architect', 'context', 'help'].includes(slash[1])) return { kind: 'slash', text: `slash command: ${t}`, tool: '' };
  return { kind: 'prompt', text, tool: '' };
}

/** Stream the entries; lines of neither form are reported through `onBad`. */
export async function* readInputEntries(a: Artifact, onBad?: (line: number, text: string, cut: boolean) => void): AsyncGenerator<InputEntry> {
  let cur: { ts: string; lines: string[]; line: number } | undefined;
  for await (const l of readLines(a.stream())) {
    const m = STAMP.exec(l.text);
    if (m) {
      if (cur) yield { ts: cur.ts, text: cur.lines.join('\n'), line: cur.line };
      cur = { ts: toUtc(m[1].replace(' ', 'T')), lines: [], line: l.line };
    } else if (l.text.startsWith('+')) {
      // "+" lines with no stamp above them still form an entry (prompt_toolkit reads them so), untimed.
      cur ??= { ts: '', lines: [], line: l.line };
      cur.lines.push(l.text.slice(1));
    } else {
      // Any other line ends the entry, as prompt_toolkit's FileHistory.load_history_strings does.
      if (cur) yield { ts: cur.ts, text: cur.lines.join('\n'), line: cur.line };
      cur = undefined;
      if (l.text.trim() !== '') onBad?.(l.line, l.text, l.cut);
    }
  }
  if (cur) yield { ts: cur.ts, text: cur.lines.join('\n'), line: cur.line };
}

/** The input history as rows: prompts (secondary user rows), typed confirm answers (system rows). */
export async function* parseInputHistory(a: Artifact): AsyncGenerator<Row> {
  const sessions = await readSessions(a.sibling('.aider.chat.history.md'));
  const bad: Row[] = [];
  for await (const e of readInputEntries(a, (line, text, cut) => bad.push(badLineRow(cut ? 'cut line, expected "# <time>" or "+<text>"' : 'expected "# <time>" or "+<text>"', text, line)))) {
    yield* bad.splice(0);
    const session = sessionAt(sessions, e.ts)?.id ?? '';
    const f = { timestamp_utc: e.ts, session_id: session, source_line: e.line, project_path: a.projectRoot ?? '' };
    if (!e.text.trim()) continue;
    if (ANSWER.test(e.text.trim())) {
      yield makeRow('system', `answer typed: ${e.text.trim()}`, { ...f, tag: 'confirm_answer' });
      continue;
    }
    // The same texts as the transcript's rows (chat-history.ts), so each typed line is one row.
    const input = classifyInput(e.text);
    if (input.kind === 'shell') yield makeRow('tool_use', input.text, { ...f, tool_name: input.tool, tag: 'history' });
    else yield makeRow(input.kind === 'slash' ? 'system' : 'user', input.text, { ...f, tag: input.kind === 'slash' ? 'slash_command' : 'history' });
  }
  yield* bad;
}
