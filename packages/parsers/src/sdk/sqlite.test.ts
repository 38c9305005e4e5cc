import { createHash, randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { columnNames, openCollectedSqlite, SqliteOpenError, tableNames } from './sqlite.js';

const root = mkdtempSync(join(tmpdir(), 'aitrail-sqlite-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const sha = (p: string) => createHash('sha256').update(readFileSync(p)).digest('hex');

function copyInto(dir: string, src: string, suffixes: string[]): string {
  mkdirSync(dir, { recursive: true });
  const dest = join(dir, 'session-store.db');
  for (const s of suffixes) copyFileSync(src + s, dest + s);
  return dest;
}

async function openError(path: string, displayName?: string): Promise<SqliteOpenError> {
  try {
    const db = await openCollectedSqlite(path, displayName);
    db.close();
  } catch (e) {
    expect(e).toBeInstanceOf(SqliteOpenError);
    return e as SqliteOpenError;
  }
  throw new Error(`expected openCollectedSqlite(${path}) to fail with SqliteOpenError, but it opened`);
}

describe('openCollectedSqlite on a copy taken while the writer is open (rows only in the WAL)', () => {
  const live = join(root, 'live', 'session-store.db');
  let writer: Database.Database;
  let withShm: string;
  let withoutShm: string;
  let mainOnly: string;

  beforeAll(() => {
    mkdirSync(join(root, 'live'));
    writer = new Database(live);
    writer.pragma('journal_mode = WAL');
    writer.pragma('wal_autocheckpoint = 0');
    writer.exec('CREATE TABLE turns (session_id TEXT, turn_index INTEGER, user_message TEXT, timestamp TEXT)');
    const ins = writer.prepare('INSERT INTO turns VALUES (?, ?, ?, ?)');
    for (let i = 0; i < 50; i++) ins.run('5e55a0a1', i, `prompt ${i} •`, '2026-10-01T09:00:15.200Z');
    // Copy while the writer still holds the database open: nothing has been checkpointed.
    withShm = copyInto(join(root, 'with-shm'), live, ['', '-wal', '-shm']);
    withoutShm = copyInto(join(root, 'without-shm'), live, ['', '-wal']);
    mainOnly = copyInto(join(root, 'main-only'), live, ['']);
  });
  afterAll(() => writer.close());

  it('copies a main file that holds no row and a non-empty WAL', async () => {
    expect(statSync(withShm).size).toBe(4096);
    expect(statSync(`${withShm}-wal`).size).toBeGreaterThan(4096);
    const db = await openCollectedSqlite(mainOnly);
    try {
      expect(tableNames(db).has('turns')).toBe(false);
    } finally {
      db.close();
    }
  });

  it('reads the rows from the WAL with -shm beside it', async () => {
    const db = await openCollectedSqlite(withShm);
    try {
      expect(tableNames(db)).toEqual(new Set(['turns']));
      expect([...columnNames(db, 'turns')]).toEqual(['session_id', 'turn_index', 'user_message', 'timestamp']);
      expect(columnNames(db, 'no_such_table').size).toBe(0);
      expect(columnNames(db, 'turns"); DROP TABLE turns; --').size).toBe(0);
      const rows = db.prepare('SELECT turn_index, user_message FROM turns ORDER BY rowid').all() as { turn_index: number; user_message: string }[];
      expect(rows).toHaveLength(50);
      expect(rows[49]).toEqual({ turn_index: 49, user_message: 'prompt 49 •' });
    } finally {
      db.close();
    }
  });

  it('reads the rows from the WAL without -shm', async () => {
    const db = await openCollectedSqlite(withoutShm);
    try {
      expect(db.prepare('SELECT count(*) AS n FROM turns').get()).toEqual({ n: 50 });
    } finally {
      db.close();
    }
  });

  it('leaves the copied database and its WAL as they were', async () => {
    const dir = join(root, 'untouched');
    const p = copyInto(dir, live, ['', '-wal', '-shm']);
    const before = { main: sha(p), wal: sha(`${p}-wal`) };
    const db = await openCollectedSqlite(p);
    db.prepare('SELECT * FROM turns').all();
    db.close();
    expect(existsSync(`${p}-wal`)).toBe(true);
    expect({ main: sha(p), wal: sha(`${p}-wal`) }).toEqual(before);
    expect(() => db.prepare('SELECT 1')).toThrow();
  });

  it('refuses to write', async () => {
    const db = await openCollectedSqlite(withShm);
    try {
      expect(() => db.exec("INSERT INTO turns VALUES ('x', 1, 'y', 'z')")).toThrow(/readonly/);
    } finally {
      db.close();
    }
  });

  it('reads the transactions before the cut of a WAL copied short, and no more', async () => {
    const p = copyInto(join(root, 'wal-cut'), live, ['', '-wal']);
    const full = statSync(`${p}-wal`).size;
    truncateSync(`${p}-wal`, Math.floor(full / 2));
    const db = await openCollectedSqlite(p);
    try {
      const { n } = db.prepare('SELECT count(*) AS n FROM turns').get() as { n: number };
      expect(n).toBeGreaterThan(0);
      expect(n).toBeLessThan(50);
    } finally {
      db.close();
    }
  });

  it('explains a WAL without its database', async () => {
    const dir = join(root, 'wal-only');
    mkdirSync(dir);
    copyFileSync(`${live}-wal`, join(dir, 'session-store.db-wal'));
    const e = await openError(join(dir, 'session-store.db'));
    expect(e.message).toMatch(/write-ahead log.*cannot be read without its database.*collect the database/);
  });
});

describe('openCollectedSqlite on a rollback-journal database copied in the middle of a write (hot journal)', () => {
  const live = join(root, 'journal-live', 'state.vscdb');
  let copy: string;
  let before: { main: string; journal: string };

  beforeAll(() => {
    mkdirSync(join(root, 'journal-live'));
    const w = new Database(live);
    w.pragma('journal_mode = DELETE');
    w.exec('CREATE TABLE kv (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)');
    const ins = w.prepare('INSERT INTO kv VALUES (?, ?)');
    for (let i = 0; i < 200; i++) ins.run(`composerData:${i}`, JSON.stringify({ n: i, text: 'committed '.repeat(40) }));
    // A one-page cache makes SQLite spill the transaction's changes into the main file before
    // commit, with the original pages saved in the journal: the state a copy taken now has.
    w.pragma('cache_size = 1');
    w.exec('BEGIN IMMEDIATE');
    w.prepare("UPDATE kv SET value = ? WHERE key LIKE 'composerData:%'").run('uncommitted '.repeat(60));
    w.prepare('INSERT INTO kv VALUES (?, ?)').run('composerData:new', 'uncommitted');
    copy = copyInto(join(root, 'journal-copy'), live, ['', '-journal']);
    w.exec('ROLLBACK');
    w.close();
    before = { main: sha(copy), journal: sha(`${copy}-journal`) };
  });

  it('the copy holds a hot journal that a plain read-only open refuses', () => {
    expect(statSync(`${copy}-journal`).size).toBeGreaterThan(0);
    const raw = new Database(copy, { readonly: true, fileMustExist: true });
    try {
      expect(() => raw.prepare('SELECT count(*) FROM kv').get()).toThrow(/readonly/);
    } finally {
      raw.close();
    }
  });

  it('reads the last committed state: every row as committed, none of the rolled-back write', async () => {
    const db = await openCollectedSqlite(copy, '.config/Cursor/User/globalStorage/state.vscdb');
    try {
      const rows = db.prepare('SELECT key, value FROM kv ORDER BY rowid').all() as { key: string; value: string }[];
      expect(rows).toHaveLength(200);
      expect(rows.every((r) => JSON.parse(r.value).text.startsWith('committed'))).toBe(true);
      expect(rows.some((r) => r.key === 'composerData:new')).toBe(false);
      expect(() => db.exec("INSERT INTO kv VALUES ('x', 'y')")).toThrow(/readonly/);
    } finally {
      db.close();
    }
  });

  it('never writes the files it was given, and removes its private copy on close', async () => {
    const tmpBefore = new Set(readdirSync(tmpdir()).filter((n) => n.startsWith('aitrail-sqlite-')));
    const db = await openCollectedSqlite(copy);
    const made = readdirSync(tmpdir()).filter((n) => n.startsWith('aitrail-sqlite-') && !tmpBefore.has(n));
    expect(made).toHaveLength(1);
    db.close();
    expect(existsSync(join(tmpdir(), made[0]))).toBe(false);
    expect({ main: sha(copy), journal: sha(`${copy}-journal`) }).toEqual(before);
  });

  it('a journal that is not hot (zeroed header, PERSIST mode) needs no copy', async () => {
    const dir = join(root, 'journal-persist');
    mkdirSync(dir);
    const p = join(dir, 'state.vscdb');
    const w = new Database(p);
    w.pragma('journal_mode = PERSIST');
    w.exec("CREATE TABLE kv (key TEXT, value BLOB); INSERT INTO kv VALUES ('a', 'b')");
    w.close();
    expect(existsSync(`${p}-journal`)).toBe(true);
    const tmpBefore = readdirSync(tmpdir()).filter((n) => n.startsWith('aitrail-sqlite-')).length;
    const db = await openCollectedSqlite(p);
    try {
      expect(readdirSync(tmpdir()).filter((n) => n.startsWith('aitrail-sqlite-')).length).toBe(tmpBefore);
      expect(db.prepare('SELECT value FROM kv').get()).toEqual({ value: 'b' });
    } finally {
      db.close();
    }
  });

  it('a hot journal that is garbage gives one SqliteOpenError naming the display name', async () => {
    const p = copyInto(join(root, 'journal-garbage'), copy, ['']);
    const j = readFileSync(`${copy}-journal`);
    writeFileSync(`${p}-journal`, Buffer.concat([j.subarray(0, 28), randomBytes(j.length - 28)]));
    try {
      const db = await openCollectedSqlite(p, 'x/state.vscdb');
      // SQLite may also find the journal's header invalid (not hot) and read the main file as it is.
      expect(db.prepare('SELECT count(*) AS n FROM kv').get()).toEqual({ n: expect.any(Number) });
      db.close();
    } catch (e) {
      expect(e).toBeInstanceOf(SqliteOpenError);
      expect((e as Error).message).toContain('x/state.vscdb');
      expect((e as Error).message).not.toContain(tmpdir());
    }
  });
});

describe('openCollectedSqlite on files that are not a readable database', () => {
  const file = (name: string, bytes: Buffer | string) => {
    const p = join(root, 'bad', name);
    mkdirSync(join(root, 'bad'), { recursive: true });
    writeFileSync(p, bytes);
    return p;
  };

  // A database of several pages in rollback mode, so every page lives in the main file.
  function realDb(name: string): string {
    const p = join(root, 'bad', name);
    mkdirSync(join(root, 'bad'), { recursive: true });
    const db = new Database(p);
    db.exec('CREATE TABLE t (x TEXT)');
    const ins = db.prepare('INSERT INTO t VALUES (?)');
    db.transaction(() => {
      for (let i = 0; i < 200; i++) ins.run('x'.repeat(500));
    })();
    db.close();
    return p;
  }

  it.each([
    ['random bytes', () => file('random.db', randomBytes(8192)), /found other bytes.*not a database/],
    ['text', () => file('text.db', 'id,name\n1,hello\n'), /found other bytes.*not a database/],
    ['zero bytes', () => file('empty.db', ''), /found an empty file/],
    ['a missing file', () => join(root, 'bad', 'nope.db'), /could not be read \(ENOENT\)/],
    ['a directory', () => join(root, 'bad'), /could not be read/],
  ])('%s gives one SqliteOpenError', async (_name, make, message) => {
    expect((await openError(make())).message).toMatch(message);
  });

  it('names the display name (or the base name), never the private copy\'s folder, in every message', async () => {
    const dir = join(root, 'bad');
    const cut = realDb('named-cut.db');
    truncateSync(cut, 60);
    const walOnly = file('named-wal.db-wal', 'x').slice(0, -'-wal'.length);
    const paths = [file('named-random.db', randomBytes(512)), file('named-empty.db', ''), join(dir, 'named-missing.db'), cut, walOnly];
    for (const p of paths) {
      const named = (await openError(p, '.copilot/session-store.db')).message;
      expect(named, p).toContain('.copilot/session-store.db');
      expect(named, p).not.toContain(dir);
      const plain = (await openError(p)).message;
      expect(plain, p).not.toContain(dir);
    }
    // The default (no display name) still says which file: its base name.
    expect((await openError(paths[1])).message).toContain('named-empty.db');
  });

  it('a database cut short gives one SqliteOpenError saying it is truncated', async () => {
    const p = realDb('truncated.db');
    const full = statSync(p).size;
    expect(full).toBeGreaterThan(8 * 4096);
    truncateSync(p, Math.floor(full / 2));
    expect((await openError(p)).message).toMatch(/pages.*found \d+ bytes.*truncated/);
  });

  it('a main file shorter than its header says opens when the WAL beside it holds the missing pages', async () => {
    // As a copy taken mid-checkpoint (real: Codex's logs_1.sqlite): page 1 says N pages, the file
    // holds fewer, and every page was rewritten into the WAL after the last checkpoint.
    const p = join(root, 'bad', 'wal-holds-tail.db');
    mkdirSync(join(root, 'bad'), { recursive: true });
    const w = new Database(p);
    w.pragma('journal_mode = WAL');
    w.pragma('wal_autocheckpoint = 0');
    w.exec('CREATE TABLE t (x TEXT)');
    const ins = w.prepare('INSERT INTO t VALUES (?)');
    w.transaction(() => {
      for (let i = 0; i < 200; i++) ins.run('x'.repeat(500));
    })();
    w.pragma('wal_checkpoint(TRUNCATE)');
    w.exec("UPDATE t SET x = x || 'y'");
    const dir = join(root, 'bad', 'tail');
    mkdirSync(dir, { recursive: true });
    copyFileSync(p, join(dir, 'db'));
    copyFileSync(`${p}-wal`, join(dir, 'db-wal'));
    w.close();
    const full = statSync(join(dir, 'db')).size;
    truncateSync(join(dir, 'db'), Math.floor(full / 2 / 4096) * 4096);
    const db = await openCollectedSqlite(join(dir, 'db'));
    try {
      const { n } = db.prepare("SELECT count(*) AS n FROM t WHERE x LIKE '%y'").get() as { n: number };
      expect(n).toBe(200);
    } finally {
      db.close();
    }
    // Without the WAL the same main file is refused as truncated.
    rmSync(join(dir, 'db-wal'));
    expect((await openError(join(dir, 'db'))).message).toMatch(/pages.*found \d+ bytes.*truncated/);
  });

  it('a database cut inside its header gives one SqliteOpenError', async () => {
    const p = realDb('header-cut.db');
    truncateSync(p, 60);
    expect((await openError(p)).message).toMatch(/60 bytes.*truncated/);
  });

  it('a database whose pages are garbage gives one SqliteOpenError', async () => {
    const p = realDb('garbage-pages.db');
    const buf = readFileSync(p);
    randomBytes(buf.length - 100).copy(buf, 100);
    writeFileSync(p, buf);
    expect((await openError(p)).message).toMatch(/expected a readable SQLite database/);
  });

  it('anything after a valid magic either opens or gives SqliteOpenError, never a crash', async () => {
    const magic = Buffer.from('SQLite format 3\u0000', 'latin1');
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 0, maxLength: 9000 }), async (tail) => {
        const p = file('fuzz.db', Buffer.concat([magic, tail]));
        try {
          const db = await openCollectedSqlite(p);
          db.close();
        } catch (e) {
          expect(e).toBeInstanceOf(SqliteOpenError);
        }
      }),
      { numRuns: 100 },
    );
  });
});

describe('openCollectedSqlite on a database with a view', () => {
  // A view's rows are computed when read: one planted under a table's name (an endless
  // recursive CTE as VS Code's ItemTable) made the Cline family's state.vscdb parsers run forever.
  it('reads a view as an empty table of its columns, leaves the tables and the file as they were', async () => {
    const path = join(root, 'views', 'state.vscdb');
    mkdirSync(join(root, 'views'), { recursive: true });
    const w = new Database(path);
    w.exec(`CREATE TABLE t (a, b); INSERT INTO t VALUES (1, 'x');
      CREATE VIEW ItemTable (key, value) AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT 'k' || x, 'v' FROM c;
      CREATE VIEW "odd ""name""" AS SELECT a FROM t`);
    w.close();
    const before = sha(path);
    const db = await openCollectedSqlite(path);
    try {
      expect(db.prepare('SELECT key, value FROM ItemTable WHERE lower(key) = ?').all('k1')).toEqual([]);
      expect(db.prepare('SELECT rowid, * FROM ItemTable').all()).toEqual([]);
      expect([...columnNames(db, 'ItemTable')]).toEqual(['key', 'value']);
      expect(db.prepare('SELECT * FROM "odd ""name"""').all()).toEqual([]);
      expect(db.prepare('SELECT a, b FROM t').all()).toEqual([{ a: 1, b: 'x' }]);
      expect(tableNames(db).has('ItemTable')).toBe(true);
    } finally {
      db.close();
    }
    expect(sha(path)).toBe(before);
  });
});
