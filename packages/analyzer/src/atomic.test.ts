import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AtomicFile, discardStaged, PublishError, publishOutputs, stagedPath, writeFileStaged } from './atomic.js';

const dir = mkdtempSync(join(tmpdir(), 'aitrail-atomic-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('atomic writes', () => {
  it('the final name appears only when published, with the whole content', async () => {
    const p = join(dir, 'a.txt');
    const f = new AtomicFile(p);
    await f.write('one\n');
    await f.write('two\n');
    expect(existsSync(p)).toBe(false);
    await f.close();
    expect(existsSync(p)).toBe(false);
    expect(readFileSync(stagedPath(p), 'utf8')).toBe('one\ntwo\n');
    await publishOutputs(dir, ['a.txt']);
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

  it('writeFileStaged then publishOutputs replaces a file in one step', async () => {
    const p = join(dir, 'c.json');
    await writeFileStaged(p, '{"a":1}\n');
    await publishOutputs(dir, ['c.json']);
    await writeFileStaged(p, '{"a":2}\n');
    expect(readFileSync(p, 'utf8')).toBe('{"a":1}\n');
    await publishOutputs(dir, ['c.json']);
    expect(readFileSync(p, 'utf8')).toBe('{"a":2}\n');
  });

  it('publishes none of a run when one target is a directory, and discards the staged files', async () => {
    const d = join(dir, 'run');
    mkdirSync(join(d, 'report.html'), { recursive: true });
    writeFileSync(join(d, 'timeline.csv'), 'previous run\n');
    await writeFileStaged(join(d, 'timeline.csv'), 'this run\n');
    await writeFileStaged(join(d, 'report.html'), '<html>');
    const err = await publishOutputs(d, ['timeline.csv', 'report.html']).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PublishError);
    expect((err as Error).message).toMatch(/cannot put .*report\.html in place: expected a file or nothing there, found a directory; move it away/);
    expect(readFileSync(join(d, 'timeline.csv'), 'utf8')).toBe('previous run\n');
    expect(readdirSync(d).sort()).toEqual(['report.html', 'timeline.csv']);
  });

  it('discardStaged removes what a failed run staged, and nothing else', async () => {
    const d = join(dir, 'failed');
    mkdirSync(d);
    writeFileSync(join(d, 'timeline.jsonl'), 'previous\n');
    await writeFileStaged(join(d, 'timeline.jsonl'), 'this run\n');
    writeFileSync(`${stagedPath(join(d, 'timeline.sqlite'))}-journal`, 'journal');
    await discardStaged(d, ['timeline.jsonl', 'inventory.json', 'timeline.sqlite']);
    expect(readdirSync(d)).toEqual(['timeline.jsonl']);
    expect(readFileSync(join(d, 'timeline.jsonl'), 'utf8')).toBe('previous\n');
  });

  it('a write into a folder that does not exist fails without leaving output', async () => {
    await expect(writeFileStaged(join(dir, 'missing', 'x.txt'), 'x')).rejects.toThrow();
    expect(existsSync(join(dir, 'missing'))).toBe(false);
  });
});
