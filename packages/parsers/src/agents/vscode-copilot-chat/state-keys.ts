import { compactJson } from '../../sdk/compact-json.js';
import { asNumber, asString, isObject, type JsonObject } from '../../sdk/decode.js';
import { badLineRow, makeRow } from '../../sdk/row.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { Artifact, ParseContext, Row } from '../../sdk/types.js';
import { iso } from './common.js';
import { sessionCtx, ms, flatWhere } from './session-context.js';
import { wholeSessionRows } from './session-rows.js';
import { uriToPath } from './uri.js';

/** The ItemTable keys read by name (spec, "Other ItemTable keys"); views' drafts are matched by prefix. */
export const STATE_KEYS = ['chat.ChatSessionStore.index', 'interactive.sessions', 'chat.workspaceTransfer', 'memento/interactive-session', 'agentSessions.model.cache', 'chat/autoconfirm', 'chat/autoconfirm-post', 'chat/servers/autoconfirm'];

/** What the key handlers share. */
export interface KeyContext {
  a: Artifact;
  ctx: ParseContext;
  project: string;
  /** The global (application) state.vscdb: the empty-window index, no project. */
  global: boolean;
}

/** The rows of one ItemTable key. */
export function* stateKeyRows(k: KeyContext, key: string, value: unknown, rowid: number): Generator<Row> {
  const base = { project_path: k.project, source_line: rowid };
  if (key === 'chat.ChatSessionStore.index') yield* indexRows(k, value, rowid);
  else if (key === 'interactive.sessions' || key === 'chat.workspaceTransfer') {
    const list = Array.isArray(value) ? value : isObject(value) ? [value] : [];
    for (let i = 0; i < list.length; i++) {
      const session = list[i];
      if (!isObject(session)) continue;
      const s = sessionCtx(k.ctx, asString(session.sessionId) ?? '', k.project);
      yield* wholeSessionRows(s, session, () => flatWhere(i), { start: i, title: i, pending: i, input: i }, k.a.mtime);
    }
  } else if (key === 'memento/interactive-session') {
    const history = isObject(value) && isObject(value.history) ? value.history : {};
    for (const entries of Object.values(history)) {
      if (!Array.isArray(entries)) continue;
      for (let i = 0; i < entries.length; i++) {
        const e = entries[i];
        const text = typeof e === 'string' ? e : isObject(e) ? (asString(e.text) ?? asString(e.inputText) ?? '') : '';
        if (text.trim() !== '') yield makeRow('user', text, { ...base, source_line: i });
      }
    }
  } else if (key.startsWith('memento/interactive-session-view-')) {
    const draft = isObject(value) ? (asString(value.inputValue) ?? '') : '';
    if (draft.trim() !== '') yield makeRow('system', `unsent draft: ${draft}`, { ...base, session_id: isObject(value) ? (asString(value.sessionId) ?? '') : '' });
  } else if (key === 'agentSessions.model.cache') {
    for (const e of Array.isArray(value) ? value : []) {
      if (!isObject(e) || e.providerType === 'local') continue;
      const timing = isObject(e.timing) ? e.timing : {};
      const f = [`agent session: ${asString(e.providerType) ?? '?'} ${asString(e.label) ?? ''}`.trimEnd(), ...['status', 'archived', 'resource'].map((x) => (e[x] === undefined ? '' : `${x}=${asString(e[x]) ?? compactJson(e[x])}`))];
      yield makeRow('system', f.filter(Boolean).join(' '), { ...base, timestamp_utc: ms(timing.startTime), tag: 'agent_session' });
    }
  } else {
    // chat/autoconfirm, chat/autoconfirm-post, chat/servers/autoconfirm: standing grants.
    const at = toUtc(k.a.mtime);
    const entries: [string, unknown][] = Array.isArray(value) ? value.map((v) => [key, v]) : isObject(value) ? Object.entries(value).map(([n, v]) => [`${key}.${n}`, v]) : [[key, value]];
    for (const [name, v] of entries) yield makeRow('system', `permission setting: ${name}=${compactJson(v)}`, { ...base, timestamp_utc: at, tag: 'permission_setting' });
  }
}

function* indexRows(k: KeyContext, value: unknown, rowid: number): Generator<Row> {
  const entries = isObject(value) && isObject(value.entries) ? value.entries : undefined;
  if (!entries) {
    yield badLineRow('ItemTable key chat.ChatSessionStore.index: expected {"version": 1, "entries": {...}}', compactJson(value).slice(0, 200), rowid, { project_path: k.project });
    return;
  }
  for (const [id, raw] of Object.entries(entries)) {
    if (!isObject(raw)) continue;
    const e: JsonObject = raw;
    const sid = asString(e.sessionId) ?? id;
    const timing = isObject(e.timing) ? e.timing : {};
    const f = { session_id: sid, project_path: k.project, source_line: rowid };
    const title = asString(e.title) ?? '';
    if (title) {
      yield makeRow('system', `session name: ${title}`, { ...f, timestamp_utc: ms(e.lastMessageDate), tag: 'session_name' });
      k.ctx.fact({ session_id: sid, key: 'name', value: title, priority: 3 });
    }
    const stats = isObject(e.stats) ? e.stats : undefined;
    const workdir = e.workingDirectory === undefined ? '' : uriToPath(e.workingDirectory);
    if (workdir) k.ctx.fact({ session_id: sid, key: 'cwd', value: workdir, priority: 3 });
    const kv: [string, string][] = [
      ['created', iso(asNumber(timing.created))],
      ['location', asString(e.initialLocation) ?? ''],
      ['files', stats ? `${asString(stats.fileCount) ?? '?'} +${asString(stats.added) ?? '?'} -${asString(stats.removed) ?? '?'}` : ''],
      ['state', asString(e.lastResponseState) ?? ''],
      ['pendingEdits', asString(e.hasPendingEdits) ?? ''],
      ['external', asString(e.isExternal) ?? ''],
      ['permission', asString(e.permissionLevel) ?? ''],
      ['workdir', workdir],
    ];
    if (e.isEmpty === true) kv.push(['empty', 'true']);
    if (e.isExternal !== true && !/[:/]/.test(sid) && !hasSessionFile(k, sid)) kv.push(['file', 'missing']);
    const text = ['session metadata:', ...kv.filter(([, v]) => v !== '').map(([n, v]) => `${n}=${v}`)].join(' ');
    yield makeRow('system', text, { ...f, timestamp_utc: ms(timing.created) || ms(e.lastMessageDate), tag: 'session_metadata' });
  }
}

/** Whether the session an index entry names has a file collected where VS Code would read it. */
function hasSessionFile(k: KeyContext, id: string): boolean {
  const dirs = k.global ? ['emptyWindowChatSessions', '../workspaceStorage/no-workspace/chatSessions'] : ['chatSessions'];
  return dirs.some((d) => k.a.sibling(`${d}/${id}.jsonl`) !== undefined || k.a.sibling(`${d}/${id}.json`) !== undefined);
}
