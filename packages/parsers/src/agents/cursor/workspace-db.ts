import { asArray, asObject, asString, describeJson, isObject } from '../../sdk/decode.js';
import { makeRow, unreadableRow } from '../../sdk/row.js';
import { openCollectedSqlite, type SqliteDatabase, tableNames } from '../../sdk/sqlite.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { Artifact, ParseContext, Row } from '../../sdk/types.js';
import { conversationRows, listComposers } from './conversations.js';
import { type Item, readItems } from './item-table.js';
import { readSmall } from '../../sdk/small-file.js';
import { decodeText } from '../../sdk/text-encoding.js';
import { projectOfWorkspace, readWorkspaceProject } from './workspace-json.js';

const KEYS = ['composer.composerData', 'aiService.generations', 'aiService.prompts', 'workbench.panel.aichat.view.aichat.chatdata', 'cursorAuth/workspaceOpenedDate'];
const PANE = 'workbench.panel.composerChatViewPane.';

// A value that is not JSON gives one row naming its key (never the value), and is skipped.
function parse(item: Item | undefined, rows: Row[], key: string): unknown {
  if (!item) return undefined;
  try {
    return JSON.parse(item.value);
  } catch {
    rows.push(makeRow('system', `parser: unparseable value for ${key}`, { source_line: item.rowid, tag: 'bad_line' }));
    return undefined;
  }
}

// Composer ids a workspace names: its list (≤ 2.6), the selected and focused tabs, and the chat
// panes (`workbench.panel.composerChatViewPane.<pane>` → `{"workbench.panel.aichat.view.<composer id>": ...}`).
function paneComposers(db: SqliteDatabase): string[] {
  const out: string[] = [];
  const rows = db.prepare("SELECT value FROM ItemTable WHERE key >= ? AND key < ?").all(PANE, `${PANE.slice(0, -1)}/`) as { value: unknown }[];
  for (const r of rows) {
    let v: unknown;
    try {
      v = JSON.parse(Buffer.isBuffer(r.value) ? r.value.toString('utf8') : String(r.value));
    } catch {
      continue;
    }
    for (const k of Object.keys(asObject(v) ?? {})) {
      const m = /^workbench\.panel\.aichat\.view\.(.+)$/.exec(k);
      if (m) out.push(m[1]);
    }
  }
  return out;
}

function* composerListRows(list: unknown, line: number, project: string, ctx: ParseContext): Generator<Row> {
  const o = asObject(list);
  const ids = new Set<string>();
  for (const h of asArray(o?.allComposers) ?? []) {
    const c = asObject(h);
    const id = asString(c?.composerId);
    if (!c || !id) continue;
    ids.add(id);
    const name = asString(c.name);
    if (name) yield makeRow('system', `session name: ${name}`, { timestamp_utc: toUtc(c.lastUpdatedAt) || toUtc(c.createdAt), session_id: id, project_path: project, source_line: line, tag: 'session_name' });
  }
  for (const k of ['selectedComposerIds', 'lastFocusedComposerIds']) for (const id of asArray(o?.[k]) ?? []) if (typeof id === 'string') ids.add(id);
  if (project) for (const id of ids) ctx.fact({ session_id: id, key: 'cwd', value: project, priority: 3 });
}

// aiService.generations: what was sent, when (composer and Cmd-K prompts as user rows); the
// prompts list repeats their texts without a time, so an entry paired with a generation gives none.
function* promptRows(gens: unknown, prompts: unknown): Generator<Row> {
  const unpaired = new Map<string, number>();
  // source_line: the 1-based position in the array.
  for (const [i, g] of (asArray(gens) ?? []).entries()) {
    const o = asObject(g);
    const text = asString(o?.textDescription);
    if (!o || text === undefined) continue;
    const type = asString(o.type) ?? '';
    unpaired.set(text, (unpaired.get(text) ?? 0) + 1);
    const at = { timestamp_utc: toUtc(o.unixMs), source_line: i + 1 };
    if (type === 'composer' || type === 'cmdk' || type === '') yield makeRow('user', text, at);
    else yield makeRow('system', `${type}: ${text}`, { ...at, tag: 'generation' });
  }
  for (const [i, p] of (asArray(prompts) ?? []).entries()) {
    const text = typeof p === 'string' ? p : asString(asObject(p)?.text);
    if (!text) continue;
    const n = unpaired.get(text) ?? 0;
    if (n > 0) {
      unpaired.set(text, n - 1);
      continue;
    }
    yield makeRow('user', text, { source_line: i + 1 });
  }
}

// The pre-composer chat pane: tabs of user and ai bubbles, dated by the tab's last send.
function* chatPaneRows(data: unknown, line: number, ctx: ParseContext): Generator<Row> {
  for (const t of asArray(asObject(data)?.tabs) ?? []) {
    const tab = asObject(t);
    if (!tab) continue;
    const id = asString(tab.tabId) ?? '';
    const title = asString(tab.chatTitle);
    const sent = toUtc(tab.lastSendTime);
    if (title) yield makeRow('system', `session name: ${title}`, { timestamp_utc: sent, session_id: id, source_line: line, tag: 'session_name' });
    // Bubbles carry no time: they take the tab's last send, and say so.
    const f = { timestamp_utc: sent, session_id: id, source_line: line, ...(sent ? { tag: 'time_session' as const } : {}) };
    for (const b of asArray(tab.bubbles) ?? []) {
      if (!isObject(b)) continue;
      const text = asString(b.text) || asString(b.rawText) || '';
      if (b.type === 'user') yield makeRow('user', text, f);
      else if (b.type === 'ai') yield makeRow('assistant', text, f);
      else ctx.unknown(`chat pane bubble ${asString(b.type) ?? '(none)'}`, line);
    }
  }
}

/**
 * A workspace's `state.vscdb` (secondary): the names of its composers and which composers it
 * holds (their project is this folder's workspace.json), the prompts and generations it sent, the
 * pre-composer chat pane, and any composer records kept in its own cursorDiskKV. Reads only the
 * keys named (the folder's ItemTable also holds the retrieval index's path encryption key).
 */
export async function* parseWorkspaceDb(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const project = await readWorkspaceProject(a.sibling('workspace.json'));
  let db: SqliteDatabase;
  try {
    db = await openCollectedSqlite(await a.localPath(), a.rel);
  } catch (e) {
    yield unreadableRow((e as Error).message);
    return;
  }
  try {
    const tables = tableNames(db);
    if (tables.has('ItemTable')) {
      const items = readItems(db, KEYS);
      const bad: Row[] = [];
      const list = items.get('composer.composerData');
      yield* composerListRows(parse(list, bad, 'composer.composerData'), list?.rowid ?? 0, project, ctx);
      if (project) for (const id of paneComposers(db)) ctx.fact({ session_id: id, key: 'cwd', value: project, priority: 3 });
      const gens = items.get('aiService.generations');
      const prompts = items.get('aiService.prompts');
      yield* promptRows(parse(gens, bad, 'aiService.generations'), parse(prompts, bad, 'aiService.prompts'));
      const pane = items.get('workbench.panel.aichat.view.aichat.chatdata');
      yield* chatPaneRows(parse(pane, bad, 'workbench.panel.aichat.view.aichat.chatdata'), pane?.rowid ?? 0, ctx);
      const opened = items.get('cursorAuth/workspaceOpenedDate');
      if (opened && project) yield makeRow('system', `workspace opened: ${project}`, { timestamp_utc: toUtc(opened.value), project_path: project, source_line: opened.rowid, tag: 'workspace_opened' });
      yield* bad;
    }
    if (tables.has('cursorDiskKV')) for (const c of listComposers(db)) yield* conversationRows(db, c, project, '', ctx);
  } catch (e) {
    yield makeRow('system', `parser: the database could not be read to the end (${(e as Error).message.split('\n')[0]}); the rows above were read before the error`, { tag: 'unreadable' });
  } finally {
    db.close();
  }
}

/**
 * `workspaceStorage/<id>/workspace.json`: the folder a workspace is, as a project (no session). An
 * empty window's folder (`{}`, a numeric id) names none and gives no row.
 */
export async function* parseWorkspaceJson(a: Artifact): AsyncGenerator<Row> {
  const r = await readSmall(a.stream(), 1024 * 1024);
  let value: unknown;
  try {
    if (!r.ok) throw new Error(r.reason);
    value = JSON.parse(decodeText(r.buffer));
  } catch (e) {
    yield unreadableRow(`expected {"folder": "<URI>"} or {"workspace": "<URI>"}: ${(e as Error).message}`);
    return;
  }
  const project = projectOfWorkspace(value);
  if (!project) {
    // `{}` is an empty window's; anything but an object is not a workspace.json.
    if (!isObject(value)) yield unreadableRow(`expected {"folder": "<URI>"} or {"workspace": "<URI>"}, found ${describeJson(value)}`, { timestamp_utc: a.mtime });
    return;
  }
  const id = /workspaceStorage\/([^/]+)\//i.exec(a.rel)?.[1] ?? '';
  yield makeRow('system', `workspace: ${project}${id ? ` (folder ${id})` : ''}`, { timestamp_utc: a.mtime, project_path: project, source_line: null, tag: 'time_file' });
}
