/**
 * A JSONL chat, streamed twice (never held whole): pass 1 notes the last line of every message
 * id (a rewritten record counts once, last write wins, as the CLI's own replay does) and what the
 * file says about its project; pass 2 gives rows in file order. Both record shapes of the family
 * are read: Gemini CLI's (metadata line, messages, `$set`, `$rewindTo`) and Qwen Code's ChatRecord.
 */
import { asArray, asString, isObject, type JsonObject } from '../../sdk/decode.js';
import { readJsonLines } from '../../sdk/line-reader.js';
import { badLineRow } from '../../sdk/row.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { Artifact, Row } from '../../sdk/types.js';
import { messageDrafts } from './chat-message.js';
import { type FileIndex, isMetadata, metadataDrafts, rewindDrafts, setDrafts } from './chat-meta.js';
import { isChatRecord, recordDrafts } from './chat-record.js';
import type { ChatState, Draft, Skip } from './chat-state.js';
import type { ChatHooks } from './chat-setup.js';
import { partsOf, visibleText } from './parts.js';
import type { ProjectClues } from './project.js';

/** The workspace directories a `<session_context>` text lists (real: "- **Workspace Directories:**\n  - <path>"). */
export function workspaceDirs(text: string): string[] {
  const m = /\*\*Workspace Directories:\*\*\s*\n((?:[ \t]+- [^\n]+\n?)+)/.exec(text);
  if (!m) return [];
  return m[1]
    .split('\n')
    .map((l) => l.replace(/^[ \t]+- /, '').trim())
    .filter(Boolean);
}

/** Pass 1: the last line of every message id and the project clues. */
export async function indexJsonl(a: Artifact): Promise<{ index: FileIndex; clues: ProjectClues }> {
  const index: FileIndex = { lastLine: new Map(), sessionId: '' };
  const clues: ProjectClues = { projectHash: '', paths: [] };
  const addDirs = (v: unknown) => {
    for (const d of asArray(v) ?? []) if (typeof d === 'string' && !clues.paths.includes(d)) clues.paths.push(d);
  };
  for await (const l of readJsonLines(a.stream())) {
    const v = l.value;
    if (!v) continue;
    if (typeof v.id === 'string') index.lastLine.set(v.id, l.line);
    else if (isChatRecord(v)) index.lastLine.set(v.uuid as string, l.line);
    if (!index.sessionId && typeof v.sessionId === 'string' && (isMetadata(v) || isChatRecord(v))) index.sessionId = v.sessionId;
    if (isMetadata(v)) {
      clues.projectHash ||= v.projectHash as string;
      addDirs(v.directories);
    }
    const set = isObject(v.$set) ? v.$set : undefined;
    if (set) {
      if (!index.sessionId && typeof set.sessionId === 'string') index.sessionId = set.sessionId;
      addDirs(set.directories);
      for (const m of asArray(set.messages) ?? []) {
        const text = isObject(m) && m.type === 'user' ? visibleText(partsOf(m.content)) : '';
        if (text.includes('<session_context>')) addDirs(workspaceDirs(text));
      }
    }
  }
  return { index, clues };
}

/** The drafts of one parsed line of either shape; a string says why it gave none. */
function lineDrafts(st: ChatState, v: JsonObject, line: number, index: FileIndex, seen: { meta: boolean; record: boolean }): Draft[] | Skip {
  if (typeof v.$rewindTo === 'string') return rewindDrafts(st, v.$rewindTo);
  if (isObject(v.$set)) return setDrafts(st, v.$set, line, index);
  if (isMetadata(v)) {
    const first = !seen.meta;
    seen.meta = true;
    if (first && !st.sessionId) st.sessionId = v.sessionId as string;
    return metadataDrafts(st, v, line, first);
  }
  if (typeof v.id === 'string') {
    const last = index.lastLine.get(v.id);
    if (last !== undefined && last !== line) return `message ${v.id} written again at line ${last}`;
    st.emitted.add(v.id);
    st.reinitCovered = false;
    return messageDrafts(st, v, line);
  }
  if (isChatRecord(v)) {
    const last = index.lastLine.get(v.uuid as string);
    if (last !== undefined && last !== line) return `record ${v.uuid} written again at line ${last}`;
    return chatRecord(st, v, line, seen);
  }
  st.ctx.unknown('record without id, uuid, $set, $rewindTo or metadata', line);
  return 'record of unknown shape';
}

// A ChatRecord carries its session, cwd and branch; the first gives the session start row.
function chatRecord(st: ChatState, v: JsonObject, line: number, seen: { record: boolean }): Draft[] | Skip {
  const ts = toUtc(v.timestamp) || st.lastTs;
  st.sessionId ||= asString(v.sessionId) ?? '';
  const cwd = asString(v.cwd);
  const priority = st.sidechain ? 4 : 1;
  if (cwd && cwd !== st.project) {
    st.project = cwd;
    st.ctx.fact({ session_id: st.rowSession, key: 'cwd', value: cwd, priority, ...(ts ? { at: ts } : {}) });
  }
  const branch = asString(v.gitBranch);
  if (branch && branch !== st.branch) {
    st.branch = branch;
    st.ctx.fact({ session_id: st.rowSession, key: 'branch', value: branch, priority, ...(ts ? { at: ts } : {}) });
  }
  const out: Draft[] = [];
  if (!seen.record) {
    seen.record = true;
    const parent = st.parent ? ` parent=${st.parent}` : '';
    out.push({ turn: 'system', text: `session start: version=${asString(v.version) ?? '-'} cwd=${cwd ?? '-'}${parent}`, ts, tag: st.parent ? 'subagent_start' : 'session_start' });
  }
  const r = recordDrafts(st, v, line);
  if (typeof r === 'string') return out.length > 0 ? out : r;
  // A subagent's records kept in the main file (isSidechain, agentId) are tagged like a subagent file's.
  const side = v.isSidechain === true || typeof v.agentId === 'string';
  return [...out, ...(side ? r.map((d) => ({ ...d, tag: d.tag ?? 'sidechain' })) : r)];
}

/** Pass 2: the rows of a JSONL chat, in file order; a line that is not JSON is a bad-line row. */
export async function* jsonlRows(a: Artifact, st: ChatState, index: FileIndex, hooks: ChatHooks): AsyncGenerator<Row> {
  const seen = { meta: false, record: false };
  st.sessionId ||= index.sessionId;
  for await (const l of readJsonLines(a.stream())) {
    if (l.blank) {
      hooks.onSkip?.(l.line, 'blank line');
      continue;
    }
    if (!l.value) {
      yield badLineRow(l.error ?? 'invalid JSON', l.text, l.line, { session_id: st.rowSession, project_path: st.project, git_branch: st.branch, model: st.model, timestamp_utc: st.lastTs });
      continue;
    }
    if (l.error) st.ctx.warn(`line ${l.line}: ${l.error}`, l.line);
    const r = lineDrafts(st, l.value, l.line, index, seen);
    if (typeof r === 'string') {
      hooks.onSkip?.(l.line, r);
      continue;
    }
    if (r.length === 0) hooks.onSkip?.(l.line, 'copies of messages that already have rows');
    for (const d of r) yield st.row(d, l.line);
  }
}
