/**
 * A legacy chat (v0.4–v0.38): one pretty-printed ConversationRecord rewritten whole on every
 * change, `{sessionId, projectHash, startTime, lastUpdated, messages[], summary?, directories?,
 * kind?}`. Streamed with readJsonArray twice: pass 1 for the members that follow `messages`
 * (kind, summary) and the paths the tools touched (project clues), pass 2 for the rows.
 */
import { asArray, asObject, isObject, type JsonObject } from '../../sdk/decode.js';
import { readJsonArray } from '../../sdk/json-stream.js';
import { makeRow } from '../../sdk/row.js';
import type { Artifact, Row } from '../../sdk/types.js';
import { messageDrafts } from './chat-message.js';
import { metadataDrafts } from './chat-meta.js';
import type { ChatHooks } from './chat-setup.js';
import type { ChatState } from './chat-state.js';
import { isAbsolutePath, type ProjectClues } from './project.js';

const PATH_ARGS = ['file_path', 'absolute_path', 'dir_path', 'path', 'directory'];
const MAX_CLUE_PATHS = 200;

/** Pass 1: the top-level members and the project clues. */
export async function indexLegacy(a: Artifact): Promise<{ meta: JsonObject; clues: ProjectClues }> {
  const meta: JsonObject = {};
  const clues: ProjectClues = { projectHash: '', paths: [] };
  for await (const ev of readJsonArray(a.stream(), ['messages'])) {
    if (ev.kind === 'field' && ev.path.length === 1) meta[ev.path[0]] = ev.value;
    if (ev.kind !== 'item' || !isObject(ev.value) || clues.paths.length >= MAX_CLUE_PATHS) continue;
    for (const c of asArray(ev.value.toolCalls) ?? []) {
      const args = isObject(c) ? asObject(c.args) : undefined;
      for (const k of PATH_ARGS) {
        const p = args?.[k];
        if (typeof p === 'string' && isAbsolutePath(p) && !clues.paths.includes(p)) clues.paths.push(p);
      }
    }
  }
  if (typeof meta.projectHash === 'string') clues.projectHash = meta.projectHash;
  for (const d of asArray(meta.directories) ?? []) if (typeof d === 'string') clues.paths.unshift(d);
  return { meta, clues };
}

/** Pass 2: the session start row (source_line null), then each message at its array index + 1. */
export async function* legacyRows(a: Artifact, st: ChatState, meta: JsonObject, hooks: ChatHooks): AsyncGenerator<Row> {
  if (typeof meta.sessionId === 'string') st.sessionId = meta.sessionId;
  if (typeof meta.sessionId === 'string' && typeof meta.projectHash === 'string') {
    for (const d of metadataDrafts(st, meta, 0, true)) yield st.row(d, null);
  }
  for await (const ev of readJsonArray(a.stream(), ['messages'])) {
    if (ev.kind === 'item') {
      const line = ev.index + 1;
      if (!isObject(ev.value)) {
        yield st.row({ turn: 'system', text: `parser: unparseable message ${line} (not a JSON object)`, tag: 'bad_line' }, line);
        continue;
      }
      const r = messageDrafts(st, ev.value, line);
      if (typeof r === 'string') hooks.onSkip?.(line, r);
      else for (const d of r) yield st.row(d, line);
    } else if (ev.kind === 'bad') {
      yield st.row({ turn: 'system', text: `parser: unparseable message ${ev.index + 1} (${ev.reason}): ${ev.preview}`, tag: 'bad_line' }, ev.index + 1);
    } else if (ev.kind === 'end' && !ev.complete) {
      const why = ev.reason ?? 'incomplete document';
      yield makeRow('system', `parser: unparseable chat file (${why}); ${ev.items} messages read`, { timestamp_utc: st.lastTs, session_id: st.rowSession, project_path: st.project, tag: 'bad_line' });
    } else if (ev.kind === 'end' && !ev.found && typeof meta.sessionId !== 'string') {
      yield makeRow('system', 'parser: unparseable chat file (a JSON document with neither sessionId nor messages)', { timestamp_utc: a.mtime, tag: 'bad_line' });
    }
  }
}
