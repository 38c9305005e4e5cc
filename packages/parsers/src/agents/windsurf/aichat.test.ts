import { describe, expect, it } from 'vitest';
import type { Row } from '../../sdk/types.js';
import { buildDb, run, tempHomes, writeFiles } from '../opencode/test-helpers/harness.js';
import { windsurfPlugin } from './index.js';

// A Windsurf workspace's state.vscdb (VS Code's ItemTable) built with SQLite, holding the older
// chat pane in the shape the peer readers give (shared/agents/windsurf.md); its workspace.json
// beside it names the folder.

const aichat = windsurfPlugin.parsers.find((p) => p.name === 'aichat')!;
const homes = tempHomes('windsurf-aichat');
const WS = '.config/Windsurf/User/workspaceStorage/9f3c/state.vscdb';
const MTIME = '2026-12-01T00:00:00.000Z';
const line = (r: Row) => [r.session_id, r.turn_type, r.text, r.project_path, r.timestamp_utc, r.tag ?? ''];

function home(items: [string, string][]): string {
  const h = homes.make();
  writeFiles(h, { '.config/Windsurf/User/workspaceStorage/9f3c/workspace.json': JSON.stringify({ folder: 'file:///home/dev/shop' }) });
  buildDb(h, WS, 'CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB);', items.map(([k, v]) => ['INSERT INTO ItemTable VALUES (?, ?)', [k, v]]));
  return h;
}

describe('windsurf aichat (a workspace state.vscdb)', () => {
  it('each tab a session in the folder: its name, prompts with the files they quoted, replies; the tab time, else the file time', async () => {
    const pane = {
      tabs: [
        { tabId: 'tab-1', chatTitle: 'Fix checkout', lastSendTime: 1790845200000, bubbles: [{ type: 'user', text: 'why does checkout fail?', selections: [{ uri: { fsPath: '/home/dev/shop/cart.ts' }, text: 'total()' }] }, { type: 'ai', text: 'total() ignores discounts.' }] },
        { tabId: 'tab-2', bubbles: [{ type: 1, rawText: 'undated prompt' }, { type: 2, text: 'undated reply' }, { type: 'tool', text: 'x' }] },
      ],
    };
    const { rows, ctx } = await run(aichat, home([['workbench.panel.aichat.view.aichat.chatdata', JSON.stringify(pane)], ['secret://token', 'FAKEsecret']]), WS, { fields: { mtime: MTIME } });
    expect(rows.map(line)).toEqual([
      ['tab-1', 'system', 'session name: Fix checkout', '/home/dev/shop', '2026-10-01T09:00:00.000Z', 'session_name'],
      ['tab-1', 'user', 'why does checkout fail? [file /home/dev/shop/cart.ts]', '/home/dev/shop', '2026-10-01T09:00:00.000Z', 'time_session'],
      ['tab-1', 'assistant', 'total() ignores discounts.', '/home/dev/shop', '2026-10-01T09:00:00.000Z', 'time_session'],
      ['tab-2', 'user', 'undated prompt', '/home/dev/shop', MTIME, 'time_file'],
      ['tab-2', 'assistant', 'undated reply', '/home/dev/shop', MTIME, 'time_file'],
      ['tab-2', 'system', 'tool message: x', '/home/dev/shop', MTIME, 'time_file'],
    ]);
    expect(ctx.unknowns.map((u) => u.kind)).toEqual(['aichat bubble type tool']);
    expect(JSON.stringify(rows)).not.toContain('FAKE');
  });

  it('wants workspace databases of Windsurf and Windsurf Next on each OS, not the global one or other editors; damage is a row', async () => {
    for (const rel of [WS, 'Library/Application Support/Windsurf/User/workspaceStorage/a/state.vscdb', 'AppData/Roaming/Windsurf - Next/User/workspaceStorage/b/state.vscdb', '.windsurf-server/data/User/workspaceStorage/c/state.vscdb']) expect(aichat.wants(rel), rel).toBe(true);
    for (const rel of ['.config/Windsurf/User/globalStorage/state.vscdb', '.config/Cursor/User/workspaceStorage/a/state.vscdb', '.config/Windsurf/User/workspaceStorage/a/state.vscdb-wal']) expect(aichat.wants(rel), rel).toBe(false);
    const bad = await run(aichat, home([['aiChat.chatdata', '{not json'], ['chat.data', JSON.stringify({ tabs: 'no' })]]), WS, { fields: { mtime: MTIME } });
    expect(bad.rows.map((r) => [r.text, r.tag])).toEqual([
      ['parser: unreadable file (expected the JSON of a chat pane under aiChat.chatdata, found text that is not JSON)', 'unreadable'],
      ['parser: unreadable chat.data (expected {"tabs": [...]}, found another shape)', 'bad_line'],
    ]);
  });
});
