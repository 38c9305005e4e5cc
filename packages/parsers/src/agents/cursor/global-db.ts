import { makeRow, unreadableRow } from '../../sdk/row.js';
import { openCollectedSqlite, type SqliteDatabase, tableNames } from '../../sdk/sqlite.js';
import { readArtifactSqliteBytes } from '../../sdk/sqlite-deleted.js';
import type { Artifact, ParseContext, Row } from '../../sdk/types.js';
import { type ComposerEntry, conversationRows, listComposers, orphanRows, parentsOf, scanKeys } from './conversations.js';
import { type ComposerHeader, composerHeaders, composerStateRows, personalContextRow, REACTIVE_KEY, readItems, signInRow } from './item-table.js';
import { recoveredConversations } from './recovered-conversations.js';
import { readWorkspaceProject } from './workspace-json.js';

// The newer composerHeaders table: composer id → workspace folder id (and the same JSON header).
function headerTable(db: SqliteDatabase, into: Map<string, ComposerHeader>): void {
  const rows = db.prepare('SELECT composerId AS id, workspaceId AS ws FROM composerHeaders').all() as { id: unknown; ws: unknown }[];
  for (const r of rows) {
    if (typeof r.id !== 'string' || into.has(r.id)) continue;
    into.set(r.id, { project: '', workspaceId: typeof r.ws === 'string' ? r.ws : '' });
  }
}

// A header that names only a workspace folder id takes that folder's workspace.json.
async function resolveWorkspaces(a: Artifact, headers: Map<string, ComposerHeader>): Promise<void> {
  const cache = new Map<string, string>();
  for (const h of headers.values()) {
    if (h.project || !h.workspaceId || /[/\\]/.test(h.workspaceId)) continue;
    if (!cache.has(h.workspaceId)) cache.set(h.workspaceId, await readWorkspaceProject(a.sibling(`../workspaceStorage/${h.workspaceId}/workspace.json`)));
    h.project = cache.get(h.workspaceId) ?? '';
  }
}

function* accountRows(db: SqliteDatabase, a: Artifact): Generator<Row> {
  const items = readItems(db, ['cursorAuth/cachedEmail', 'cursorAuth/stripeMembershipType', 'cursorAuth/cachedSignUpType', REACTIVE_KEY, 'aicontext.personalContext']);
  const signIn = signInRow(items);
  if (signIn) yield signIn;
  yield* composerStateRows(items.get(REACTIVE_KEY), a.mtime);
  const rules = personalContextRow(items.get('aicontext.personalContext'), a.mtime);
  if (rules) yield rules;
}

/**
 * Cursor's global `state.vscdb` (and its `.backup`): the account row and the standing auto-run
 * settings from ItemTable; every composer conversation of cursorDiskKV, composer by composer in
 * rowid order, each with its bubbles in the header's order; then the orphan bubbles. Read key by
 * key: a database of gigabytes is never loaded whole. Only the keys named are read from ItemTable,
 * so the account's tokens are never selected.
 */
export async function* parseGlobalDb(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  // The bytes before SQLite opens the copy: deleted conversations are carved from them.
  const bytes = await readArtifactSqliteBytes(a, ctx);
  let db: SqliteDatabase;
  try {
    db = await openCollectedSqlite(await a.localPath(), a.rel);
  } catch (e) {
    yield unreadableRow((e as Error).message);
    return;
  }
  try {
    // A larger page cache for this private, read-only connection: bubbles are read by rowid in
    // conversation order, which wanders over the file.
    db.pragma('cache_size = -32768');
    const tables = tableNames(db);
    if (!tables.has('ItemTable') && !tables.has('cursorDiskKV')) {
      yield unreadableRow(`expected Cursor's ItemTable and cursorDiskKV tables in ${a.rel}, found neither; not a Cursor state database`);
      return;
    }
    const headers = tables.has('ItemTable') ? composerHeaders(readItems(db, ['composer.composerHeaders']).get('composer.composerHeaders')?.value) : new Map<string, ComposerHeader>();
    if (tables.has('composerHeaders')) headerTable(db, headers);
    await resolveWorkspaces(a, headers);
    for (const [id, h] of headers) if (h.project) ctx.fact({ session_id: id, key: 'cwd', value: h.project, priority: 1 });
    if (tables.has('ItemTable')) yield* accountRows(db, a);
    if (!tables.has('cursorDiskKV')) return;
    const composers: ComposerEntry[] = listComposers(db);
    const parents = parentsOf(db);
    for (const c of composers) yield* conversationRows(db, c, headers.get(c.id)?.project ?? '', parents.get(c.id) ?? '', ctx);
    const known = new Set(composers.map((c) => c.id));
    const orphans = scanKeys(db, known, ctx);
    for (const id of orphans) yield* orphanRows(db, id, ctx);
    if (bytes) yield* recoveredConversations(bytes, db, (id) => headers.get(id)?.project ?? '', ctx, a.rel);
  } catch (e) {
    // A database that turns out corrupt past its first pages fails mid-read: one row says where.
    yield makeRow('system', `parser: the database could not be read to the end (${(e as Error).message.split('\n')[0]}); the rows above were read before the error`, { tag: 'unreadable' });
  } finally {
    db.close();
  }
}
