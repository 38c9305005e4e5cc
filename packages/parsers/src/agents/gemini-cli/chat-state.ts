import { createHash } from 'node:crypto';
import { makeRow } from '../../sdk/row.js';
import type { ParseContext, Row, RowTag, TurnType } from '../../sdk/types.js';
import type { FamilyProfile } from './profile.js';

/** A row before the file-level columns are filled in. */
export interface Draft {
  turn: TurnType;
  text: string;
  /** The row's own time; absent: the latest time seen in the file. */
  ts?: string;
  tool_name?: string;
  tool_use_id?: string;
  model?: string;
  tag?: RowTag;
}

/** A line that gives no row, and why (for the accounting tests). */
export type Skip = string;

/** What a chat parse knows so far: the session, the project, the model, what already has rows. */
export class ChatState {
  /** The file's own session id (metadata sessionId, or Qwen's record sessionId). */
  sessionId = '';
  /** For a subagent chat: the parent session its rows belong to; '' for a main chat. */
  parent = '';
  project = '';
  branch = '';
  model = '';
  /** The latest time seen, for records that carry none ($set, $rewindTo). */
  lastTs = '';
  /** A metadata line re-appeared (a resume): the $set.sessionId that follows needs no row of its own. */
  reinitCovered = false;
  /** Message ids whose rows were given (a later copy inside $set.messages gives none). */
  readonly emitted = new Set<string>();
  /** Tool call ids that have a tool_use row / a tool_result row. */
  readonly uses = new Set<string>();
  readonly results = new Set<string>();
  /** Last values of state-like records (summary, approval mode, ...), so a re-anchored copy gives no new row. */
  readonly lastValue = new Map<string, string>();
  // Hashes of emitted user and assistant texts, so re-keyed copies of them give no row.
  private readonly texts = new Set<string>();

  constructor(
    readonly ctx: ParseContext,
    readonly profile: FamilyProfile,
    /** Rows of a subagent chat are tagged `sidechain`. */
    readonly sidechain: boolean,
  ) {}

  /** The session rows carry: the parent's for a subagent, else the file's own. */
  get rowSession(): string {
    return this.parent || this.sessionId;
  }

  /** Remember a user or assistant text that got a row. */
  rememberText(text: string): void {
    this.texts.add(digest(text));
  }

  /** True when this text already has a user or assistant row in this file. */
  knownText(text: string): boolean {
    return this.texts.has(digest(text));
  }

  /** Advance the latest time seen. */
  see(ts: string): void {
    if (ts && ts > this.lastTs) this.lastTs = ts;
  }

  /** A full row from a draft. */
  row(d: Draft, line: number | null): Row {
    const tag = d.tag ?? (this.sidechain ? 'sidechain' : undefined);
    return makeRow(d.turn, d.text, {
      timestamp_utc: d.ts || this.lastTs,
      session_id: this.rowSession,
      project_path: this.project,
      git_branch: this.branch,
      model: d.model ?? this.model,
      tool_name: d.tool_name ?? '',
      tool_use_id: d.tool_use_id ?? '',
      source_line: line,
      ...(tag ? { tag } : {}),
    });
  }

  /** A system row that records a state (`session name`, `permission mode`), only when the value changed. */
  changed(key: string, value: string): boolean {
    if (this.lastValue.get(key) === value) return false;
    this.lastValue.set(key, value);
    return true;
  }
}

function digest(text: string): string {
  return createHash('sha1').update(text).digest('base64');
}
