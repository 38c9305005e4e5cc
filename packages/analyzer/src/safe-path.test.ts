import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkArchivePath, safeJoin, UnsafePathError } from './safe-path.js';
import { openDirectorySource } from './source.js';

const root = mkdtempSync(join(tmpdir(), 'aitrail-guard-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the directory input path guard', () => {
  it('accepts member names inside the collection', () => {
    expect(checkArchivePath('homes/sean/.copilot/session-store.db')).toBe('homes/sean/.copilot/session-store.db');
    expect(safeJoin('/c', 'homes/sean/x')).toBe('/c/homes/sean/x');
  });

  it.each(['../etc/passwd', 'homes/../../x', '/etc/passwd', 'C:/Windows/x', 'homes\\sean\\x', 'homes//x', 'homes/./x', '', 'a\0b'])('refuses %j', (name) => {
    expect(() => checkArchivePath(name)).toThrow(UnsafePathError);
    expect(() => safeJoin('/c', name)).toThrow(UnsafePathError);
  });

  it('never opens a link planted in an unpacked collection that points outside it', async () => {
    const dir = join(root, 'coll');
    mkdirSync(join(dir, 'homes/sean'), { recursive: true });
    writeFileSync(join(root, 'outside.txt'), 'outside');
    writeFileSync(join(dir, 'collection.json'), JSON.stringify({ format: 'aitrail-collection', host: 'h' }));
    writeFileSync(join(dir, 'manifest.jsonl'), '');
    symlinkSync(join(root, 'outside.txt'), join(dir, 'homes/sean/link.txt'));
    const src = await openDirectorySource(dir);
    expect(src.members()).toEqual([{ name: 'homes/sean/link.txt', size: 0, problem: expect.stringContaining('not a regular file') }]);
    const read = async () => {
      for await (const _ of src.openMember('homes/sean/link.txt')) return 'read';
    };
    await expect(read()).rejects.toThrow(/expected a file inside/);
    const outside = async () => {
      for await (const _ of src.openMember('../outside.txt')) return 'read';
    };
    await expect(outside()).rejects.toThrow(UnsafePathError);
  });
});
