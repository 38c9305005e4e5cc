import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { artifactFromFile } from './fs-artifact.js';
import { openArtifactSqlite, querySafely, selectList, sqlJson, sqlText, sqlTime } from './sqlite-rows.js';
import { quoteIdent } from './sqlite.js';

const dir = mkdtempSync(join(tmpdir(), 'aitrail-sqlite-rows-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('sqlite-rows', () => {
  it('opens a collected database, or gives one unreadable row naming the rel', async () => {
    const db = new Database(join(dir, 'a.db'));
    db.exec("CREATE TABLE t (a TEXT, b INTEGER); INSERT INTO t VALUES ('x', 1);");
    db.close();
    const ok = await openArtifactSqlite(artifactFromFile(dir, 'a.db'));
    expect(ok.ok && ok.hadWal).toBe(false);
    if (ok.ok) ok.db.close();
    writeFileSync(join(dir, 'b.db'), 'garbage');
    const bad = await openArtifactSqlite(artifactFromFile(dir, 'b.db'));
    expect(bad.ok ? '' : bad.row.text).toBe('parser: unreadable file (expected a SQLite database (header "SQLite format 3"), found other bytes in b.db; the file is corrupt or not a database)');
    const noCopy = await openArtifactSqlite({ ...artifactFromFile(dir, 'a.db'), localPath: async () => Promise.reject(Object.assign(new Error('x'), { code: 'ENOSPC' })) });
    expect(noCopy.ok ? '' : noCopy.row.text).toBe('parser: unreadable file (expected a private copy of a.db to open as SQLite, but it could not be made (ENOSPC))');
  });

  it('selects missing columns as NULL, quotes names, and reads a failing query as one error item', async () => {
    const r = await openArtifactSqlite(artifactFromFile(dir, 'a.db'));
    if (!r.ok) throw new Error('open');
    expect(selectList(r.db, 't', ['a', 'c"d'])).toBe('"a", NULL AS "c""d"');
    expect([...querySafely(r.db, `SELECT ${selectList(r.db, 't', ['a', 'zz'])} FROM t`)]).toEqual([{ row: { a: 'x', zz: null } }]);
    expect([...querySafely(r.db, 'SELECT * FROM missing')]).toEqual([{ error: 'no such table: missing' }]);
    expect(quoteIdent('t')).toBe('"t"');
    r.db.close();
  });

  it('reads any column type as text, JSON or a time (seconds, ms, SQLite text) without throwing', () => {
    expect([sqlText('a'), sqlText(2), sqlText(3n), sqlText(Buffer.from('b')), sqlText(null)]).toEqual(['a', '2', '3', 'b', '']);
    expect([sqlJson('{"a":1}'), sqlJson(Buffer.from('[1]')), sqlJson('nope'), sqlJson(null)]).toEqual([{ a: 1 }, [1], undefined, undefined]);
    expect([sqlTime(1789549200), sqlTime(1789549200123), sqlTime('2026-09-14 09:00:00'), sqlTime('2026-05-02T08:00:00+00:00'), sqlTime('soon'), sqlTime(0), sqlTime(null)]).toEqual([
      '2026-09-16T09:00:00.000Z',
      '2026-09-16T09:00:00.123Z',
      '2026-09-14T09:00:00.000Z',
      '2026-05-02T08:00:00.000Z',
      '',
      '',
      '',
    ]);
  });
});
