/**
 * The chats older Windsurf builds kept in the clear, in a workspace's `state.vscdb` (ItemTable,
 * under the chat pane's keys: `workbench.panel.aichat.view.aichat.chatdata`, `aiChat.chatdata`,
 * and the `chat.data` and `cascade.chatdata` a peer reader also lists): `{tabs: [{tabId,
 * chatTitle, lastSendTime?, bubbles: [{type "user"|"assistant"|"ai" (or 1, 2), text, rawText,
 * selections: [{uri: {fsPath}, text}]}]}]}` (shared/agents/windsurf.md, from peer readers; empty on
 * current installs). Each tab is a session in the workspace's folder; a bubble has no time of its
 * own: it takes the tab's last send, else the file's mtime (`time_file`). Only those keys are read.
 */
import { asArray, asObject, asString, isObject } from '../../sdk/decode.js';
import { makeRow, unreadableRow } from '../../sdk/row.js';
import { tableNames } from '../../sdk/sqlite.js';
import { openArtifactSqlite } from '../../sdk/sqlite-rows.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { Artifact, ParseContext, Row } from '../../sdk/types.js';
import { readItems } from '../cursor/item-table.js';
import { readWorkspaceProject } from '../cursor/workspace-json.js';

/** The ItemTable keys the chat pane was stored under, in the order read. */
export const AICHAT_KEYS = ['workbench.panel.aichat.view.aichat.chatdata', 'aiChat.chatdata', 'chat.data', 'cascade.chatdata'];

const ROLE: Record<string, Row['turn_type']> = { user: 'user', '1': 'user', assistant: 'assistant', ai: 'assistant', bot: 'assistant', '2': 'assistant' };

/** `[file <path>]` for each selection a prompt carried (the code it quoted is context, not the prompt). */
function selections(b: Record<string, unknown>): string {
  const files = (asArray(b.selections) ?? []).map((s) => asString(asObject(asObject(s)?.uri)?.fsPath) ?? asString(asObject(asObject(s)?.uri)?.path)).filter((p): p is string => !!p);
  return files.map((p) => ` [file ${p}]`).join('');
}

/** The rows of one stored chat pane. */
function* paneRows(data: unknown, key: string, line: number, project: string, mtime: string, ctx: ParseContext): Generator<Row> {
  const tabs = asArray(asObject(data)?.tabs);
  if (!tabs) {
    yield makeRow('system', `parser: unreadable ${key} (expected {"tabs": [...]}, found another shape)`, { source_line: line, tag: 'bad_line', timestamp_utc: mtime });
    return;
  }
  for (const t of tabs) {
    const tab = asObject(t);
    if (!tab) continue;
    const id = asString(tab.tabId) ?? '';
    const sent = toUtc(tab.lastSendTime);
    const at = sent ? { timestamp_utc: sent, tag: 'time_session' as const } : { timestamp_utc: mtime, tag: 'time_file' as const };
    const base = { session_id: id, project_path: project, source_line: line };
    const title = asString(tab.chatTitle);
    if (title) yield makeRow('system', `session name: ${title}`, { ...base, timestamp_utc: at.timestamp_utc, tag: 'session_name' });
    for (const b of asArray(tab.bubbles) ?? []) {
      if (!isObject(b)) continue;
      const role = ROLE[String(b.type)];
      const text = asString(b.text) || asString(b.rawText) || '';
      if (!role) {
        ctx.unknown(`aichat bubble type ${String(b.type)}`, line);
        yield makeRow('system', `${String(b.type)} message: ${text}`, { ...base, ...at });
        continue;
      }
      yield makeRow(role, role === 'user' ? text + selections(b) : text, { ...base, ...at });
    }
  }
}

/** A Windsurf workspace's `state.vscdb`: the older chat pane's tabs, in the folder its workspace.json names. */
export async function* parseAichat(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const project = await readWorkspaceProject(a.sibling('workspace.json'));
  const opened = await openArtifactSqlite(a);
  if (!opened.ok) return yield opened.row;
  try {
    if (!tableNames(opened.db).has('ItemTable')) return;
    const items = readItems(opened.db, AICHAT_KEYS);
    for (const key of AICHAT_KEYS) {
      const item = items.get(key);
      if (!item) continue;
      let data: unknown;
      try {
        data = JSON.parse(item.value);
      } catch {
        yield unreadableRow(`expected the JSON of a chat pane under ${key}, found text that is not JSON`, { source_line: item.rowid, timestamp_utc: a.mtime });
        continue;
      }
      yield* paneRows(data, key, item.rowid, project, a.mtime, ctx);
    }
  } finally {
    opened.db.close();
  }
}
