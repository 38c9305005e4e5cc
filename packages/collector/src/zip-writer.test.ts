import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { openArchive } from './archive-reader.js';
import { sha256File } from './verify.js';
import { ZipWriter, zipDate } from './zip-writer.js';

const dir = mkdtempSync(join(tmpdir(), 'aitrail-zipw-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('ZipWriter', () => {
  it('writes thousands of streamed members in order (parked entries come back for the central directory)', async () => {
    const out = join(dir, 'many.zip');
    const w = await ZipWriter.create(out);
    for (let i = 0; i < 3000; i += 1) {
      await w.addStream(Readable.from([Buffer.from(`member ${i}\n`)]), `m/${String(i).padStart(4, '0')}.txt`, Date.UTC(2026, 9, 1), 0o644);
    }
    w.addBuffer(Buffer.from('{}'), 'collection.json', Date.UTC(2026, 9, 1));
    const done = await w.finish();
    expect(readFileSync(`${out}.sha256`, 'utf8')).toBe(`${done.sha256}  many.zip\n`);
    expect(await sha256File(out)).toBe(done.sha256);
    const r = await openArchive(out);
    const names = [...r.members.keys()];
    expect(names).toHaveLength(3001);
    expect(names[0]).toBe('m/0000.txt');
    expect(names[2999]).toBe('m/2999.txt');
    expect(await r.readText('m/1234.txt', 100)).toBe('member 1234\n');
    r.close();
  });
  it('never overwrites: an existing .partial makes create fail', async () => {
    const out = join(dir, 'busy.zip');
    writeFileSync(`${out}.partial`, 'someone else');
    await expect(ZipWriter.create(out)).rejects.toThrow(/busy\.zip\.partial: EEXIST/);
  });
  it('abort removes the .partial', async () => {
    const out = join(dir, 'gone.zip');
    const w = await ZipWriter.create(out);
    await w.addStream(Readable.from([Buffer.from('x')]), 'x', 0, 0o644);
    await w.abort();
    expect(() => readFileSync(`${out}.partial`)).toThrow(/ENOENT/);
  });
  it('clamps entry dates into the DOS range', () => {
    expect(zipDate(0).getUTCFullYear()).toBe(1980);
    expect(zipDate(Date.UTC(2200, 0, 1)).getUTCFullYear()).toBe(2107);
    expect(zipDate(Date.UTC(2026, 9, 1)).toISOString()).toBe('2026-10-01T00:00:00.000Z');
  });
});
