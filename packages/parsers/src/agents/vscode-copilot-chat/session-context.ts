import { toUtc } from '../../sdk/timestamp.js';
import type { ParseContext, Row } from '../../sdk/types.js';

/** What every row of one session shares, and what carries from one request to the next. */
export interface SessionCtx {
  sessionId: string;
  project: string;
  branch: string;
  includeThinking: boolean;
  ctx: ParseContext;
  /** inputState.selectedModel.identifier: the model column when a request names none. */
  fallbackModel: string;
  /** inputState.permissionLevel: the level when a request's modeInfo has none. */
  permissionLevel: string;
  /** The last `model:` and `permission mode:` values printed (a row only on a change). */
  prevModel?: string;
  prevMode?: string;
  /** A tag every row gets (`removed_request`), or ''. */
  tag: string;
  /** No `model:` or `permission mode:` rows (a removed request's would only repeat the live ones). */
  quiet?: boolean;
  /**
   * The previous request, while its round calls no part showed are held back: a "Continue to
   * iterate?" request can show tool parts whose calls the previous request's rounds hold.
   */
  held?: HeldRequest;
}

/** A request whose unpaired round calls wait for the next request's parts (see {@link SessionCtx.held}). */
export interface HeldRequest {
  flush(): Generator<Row>;
  pair(toolId: string): unknown;
}

/** Where a request's records were written: the line (or array index) for a field or a part. */
export interface Where {
  field(name?: string): number | null;
  part(index: number): number | null;
}

/** The same source line for everything (a flat .json request: its array index). */
export function flatWhere(index: number | null): Where {
  return { field: () => index, part: () => index };
}

/** A new session context. */
export function sessionCtx(ctx: ParseContext, sessionId: string, project: string): SessionCtx {
  return { sessionId, project, branch: '', includeThinking: ctx.options.includeThinking, ctx, fallbackModel: '', permissionLevel: '', tag: '' };
}

/** The session's columns (and its tag) for a row. */
export function base(s: SessionCtx, fields: Partial<Row> = {}): Partial<Row> {
  const out: Partial<Row> = { session_id: s.sessionId, project_path: s.project, git_branch: s.branch, ...fields };
  if (s.tag && out.tag === undefined) out.tag = s.tag;
  return out;
}

/** Epoch milliseconds as a row timestamp, or ''. */
export function ms(v: unknown): string {
  return typeof v === 'number' && Number.isFinite(v) ? toUtc(v) : '';
}
