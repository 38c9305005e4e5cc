import { asArray, asBool, asObject, asString, type JsonObject } from '../../sdk/decode.js';
import { makeRow } from '../../sdk/row.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { Row, RowTag } from '../../sdk/types.js';
import type { ConversationState } from './bubble-rows.js';
import { pathOfUriValue } from './text.js';

/** The state a composer's rows start from: its id, project, branch, model and times. */
export function composerState(c: JsonObject, id: string, project: string): ConversationState {
  return {
    sessionId: id,
    project,
    branch: asString(c.createdOnBranch) ?? '',
    model: asString(asObject(c.modelConfig)?.modelName) ?? '',
    prevTime: '',
    sessionTime: toUtc(c.createdAt),
    orphan: false,
  };
}

function row(st: ConversationState, text: string, time: string, line: number | null, tag: RowTag): Row {
  return makeRow('system', text, { timestamp_utc: time, session_id: st.sessionId, project_path: st.project, git_branch: st.branch, model: st.model, source_line: line, tag });
}

/** True for a path inside Cursor's own worktrees (`~/.cursor/worktrees/<repo>/<id>`): a parallel agent's scratch checkout. */
export function isAgentWorktree(path: string): boolean {
  return /[/\\]\.cursor[/\\]worktrees[/\\]/.test(path);
}

/** `session start:` and the first `model:` row, at the composer's createdAt. */
export function composerHeadRows(c: JsonObject, line: number | null, st: ConversationState, parent: string): Row[] {
  const parts = ['session start: cursor composer'];
  for (const [label, key] of [['mode', 'unifiedMode'], ['agentic', 'isAgentic'], ['status', 'status']] as const) {
    const v = asString(c[key]);
    if (v !== undefined && v !== '') parts.push(`${label}=${v}`);
  }
  if (parent) parts.push(`subagent of ${parent}`);
  const rows = [row(st, parts.join(' '), st.sessionTime, line, 'session_start')];
  if (isAgentWorktree(st.project)) rows.push(row(st, `scratch directory: ${st.project} (agent worktree)`, st.sessionTime, line, 'scratch_directory'));
  const mc = asObject(c.modelConfig);
  const model = asString(mc?.modelName);
  if (model) {
    const max = asBool(mc?.maxMode);
    rows.push(row(st, `model: ${model}${max === undefined ? '' : ` max=${max}`}`, st.sessionTime, line, 'model'));
  }
  return rows;
}

function filePath(v: unknown): string {
  if (typeof v === 'string') return pathOfUriValue(v);
  const o = asObject(v);
  return o ? pathOfUriValue(o.uri ?? o) : '';
}

/**
 * The rows a composer gives at its lastUpdatedAt: its name, line and file totals, the files it
 * changed (new ones marked), an unsent draft, and its subagents' sessions.
 */
export function composerTailRows(c: JsonObject, line: number | null, st: ConversationState): Row[] {
  const at = toUtc(c.lastUpdatedAt) || st.sessionTime;
  const rows: Row[] = [];
  const name = asString(c.name);
  if (name) rows.push(row(st, `session name: ${name}`, at, line, 'session_name'));
  const stats: string[] = [];
  const added = asString(c.totalLinesAdded);
  const removed = asString(c.totalLinesRemoved);
  if (added !== undefined) stats.push(`+${added}`);
  if (removed !== undefined) stats.push(`-${removed}`);
  const files = asString(c.filesChangedCount);
  if (files !== undefined) stats.push(`files=${files}`);
  const archived = asBool(c.isArchived);
  if (archived !== undefined) stats.push(`archived=${archived}`);
  if (stats.length) rows.push(row(st, `session stats: ${stats.join(' ')}`, at, line, 'session_stats'));
  const created = new Set((asArray(c.newlyCreatedFiles) ?? []).map(filePath).filter(Boolean));
  const changed = [...Object.keys(asObject(c.originalFileStates) ?? {}).map((k) => filePath(k)), ...created].filter(Boolean);
  for (const p of new Set(changed)) rows.push(row(st, `file changed: ${p}${created.has(p) ? ' (new)' : ''}`, at, line, 'file_changed'));
  const draft = asString(c.text);
  if (draft) rows.push(row(st, `unsent draft: ${draft}`, at, line, 'unsent_draft'));
  for (const id of asArray(c.subComposerIds) ?? []) {
    if (typeof id === 'string' && id) rows.push(row(st, `subagent session: ${id}`, at, line, 'subagent_session'));
  }
  return rows;
}

/** The bubble ids of a composer in conversation order (`fullConversationHeadersOnly`). */
export function headerBubbleIds(c: JsonObject): string[] {
  return (asArray(c.fullConversationHeadersOnly) ?? []).map((h) => (typeof h === 'string' ? h : (asString(asObject(h)?.bubbleId) ?? ''))).filter(Boolean);
}

/**
 * A composer whose messages are not (all) there: the header lists `listed` bubbles and `found` of
 * them have a record (`unlisted` more have one the header does not list); one that lists none and
 * holds none is an empty chat.
 */
export function missingRows(listed: number, found: number, unlisted: number, st: ConversationState, line: number | null, at: string): Row[] {
  if (listed === 0 && found === 0 && unlisted === 0) return [row(st, 'no messages: the composer lists none (a chat opened and never sent, or emptied)', at, line, 'session_empty')];
  if (found >= listed) return [];
  const text = found === 0 ? `messages gone: the composer lists ${listed}, no message record is left` : `messages missing: the composer lists ${listed}, ${listed - found} have no record`;
  return [row(st, text, at, line, 'messages_missing')];
}
