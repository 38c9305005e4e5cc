/**
 * The records of a Gemini CLI chat that are not messages: the metadata line, `$set` updates
 * and `$rewindTo` markers (chatRecordingService.ts loadConversationRecord), and the messages a
 * `$set.messages` replacement carries.
 */
import { asArray, asObject, asString, isObject, type JsonObject } from '../../sdk/decode.js';
import { toUtc } from '../../sdk/timestamp.js';
import { messageDrafts, messageId } from './chat-message.js';
import type { ChatState, Draft, Skip } from './chat-state.js';
import { partsOf, visibleText } from './parts.js';
import { pushAll } from '../../sdk/push-all.js';

/** `$set` keys that give no row of their own. */
const QUIET_SET_KEYS = new Set(['lastUpdated', 'kind', 'startTime', 'projectHash']);
/** Metadata keys the session start row and its companions read; any other is reported. */
const METADATA_KEYS = new Set(['sessionId', 'projectHash', 'startTime', 'lastUpdated', 'kind', 'summary', 'directories', 'memoryScratchpad', 'messages']);

/** True for a metadata record: a string sessionId and projectHash and no message id. */
export function isMetadata(v: JsonObject): boolean {
  return typeof v.sessionId === 'string' && typeof v.projectHash === 'string' && typeof v.id !== 'string';
}

/** The drafts of a metadata record: the session start (first) or a re-initialization (a resume writes it again). */
export function metadataDrafts(st: ChatState, v: JsonObject, line: number, first: boolean): Draft[] {
  const ts = toUtc(v.startTime) || toUtc(v.lastUpdated) || st.lastTs;
  st.see(ts);
  for (const k of Object.keys(v)) if (!METADATA_KEYS.has(k)) st.ctx.unknown(`metadata key ${k}`, line);
  const out: Draft[] = [];
  if (first) {
    const kind = asString(v.kind) || 'main';
    const parent = st.parent ? ` parent=${st.parent}` : '';
    // A subagent's start is not its parent session's start.
    out.push({ turn: 'system', text: `session start: kind=${kind} projectHash=${asString(v.projectHash) ?? ''}${parent}`, ts, tag: st.parent ? 'subagent_start' : 'session_start' });
  } else {
    st.reinitCovered = true;
    out.push({ turn: 'system', text: 'recorder re-initialized (resume or compression)', ts });
  }
  pushAll(out, stateDrafts(st, v, toUtc(v.lastUpdated) || ts));
  return out;
}

/** Rows of the ConversationRecord keys a metadata record or a `$set` may carry. */
function stateDrafts(st: ChatState, v: JsonObject, ts: string): Draft[] {
  const out: Draft[] = [];
  const summary = asString(v.summary);
  if (summary && st.changed('summary', summary)) out.push({ turn: 'system', text: `session name: ${summary}`, ts, tag: 'session_name' });
  const dirs = (asArray(v.directories) ?? []).filter((d): d is string => typeof d === 'string');
  if (dirs.length > 0 && st.changed('directories', dirs.join('\n'))) out.push({ turn: 'system', text: `workspace directories: ${dirs.join(', ')}`, ts });
  const pad = asObject(v.memoryScratchpad);
  if (pad) {
    const fields: [string, unknown][] = [
      ['summary', pad.workflowSummary],
      ['tools', pad.toolSequence],
      ['touched', pad.touchedPaths],
      ['validation', pad.validationStatus],
    ];
    const bits = fields.flatMap(([k, x]) => {
      const s = Array.isArray(x) ? x.filter((e) => typeof e === 'string').join(', ') : asString(x);
      return s ? [`${k}=${s}`] : [];
    });
    if (bits.length > 0 && st.changed('memoryScratchpad', bits.join(' '))) out.push({ turn: 'system', text: `memory scratchpad: ${bits.join(' ')}`, ts });
  }
  return out;
}

/** What pass 1 learned about the whole file. */
export interface FileIndex {
  /** Per message id, the line of its last standalone record. */
  lastLine: Map<string, number>;
  /** The first session id the file states (metadata line, `$set.sessionId`, a ChatRecord): rows before it, or after a cut first line, still get it. */
  sessionId: string;
}

/** The drafts of a `$set` record. */
export function setDrafts(st: ChatState, set: JsonObject, line: number, index: FileIndex): Draft[] | Skip {
  const ts = toUtc(set.lastUpdated) || st.lastTs;
  st.see(ts);
  const out: Draft[] = [];
  for (const m of asArray(set.messages) ?? []) pushAll(out, historyDrafts(st, m, line, index));
  if (typeof set.sessionId === 'string') {
    if (!st.reinitCovered) out.push({ turn: 'system', text: 'recorder re-initialized (resume or compression)', ts });
    st.reinitCovered = false;
  }
  pushAll(out, stateDrafts(st, set, ts));
  for (const k of Object.keys(set)) {
    if (!QUIET_SET_KEYS.has(k) && !METADATA_KEYS.has(k)) st.ctx.unknown(`$set.${k}`, line);
  }
  if (out.length > 0) return out;
  if ((asArray(set.messages) ?? []).length > 0) return 'copies of messages that already have rows';
  return Object.keys(set).every((k) => QUIET_SET_KEYS.has(k)) ? 'metadata update (lastUpdated)' : '$set with nothing new';
}

/**
 * A message inside `$set.messages` (the whole history written again at start, resume and
 * compression): no row when it has a standalone record or already gave rows; a re-keyed copy of
 * a text that has a row gives none; the compaction summary and the session context get their
 * own labels; anything else is a history rewrite.
 */
function historyDrafts(st: ChatState, m: unknown, line: number, index: FileIndex): Draft[] {
  const id = messageId(m);
  if (!id || !isObject(m)) return [];
  if (index.lastLine.has(id) || st.emitted.has(id)) return [];
  st.emitted.add(id);
  const type = asString(m.type) ?? '';
  const ts = toUtc(m.timestamp) || st.lastTs;
  const text = visibleText(partsOf(m.content));
  if (type === 'user' && text.includes('<state_snapshot>')) return [{ turn: 'system', text: `compaction summary: ${text}`, ts, tag: 'compaction' }];
  if ((type === 'user' || type === 'gemini') && text && st.knownText(text)) return [];
  if (type === 'user' && text.trimStart().startsWith('<session_context>')) return asDrafts(messageDrafts(st, m, line));
  // A copy of a tool turn whose ids already have rows gives nothing; a new one gives its rows.
  if (!text) return asDrafts(messageDrafts(st, m, line));
  return [{ turn: 'system', text: `history rewrite (${type || 'message'}): ${text}`, ts }];
}

function asDrafts(r: Draft[] | Skip): Draft[] {
  return typeof r === 'string' ? [] : r;
}

/** The drafts of a `$rewindTo` marker: the earlier rows stay (the file keeps them). */
export function rewindDrafts(st: ChatState, id: string): Draft[] {
  return [{ turn: 'system', text: `rewind: messages from ${id} on were discarded (the earlier rows stay)`, ts: st.lastTs, tag: 'rewind' }];
}
