import { createHash, randomBytes } from 'node:crypto';
import { appendFileSync, closeSync, constants, lstatSync, openSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openEvidence, openEvidenceSync, readRegularFile, SAFE_OPEN_FLAGS, SYNC_READ_BYTES } from './read-file.js';
import { CHUNK_BYTES, chunkPool } from './zip-member.js';
import { COMPRESSIONS, ZipWriter } from './zip-writer.js';

const dir = mkdtempSync(join(tmpdir(), 'aitrail-read-'));
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

// Files up to SYNC_READ_BYTES are read with synchronous calls, larger ones streamed: each case
// runs on both sides of that line and must give the same result.
describe.each([
  ['read whole', ''],
  ['streamed', 'x'.repeat(SYNC_READ_BYTES)],
])('readRegularFile (%s)', (_, pad) => {
  const name = (n: string) => join(dir, `${pad ? 'big-' : ''}${n}`);
  it('hashes exactly the bytes it passes on', async () => {
    const p = name('a.txt');
    writeFileSync(p, `hello world\n${pad}`);
    const chunks: Buffer[] = [];
    const r = await readRegularFile(p, lstatSync(p, { bigint: true }), async (s) => {
      for await (const c of s) chunks.push(c as Buffer);
    });
    expect(r).toEqual({ sha256: sha(`hello world\n${pad}`), bytesRead: 12 + pad.length });
    expect(Buffer.concat(chunks).toString()).toBe(`hello world\n${pad}`);
  });
  it('reports a file that vanished between lstat and open as an error', async () => {
    const p = name('gone.txt');
    writeFileSync(p, `x${pad}`);
    const st = lstatSync(p, { bigint: true });
    rmSync(p);
    expect(await readRegularFile(p, st, undefined)).toMatchObject({ error: 'vanished before it could be read (ENOENT)' });
  });
  it('refuses a file that became a link after lstat (O_NOFOLLOW)', async () => {
    const p = name('swapped.txt');
    writeFileSync(p, `x${pad}`);
    const st = lstatSync(p, { bigint: true });
    rmSync(p);
    symlinkSync('/etc/passwd', p);
    expect((await readRegularFile(p, st, undefined)).error).toMatch(/symbolic link .*ELOOP/);
  });
  it('flags a file that changed after lstat, and reads no more than it held at open', async () => {
    const p = name('grow.txt');
    writeFileSync(p, `abc${pad}`);
    const st = lstatSync(p, { bigint: true });
    appendFileSync(p, 'defgh');
    const r = await readRegularFile(p, st, undefined);
    expect(r.bytesRead).toBe(8 + pad.length);
    expect(r.sha256).toBe(sha(`abc${pad}defgh`));
    expect(r.warning).toMatch(new RegExp(`^changed while read: size ${3 + pad.length} → ${8 + pad.length}`));
  });
  it('flags a file replaced after lstat (another inode)', async () => {
    const p = name('replaced.txt');
    writeFileSync(p, `old${pad}`);
    const st = lstatSync(p, { bigint: true });
    writeFileSync(`${p}.new`, `new${pad}`);
    rmSync(p);
    const { renameSync } = await import('node:fs');
    renameSync(`${p}.new`, p);
    const r = await readRegularFile(p, st, undefined);
    expect(r.warning).toMatch(/replaced after listing/);
    expect(r.sha256).toBe(sha(`new${pad}`));
  });
});

describe('readRegularFile', () => {
  it('streams a file listed small that grew past SYNC_READ_BYTES before it was opened', async () => {
    const p = join(dir, 'grew-big.txt');
    writeFileSync(p, 'abc');
    const st = lstatSync(p, { bigint: true });
    appendFileSync(p, 'y'.repeat(SYNC_READ_BYTES));
    const chunks: Buffer[] = [];
    const r = await readRegularFile(p, st, async (s) => {
      for await (const c of s) chunks.push(c as Buffer);
    });
    expect(r.sha256).toBe(sha(`abc${'y'.repeat(SYNC_READ_BYTES)}`));
    expect(Buffer.concat(chunks).length).toBe(3 + SYNC_READ_BYTES);
    expect(r.warning).toMatch(/^changed while read: size 3 → /);
  });
  it.runIf(process.platform === 'linux')('leaves atime as it was (O_NOATIME), where a plain read would update it', async (ctx) => {
    // atime older than mtime: under relatime (and strictatime) the next plain read updates atime.
    const old = new Date('2020-01-01T00:00:00Z');
    const setUp = (name: string) => {
      const p = join(dir, name);
      writeFileSync(p, 'evidence\n');
      utimesSync(p, old, new Date('2021-01-01T00:00:00Z'));
      return p;
    };
    const control = setUp('atime-control.txt');
    readFileSync(control);
    if (statSync(control).atimeMs === old.getTime()) ctx.skip('this file system does not update atime on read (noatime?): nothing to prove here');
    const p = setUp('atime.txt');
    const r = await readRegularFile(p, lstatSync(p, { bigint: true }), undefined);
    expect(r).toEqual({ sha256: sha('evidence\n'), bytesRead: 9 });
    expect(statSync(p).atime.toISOString()).toBe(old.toISOString());
  });
  it.runIf(process.platform === 'linux')('retries without O_NOATIME when the kernel refuses it (EPERM: not the owner, no CAP_FOWNER)', async () => {
    const p = join(dir, 'not-mine.txt');
    writeFileSync(p, 'x');
    const tried: number[] = [];
    const strict = async (q: Buffer | string, flags: number) => {
      tried.push(flags);
      if (flags & constants.O_NOATIME) throw Object.assign(new Error('EPERM: operation not permitted'), { code: 'EPERM' });
      return open(q, flags);
    };
    const fh = await openEvidence(p, strict);
    expect((await fh.readFile()).toString()).toBe('x');
    await fh.close();
    expect(tried).toEqual([SAFE_OPEN_FLAGS | constants.O_NOATIME, SAFE_OPEN_FLAGS]);
    // Any other refusal is the file's own (a missing file): reported, not retried.
    const flags: number[] = [];
    const recording = (q: Buffer | string, f: number) => {
      flags.push(f);
      return open(q, f);
    };
    await expect(openEvidence(join(dir, 'missing.txt'), recording)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(flags).toEqual([SAFE_OPEN_FLAGS | constants.O_NOATIME]);
    // The synchronous open of small files does the same.
    tried.length = 0;
    const strictSync = (q: Buffer | string, f: number) => {
      tried.push(f);
      if (f & constants.O_NOATIME) throw Object.assign(new Error('EPERM: operation not permitted'), { code: 'EPERM' });
      return openSync(q, f);
    };
    const fd = openEvidenceSync(p, strictSync);
    expect(readFileSync(fd, 'utf8')).toBe('x');
    closeSync(fd);
    expect(tried).toEqual([SAFE_OPEN_FLAGS | constants.O_NOATIME, SAFE_OPEN_FLAGS]);
    expect(() => openEvidenceSync(join(dir, 'missing.txt'))).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });
});

describe('readRegularFile into a ZipWriter (lent read buffers)', () => {
  // Text deflates, random bytes are stored: both paths give a buffer back, one after its deflate,
  // one after its write. A buffer given back too soon is refilled by a later read, and the
  // archive then differs from the same bytes fed as fresh buffers.
  const text = (n: number, seed: string) => Buffer.from(`{"type":"assistant.message","data":{"content":"${seed}"}}\n`.repeat(Math.ceil(n / 40)).slice(0, n));
  const files: [string, Buffer][] = [
    ['a.jsonl', text(CHUNK_BYTES * 6 + 999, 'first')],
    ['b.bin', randomBytes(CHUNK_BYTES * 2 + 5)],
    ['c.jsonl', text(CHUNK_BYTES * 4, 'second')],
    ['d.txt', text(700, 'small')],
    ['e.db', Buffer.concat([text(CHUNK_BYTES + 3, 'third'), randomBytes(CHUNK_BYTES * 2)])],
  ];
  const when = Date.UTC(2026, 10, 1);
  for (const [name, data] of files) {
    writeFileSync(join(dir, name), data);
    utimesSync(join(dir, name), new Date(when), new Date(when));
  }

  it.each(COMPRESSIONS)('writes the archive the same bytes fed as fresh buffers give, and gets every buffer back (%s)', async (compression) => {
    const viaRead = await ZipWriter.create(join(dir, `read-${compression}.zip`), compression);
    const direct = await ZipWriter.create(join(dir, `direct-${compression}.zip`), compression);
    for (const [name, data] of files) {
      const p = join(dir, name);
      const r = await readRegularFile(p, lstatSync(p, { bigint: true }), (chunks) => viaRead.addStream(chunks, name, when, 0o644));
      expect(r).toEqual({ sha256: createHash('sha256').update(data).digest('hex'), bytesRead: data.length });
      await direct.addStream(
        (async function* () {
          for (let i = 0; i < data.length; i += CHUNK_BYTES) yield Buffer.from(data.subarray(i, i + CHUNK_BYTES));
        })(),
        name,
        when,
        0o644,
      );
    }
    const a = await viaRead.finish();
    const b = await direct.finish();
    expect(readFileSync(a.path).equals(readFileSync(b.path))).toBe(true);
    expect(chunkPool.out).toBe(0);
  });

  it('gives every buffer back when only hashing', async () => {
    const p = join(dir, 'a.jsonl');
    const r = await readRegularFile(p, lstatSync(p, { bigint: true }), undefined);
    expect(r.bytesRead).toBe(CHUNK_BYTES * 6 + 999);
    expect(chunkPool.out).toBe(0);
  });
});
