import { asNumber, asString, isObject, type JsonObject } from '../../sdk/decode.js';
import { readJsonArray } from '../../sdk/json-stream.js';
import { badLineRow, unreadableRow } from '../../sdk/row.js';
import type { Artifact, ParseContext, Row } from '../../sdk/types.js';
import { clientOf, projectOf, vscodeParser } from './common.js';
import { newReplay, type RemovedRequest, replayLog, type RequestLines } from './oplog.js';
import { stem, USER_PATTERNS } from './paths.js';
import { flushHeld } from './part-rows.js';
import { requestRows } from './request-rows.js';
import { flatWhere, sessionCtx, type SessionCtx, type Where } from './session-context.js';
import { leftoverRows, nameRow, prepare, reportFacts, startRow, wholeSessionRows } from './session-rows.js';

const TRANSFERRED = /\/transferredChatSessions\/[^/]+$/;

/**
 * Chat session files: workspaceStorage/<id>/chatSessions/<session id>.jsonl (the operation log,
 * VS Code 1.109+) and .json (the flat session before it), globalStorage/emptyWindowChatSessions/
 * (windows with no folder) and globalStorage/transferredChatSessions/ (a session in transit for
 * five minutes, secondary). Primary otherwise: a session copied to a second workspace on a
 * workspace transition, or a stale .json beside its .jsonl, is the same session in two primary
 * files, whose equal rows the analyzer keeps once (docs/formats.md, "Copies of one session");
 * copyRank puts a flat .json after the log form VS Code reads first.
 */
export const vscodeSessionParser = vscodeParser({
  name: 'chat-session',
  user: USER_PATTERNS.session,
  secondary: (rel) => TRANSFERRED.test(rel),
  toleranceSeconds: () => 60,
  copyRank: (rel) => (rel.endsWith('.json') ? 1 : 0),
  parse: parseSession,
});

async function* parseSession(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const project = (await projectOf(a, ctx)).path;
  if (a.rel.endsWith('.jsonl')) yield* parseLog(a, ctx, project);
  else yield* parseFlat(a, ctx, project);
}

function linesWhere(b: RequestLines | undefined, fallback: number): Where {
  return {
    field: (name) => (name ? b?.fields.get(name) : undefined) ?? b?.line ?? fallback,
    part: (j) => b?.parts[j] ?? b?.line ?? fallback,
  };
}

async function* parseLog(a: Artifact, ctx: ParseContext, project: string): AsyncGenerator<Row> {
  const fileId = stem(a.rel);
  const replay = newReplay();
  try {
    yield* replayLog(() => a.stream(), replay, ctx, { session_id: fileId, project_path: project });
  } catch (e) {
    yield unreadableRow(`could not read the session log: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, { session_id: fileId, project_path: project });
    return;
  }
  if (replay.lines === 0) {
    yield unreadableRow('expected a chat session operation log (one JSON entry per line), found an empty file', { session_id: fileId, project_path: project });
    return;
  }
  const session = replay.state;
  if (!session) return;
  const s = sessionCtx(ctx, sessionIdOf(session, fileId, ctx), project);
  const f = replay.sessionFields;
  yield* wholeSessionRows(s, session, (i) => linesWhere(replay.requests[i], replay.initialLine), { start: replay.initialLine, title: f.get('customTitle') ?? null, pending: f.get('pendingRequests') ?? null, input: f.get('inputState') ?? null }, a.mtime);
  yield* removedRows(s, replay.removed);
  reportFacts(s, session, clientOf(a.rel));
}

/** Requests the log took away (an edited or removed prompt), tagged removed_request. */
function* removedRows(s: SessionCtx, removed: RemovedRequest[]): Generator<Row> {
  if (removed.length === 0) return;
  const r: SessionCtx = { ...s, prevModel: undefined, prevMode: undefined, tag: 'removed_request', held: undefined, quiet: true };
  for (const x of removed) {
    yield* requestRows(r, x.request, linesWhere(x.lines, x.removedAt));
    yield* flushHeld(r);
  }
}

function sessionIdOf(session: JsonObject, fileId: string, ctx: ParseContext): string {
  const id = asString(session.sessionId) ?? '';
  if (id !== '' && id !== fileId) ctx.warn(`the session object names session ${id} but the file is named ${fileId}; the file name is used`);
  return fileId || id;
}

async function* parseFlat(a: Artifact, ctx: ParseContext, project: string): AsyncGenerator<Row> {
  const fileId = stem(a.rel);
  const s = sessionCtx(ctx, fileId, project);
  const head: JsonObject = {};
  let lastCompleted: number | undefined;
  let firstModel = '';
  let end: { complete: boolean; found: boolean; reason?: string; items: number } | undefined;
  try {
    for await (const ev of readJsonArray(a.stream(), ['requests'])) {
      if (ev.kind === 'field') {
        if (ev.path.length === 1) {
          Object.defineProperty(head, ev.path[0], { value: ev.value, enumerable: true, writable: true, configurable: true });
          prepare(s, head);
        }
      } else if (ev.kind === 'item') {
        yield* requestRows(s, ev.value, flatWhere(ev.index));
        if (firstModel === '' && isObject(ev.value)) firstModel = asString(ev.value.modelId) ?? '';
        const done = isObject(ev.value) && isObject(ev.value.modelState) ? asNumber(ev.value.modelState.completedAt) : undefined;
        if (done !== undefined) lastCompleted = done;
      } else if (ev.kind === 'bad') {
        yield badLineRow(`request ${ev.index} of the session: ${ev.reason}`, ev.preview, ev.index, { session_id: fileId, project_path: project });
      } else end = ev;
    }
  } catch (e) {
    yield unreadableRow(`could not read the session file: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, { session_id: fileId, project_path: project });
    return;
  }
  if (end && !end.complete && !end.found && Object.keys(head).length === 0) {
    yield unreadableRow(`expected a chat session (a JSON object with "requests"), found ${end.reason ?? 'something else'}`, { session_id: fileId, project_path: project });
    return;
  }
  if (end && !end.complete) yield badLineRow(`the session file is cut after ${end.items} complete request(s): ${end.reason ?? 'incomplete'}`, '', end.items, { session_id: fileId, project_path: project });
  yield* flushHeld(s);
  s.sessionId = sessionIdOf(head, fileId, ctx);
  yield startRow(s, head, null, s.fallbackModel || firstModel);
  const name = nameRow(s, head, null, lastCompleted);
  if (name) yield name;
  yield* leftoverRows(s, head, { pending: null, input: null }, a.mtime);
  reportFacts(s, head, clientOf(a.rel));
}
