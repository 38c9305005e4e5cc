import type { Artifact, ParseContext } from '../../sdk/types.js';
import { ChatState } from './chat-state.js';
import { type FamilyPaths, isBackgroundRunDir } from './paths.js';
import { type ProjectClues, resolveProject } from './project.js';

/** Observers a test can attach to a chat parse. */
export interface ChatHooks {
  /** Called once for every record that gives no row, with why. */
  onSkip?(line: number, reason: string): void;
}

/**
 * The state a chat starts with: a subagent chat is tied to its parent session (the directory it
 * sits in) unless that directory is a background run such as `skill-extraction-<hex>`; a chat
 * under `tmp/<id>/` takes its project from the directory (Qwen's records carry their cwd).
 */
export async function newChatState(a: Artifact, ctx: ParseContext, paths: FamilyPaths, clues: ProjectClues): Promise<ChatState> {
  const parentDir = paths.parentDir(a.rel);
  const st = new ChatState(ctx, paths.profile, parentDir !== '');
  if (parentDir && !isBackgroundRunDir(parentDir)) st.parent = parentDir;
  if (/^[^/]+\/tmp\//i.test(a.rel)) st.project = await resolveProject(a, paths, clues);
  return st;
}

/** A tmp-layout chat's project is its session's cwd from the session's start (ChatRecords report their own cwd as they go). */
export function reportProject(st: ChatState, at: string): void {
  if (!st.project || !st.rowSession) return;
  st.ctx.fact({ session_id: st.rowSession, key: 'cwd', value: st.project, priority: st.sidechain ? 4 : 1, ...(at ? { at } : {}) });
}
