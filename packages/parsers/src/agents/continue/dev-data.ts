/**
 * Continue's dev data: one JSONL file per event (`dev_data/0.2.0/<eventName>.jsonl`, older builds
 * `dev_data/<eventName>.jsonl`), appended on every chat request and tool use, always written
 * locally (core/data/log.ts). Schemas: packages/config-yaml/src/schemas/data/ (base: eventName,
 * schema, timestamp (createdAt before 0.2.0), userId, userAgent, selectedProfileId;
 * chatInteraction: prompt, completion, modelTitle, modelProvider, sessionId; toolUsage:
 * toolCallId, functionName, toolCallArgs/functionArgs, parsedArgs/functionParams, accepted,
 * succeeded, output). A session's parser reads these lines for its times; this parser gives them
 * as secondary rows, so they stand alone where the session file is gone (a deleted chat).
 */
import { asBool, asString, type JsonObject } from '../../sdk/decode.js';
import { readJsonLines } from '../../sdk/line-reader.js';
import { badLineRow, makeRow } from '../../sdk/row.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { Artifact, ParseContext, Row } from '../../sdk/types.js';
import { DEV_DATA_DIRS } from './paths.js';
import { contextItemsText, digest, toolArgsText } from './text.js';

/** One chat request of a session, as the session parser needs it. */
export interface Interaction {
  ts: string;
  /** Digest of the completion (the reply's text). */
  hash: string;
  model: string;
  provider: string;
}

/** One tool use, by its call id. */
export interface ToolUse {
  ts: string;
  name: string;
  accepted?: boolean;
  succeeded?: boolean;
}

/** A dev data line's time (`timestamp`, or `createdAt` before schema 0.2.0). */
export function lineTime(v: JsonObject): string {
  return toUtc(v.timestamp) || toUtc(v.createdAt);
}

/** The arguments of a toolUsage line, in the same text as the session's tool call. */
export function toolUsageArgs(v: JsonObject): string {
  return toolArgsText(v.toolCallArgs ?? v.functionArgs ?? v.functionParams ?? v.parsedArgs);
}

/** The decision a toolUsage line states, as a row text (the session parser writes the same). */
export function decisionText(name: string, accepted: boolean | undefined): string | undefined {
  return accepted === undefined ? undefined : `${accepted ? 'approved' : 'denied'}: ${name}`;
}

function devFile(a: Artifact, event: string): Artifact | undefined {
  for (const d of DEV_DATA_DIRS) {
    const f = a.sibling(`${d}${event}.jsonl`);
    if (f) return f;
  }
  return undefined;
}

/** The chat requests of one session, in file order (lines not naming the session are never parsed). */
export async function loadInteractions(session: Artifact, sessionId: string): Promise<Interaction[]> {
  const f = devFile(session, 'chatInteraction');
  const out: Interaction[] = [];
  if (!f || !sessionId) return out;
  for await (const l of readJsonLines(f.stream())) {
    if (!l.text.includes(sessionId) || !l.value) continue;
    const v = l.value;
    if (asString(v.sessionId) !== sessionId) continue;
    out.push({ ts: lineTime(v), hash: digest(asString(v.completion) ?? ''), model: asString(v.modelTitle) ?? asString(v.modelName) ?? '', provider: asString(v.modelProvider) ?? '' });
  }
  return out;
}

/** The tool uses with one of the given call ids (toolUsage lines carry no session id). */
export async function loadToolUses(session: Artifact, ids: ReadonlySet<string>): Promise<Map<string, ToolUse>> {
  const out = new Map<string, ToolUse>();
  const f = devFile(session, 'toolUsage');
  if (!f || ids.size === 0) return out;
  for await (const l of readJsonLines(f.stream())) {
    const id = /"toolCallId"\s*:\s*"([^"]*)"/.exec(l.text)?.[1];
    if (!id || !ids.has(id) || !l.value) continue;
    const v = l.value;
    out.set(id, { ts: lineTime(v), name: asString(v.functionName) ?? '', accepted: asBool(v.accepted), succeeded: asBool(v.succeeded) });
  }
  return out;
}

// Events with nothing for a timeline (completions offered while typing, token counters).
const SKIPPED = new Set(['autocomplete', 'nextEditWithHistory', 'nextEdit', 'tokensGenerated']);

/** A dev data file: its lines as secondary rows (each joins the session's own copy when there is one). */
export async function* parseDevData(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  for await (const l of readJsonLines(a.stream())) {
    if (l.blank) continue;
    if (!l.value || l.error) {
      yield badLineRow(l.error ?? 'invalid JSON', l.text, l.line);
      continue;
    }
    yield* lineRows(a, ctx, l.value, l.line);
  }
}

function lineRows(a: Artifact, ctx: ParseContext, v: JsonObject, line: number): Row[] {
  const event = asString(v.eventName) ?? '';
  const ts = lineTime(v);
  const f = (session = '') => ({ timestamp_utc: ts, session_id: session, source_line: line });
  if (event === 'chatInteraction') {
    const session = asString(v.sessionId) ?? '';
    const model = asString(v.modelTitle) ?? asString(v.modelName) ?? '';
    const rows = [makeRow('system', `chat request: model=${model} provider=${asString(v.modelProvider) ?? ''}`, { ...f(session), model, tag: 'api_request' })];
    // The prompt as sent (system text and earlier turns included): printed only when the session file is gone.
    const prompt = asString(v.prompt);
    if (prompt && session && !a.sibling(`../../sessions/${session}.json`) && !a.sibling(`../sessions/${session}.json`)) rows.push(makeRow('user', prompt, { ...f(session), tag: 'rendered_prompt' }));
    const completion = asString(v.completion);
    if (completion) rows.push(makeRow('assistant', completion, { ...f(session), model }));
    return rows;
  }
  if (event === 'toolUsage') {
    const id = asString(v.toolCallId) ?? '';
    const name = asString(v.functionName) ?? '';
    const rows = [makeRow('tool_use', toolUsageArgs(v), { ...f(), tool_name: name, tool_use_id: id })];
    const decision = decisionText(name, asBool(v.accepted));
    if (decision) rows.push(makeRow('system', decision, { ...f(), tool_name: name, tool_use_id: id, tag: 'permission_decision' }));
    const output = contextItemsText(v.output);
    if (output || v.output !== undefined) rows.push(makeRow('tool_result', asBool(v.succeeded) === false ? `[error] ${output}` : output, { ...f(), tool_name: name, tool_use_id: id }));
    return rows;
  }
  if (event === 'editOutcome' || event === 'nextEditOutcome') {
    const file = asString(v.filepath) ?? asString(v.fileUri) ?? '';
    return [makeRow('system', `${event}: accepted=${asBool(v.accepted) ?? '?'} ${file}`.trimEnd(), { ...f(), model: asString(v.modelName) ?? asString(v.modelTitle) ?? '', tag: 'edit_outcome' })];
  }
  if (event === 'chatFeedback') return [makeRow('system', `chat feedback: ${asString(v.feedback) ?? asString(v.rating) ?? ''}`.trimEnd(), { ...f(asString(v.sessionId) ?? ''), tag: 'feedback' })];
  if (event === 'quickEdit' || event === 'editInteraction') {
    return [makeRow('system', `${event}: ${asString(v.prompt) ?? ''}`.trimEnd(), { ...f(), model: asString(v.modelTitle) ?? asString(v.modelName) ?? '' })];
  }
  if (SKIPPED.has(event)) return [];
  ctx.unknown(`dev data event ${event || '(none)'}`, line);
  return [makeRow('system', `dev data ${event || '(no eventName)'} (${a.rel.split('/').pop()})`, { ...f(), tag: 'unknown' })];
}
