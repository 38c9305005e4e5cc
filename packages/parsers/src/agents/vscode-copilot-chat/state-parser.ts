import { badLineRow, unreadableRow } from '../../sdk/row.js';
import { columnNames, type SqliteDatabase } from '../../sdk/sqlite.js';
import type { Artifact, ParseContext, Row } from '../../sdk/types.js';
import { projectOf, vscodeParser } from './common.js';
import { USER_PATTERNS } from './paths.js';
import { openStore } from './sqlite-open.js';
import { type KeyContext, STATE_KEYS, stateKeyRows } from './state-keys.js';

/**
 * state.vscdb (workspace and global scope, and the .backup copy VS Code keeps): the ItemTable
 * keys of chat (spec, "Other ItemTable keys"): the session index, the legacy interactive.sessions
 * and chat.workspaceTransfer sessions, the input history, the views' unsent drafts, the
 * agent-sessions cache and the "always allow" tool grants. Secondary (the same epoch values as the
 * session files; tolerance 60 s).
 *
 * The global state.vscdb also holds the secret storage (`secret://...` keys, encrypted values):
 * the catalog flags it and this parser opts in (readsSecretFile) because it selects only the chat
 * keys by name; no secret key or value is ever read, let alone printed.
 */
export const vscodeStateParser = vscodeParser({
  name: 'state-vscdb',
  user: USER_PATTERNS.state,
  secondary: () => true,
  toleranceSeconds: () => 60,
  readsSecretFile: true,
  parse: parseState,
});

async function* parseState(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const project = (await projectOf(a, ctx)).path;
  const opened = await openStore(a, { project_path: project });
  if ('row' in opened) {
    yield opened.row;
    return;
  }
  const db = opened.db;
  try {
    const rows = readKeys(db);
    if ('error' in rows) {
      yield unreadableRow(rows.error, { project_path: project });
      return;
    }
    const k: KeyContext = { a, ctx, project, global: !/\/workspaceStorage\//.test(a.rel) };
    for (const r of rows.items) {
      let value: unknown;
      try {
        value = JSON.parse(r.text);
      } catch (e) {
        yield badLineRow(`ItemTable key ${r.key}: expected JSON, found text that is not (${(e as Error).message})`, r.text.slice(0, 200), r.rowid, { project_path: project });
        continue;
      }
      yield* stateKeyRows(k, r.key, value, r.rowid);
    }
  } finally {
    db.close();
  }
}

interface Item {
  key: string;
  text: string;
  rowid: number;
}

/**
 * The chat keys of ItemTable, by name: `key IN (...)` and the views' draft prefix. The WHERE
 * clause never matches `secret://`, so no credential is read from the database at all.
 */
function readKeys(db: SqliteDatabase): { items: Item[] } | { error: string } {
  const cols = columnNames(db, 'ItemTable');
  if (!cols.has('key') || !cols.has('value')) return { error: 'expected an ItemTable (key, value) as VS Code writes state.vscdb, found none' };
  try {
    const marks = STATE_KEYS.map(() => '?').join(', ');
    const sql = `SELECT rowid AS rowid, key, value FROM ItemTable WHERE key IN (${marks}) OR key LIKE 'memento/interactive-session-view-%' ORDER BY rowid`;
    const rows = db.prepare(sql).all(...STATE_KEYS) as { rowid: number; key: unknown; value: unknown }[];
    return {
      items: rows
        .filter((r) => typeof r.key === 'string' && !r.key.startsWith('secret://'))
        .map((r) => ({ key: r.key as string, rowid: Number(r.rowid), text: Buffer.isBuffer(r.value) ? r.value.toString('utf8') : String(r.value ?? '') })),
    };
  } catch (e) {
    return { error: `expected to read ItemTable, but SQLite failed: ${(e as Error).message.split('\n')[0]}` };
  }
}
