import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { runFile } from './test-helpers/run.js';

// VS Code's state.vscdb copied from a running editor. VS Code keeps it in rollback-journal mode
// (the real aholicg/Debian files: header bytes 18-19 = 1), so a copy taken mid-write has a hot
// -journal beside it; a database some editor of the family switched to WAL has its newest rows
// in the -wal only. The catalog collects `state.vscdb*`, so both sidecars arrive with it; the
// parser must read the last committed state, never the half-written one, and the -wal's rows.

const dir = mkdtempSync(join(tmpdir(), 'aitrail-vscode-live-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const W = '.config/Code/User/workspaceStorage/2222bbbb2222bbbb2222bbbb2222bbbb';
const DB = `${W}/state.vscdb`;
const SID = '1a1a1a1a-0000-4000-8000-00000000001a';
const index = (title: string) => JSON.stringify({ version: 1, entries: { [SID]: { sessionId: SID, title, lastMessageDate: 1790931600000, initialLocation: 'panel' } } });

function editorDb(path: string, mode: 'DELETE' | 'WAL'): Database.Database {
  const w = new Database(path);
  w.pragma(`journal_mode = ${mode}`);
  // VS Code's schema (vs/base/parts/storage/node/storage.ts).
  w.exec('CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)');
  return w;
}

/** The session name rows and every text of a parse of the copied home. */
async function names(home: string): Promise<{ names: string[]; all: string }> {
  const r = await runFile(home, DB);
  return { names: r.rows.filter((x) => x.tag === 'session_name').map((x) => x.text), all: JSON.stringify(r.rows) };
}

describe('state.vscdb copied from a running editor', () => {
  it('rollback-journal mode, copied in the middle of a write (hot -journal): the last committed index, not the half-written one', async () => {
    const live = join(dir, 'journal-live');
    mkdirSync(live);
    const w = editorDb(join(live, 'state.vscdb'), 'DELETE');
    const put = w.prepare('INSERT INTO ItemTable VALUES (?, ?)');
    put.run('chat.ChatSessionStore.index', index('committed title'));
    // Enough pages that the open transaction spills its changes into the file itself.
    for (let i = 0; i < 40; i++) put.run(`workbench.view.${i}`, 'x'.repeat(400));
    w.pragma('cache_size = 1');
    w.exec('BEGIN IMMEDIATE');
    put.run('chat.ChatSessionStore.index', index('half-written title'));
    w.prepare("UPDATE ItemTable SET value = ? WHERE key LIKE 'workbench.view.%'").run('y'.repeat(500));
    const home = join(dir, 'journal-copy');
    mkdirSync(join(home, W), { recursive: true });
    for (const s of ['', '-journal']) copyFileSync(join(live, `state.vscdb${s}`), join(home, `${DB}${s}`));
    w.exec('ROLLBACK');
    w.close();
    expect(statSync(join(home, `${DB}-journal`)).size).toBeGreaterThan(0);
    const r = await names(home);
    expect(r.names).toEqual(['session name: committed title']);
    expect(r.all).not.toContain('half-written');
    // The evidence copy is left as collected: the rollback happens in a private copy.
    expect(statSync(join(home, `${DB}-journal`)).size).toBeGreaterThan(0);
  });

  it('WAL mode, copied while the editor held it open: the index that lives only in the -wal is read', async () => {
    const live = join(dir, 'wal-live');
    mkdirSync(live);
    const w = editorDb(join(live, 'state.vscdb'), 'WAL');
    w.pragma('wal_autocheckpoint = 0');
    w.prepare('INSERT INTO ItemTable VALUES (?, ?)').run('chat.ChatSessionStore.index', index('only in the wal'));
    const home = join(dir, 'wal-copy');
    mkdirSync(join(home, W), { recursive: true });
    for (const s of ['', '-wal', '-shm']) copyFileSync(join(live, `state.vscdb${s}`), join(home, `${DB}${s}`));
    w.close();
    expect(statSync(join(home, `${DB}-wal`)).size).toBeGreaterThan(0);
    expect((await names(home)).names).toEqual(['session name: only in the wal']);
    expect(existsSync(join(home, `${DB}-wal`))).toBe(true);
  });
});
