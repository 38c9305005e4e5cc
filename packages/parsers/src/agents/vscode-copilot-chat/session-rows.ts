import { asNumber, asString, isObject, type JsonObject } from '../../sdk/decode.js';
import { makeRow } from '../../sdk/row.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { Row } from '../../sdk/types.js';
import { flushHeld } from './part-rows.js';
import { requestRows } from './request-rows.js';
import { base, ms, type SessionCtx, type Where } from './session-context.js';

/**
 * Session-level rows of a chat session object (chatModel.ts ISerializableChatData, versions 1 to
 * 3; chatSessionOperationLog.ts storageSchema): the start, the name, queued prompts and the unsent
 * draft. Versions 1 and 2 are read as VS Code's normalizeSerializableChatData reads them:
 * computedTitle as customTitle, initialLocation "editing-session" as panel.
 */

/** Take what the request rows need from the session object (branch, picker model and level). */
export function prepare(s: SessionCtx, session: JsonObject): void {
  const repo = isObject(session.repoData) ? session.repoData : {};
  s.branch = asString(repo.localBranch) ?? s.branch;
  const input = isObject(session.inputState) ? session.inputState : {};
  const picked = isObject(input.selectedModel) ? asString(input.selectedModel.identifier) : undefined;
  s.fallbackModel = picked ?? s.fallbackModel;
  s.permissionLevel = asString(input.permissionLevel) ?? s.permissionLevel;
}

/** The session's title as VS Code reads it. */
export function titleOf(session: JsonObject): string {
  return asString(session.customTitle) ?? asString(session.computedTitle) ?? '';
}

/** `session start:` with the keys present (spec), plus the requester (the GitHub login older files keep) and imported=true. */
export function startRow(s: SessionCtx, session: JsonObject, line: number | null, model: string): Row {
  const repo = isObject(session.repoData) ? session.repoData : {};
  let location = asString(session.initialLocation) ?? '';
  if (location === 'editing-session') location = 'panel';
  const f: [string, unknown][] = [
    ['location', location],
    ['responder', session.responderUsername],
    ['requester', session.requesterUsername],
    ['repo', repo.remoteUrl],
    ['branch', repo.localBranch],
    ['head', repo.localHeadCommit],
  ];
  let text = 'session start: vscode chat';
  for (const [k, v] of f) {
    const x = asString(v);
    if (x) text += ` ${k}=${x}`;
  }
  if (session.isImported === true) text += ' imported=true';
  return makeRow('system', text, base(s, { timestamp_utc: ms(session.creationDate), model, source_line: line, tag: 'session_start' }));
}

/** `session name:` at the last completion, else the last message, else the creation (spec: customTitle row). */
export function nameRow(s: SessionCtx, session: JsonObject, line: number | null, lastCompleted: number | undefined): Row | undefined {
  const title = titleOf(session);
  if (title === '') return undefined;
  const at = ms(lastCompleted) || ms(session.lastMessageDate) || ms(session.creationDate);
  return makeRow('system', `session name: ${title}`, base(s, { timestamp_utc: at, source_line: line, tag: 'session_name' }));
}

/** Queued prompts (pendingRequests) and the unsent draft (inputState.inputText, at the file's mtime). */
export function* leftoverRows(s: SessionCtx, session: JsonObject, lines: { pending: number | null; input: number | null }, mtime: string): Generator<Row> {
  for (const p of Array.isArray(session.pendingRequests) ? session.pendingRequests : []) {
    const req = isObject(p) && isObject(p.request) ? p.request : undefined;
    const text = req && isObject(req.message) ? asString(req.message.text) : undefined;
    if (text) yield makeRow('user', text, base(s, { source_line: lines.pending, tag: 'queued' }));
  }
  const input = isObject(session.inputState) ? session.inputState : {};
  const draft = asString(input.inputText) ?? '';
  if (draft.trim() !== '') yield makeRow('system', `unsent draft: ${draft}`, base(s, { timestamp_utc: toUtc(mtime), source_line: lines.input, tag: 'time_file' }));
}

/** The facts a session file reports: name, branch, client, project. */
export function reportFacts(s: SessionCtx, session: JsonObject, client: string): void {
  const title = titleOf(session);
  const id = s.sessionId;
  if (title) s.ctx.fact({ session_id: id, key: 'name', value: title, priority: 1 });
  if (s.branch) s.ctx.fact({ session_id: id, key: 'branch', value: s.branch, priority: 1 });
  if (s.project) s.ctx.fact({ session_id: id, key: 'cwd', value: s.project, priority: 1 });
  if (client) s.ctx.fact({ session_id: id, key: 'client', value: client, priority: 1 });
}

/** Where each request of a whole session object was written. */
export type WhereOf = (index: number) => Where;

/** Every row of a whole session object (the replayed log, a legacy ItemTable session), requests in order. */
export function* wholeSessionRows(s: SessionCtx, session: JsonObject, whereOf: WhereOf, lines: { start: number | null; title: number | null; pending: number | null; input: number | null }, mtime: string): Generator<Row> {
  prepare(s, session);
  const requests = Array.isArray(session.requests) ? session.requests : [];
  const first = requests.find(isObject);
  const firstModel = s.fallbackModel || (first ? (asString(first.modelId) ?? '') : '');
  yield startRow(s, session, lines.start, firstModel);
  let lastCompleted: number | undefined;
  for (let i = 0; i < requests.length; i++) {
    yield* requestRows(s, requests[i], whereOf(i));
    const r = requests[i];
    const done = isObject(r) && isObject(r.modelState) ? asNumber(r.modelState.completedAt) : undefined;
    if (done !== undefined) lastCompleted = done;
  }
  yield* flushHeld(s);
  const name = nameRow(s, session, lines.title, lastCompleted);
  if (name) yield name;
  yield* leftoverRows(s, session, lines, mtime);
}
