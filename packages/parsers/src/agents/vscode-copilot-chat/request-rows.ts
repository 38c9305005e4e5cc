import { compactJson } from '../../sdk/compact-json.js';
import { asNumber, asString, isObject, type JsonObject } from '../../sdk/decode.js';
import { makeRow } from '../../sdk/row.js';
import type { Row } from '../../sdk/types.js';
import { partRows } from './part-rows.js';
import { base, ms, type SessionCtx, type Where } from './session-context.js';
import { RoundBook } from './tools.js';
import { uriToPath } from './uri.js';

const EDIT_EVENTS: Record<number, string> = { 1: 'keep', 2: 'undo', 3: 'user modification' };
const MODEL_STATES: Record<number, string> = { 2: 'request cancelled', 3: 'request failed', 4: 'waiting for input' };
const ATTACHMENT_KINDS = new Set(['file', 'directory', 'image', 'symbol']);

/**
 * The mode a request ran in: modeInfo.kind, else the participant's id read as its mode (spec:
 * github.copilot.editsAgent for agent mode, github.copilot.default for ask; the editing-session
 * participant for edit mode, inferred from its name), else the participant id as written.
 */
export function modeOf(req: JsonObject): string {
  const info = isObject(req.modeInfo) ? req.modeInfo : undefined;
  const kind = asString(info?.kind);
  if (kind) return kind;
  const id = isObject(req.agent) ? (asString(req.agent.id) ?? '') : '';
  if (id === 'github.copilot.editsAgent') return 'agent';
  if (id === 'github.copilot.default') return 'ask';
  if (id.startsWith('github.copilot.editingSession')) return 'edit';
  return id;
}

/** The model column of a request's rows: resolvedModel, else modelId, else the session's picker. */
export function modelOf(s: SessionCtx, req: JsonObject): string {
  const md = isObject(req.result) && isObject(req.result.metadata) ? req.result.metadata : {};
  return asString(md.resolvedModel) || asString(req.modelId) || s.fallbackModel;
}

/** Every row of one request, in the spec's order (Parser plan, "Per request"). */
export function* requestRows(s: SessionCtx, raw: unknown, where: Where): Generator<Row> {
  if (!isObject(raw)) {
    s.ctx.warn(`expected a request object, found ${raw === null ? 'null' : typeof raw}; skipped`, where.field() ?? undefined);
    return;
  }
  const req = raw;
  const model = modelOf(s, req);
  const sent = asNumber(req.timestamp);
  const sentTs = ms(sent);
  const state = isObject(req.modelState) ? req.modelState : {};
  const completed = asNumber(state.completedAt);
  const endTs = ms(completed) || sentTs;
  const row = (turn: Row['turn_type'], text: string, field: string, f: Partial<Row> = {}) => makeRow(turn, text, base(s, { model, timestamp_utc: sentTs, source_line: where.field(field), ...f }));
  const md = isObject(req.result) && isObject(req.result.metadata) ? req.result.metadata : {};

  const modelId = asString(req.modelId);
  if (modelId && modelId !== s.prevModel && !s.quiet) {
    const resolved = asString(md.resolvedModel);
    const text = s.prevModel === undefined ? `model: ${modelId}${resolved && resolved !== modelId ? ` resolved=${resolved}` : ''}` : `model: ${s.prevModel} -> ${modelId}`;
    s.prevModel = modelId;
    yield row('system', text, 'modelId', { tag: 'model' });
  }
  const info = isObject(req.modeInfo) ? req.modeInfo : {};
  const kind = modeOf(req);
  const mode = `${asString(info.permissionLevel) || s.permissionLevel || 'default'}${kind ? ` agent=${kind}` : ''}`;
  if (mode !== s.prevMode && !s.quiet) {
    const text = s.prevMode === undefined ? `permission mode: ${mode}` : `permission mode: ${s.prevMode} -> ${mode}`;
    s.prevMode = mode;
    yield row('system', text, 'modeInfo', { tag: 'permission_mode' });
  }

  const message = isObject(req.message) ? req.message : {};
  let prompt = asString(message.text) ?? (typeof req.message === 'string' ? req.message : '');
  const slash = isObject(req.slashCommand) ? asString(req.slashCommand.name) : undefined;
  if (slash && !prompt.startsWith(`/${slash}`)) prompt = `/${slash} ${prompt}`;
  if (req.isSystemInitiated === true) yield row('system', `system-initiated ${asString(req.systemInitiatedLabel) ?? ''}: ${prompt}`, 'message', { tag: 'system_initiated' });
  else if (prompt !== '') yield row('user', prompt, 'message');
  const vars = isObject(req.variableData) && Array.isArray(req.variableData.variables) ? req.variableData.variables : [];
  for (const v of vars) {
    if (!isObject(v) || !ATTACHMENT_KINDS.has(asString(v.kind) ?? '')) continue;
    const value = isObject(v.value) && isObject(v.value.uri) ? v.value.uri : v.value;
    const loc = v.kind === 'image' || value === undefined ? `(${asString(v.kind)})` : uriToPath(value) || `(${asString(v.kind)})`;
    yield row('system', `attachment: ${asString(v.name) ?? ''} ${loc}`, 'variableData', { tag: 'attachment' });
  }

  const parts = Array.isArray(req.response) ? req.response : typeof req.response === 'string' ? [req.response] : [];
  yield* partRows(s, { parts, book: new RoundBook(md), where, sent, completed, model });

  const result = isObject(req.result) ? req.result : {};
  const err = isObject(result.errorDetails) ? result.errorDetails : undefined;
  if (err) {
    const t = ['error:', asString(err.code) ?? '', asString(err.message) ?? compactJson(err)].filter(Boolean).join(' ');
    yield row('system', t, 'result', { timestamp_utc: endTs, tag: 'error' });
  }
  const st = asNumber(state.value);
  if (st !== undefined && MODEL_STATES[st]) yield row('system', MODEL_STATES[st], 'modelState', { timestamp_utc: endTs, tag: 'request_state' });
  else if (st === undefined && req.isCanceled === true) yield row('system', 'request cancelled', 'isCanceled', { timestamp_utc: endTs, tag: 'request_state' });
  for (const e of Array.isArray(req.editedFileEvents) ? req.editedFileEvents : []) {
    if (!isObject(e)) continue;
    const k = asNumber(e.eventKind);
    yield row('system', `edited file event: ${(k !== undefined && EDIT_EVENTS[k]) || `kind ${asString(e.eventKind) ?? '?'}`} ${uriToPath(e.uri)}`, 'editedFileEvents', { timestamp_utc: endTs, tag: 'edited_file_event' });
  }
  if (req.vote === 1 || req.vote === 0) {
    const reason = req.vote === 0 && req.voteDownReason !== undefined ? ` ${asString(req.voteDownReason) ?? compactJson(req.voteDownReason)}` : '';
    yield row('system', `feedback: ${req.vote === 1 ? 'up' : 'down'}${reason}`, 'vote', { timestamp_utc: endTs, tag: 'feedback' });
  }
}
