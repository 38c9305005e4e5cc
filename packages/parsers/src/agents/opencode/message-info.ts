import { asBool, asString, isObject, type JsonObject } from '../../sdk/decode.js';
import { toUtc } from '../../sdk/timestamp.js';
import { jsonText } from '../../sdk/compact-json.js';

/** What the rows of a message's parts need to know about the message (message-v2.ts `Info`). */
export interface MessageInfo {
  id: string;
  sessionId: string;
  /** `user` or `assistant` (anything else is kept as found). */
  role: string;
  /** time.created, UTC ('' when absent). */
  created: string;
  /** The model: a user message's `model.modelID`, an assistant's `modelID`. */
  model: string;
  provider: string;
  /** An assistant's `path.cwd` (the directory it worked in). */
  cwd: string;
  /** An assistant message that is a compaction summary (`summary: true`). */
  summary: boolean;
  /** An assistant's error (`{name, data: {message}}`), printed. */
  error: string;
  agent: string;
}

const obj = (v: unknown): JsonObject => (isObject(v) ? v : {});

/** A message's info from its JSON (the DB `data` column with the id columns, or a legacy file). */
export function messageInfo(data: JsonObject, ids: { id?: string; sessionId?: string; created?: unknown } = {}): MessageInfo {
  // The oldest builds kept time, session and model under `metadata` (`metadata.assistant.modelID`).
  const meta = obj(data.metadata);
  const old = obj(meta.assistant);
  const time = obj(data.time ?? meta.time);
  const model = obj(data.model);
  const role = asString(data.role) ?? '';
  return {
    id: ids.id || (asString(data.id) ?? ''),
    sessionId: ids.sessionId || (asString(data.sessionID) ?? asString(meta.sessionID) ?? ''),
    role,
    created: toUtc(time.created ?? ids.created),
    model: asString(data.modelID) ?? asString(model.modelID) ?? asString(old.modelID) ?? '',
    provider: asString(data.providerID) ?? asString(model.providerID) ?? asString(old.providerID) ?? '',
    cwd: asString(obj(data.path ?? old.path).cwd) ?? '',
    summary: asBool(data.summary) === true,
    error: errorText(data.error),
    agent: asString(data.agent) ?? asString(data.mode) ?? '',
  };
}

/** `<name>: <message>` of an error object (`{name, data: {message}}`, or `{name, message}`). */
export function errorText(e: unknown): string {
  if (e === undefined || e === null) return '';
  if (typeof e === 'string') return e;
  if (!isObject(e)) return String(e);
  const name = asString(e.name) ?? '';
  const message = asString(obj(e.data).message) ?? asString(e.message) ?? '';
  return [name, message].filter(Boolean).join(': ') || jsonText(e);
}
