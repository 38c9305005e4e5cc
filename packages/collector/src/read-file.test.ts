import { createHash } from 'node:crypto';
import { appendFileSync, lstatSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRegularFile } from './read-file.js';

const dir = mkdtempSync(join(tmpdir(), 'aitrail-read-'));
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

describe('readRegularFile', () => {
  it('hashes exactly the bytes it passes on', async () => {
    const p = join(dir, 'a.txt');
    writeFileSync(p, 'hello world\n');
    const chunks: Buffer[] = [];
    const r = await readRegularFile(p, lstatSync(p, { bigint: true }), async (s) => {
      for await (const c of s) chunks.push(c as Buffer);
    });
    expect(r).toEqual({ sha256: sha('hello world\n'), bytesRead: 12 });
    expect(Buffer.concat(chunks).toString()).toBe('hello world\n');
  });
  it('reports a file that vanished between lstat and open as an error', async () => {
    const p = join(dir, 'gone.txt');
    writeFileSync(p, 'x');
    const st = lstatSync(p, { bigint: true });
    rmSync(p);
    expect(await readRegularFile(p, st, undefined)).toMatchObject({ error: 'vanished before it could be read (ENOENT)' });
  });
  it('refuses a file that became a link after lstat (O_NOFOLLOW)', async () => {
    const p = join(dir, 'swapped.txt');
    writeFileSync(p, 'x');
    const st = lstatSync(p, { bigint: true });
    rmSync(p);
    symlinkSync('/etc/passwd', p);
    expect((await readRegularFile(p, st, undefined)).error).toMatch(/symbolic link .*ELOOP/);
  });
  it('flags a file that changed after lstat, and reads no more than it held at open', async () => {
    const p = join(dir, 'grow.txt');
    writeFileSync(p, 'abc');
    const st = lstatSync(p, { bigint: true });
    appendFileSync(p, 'defgh');
    const r = await readRegularFile(p, st, undefined);
    expect(r.bytesRead).toBe(8);
    expect(r.sha256).toBe(sha('abcdefgh'));
    expect(r.warning).toMatch(/^changed while read: size 3 → 8/);
  });
  it('flags a file replaced after lstat (another inode)', async () => {
    const p = join(dir, 'replaced.txt');
    writeFileSync(p, 'old');
    const st = lstatSync(p, { bigint: true });
    writeFileSync(`${p}.new`, 'new');
    rmSync(p);
    const { renameSync } = await import('node:fs');
    renameSync(`${p}.new`, p);
    const r = await readRegularFile(p, st, undefined);
    expect(r.warning).toMatch(/replaced after listing/);
    expect(r.sha256).toBe(sha('new'));
  });
});
