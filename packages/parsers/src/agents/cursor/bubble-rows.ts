import { asArray, asBool, asNumber, asObject, asString, isObject, type JsonObject } from '../../sdk/decode.js';
import { makeRow } from '../../sdk/row.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { ParseContext, Row, RowTag } from '../../sdk/types.js';
import { decodeJsonish, isTerminalTool, lexicalText, pathOfUriValue, textOf, toolResultText } from './text.js';
import { toolUseRow } from './tool-keys.js';
import { pushAll } from '../../sdk/push-all.js';

/** What the rows of one conversation share while its bubbles are read in order. */
export interface ConversationState {
  sessionId: string;
  project: string;
  branch: string;
  /** The model in force (the composer's, then each bubble's). */
  model: string;
  /** The last row's time: the fallback for a bubble without one of its own. */
  prevTime: string;
  /** The composer's createdAt: the last fallback for a user bubble. */
  sessionTime: string;
  /** Orphan bubbles (no composerData): every untagged row is tagged `orphan_bubble`. */
  orphan: boolean;
}

/** A checkpoint record (`checkpointId:<composer>:<id>`) and its rowid. */
export interface CheckpointRecord {
  line: number;
  value: unknown;
}

/** Facts and lookups a bubble's rows need from the database. */
export interface BubbleEnv {
  ctx: ParseContext;
  checkpoint(id: string): CheckpointRecord | undefined;
}

// timingInfo holds epoch milliseconds, except clientStartTime (a performance-clock offset such as
// 4745281.3): a value before 2001 is not a wall-clock time and is not used as one.
function timing(v: unknown): string {
  const n = asNumber(v);
  return n !== undefined && n >= 1e12 ? toUtc(n) : '';
}

function fields(st: ConversationState, line: number | null, time: string, tag?: RowTag): Partial<Row> {
  const f: Partial<Row> = { timestamp_utc: time, session_id: st.sessionId, project_path: st.project, git_branch: st.branch, model: st.model, source_line: line };
  const t = tag ?? (st.orphan ? 'orphan_bubble' : undefined);
  if (t) f.tag = t;
  return f;
}

// A user bubble's time: its createdAt, else the next assistant bubble's request time, else the
// previous row's, else the composer's; the borrowed ones say so in the tag.
function userTime(b: JsonObject, next: JsonObject | undefined, st: ConversationState): { time: string; tag?: RowTag } {
  const own = toUtc(b.createdAt);
  if (own) return { time: own };
  const sent = next && asNumber(next.type) === 2 ? timing(asObject(next.timingInfo)?.clientRpcSendTime) : '';
  if (sent) return { time: sent };
  if (st.prevTime) return { time: st.prevTime, tag: 'time_neighbor' };
  return st.sessionTime ? { time: st.sessionTime, tag: 'time_session' } : { time: '' };
}

function assistantTime(b: JsonObject, st: ConversationState): { time: string; tag?: RowTag } {
  const t = asObject(b.timingInfo);
  const own = toUtc(b.createdAt) || timing(t?.clientEndTime) || timing(t?.clientSettleTime);
  if (own) return { time: own };
  return st.prevTime ? { time: st.prevTime, tag: 'time_neighbor' } : { time: '' };
}

function checkpointRows(id: string, time: string, tag: RowTag | undefined, st: ConversationState, env: BubbleEnv): Row[] {
  const rec = env.checkpoint(id);
  if (!rec) return [];
  const cp = asObject(rec.value);
  if (!cp) return [makeRow('system', `parser: unparseable value for checkpointId:${st.sessionId}:${id}`, { ...fields(st, rec.line, time), tag: 'bad_line' })];
  const files = (asArray(cp.files) ?? []).map((f) => pathOfUriValue(asObject(f)?.uri)).filter(Boolean);
  const created = (asArray(cp.nonExistentFiles) ?? []).map((f) => (typeof f === 'string' ? f : pathOfUriValue(asObject(f)?.uri ?? f))).filter(Boolean);
  let text = `checkpoint: files=${files.length}${files.length ? `: ${files.join(', ')}` : ''}`;
  if (created.length) text += ` (+ new: ${created.join(', ')})`;
  return [makeRow('system', text, fields(st, rec.line, time, tag ?? 'checkpoint'))];
}

function userRows(b: JsonObject, next: JsonObject | undefined, line: number | null, st: ConversationState, env: BubbleEnv): Row[] {
  const { time, tag } = userTime(b, next, st);
  const text = asString(b.text) || lexicalText(b.richText);
  const rows: Row[] = [];
  if (text) rows.push(makeRow('user', text, fields(st, line, time, tag)));
  const cp = asString(b.checkpointId);
  if (cp) pushAll(rows, checkpointRows(cp, time, tag, st, env));
  if (time) st.prevTime = time;
  return rows;
}

function decisionRow(tf: JsonObject, name: string, id: string, line: number | null, time: string, st: ConversationState): Row | undefined {
  const review = asObject(asObject(tf.additionalData)?.reviewData);
  const decision = asString(tf.userDecision) || asString(review?.status);
  if (!decision) return undefined;
  const parts = [`permission decision: ${decision}`];
  for (const [label, key] of [['review', 'status'], ['option', 'selectedOption'], ['approval', 'approvalType']] as const) {
    const v = asString(review?.[key]);
    if (v) parts.push(`${label}=${v}`);
  }
  return makeRow('system', parts.join(' '), { ...fields(st, line, time, 'permission_decision'), tool_name: name, tool_use_id: id });
}

function toolRows(tf: JsonObject, times: JsonObject | undefined, line: number | null, time: string, timeTag: RowTag | undefined, st: ConversationState): Row[] {
  const name = asString(tf.name) ?? asString(tf.tool) ?? '';
  const id = asString(tf.toolCallId) ?? '';
  const args = decodeJsonish(tf.rawArgs) ?? decodeJsonish(tf.params);
  const rows: Row[] = [toolUseRow(name, args, { ...fields(st, line, time, timeTag), tool_use_id: id })];
  const decision = decisionRow(tf, name, id, line, time, st);
  if (decision) rows.push(decision);
  const status = asString(tf.status) ?? '';
  const failed = status === 'error' || status === 'cancelled';
  const raw = decodeJsonish(tf.result);
  const result = raw === null ? undefined : raw;
  // The bubble's timing says when the tool finished; a borrowed time stays borrowed.
  const endTime = timeTag ? time : timing(times?.clientEndTime) || time;
  if (result !== undefined || failed) {
    let text = result === undefined ? '' : toolResultText(name, result);
    if (failed) text = text ? `${text} [${status}]` : `[${status}]`;
    rows.push(makeRow('tool_result', text, { ...fields(st, line, endTime, timeTag), tool_name: name, tool_use_id: id }));
  }
  const r = asObject(result);
  if (r && isTerminalTool(name)) {
    const parts: string[] = [];
    const code = asString(r.exitCodeV2) ?? asString(r.exitCode);
    if (code !== undefined) parts.push(code);
    const rejected = asBool(r.rejected);
    if (rejected !== undefined) parts.push(`rejected=${rejected}`);
    const ended = asString(r.endedReason);
    if (ended) parts.push(`ended=${ended}`);
    if (parts.length) rows.push(makeRow('system', `terminal exit: ${parts.join(' ')}`, { ...fields(st, line, endTime, timeTag ?? 'terminal_exit'), tool_name: name, tool_use_id: id }));
  }
  return rows;
}

function codeBlockRows(b: JsonObject, line: number | null, time: string, tag: RowTag | undefined, st: ConversationState): Row[] {
  const rows: Row[] = [];
  for (const key of ['codeBlocks', 'suggestedCodeBlocks']) {
    for (const cb of asArray(b[key]) ?? []) {
      const o = asObject(cb);
      const path = o ? pathOfUriValue(o.uri) : '';
      if (!path) continue;
      const lang = asString(o?.languageId);
      rows.push(makeRow('system', `code block: ${path}${lang ? ` lang=${lang}` : ''}`, fields(st, line, time, tag ?? 'code_block')));
    }
  }
  return rows;
}

function assistantRows(b: JsonObject, line: number | null, st: ConversationState, env: BubbleEnv): Row[] {
  const { time, tag } = assistantTime(b, st);
  const rows: Row[] = [];
  const model = asString(asObject(b.modelInfo)?.modelName);
  if (model && model !== st.model) {
    rows.push(makeRow('system', st.model ? `model: ${st.model} -> ${model}` : `model: ${model}`, fields({ ...st, model }, line, time, 'model')));
    st.model = model;
  }
  if (env.ctx.options.includeThinking) {
    const thinking = asString(asObject(b.thinking)?.text) || (asArray(b.allThinkingBlocks) ?? []).map((t) => asString(asObject(t)?.text) ?? '').filter(Boolean).join('\n\n');
    if (thinking) rows.push(makeRow('thinking', thinking, fields(st, line, time, tag)));
  }
  const text = asString(b.text);
  if (text) rows.push(makeRow('assistant', text, fields(st, line, time, tag)));
  const tf = asObject(b.toolFormerData);
  if (tf) pushAll(rows, toolRows(tf, asObject(b.timingInfo), line, time, tag, st));
  else pushAll(rows, codeBlockRows(b, line, time, tag, st));
  if (time) st.prevTime = time;
  return rows;
}

/**
 * The rows of one bubble (a message of a composer conversation), in the order they happened:
 * user text and its checkpoint; the model change, thinking, text, tool call, the user's decision,
 * the tool's result and a terminal's exit for an assistant bubble. `next` is the following bubble
 * (a user bubble without a time borrows the request time of the reply).
 */
export function bubbleRows(b: unknown, next: unknown, line: number | null, st: ConversationState, env: BubbleEnv): Row[] {
  if (!isObject(b)) return [];
  const ws = asString(b.workspaceProjectDir) || pathOfUriValue((asArray(b.workspaceUris) ?? [])[0]);
  const own = toUtc(b.createdAt);
  if (ws && own) env.ctx.fact({ session_id: st.sessionId, key: 'cwd', value: ws, priority: 4, at: own });
  if (!st.branch) {
    const branch = /^On branch (\S+)/m.exec(asString(b.gitStatusRaw) ?? '')?.[1];
    if (branch) {
      st.branch = branch;
      env.ctx.fact({ session_id: st.sessionId, key: 'branch', value: branch, priority: 2 });
    }
  }
  const type = asNumber(b.type);
  const nextObj = isObject(next) ? next : undefined;
  if (type === 1) return userRows(b, nextObj, line, st, env);
  if (type === 2) return assistantRows(b, line, st, env);
  env.ctx.unknown(`bubble type ${textOf(b.type) || '(none)'}`, line ?? undefined);
  return [];
}
