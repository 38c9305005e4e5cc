import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AtomicFile, writeFileAtomic } from './atomic.js';

const dir = mkdtempSync(join(tmpdir(), 'aitrail-atomic-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('atomic writes', () => {
  it('the final name appears only on commit, with the whole content', async () => {
    const p = join(dir, 'a.txt');
    const f = new AtomicFile(p);
    await f.write('one\n');
    await f.write('two\n');
    expect(existsSync(p)).toBe(false);
    await f.commit();
    expect(readFileSync(p, 'utf8')).toBe('one\ntwo\n');
    expect(readdirSync(dir).filter((n) => n.endsWith('.partial'))).toEqual([]);
  });

  it('abort leaves the previous file untouched and no temporary behind', async () => {
    const p = join(dir, 'b.txt');
    writeFileSync(p, 'previous');
    const f = new AtomicFile(p);
    await f.write('half');
    await f.abort();
    expect(readFileSync(p, 'utf8')).toBe('previous');
    expect(readdirSync(dir).filter((n) => n.endsWith('.partial'))).toEqual([]);
  });

  it('writeFileAtomic replaces a file in one step', async () => {
    const p = join(dir, 'c.json');
    await writeFileAtomic(p, '{"a":1}\n');
    await writeFileAtomic(p, '{"a":2}\n');
    expect(readFileSync(p, 'utf8')).toBe('{"a":2}\n');
  });

  it('a write into a folder that does not exist fails without leaving output', async () => {
    await expect(writeFileAtomic(join(dir, 'missing', 'x.txt'), 'x')).rejects.toThrow();
    expect(existsSync(join(dir, 'missing'))).toBe(false);
  });
});
