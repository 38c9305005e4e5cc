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
  model = '';
  permissionMode: string | undefined;
  agentMode: string | undefined;
  /** Whether a permission.requested line has printed the first `permission mode:` row. */
  modeShown = false;
  private readonly toolNames = new Map<string, string>();
  private readonly requested = new Set<string>();

  constructor(
    readonly sessionId: string,
    private readonly report: (key: FactKey, value: string) => void,
  ) {}

  /**
   * Take a working-directory context (session.start, session.resume, session.context_changed).
   * The context replaces the previous one whole: a directory outside git has no branch.
   */
  setContext(ctx: JsonObject): void {
    const cwd = text(ctx.cwd);
    if (cwd !== undefined && cwd !== this.cwd) {
      this.cwd = cwd;
      this.report('cwd', cwd);
    }
    const branch = text(ctx.branch) ?? '';
    if (branch !== this.branch) {
      this.branch = branch;
      if (branch !== '') this.report('branch', branch);
    }
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
    project_path: st.cwd,
    git_branch: st.branch,
    model: f.model !== undefined ? f.model : st.model,
    tool_name: f.tool_name ?? '',
    tool_use_id: f.tool_use_id ?? '',
    source_line: ev.line,
  });
  if (f.tag !== undefined) row.tag = f.tag;
  return row;
}
