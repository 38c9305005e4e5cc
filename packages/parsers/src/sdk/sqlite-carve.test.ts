import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { carveSqlite, decodeRecord } from './sqlite-carve.js';
import { walFrames } from './sqlite-wal.js';
import { takenWhileOpen } from './test-helpers/taken-while-open.js';

// Real databases written by SQLite (better-sqlite3) on the analyst's side, copied the way a
// collector copies them (the file and its -wal while the writer is still open), then carved
// from their bytes.

const root = mkdtempSync(join(tmpdir(), 'aitrail-carve-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let n = 0;
/** A database built by `build` in WAL or rollback mode (in `encoding`), copied while still open; returns the copy's bytes. */
function copied(mode: 'wal' | 'delete', build: (db: Database.Database) => void, encoding?: string): { file: Buffer; wal: Buffer | null } {
  const copy = join(root, `db${++n}`, 'copy.db');
  takenWhileOpen(copy, build, { journal: mode, encoding });
  return { file: readFileSync(copy), wal: existsSync(`${copy}-wal`) ? readFileSync(`${copy}-wal`) : null };
}

const big = (seed: string, bytes: number) => Buffer.concat([Buffer.from(seed), randomBytes(bytes)]);
const ids = (r: ReturnType<typeof carveSqlite>) => [...new Set(r.records.map((x) => x.values[0]))].sort();

describe('carveSqlite', () => {
  it('WAL mode: a row deleted after the last checkpoint is whole in the main file (file-old), its overflow pages too', () => {
    const blob = big('zstd?', 20_000);
    const c = copied('wal', (db) => {
      db.exec('CREATE TABLE threads (id TEXT PRIMARY KEY, summary TEXT NOT NULL, data BLOB)');
      const put = db.prepare('INSERT INTO threads VALUES (?, ?, ?)');
      put.run('t1', 'kept', big('a', 100));
      put.run('t2', 'deleted later', blob);
      put.run('t3', 'kept too', big('c', 100));
      db.pragma('wal_checkpoint(TRUNCATE)');
      db.prepare('DELETE FROM threads WHERE id = ?').run('t2');
    });
    expect(c.wal?.length).toBeGreaterThan(0);
    const r = carveSqlite(c.file, c.wal);
    const t2 = r.records.filter((x) => x.values[0] === 't2');
    expect(t2.map((x) => x.source)).toEqual(['file-old']);
    expect(t2[0].values[1]).toBe('deleted later');
    expect(Buffer.compare(t2[0].values[2] as Buffer, blob)).toBe(0);
    expect(r.notes).toEqual([]);
  });

  it('WAL mode with no checkpoint: the frame before the delete holds the row (wal-old)', () => {
    const c = copied('wal', (db) => {
      db.exec('CREATE TABLE threads (id TEXT PRIMARY KEY, summary TEXT, n INTEGER, f REAL)');
      db.prepare('INSERT INTO threads VALUES (?, ?, ?, ?)').run('w1', 'first', 2 ** 40, 1.5);
      db.prepare('INSERT INTO threads VALUES (?, ?, ?, ?)').run('w2', 'second', -7, null);
      db.prepare('DELETE FROM threads WHERE id = ?').run('w2');
    });
    const r = carveSqlite(c.file, c.wal);
    const w2 = r.records.find((x) => x.values[0] === 'w2');
    expect(w2?.source).toBe('wal-old');
    expect(w2?.values).toEqual(['w2', 'second', -7, null]);
    // w1 is on every older version of the page: carved once.
    expect(r.records.filter((x) => x.values[0] === 'w1').map((x) => x.values)).toEqual([['w1', 'first', 2 ** 40, 1.5]]);
  });

  it('rollback mode: a table emptied by DELETE FROM frees whole leaf pages (freelist); a table still in use gives nothing', () => {
    const c = copied('delete', (db) => {
      db.exec('CREATE TABLE keep (id TEXT); CREATE TABLE gone (id TEXT, body TEXT)');
      const put = db.prepare('INSERT INTO gone VALUES (?, ?)');
      for (let i = 0; i < 300; i++) put.run(`g${i}`, `text ${i} `.repeat(20));
      db.prepare('INSERT INTO keep VALUES (?)').run('k1');
      db.exec('DELETE FROM gone');
    });
    expect(c.wal).toBeNull();
    const r = carveSqlite(c.file, null);
    expect(new Set(r.records.map((x) => x.source))).toEqual(new Set(['freelist']));
    expect(r.records.length).toBeGreaterThan(250);
    expect(r.records.every((x) => typeof x.values[0] === 'string' && String(x.values[0]).startsWith('g'))).toBe(true);
    expect(ids(r)).not.toContain('k1');
  });

  it('a UTF-16 database (either byte order) gives its texts decoded', () => {
    for (const enc of ['UTF-16le', 'UTF-16be']) {
      // A rollback-journal database: its file holds every commit, as a closed one's would.
      const c = copied('delete', (db) => {
        db.exec('CREATE TABLE gone (id TEXT, body TEXT)');
        for (let i = 0; i < 200; i++) db.prepare('INSERT INTO gone VALUES (?, ?)').run(`g${i}`, `héllo ${i} `.repeat(20));
        db.exec('DELETE FROM gone');
      }, enc);
      const r = carveSqlite(c.file, null);
      expect(r.records.length, enc).toBeGreaterThan(150);
      expect(r.records.find((x) => x.values[0] === 'g150')?.values[1], enc).toBe('héllo 150 '.repeat(20));
      if (enc === 'UTF-16be') {
        // Damage that still adds up: g150's id one byte shorter, its body one longer, both odd.
        const file = Buffer.from(c.file);
        const at = file.indexOf(Buffer.from([0x04, 0x1d, 0x86, 0x2d, 0x00, 0x67, 0x00, 0x31, 0x00, 0x35, 0x00, 0x30]));
        expect(at).toBeGreaterThan(0);
        file[at + 1] = 0x1b;
        file[at + 3] = 0x2f;
        expect(() => carveSqlite(file, null)).not.toThrow();
        expect(carveSqlite(file, null).records.length).toBe(r.records.length);
      }
    }
  });

  it('a database with nothing deleted gives nothing; the cap on records holds and says so', () => {
    const quiet = copied('delete', (db) => {
      db.exec('CREATE TABLE t (id TEXT)');
      db.prepare('INSERT INTO t VALUES (?)').run('x');
    });
    expect(carveSqlite(quiet.file, null)).toEqual({ records: [], notes: [] });
    const many = copied('delete', (db) => {
      db.exec('CREATE TABLE gone (id TEXT, body TEXT)');
      for (let i = 0; i < 300; i++) db.prepare('INSERT INTO gone VALUES (?, ?)').run(`g${i}`, 'x'.repeat(200));
      db.exec('DELETE FROM gone');
    });
    const capped = carveSqlite(many.file, null, { maxRecords: 10 });
    expect(capped.records).toHaveLength(10);
    expect(capped.notes).toEqual(['more than 10 records carved; the rest were not read']);
  });

  it('a WAL whose checksum chain breaks: frames after the break are not live, so the rows they add are carved, not lost', () => {
    const c = copied('wal', (db) => {
      db.exec('CREATE TABLE t (id TEXT)');
      db.prepare('INSERT INTO t VALUES (?)').run('before');
      db.prepare('INSERT INTO t VALUES (?)').run('after');
    });
    const wal = Buffer.from(c.wal as Buffer);
    const pageSize = c.file.readUInt16BE(16);
    const frames = walFrames(wal, pageSize).frames.length;
    // Flip a byte in the last frame's page: its checksum (and so its commit) no longer holds.
    wal[32 + (frames - 1) * (24 + pageSize) + 24 + 10] ^= 0xff;
    const w = walFrames(wal, pageSize);
    expect(Math.max(...w.live.values())).toBeLessThan(frames - 1);
    expect(ids(carveSqlite(c.file, wal))).toContain('before');
  });

  it('damage and noise never throw: random bytes, cut files, a WAL of another page size, cycles in an overflow chain', () => {
    const c = copied('wal', (db) => {
      db.exec('CREATE TABLE t (id TEXT, b BLOB)');
      db.prepare('INSERT INTO t VALUES (?, ?)').run('a', randomBytes(30_000));
      db.prepare('DELETE FROM t').run();
    });
    for (let cut = 0; cut < c.file.length; cut += 997) carveSqlite(c.file.subarray(0, cut), c.wal?.subarray(0, cut) ?? null);
    const header = Buffer.from(c.file.subarray(0, 100));
    expect(carveSqlite(Buffer.alloc(50), null).notes).toEqual(['not a SQLite database (no header)']);
    header.writeUInt16BE(1000, 16);
    expect(carveSqlite(Buffer.concat([header, Buffer.alloc(4096)]), null).notes).toEqual(['page size 1000 is not one SQLite writes']);
    const otherWal = Buffer.from(c.wal as Buffer);
    otherWal.writeUInt32BE(8192, 8);
    expect(carveSqlite(c.file, otherWal).notes).toEqual([`the WAL's page size 8192 is not the database's ${c.file.readUInt16BE(16)}`]);
    // Every overflow pointer of every page pointed at its own page: each chain is a cycle.
    const looped = Buffer.from(c.wal as Buffer);
    const ps = c.file.readUInt16BE(16);
    for (let at = 32 + 24; at + ps <= looped.length; at += 24 + ps) looped.writeUInt32BE(looped.readUInt32BE(at - 24), at);
    expect(() => carveSqlite(c.file, looped)).not.toThrow();
    fc.assert(fc.property(fc.uint8Array({ minLength: 0, maxLength: 3000 }), (bytes) => {
      const b = Buffer.concat([c.file.subarray(0, 100), Buffer.from(bytes)]);
      expect(() => carveSqlite(b, Buffer.from(bytes))).not.toThrow();
    }), { numRuns: 200 });
  });
});

describe('carveSqlite against a file built to make it work', () => {
  it('a thousand cells naming one 4 MB overflow chain: it stops at its byte limit and says so, instead of reading 4 GB', () => {
    const c = copied('delete', (db) => {
      db.exec('CREATE TABLE t (id TEXT, b BLOB)');
      db.prepare('INSERT INTO t VALUES (?, ?)').run('big', randomBytes(4 * 1024 * 1024));
    });
    const ps = c.file.readUInt16BE(16);
    // The live row's cell on page 2 (the table's root leaf): its overflow pointer ends the cell.
    const leaf = c.file.subarray(ps, 2 * ps);
    const cellAt = leaf.readUInt16BE(8);
    // A page that is a table leaf of a thousand cell pointers, all at that same cell (copied).
    const page = Buffer.alloc(ps);
    page[0] = 0x0d;
    page.writeUInt16BE(1000, 3);
    const cell = leaf.subarray(cellAt, ps);
    const at = ps - cell.length;
    cell.copy(page, at);
    for (let i = 0; i < 1000; i++) page.writeUInt16BE(at, 8 + i * 2);
    // As the one frame of a WAL of another generation: never live, so carved as an older frame.
    const wal = Buffer.alloc(32 + 24 + ps);
    wal.writeUInt32BE(0x377f0682, 0);
    wal.writeUInt32BE(3007000, 4);
    wal.writeUInt32BE(ps, 8);
    wal.writeUInt32BE(2, 32);
    page.copy(wal, 56);
    const r = carveSqlite(c.file, wal);
    expect(r.notes).toContainEqual(expect.stringMatching(/^stopped after reading \d+ bytes of records \(the limit is \d+\): the file names the same bytes again and again$/));
    // Each distinct record once: the thousand pointers are one cell.
    expect(r.records.filter((x) => x.source === 'wal-old').length).toBeLessThanOrEqual(1);
  });

  it('the bytes kept have a limit of their own', () => {
    const many = copied('delete', (db) => {
      db.exec('CREATE TABLE gone (id TEXT, body TEXT)');
      for (let i = 0; i < 300; i++) db.prepare('INSERT INTO gone VALUES (?, ?)').run(`g${i}`, 'x'.repeat(200));
      db.exec('DELETE FROM gone');
    });
    const r = carveSqlite(many.file, null, { maxKept: 2000 });
    expect(r.records.length).toBeLessThan(20);
    expect(r.notes).toEqual([expect.stringMatching(/^stopped after keeping \d+ bytes of records \(the limit is 2000\)$/)]);
    // Records a filter leaves out are neither held nor counted: the one wanted is found within the same limit.
    const one = carveSqlite(many.file, null, { maxKept: 2000, filter: (x) => x.values[0] === 'g250' });
    expect(one.records.map((x) => x.values[0])).toEqual(['g250']);
    expect(one.notes).toEqual([]);
  });
});

describe('carveSqlite over damaged copies of a real store', () => {
  it('bytes flipped anywhere in a WAL-mode store and its WAL (the copilot-store-deleted fixture) never make it throw', () => {
    const dir = join(import.meta.dirname, '../../../../fixtures/homes/copilot-store-deleted/.copilot');
    const file = readFileSync(join(dir, 'session-store.db'));
    const wal = readFileSync(join(dir, 'session-store.db-wal'));
    expect(carveSqlite(file, wal).records.some((r) => r.values[1] === 'Ship the hotfix without review' || r.values[0] === '5e55a0a1-0000-4000-8000-0000000000d2')).toBe(true);
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }), (flips) => {
        const [f, w] = [Buffer.from(file), Buffer.from(wal)];
        for (const [inWal, at, v] of flips) {
          const b = inWal ? w : f;
          b[at % b.length] = v;
        }
        const r = carveSqlite(f, w);
        expect(r.records.every((x) => Array.isArray(x.values) && Number.isFinite(x.rowid))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe('decodeRecord', () => {
  const utf8 = (b: Buffer) => b.toString('utf8');
  it('reads every serial type and refuses a header that does not add up to its body', () => {
    // header 7 bytes: size, NULL, int8, int16, 0, 1, text(1) (serial 15); then 0x7f, 0x0100, 'z'.
    const rec = Buffer.from([7, 0, 1, 2, 8, 9, 15, 0x7f, 0x01, 0x00, 0x7a]);
    expect(decodeRecord(rec, utf8)).toEqual([null, 127, 256, 0, 1, 'z']);
    expect(decodeRecord(rec.subarray(0, 10), utf8)).toBeNull();
    expect(decodeRecord(Buffer.from([2, 10]), utf8)).toBeNull();
    expect(decodeRecord(Buffer.from([9]), utf8)).toBeNull();
    expect(decodeRecord(Buffer.from([2, 6, 0x80, 0, 0, 0, 0, 0, 0, 1]), utf8)).toEqual([-(2n ** 63n) + 1n]);
  });
});
