import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import Database from 'better-sqlite3';

/** How {@link takenWhileOpen} writes its database. */
export interface TakenWhileOpenOptions {
  /** 'wal' (the default), as the agents run their stores; 'delete' for a rollback-journal database. */
  journal?: 'wal' | 'delete';
  /** The text encoding of a new database ('UTF-16le', 'UTF-16be'): set before anything writes the header. */
  encoding?: string;
  /** A database file (a fixture's) the writer starts from, copied first; an empty database when not given. */
  from?: string;
}

/**
 * A SQLite database written by `build`, copied to `dest` (its folders made) with its -wal while the
 * writer is still open, as a collector copies a store from a running machine; then the writer closes.
 * `journal: 'delete'` writes a rollback-journal database instead (copied the same way, no WAL).
 * `encoding` is set before anything writes the header; `from` starts the writer from a copy of that file.
 */
export function takenWhileOpen(dest: string, build: (db: Database.Database) => void, opts: TakenWhileOpenOptions = {}): void {
  // The writer's own file is never the copy: closing it checkpoints and removes its WAL, which is
  // exactly the state a copy from a running machine does not have.
  const dir = mkdtempSync(join(tmpdir(), 'aitrail-taken-'));
  const src = join(dir, basename(dest));
  if (opts.from !== undefined) copyFileSync(opts.from, src);
  const db = new Database(src);
  try {
    // Once the header is written (journal_mode = WAL writes it) the encoding can no longer change.
    if (opts.encoding !== undefined) db.pragma(`encoding = '${opts.encoding}'`);
    db.pragma(`journal_mode = ${opts.journal ?? 'wal'}`);
    // No automatic checkpoint: what the test writes after its own wal_checkpoint stays in the WAL.
    db.pragma('wal_autocheckpoint = 0');
    build(db);
    mkdirSync(dirname(dest), { recursive: true });
    copyFileSync(src, dest);
    if (existsSync(`${src}-wal`)) copyFileSync(`${src}-wal`, `${dest}-wal`);
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
