import type { JsonObject } from '../../sdk/decode.js';
import { makeRow } from '../../sdk/row.js';
import type { FactKey, Row, RowTag, TurnType } from '../../sdk/types.js';
import { text } from './events-values.js';

/** One event line as the handlers see it: the envelope already checked, `data` decoded to an object. */
export interface EventLine {
  /** The envelope's `type`. */
  type: string;
  /** The payload; `{}` when the line has none or it is not an object. */
  data: JsonObject;
  /** The whole parsed line (for envelope keys such as `agentId`). */
  envelope: JsonObject;
  /** Normalized timestamp, or '' when the line's is missing or invalid. */
  timestamp: string;
  /** 1-based line number. */
  line: number;
}

/** Columns a handler may set on a row; the session columns come from the state. */
export interface RowFields {
  /** The row's own model; undefined means the tracked session model, '' means none. */
  model?: string;
  /** The row's own working directory (an external tool's workingDirectory); undefined means the session's. */
  project_path?: string;
  tool_name?: string;
  tool_use_id?: string;
  tag?: RowTag;
}

/**
 * What one session's log has told the parser so far: the columns later rows inherit (cwd, branch,
 * model), the permission and agent modes (for the `permission mode:` rows) and the tool calls seen
 * (names for results and permission rows; ids announced by `toolRequests[]`).
 */
export class EventsState {
  cwd = '';
  branch = '';
  /** The model column of rows without their own: the last model change, else session.start/resume's selectedModel. */
  model = '';
  /** The model as session.model_change and auto_mode_resolved left it ('' before any): the `<old>` of a change. */
  changedModel = '';
  permissionMode: string | undefined;
  agentMode: string | undefined;
  /** Whether a permission.requested line has printed the first `permission mode:` row. */
  modeShown = false;
  private contextSeen = false;
  private readonly toolNames = new Map<string, string>();
  private readonly requested = new Set<string>();
  private readonly completed = new Set<string>();
  private readonly external = new Map<string, ExternalRequest>();

  constructor(
    readonly sessionId: string,
    private readonly report: (key: FactKey, value: string, at: string) => void,
  ) {}

  /**
   * Take a working-directory context (session.start, session.resume, session.context_changed) as
   * of `at` (the line's time; '' when it has none). The context replaces the previous one whole: a
   * directory outside git has no branch, reported as an empty branch from that time.
   */
  setContext(ctx: JsonObject, at: string): void {
    const cwd = text(ctx.cwd);
    if (cwd !== undefined && cwd !== this.cwd) {
      this.cwd = cwd;
      this.report('cwd', cwd, at);
    }
    const branch = text(ctx.branch) ?? '';
    const first = !this.contextSeen;
    this.contextSeen = true;
    // The first context says "no branch" too, so a later move into git does not lend its branch
    // to the rows before it; an undated "no branch" says nothing an absent report does not.
    if (branch !== this.branch || (first && at !== '')) {
      this.branch = branch;
      if (branch !== '' || at !== '') this.report('branch', branch, at);
    }
  }

  /** Note an external_tool.requested: its call, name and whether it gave the call's tool_use row. */
  rememberExternal(requestId: string | undefined, req: ExternalRequest): void {
    if (requestId !== undefined) this.external.set(requestId, req);
  }

  /** The external request of this id, if an earlier line made one. */
  externalRequest(requestId: string | undefined): ExternalRequest | undefined {
    return requestId === undefined ? undefined : this.external.get(requestId);
  }

  /** Note that a tool.execution_complete gave this call's tool_result row. */
  markCompleted(id: string | undefined): void {
    if (id !== undefined) this.completed.add(id);
  }

  /** Whether a tool.execution_complete already gave this call's result. */
  wasCompleted(id: string | undefined): boolean {
    return id !== undefined && this.completed.has(id);
  }

  /** Remember a tool call's name so its result and permission rows can carry it. */
  rememberTool(id: string | undefined, name: string | undefined): void {
    if (id !== undefined && name !== undefined) this.toolNames.set(id, name);
  }

  /** The name remembered for a tool call id, if any. */
  toolName(id: string | undefined): string | undefined {
    return id === undefined ? undefined : this.toolNames.get(id);
  }

  /** Note that an assistant.message's `toolRequests[]` announced this call (it already has its row). */
  markRequested(id: string | undefined): void {
    if (id !== undefined) this.requested.add(id);
  }

  /** Whether an earlier `toolRequests[]` had this id. */
  wasRequested(id: string | undefined): boolean {
    return id !== undefined && this.requested.has(id);
  }
}

/** An external_tool.requested remembered for its completion (paired by requestId). */
export interface ExternalRequest {
  toolCallId: string | undefined;
  toolName: string | undefined;
  /** The request gave the call's tool_use row (no toolRequests[] had announced it). */
  gaveToolUse: boolean;
}

/** What a handler gets: the line, the session state, the options, and where its rows go. */
export interface HandlerContext {
  ev: EventLine;
  st: EventsState;
  includeThinking: boolean;
  /** Add a row for this line, in order. */
  emit(turn: TurnType, text: string, fields?: RowFields): void;
  /** Say why this line would give no row; reported as a deliberate skip only when it gave none. */
  skip(reason: string): void;
  /** A parse warning with this line's number. */
  warn(message: string): void;
}

/** A record type's handler. It must not throw on odd shapes, but the caller guards it anyway. */
export type Handler = (c: HandlerContext) => void;

/** Build a row for `ev` with the session columns of `st`. */
export function eventRow(ev: EventLine, st: EventsState, turn: TurnType, body: string, f: RowFields = {}): Row {
  const row = makeRow(turn, body, {
    timestamp_utc: ev.timestamp,
    session_id: st.sessionId,
    project_path: f.project_path ?? st.cwd,
    git_branch: st.branch,
    model: f.model !== undefined ? f.model : st.model,
    tool_name: f.tool_name ?? '',
    tool_use_id: f.tool_use_id ?? '',
    source_line: ev.line,
  });
  if (f.tag !== undefined) row.tag = f.tag;
  return row;
}
