import { asString, isObject, type JsonObject } from '../../sdk/decode.js';
import { makeRow } from '../../sdk/row.js';
import type { Artifact, ParseContext, Row } from '../../sdk/types.js';
import { projectOf, readJsonObject, vscodeParser } from './common.js';
import { USER_PATTERNS } from './paths.js';
import { uriToPath } from './uri.js';

const STATES: Record<number, string> = { 0: 'Modified', 1: 'Accepted', 2: 'Rejected' };

/**
 * chatEditingSessions/<session id>/state.json: the files agent and edit mode changed, with the
 * content hashes of each file before and after (the copies are contents/<hash>), whether the user
 * kept or rejected the change, and the edit operations (microsoft/vscode
 * src/vs/workbench/contrib/chat/browser/chatEditing/chatEditingSessionStorage.ts @3933a2b8,
 * version 2; the older linearHistory form of version 1/2 is read too). No times: every row is
 * undated (epochs are counters). Secondary: it repeats what the session file's edits say.
 *
 * Rows: `edit baseline: <path> before=contents/<hash>` per initialFileContents entry; `edit state:
 * <Modified|Accepted|Rejected> <path> deleted=<isDeleted> request=<requestId> model=<modelId>
 * before=contents/<originalHash> after=contents/<currentHash>` per recentSnapshot entry (keys
 * present); `edit operation: <type> <path> request=<requestId> epoch=<epoch>` per timeline
 * operation; `edit snapshot: ...` per entry of the older linearHistory stops.
 */
export const vscodeEditingParser = vscodeParser({
  name: 'editing-session',
  user: USER_PATTERNS.editing,
  secondary: () => true,
  toleranceSeconds: () => 60,
  parse: parseEditing,
});

async function* parseEditing(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const project = (await projectOf(a, ctx)).path;
  const folder = /chatEditingSessions\/([^/]+)\/state\.json$/.exec(a.rel)?.[1] ?? '';
  const r = await readJsonObject(a, 'edit-session state {"version": 2, "recentSnapshot": ...}');
  if ('row' in r) {
    yield { ...r.row, session_id: folder, project_path: project };
    return;
  }
  const d = r.value;
  const sid = folder || (asString(d.sessionId) ?? '');
  const f = (line: number, extra: Partial<Row> = {}): Partial<Row> => ({ session_id: sid, project_path: project, source_line: line, ...extra });
  const initial = Array.isArray(d.initialFileContents) ? d.initialFileContents : [];
  for (let i = 0; i < initial.length; i++) {
    const pair = initial[i];
    if (Array.isArray(pair) && pair.length >= 2) yield makeRow('system', `edit baseline: ${uriToPath(pair[0])} before=contents/${asString(pair[1]) ?? '?'}`, f(i, { tag: 'edit_baseline' }));
  }
  const snap = isObject(d.recentSnapshot) ? d.recentSnapshot : {};
  const entries = Array.isArray(snap.entries) ? snap.entries : [];
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    if (isObject(e)) yield makeRow('system', `edit state: ${entryText(e)}`, f(i, { model: telemetry(e, 'modelId'), tag: 'edit_state' }));
  }
  const timeline = isObject(d.timeline) ? d.timeline : {};
  const ops = Array.isArray(timeline.operations) ? timeline.operations : [];
  for (let i = 0; i < ops.length; i++) {
    const o = ops[i];
    if (!isObject(o)) continue;
    const path = uriToPath(o.uri ?? o.newUri ?? o.oldUri);
    const kv = [['request', asString(o.requestId)], ['epoch', asString(o.epoch)]].filter(([, v]) => v).map(([k, v]) => `${k}=${v}`);
    yield makeRow('system', [`edit operation: ${asString(o.type) ?? '?'} ${path}`, ...kv].join(' '), f(i, { tag: 'edit_operation' }));
  }
  // Older files: linearHistory [{requestId, stops: [{stopId, entries}], postEdit}].
  const history = Array.isArray(d.linearHistory) ? d.linearHistory : [];
  for (let i = 0; i < history.length; i++) {
    const h = history[i];
    if (!isObject(h)) continue;
    const stops = [...(Array.isArray(h.stops) ? h.stops : []), ...(isObject(h.postEdit) ? [{ ...h.postEdit, stopId: 'postEdit' }] : [])];
    for (const s of stops) {
      if (!isObject(s)) continue;
      for (const e of Array.isArray(s.entries) ? s.entries : []) {
        if (isObject(e)) yield makeRow('system', `edit snapshot: ${entryText(e)} stop=${asString(s.stopId) ?? '-'}`, f(i, { model: telemetry(e, 'modelId'), tag: 'edit_state' }));
      }
    }
  }
}

function telemetry(e: JsonObject, key: string): string {
  return isObject(e.telemetryInfo) ? (asString(e.telemetryInfo[key]) ?? '') : '';
}

function entryText(e: JsonObject): string {
  const state = typeof e.state === 'number' ? (STATES[e.state] ?? `state ${e.state}`) : '?';
  const kv: [string, string | undefined][] = [
    ['deleted', asString(e.isDeleted)],
    ['request', telemetry(e, 'requestId')],
    ['model', telemetry(e, 'modelId')],
    ['before', asString(e.originalHash) ? `contents/${asString(e.originalHash)}` : undefined],
    ['after', asString(e.currentHash) ? `contents/${asString(e.currentHash)}` : undefined],
  ];
  return [`${state} ${uriToPath(e.resource)}`, ...kv.filter(([, v]) => v).map(([k, v]) => `${k}=${v}`)].join(' ');
}
