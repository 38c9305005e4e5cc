import { createHash } from 'node:crypto';
import type { ParseContext, RowTag, TurnType } from '../../sdk/types.js';

/** A row before the loop fills the columns every row of a line shares. */
export interface Draft {
  turn: TurnType;
  text: string;
  tool_name?: string;
  tool_use_id?: string;
  /** Overrides the model column (assistant lines, synthetic messages). */
  model?: string;
  tag?: RowTag;
  /** Overrides the line's timestamp (a snapshot's own time, a held queue entry's time). */
  ts?: string;
  /** Overrides the source line (rows emitted at end of file for an earlier line). */
  line?: number;
  /** Overrides project_path (a scratch directory row names the directory itself). */
  project?: string;
}

/** What a record handler returns: rows, a reason the line gives none, or `held` (decided at end of file). */
export type Outcome = Draft[] | string | 'held';

/** A queued prompt waiting to see whether the transcript delivers it as a user line. */
interface PendingQueued {
  text: string;
  ts: string;
  line: number;
}

const MAX_MESSAGES_REMEMBERED = 256;

/** Everything a transcript parse remembers between lines. */
export class TranscriptState {
  /** Session id from the path ('' for flat agent files until a line names it). */
  sessionId: string;
  readonly sidechain: boolean;
  agentId: string;
  agentType = '';
  cwd = '';
  branch = '';
  /** The time of the latest dated line (for facts a metadata record reports). */
  time = '';
  client = '';
  model = '';
  permissionMode = '';
  sessionName = '';
  customTitleSet = false;
  readonly seenUuids = new Set<string>();
  readonly toolNames = new Map<string, string>();
  /** Last value of each deduplicated-by-value metadata kind (snapshots, pr-link, mode...). */
  readonly lastMeta = new Map<string, string>();
  readonly summaries = new Set<string>();
  readonly pending: PendingQueued[] = [];
  /** The requested model of the last `api-request` (a change gives a `model:` row). */
  requestedModel = '';
  /** Whether an `api-request-shape` gave the system prompt row (else a prompt snapshot does at end of file). */
  systemPromptFromShape = false;
  /** The first prompt snapshot's system prompt, for a file without a request shape. */
  snapshotPrompt: { text: string; ts: string; line: number } | undefined;
  /** MCP tools seen per server (offered or called), reported to the inventory at end of file. */
  readonly mcpTools = new Map<string, Set<string>>();
  /** `<server>\u0000<error>` of MCP failures already reported from this file. */
  readonly mcpFailures = new Set<string>();
  private readonly blocks = new Map<string, Set<string>>();
  private readonly reported = new Map<string, string>();

  constructor(
    readonly ctx: ParseContext,
    sessionId: string,
    sidechain: boolean,
    agentId: string,
  ) {
    this.sessionId = sessionId;
    this.sidechain = sidechain;
    this.agentId = agentId;
  }

  /** True the first time a content block of a response is seen; false for a repeat. */
  firstBlock(messageId: string, key: string): boolean {
    if (!messageId) return true;
    let set = this.blocks.get(messageId);
    if (!set) {
      set = new Set();
      this.blocks.set(messageId, set);
      // Blocks of one response are written together; a small window is enough and bounds memory.
      if (this.blocks.size > MAX_MESSAGES_REMEMBERED) this.blocks.delete(this.blocks.keys().next().value as string);
    }
    const h = createHash('sha1').update(key).digest('base64');
    if (set.has(h)) return false;
    set.add(h);
    return true;
  }

  /** A later user row with this text delivers a held queued prompt: drop that entry. */
  delivered(text: string): number | undefined {
    const i = this.pending.findIndex((p) => p.text === text);
    if (i < 0) return undefined;
    return this.pending.splice(i, 1)[0].line;
  }

  /** Hold an enqueued prompt (a `remove` of a prompt already held adds nothing). */
  hold(text: string, ts: string, line: number, isRemove: boolean): boolean {
    if (isRemove && this.pending.some((p) => p.text === text)) return false;
    this.pending.push({ text, ts, line });
    return true;
  }

  /**
   * Report a session fact when its value changed since the last report of this file; `at` (the
   * line's time) makes a cwd or branch a point of the session's history, so rows of other files
   * take the directory in force at their own time.
   */
  fact(key: 'cwd' | 'branch' | 'client' | 'name', value: string, priority: number, sessionId = this.sessionId, at = ''): void {
    if (!sessionId) return;
    const k = `${sessionId}\u0000${key}\u0000${priority}`;
    if ((this.reported.get(k) ?? '') === value) return;
    this.reported.set(k, value);
    this.ctx.fact({ session_id: sessionId, key, value, priority, ...(at && (key === 'cwd' || key === 'branch') ? { at } : {}) });
  }

  /** Remember an MCP tool (`mcp__<server>__<tool>`) offered to or called by the model. */
  mcpTool(fullName: string): void {
    const m = /^mcp__(.+?)__(.+)$/.exec(fullName);
    if (!m) return;
    let tools = this.mcpTools.get(m[1]);
    if (!tools) {
      tools = new Set();
      this.mcpTools.set(m[1], tools);
    }
    // Bounded: a server offers tens of tools, not thousands.
    if (tools.size < 1000) tools.add(m[2]);
  }
}
