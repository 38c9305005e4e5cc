/**
 * `.aider.chat.history.md`: everything aider showed in the terminal, appended forever (aider/io.py):
 * a header per launch ("# aider chat started at ..."), the user's input as "#### " lines, tool and
 * status output as "> " lines (the banner, "Applied edit to", "Commit", "Tokens:", confirm questions
 * ending with the answer), and the model's replies as plain Markdown between them. Read as a line
 * state machine, one block at a time (memory holds one block). The file has one time per session:
 * a prompt takes the time of the matching `.aider.input.history` entry (same text, in order, within
 * its session), every other row its session's start, tagged `time_session`.
 */
import { readLines } from '../../sdk/line-reader.js';
import { makeRow } from '../../sdk/row.js';
import type { Artifact, ParseContext, Row } from '../../sdk/types.js';
import { ANSWER, classifyInput, type InputEntry, readInputEntries } from './input-history.js';
import { type AiderSession, HEADER, sessionOf } from './sessions.js';
import { statusRows } from './status.js';

type BlockKind = 'user' | 'status' | 'assistant';

interface Block {
  kind: BlockKind;
  lines: string[];
  line: number;
}

/** Observers a test can attach to a parse. */
export interface ChatHooks {
  /** Called for each block that gives no row, with why. */
  onSkip?(line: number, reason: string): void;
}

class ChatRun {
  session: AiderSession | undefined;
  model = '';
  lastAssistant = '';
  /** The shell command of a "/run" or "!" prompt whose output the next status block is. */
  shell: { id: string; command: string } | undefined;
  runs = 0;
  next = 0;
  /** The time of the last typed prompt of the session: rows after it belong to its exchange. */
  lastTyped = '';
  /** The question of the last `/ask`, `/code`, `/architect` or `/context`: aider echoes it as the next input. */
  echo = '';

  constructor(
    readonly a: Artifact,
    readonly ctx: ParseContext,
    readonly inputs: InputEntry[],
    readonly hooks: ChatHooks,
  ) {}

  /** The time of the next input entry with this text, within the session; else undefined. */
  typedAt(text: string): string | undefined {
    const want = text.trim();
    for (let i = this.next; i < this.inputs.length; i++) {
      const e = this.inputs[i];
      if (this.session && e.ts && this.session.start && e.ts < this.session.start) continue;
      if (e.text.trim() === want) {
        this.next = i + 1;
        return e.ts;
      }
    }
    return undefined;
  }

  /**
   * A row of the current session. Without a time of its own it takes the last typed prompt's
   * (tag `time_exchange`: it belongs to that exchange) or the session's start (tag `time_session`).
   */
  row(turn: Row['turn_type'], text: string, line: number, fields: Partial<Row> = {}): Row {
    const s = this.session;
    const timed = fields.timestamp_utc !== undefined && fields.timestamp_utc !== '';
    const inherited = this.lastTyped ? { timestamp_utc: this.lastTyped, tag: 'time_exchange' } : s?.start ? { timestamp_utc: s.start, tag: 'time_session' } : {};
    return makeRow(turn, text, {
      session_id: s?.id ?? '',
      project_path: this.a.projectRoot ?? '',
      source_line: line,
      ...(timed ? {} : inherited),
      ...fields,
    });
  }
}

/** Parse a chat history into rows. */
export async function* parseChatHistory(a: Artifact, ctx: ParseContext, hooks: ChatHooks = {}): AsyncGenerator<Row> {
  const inputs: InputEntry[] = [];
  const input = a.sibling('.aider.input.history');
  if (input) for await (const e of readInputEntries(input)) if (!ANSWER.test(e.text.trim())) inputs.push(e);
  const run = new ChatRun(a, ctx, inputs, hooks);
  let block: Block | undefined;
  for await (const l of readLines(a.stream())) {
    const h = HEADER.exec(l.text);
    // io.py writes "#### " + input and "> " + output: a reply's ">>>>>>> REPLACE" or "##### Step" is reply text.
    const kind: BlockKind | 'blank' | 'header' = h ? 'header' : /^####(?: |$)/.test(l.text) ? 'user' : /^>(?: |$)/.test(l.text) ? 'status' : l.text.trim() === '' ? 'blank' : 'assistant';
    // A blank line ends a user or status block; inside a reply it is part of the text.
    if (block && (kind !== block.kind && !(kind === 'blank' && block.kind === 'assistant'))) {
      yield* blockRows(run, block);
      block = undefined;
    }
    if (kind === 'header') {
      run.session = sessionOf(a, h![1]);
      run.shell = undefined;
      run.lastAssistant = '';
      run.lastTyped = '';
      yield run.row('system', `session start: aider chat started at ${h![1]} (local time, zone not recorded)`, l.line, { timestamp_utc: run.session.start, tag: 'session_start' });
      continue;
    }
    if (kind === 'blank') {
      // Kept inside a reply (its paragraphs), so a reply and the architect hand-off of it compare equal.
      if (block?.kind === 'assistant') block.lines.push('');
      continue;
    }
    const text = kind === 'user' ? l.text.replace(/^####\s?/, '') : kind === 'status' ? l.text.replace(/^>\s?/, '') : l.text;
    if (!block) block = { kind, lines: [], line: l.line };
    block.lines.push(text.replace(/ {2}$/, ''));
  }
  if (block) yield* blockRows(run, block);
}

function* blockRows(run: ChatRun, b: Block): Generator<Row> {
  if (b.kind === 'assistant') {
    const text = b.lines.join('\n').trim();
    run.lastAssistant = text;
    run.shell = undefined;
    yield run.row('assistant', text, b.line, { model: run.model });
    return;
  }
  if (b.kind === 'status') {
    const rows = statusRows(run, b.lines, b.line);
    if (rows.length === 0) run.hooks.onSkip?.(b.line, 'empty status block');
    yield* rows;
    run.shell = undefined;
    return;
  }
  const text = b.lines.join('\n').replace(/\s+$/, '');
  // Architect mode hands the architect's reply to the editor model as its prompt: not typed.
  if (text.trim() && text.trim() === run.lastAssistant) {
    yield run.row('system', `architect plan passed to the editor model (${b.lines.length} lines)`, b.line, { tag: 'architect_handoff' });
    return;
  }
  if (!text.trim()) {
    run.hooks.onSkip?.(b.line, 'empty input');
    return;
  }
  if (run.echo && text.trim() === run.echo) {
    run.echo = '';
    run.hooks.onSkip?.(b.line, 'echo of the /ask (or /code, /architect, /context) question above');
    return;
  }
  run.echo = /^\/(?:ask|code|architect|context)\s+([\s\S]+)$/.exec(text.trim())?.[1].trim() ?? '';
  const typed = run.typedAt(text);
  if (typed) run.lastTyped = typed;
  const at = typed ? { timestamp_utc: typed } : {};
  const input = classifyInput(text);
  if (input.kind === 'shell') {
    run.runs++;
    run.shell = { id: `${run.session?.id ?? 'aider'}-run-${run.runs}`, command: input.text };
    yield run.row('tool_use', input.text, b.line, { ...at, tool_name: input.tool, tool_use_id: run.shell.id });
  } else yield run.row(input.kind === 'slash' ? 'system' : 'user', input.text, b.line, { ...at, ...(input.kind === 'slash' ? { tag: 'slash_command' } : {}) });
}
