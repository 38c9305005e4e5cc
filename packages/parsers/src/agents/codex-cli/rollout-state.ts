import type { FactKey, ParseContext, RowTag, TurnType } from '../../sdk/types.js';
import { type TwinFamily, type TwinKind, TwinTracker } from './twins.js';

/** A row before the parser fills the columns every row of a rollout shares. */
export interface Draft {
  turn: TurnType;
  text: string;
  tool_name?: string;
  tool_use_id?: string;
  tag?: RowTag;
  /** The row's own time when the line's is not it. */
  ts?: string;
  /** The model column, when not the one in force. */
  model?: string;
}

/** What a rollout's lines have said so far: session facts, the policy in force, the calls. */
export class RolloutState {
  sessionId: string;
  cwd = '';
  branch = '';
  model = '';
  effort = '';
  summary = '';
  approval = '';
  sandbox = '';
  /** A session_meta was read (the first one is the thread's identity; later ones are copied history). */
  metaSeen = false;
  /** A turn_context was read: the policy comes from there, not from the injected environment context. */
  turnContextSeen = false;
  /** world_state's approved command prefixes as last reported (compact JSON). */
  approvedPrefixes = '';
  /** Fork replay: lines before the fork's own first turn are the parent's copied history. */
  replay = false;
  forkStartMs = 0;
  readonly calls = new Map<string, string>();
  /** Calls that already gave an `exec end:` row (exec_command_end and item_completed CommandExecution repeat each other). */
  readonly execEnded = new Set<string>();
  private readonly copies = TwinTracker.pair<{ draft: Draft; line: number; ts: string }>();

  /** A response item's text: its event and item_completed copies will match it. */
  item(kind: TwinKind, texts: readonly string[]): void {
    this.copies.event.item(kind, texts);
    this.copies.completed.item(kind, texts);
  }

  /** An event or item_completed copy; see {@link TwinTracker.event}. */
  copy(family: TwinFamily, kind: TwinKind, texts: readonly string[], row: { draft: Draft; line: number; ts: string }): boolean {
    return this.copies[family].event(kind, texts, row);
  }

  /** Texts waiting for their twin; a build that never marks turn ends would otherwise grow this with the file. */
  get waiting(): number {
    return this.copies.event.size + this.copies.completed.size;
  }

  /** The end of a turn: copies left without their item, in line order. */
  flushCopies(): { kind: TwinKind; row: { draft: Draft; line: number; ts: string } }[] {
    return [...this.copies.event.flush(), ...this.copies.completed.flush()].sort((a, b) => a.row.line - b.row.line);
  }

  constructor(
    readonly ctx: ParseContext,
    fileSessionId: string,
  ) {
    this.sessionId = fileSessionId;
  }

  /** Report a session fact; cwd and branch carry the time they were seen. */
  fact(key: FactKey, value: string, at?: string): void {
    if (!this.sessionId || !value) return;
    this.ctx.fact({ session_id: this.sessionId, key, value, priority: 1, ...(at && (key === 'cwd' || key === 'branch') ? { at } : {}) });
  }

  /** The tool name remembered for a call id. */
  toolOf(callId: string): string {
    return this.calls.get(callId) ?? '';
  }

  /** Remember the tool name of a call. */
  remember(callId: string, name: string): void {
    if (callId && name) this.calls.set(callId, name);
  }

  /** A new working directory: a `cwd:` row on a change (not at the first), and a fact as of `at`. */
  changeCwd(cwd: string, at: string): Draft[] {
    if (!cwd || cwd === this.cwd) return [];
    const old = this.cwd;
    this.cwd = cwd;
    this.fact('cwd', cwd, at);
    return old ? [{ turn: 'system', text: `cwd: ${old} -> ${cwd}`, tag: 'cwd' }] : [];
  }
}

/** The millisecond time a UUIDv7 encodes, or NaN for another kind of id. */
export function uuidV7Ms(id: string): number {
  const m = /^([0-9a-f]{8})-([0-9a-f]{4})-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i.exec(id);
  return m ? Number.parseInt(m[1] + m[2], 16) : Number.NaN;
}
