import type { SqliteDatabase } from '../../sdk/sqlite.js';
import type { ParseContext } from '../../sdk/types.js';

/** Tables the store parser reads rows from. */
export const STORE_ROW_TABLES: ReadonlySet<string> = new Set(['sessions', 'turns', 'session_files', 'session_refs', 'checkpoints', 'forge_trajectory_events']);

// Tables the seed's Parser plan names and gives no rows (copies of turns, accounting, nothing tied
// to a session), and SQLite's and FTS5's own bookkeeping.
const SKIPPED = /^(?:search_index(?:_data|_idx|_content|_docsize|_config)?|assistant_usage_events|forge_skill_proposals|dynamic_context_items|schema_version|sqlite_\w+)$/;

/** Counted per table: a table of millions of rows is counted in one query, then reported row by row up to this. */
const MAX_COUNTED = 1_000_000;

/**
 * Count every row of a table the parser does not know (a newer schema_version's) as an unknown
 * record kind `table <name>`: its rows give no timeline rows, and inventory.json unknown_records
 * says how many were left unread. A table that cannot be counted is reported once.
 */
export function countUnknownTables(db: SqliteDatabase, tables: Set<string>, ctx: ParseContext): void {
  for (const t of tables) {
    if (STORE_ROW_TABLES.has(t) || SKIPPED.test(t)) continue;
    let n = 1;
    try {
      n = Number((db.prepare(`SELECT COUNT(*) AS n FROM "${t.replaceAll('"', '""')}"`).get() as { n: number }).n);
    } catch {
      // A view over a missing table, a corrupt page: the table is still a kind no one reads.
    }
    for (let i = 0; i < Math.min(n, MAX_COUNTED); i++) ctx.unknown(`table ${t}`);
  }
}
