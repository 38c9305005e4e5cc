import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { openArchive, readCollection, unsafeMemberName } from './archive-reader.js';

const dir = mkdtempSync(join(tmpdir(), 'aitrail-reader-'));

async function makeZip(name: string, members: [string, Buffer | string][]): Promise<string> {
  const zip = new yazl.ZipFile();
  for (const [n, data] of members) zip.addBuffer(Buffer.from(data), n, { mtime: new Date('2026-10-01T00:00:00Z') });
  zip.end();
  const out = join(dir, name);
  await new Promise<void>((resolve, reject) => {
    zip.outputStream.pipe(createWriteStream(out)).on('close', resolve).on('error', reject);
  });
  return out;
}

async function text(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

describe('openArchive', () => {
  it('lists members with sizes and reads each one alone', async () => {
    const p = await makeZip('a.zip', [
      ['homes/u/a.txt', 'alpha'],
      ['homes/u/b.txt', 'x'.repeat(5000)],
    ]);
    const r = await openArchive(p);
    expect(r.members.get('homes/u/a.txt')?.size).toBe(5);
    expect(r.members.get('homes/u/b.txt')?.compressedSize).toBeLessThan(5000);
    expect(await text(await r.openMember('homes/u/b.txt'))).toHaveLength(5000);
    expect(await r.readText('homes/u/a.txt', 100)).toBe('alpha');
    await expect(r.readText('homes/u/b.txt', 100)).rejects.toThrow(/above the 100-byte limit/);
    await expect(r.openMember('nope')).rejects.toThrow(/no member named "nope"/);
    r.close();
  });
  it('rejects unsafe member names and reports them', async () => {
    // yazl refuses such names, so write a safe one and patch the bytes in place.
    const p = await makeZip('evil.zip', [['aaa/evil.txt', 'bad'], ['ok.txt', 'good']]);
    const buf = readFileSync(p);
    let i = buf.indexOf('aaa/evil.txt');
    while (i >= 0) {
      buf.write('../evil.txt', i);
      buf.write('x', i + 11);
      i = buf.indexOf('aaa/evil.txt');
    }
    writeFileSync(p, buf);
    const r = await openArchive(p);
    expect([...r.members.keys()]).toEqual(['ok.txt']);
    expect(r.problems[0]).toMatch(/unsafe member name "..\/evil.txtx" \(contains ".."\)/);
    r.close();
  });
  it('names the archive when the zip is truncated', async () => {
    const p = await makeZip('t.zip', [['a.txt', 'hello']]);
    const buf = readFileSync(p);
    writeFileSync(p, buf.subarray(0, buf.length - 30));
    await expect(openArchive(p)).rejects.toThrow(new RegExp(`${p.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: .*zip`));
  });
  it('stops a member that inflates beyond its declared size or the hard cap', async () => {
    const p = await makeZip('bomb.zip', [['big.txt', 'a'.repeat(100_000)]]);
    const capped = await openArchive(p, { maxMemberBytes: 1000 });
    await expect(capped.openMember('big.txt')).rejects.toThrow(/above the 1000-byte limit/);
    capped.close();
    // Lie in the central directory: declare 10 bytes for 100 000.
    const buf = readFileSync(p);
    const cd = buf.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    buf.writeUInt32LE(10, cd + 24);
    writeFileSync(p, buf);
    const r = await openArchive(p);
    await expect(text(await r.openMember('big.txt'))).rejects.toThrow(/big\.txt/);
    r.close();
  });
  it('reads every member of one past many 64 KiB blocks, in any order, and a 300 KiB one', async () => {
    // The reader keeps the last 64 KiB read for small reads (archive-file-reader.ts): members and
    // central directory entries on either side of a block's end must come back whole.
    const members: [string, Buffer][] = Array.from({ length: 400 }, (_, i) => [`m/${i}.bin`, i % 2 ? randomBytes(700 + i) : Buffer.from(`member ${i} `.repeat(50 + i))]);
    members.push(['big.bin', randomBytes(300 * 1024)]);
    const p = await makeZip('blocks.zip', members);
    const r = await openArchive(p);
    const order = [...members.keys()].sort((a, b) => ((a * 7919) % 401) - ((b * 7919) % 401));
    for (const i of order) {
      const chunks: Buffer[] = [];
      for await (const c of await r.openMember(members[i][0])) chunks.push(c as Buffer);
      expect(Buffer.concat(chunks).equals(members[i][1]), members[i][0]).toBe(true);
    }
    r.close();
  });

  it('inflates a small member at once with the same checks: its bytes, or an error naming it', async () => {
    const body = 'small member '.repeat(300);
    const p = await makeZip('small.zip', [['s.txt', body]]);
    const r = await openArchive(p);
    expect(await text(await r.openMember('s.txt'))).toBe(body);
    r.close();
    // Declared one byte short, then one byte long: too many bytes, not enough bytes.
    const buf = readFileSync(p);
    const cd = buf.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    for (const [size, message] of [
      [body.length - 1, /s\.txt: too many bytes in the stream/],
      [body.length + 1, /s\.txt: not enough bytes in the stream/],
    ] as const) {
      buf.writeUInt32LE(size, cd + 24);
      writeFileSync(p, buf);
      const lied = await openArchive(p);
      await expect(text(await lied.openMember('s.txt'))).rejects.toThrow(message);
      lied.close();
    }
  });
  it('checks member names', () => {
    for (const bad of ['/etc/passwd', 'a/../../b', 'a\\b', 'C:/x', 'a\0b', '']) expect(unsafeMemberName(bad)).toBeTruthy();
    expect(unsafeMemberName('homes/u/.copilot/x..y')).toBeUndefined();
  });
});

describe('readCollection', () => {
  it('parses collection.json and manifest.jsonl, turning bad lines into problems', async () => {
    const row = { user: 'u', status: 'collected', archive_path: 'homes/u/a' };
    const p = await makeZip('c.zip', [
      ['manifest.jsonl', `${JSON.stringify(row)}\n{not json\n${JSON.stringify(row)}\n`],
      ['collection.json', JSON.stringify({ format: 'aitrail-collection', host: 'h', complete: true })],
    ]);
    const r = await openArchive(p);
    const c = await readCollection(r);
    expect(c.info.host).toBe('h');
    expect(c.manifest).toHaveLength(2);
    expect(c.problems).toHaveLength(1);
    expect(c.problems[0]).toMatch(/manifest\.jsonl line 2/);
    r.close();
  });
  it('reports a manifest line over 4 MB by its number and reads the rows after it', async () => {
    const row = { user: 'u', status: 'collected', archive_path: 'homes/u/a' };
    const p = await makeZip('long.zip', [
      ['manifest.jsonl', `${JSON.stringify(row)}\n{"x":"${'a'.repeat(5 * 1024 * 1024)}"}\n${JSON.stringify(row)}\n`],
      ['collection.json', JSON.stringify({ format: 'aitrail-collection', host: 'h', complete: true })],
    ]);
    const r = await openArchive(p);
    const c = await readCollection(r);
    expect(c.manifest).toHaveLength(2);
    expect(c.problems).toEqual(['manifest.jsonl line 2: longer than 4194304 bytes, not a manifest row; skipped']);
    r.close();
  });
  it('reports a missing collection.json', async () => {
    const r = await openArchive(await makeZip('d.zip', [['manifest.jsonl', '']]));
    expect((await readCollection(r)).problems).toEqual(['collection.json is missing: the collection is incomplete']);
    r.close();
  });
});
