import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openArchive } from './archive-reader.js';

async function overlappingMembers(path: string): Promise<ReadonlySet<string>> {
  const r = await openArchive(path);
  r.close();
  return r.overlaps;
}

const dir = mkdtempSync(join(tmpdir(), 'aitrail-overlap-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A stored (uncompressed) zip; `central` lists name and the index of the local entry it points at. */
function rawZip(locals: { name: string; data: Buffer }[], central: { name: string; local: number }[]): Buffer {
  const parts: Buffer[] = [];
  const offsets: number[] = [];
  let off = 0;
  for (const l of locals) {
    const h = Buffer.alloc(30);
    h.writeUInt32LE(0x04034b50, 0);
    h.writeUInt16LE(20, 4);
    h.writeUInt32LE(0, 14); // crc (yauzl does not check it while listing)
    h.writeUInt32LE(l.data.length, 18);
    h.writeUInt32LE(l.data.length, 22);
    h.writeUInt16LE(Buffer.byteLength(l.name), 26);
    offsets.push(off);
    const chunk = Buffer.concat([h, Buffer.from(l.name), l.data]);
    parts.push(chunk);
    off += chunk.length;
  }
  const cdStart = off;
  for (const c of central) {
    const l = locals[c.local];
    const h = Buffer.alloc(46);
    h.writeUInt32LE(0x02014b50, 0);
    h.writeUInt16LE(20, 4);
    h.writeUInt16LE(20, 6);
    h.writeUInt32LE(l.data.length, 20);
    h.writeUInt32LE(l.data.length, 24);
    h.writeUInt16LE(Buffer.byteLength(c.name), 28);
    h.writeUInt32LE(offsets[c.local], 42);
    const chunk = Buffer.concat([h, Buffer.from(c.name)]);
    parts.push(chunk);
    off += chunk.length;
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(central.length, 8);
  end.writeUInt16LE(central.length, 10);
  end.writeUInt32LE(off - cdStart, 12);
  end.writeUInt32LE(cdStart, 16);
  parts.push(end);
  return Buffer.concat(parts);
}

describe('overlapping zip entries', () => {
  it('names every member whose data another member shares, and none of an ordinary zip', async () => {
    const data = Buffer.alloc(1000, 120);
    const bomb = join(dir, 'bomb.zip');
    writeFileSync(bomb, rawZip([{ name: 'homes/u/a', data }, { name: 'homes/u/ok', data: Buffer.from('fine') }], [
      { name: 'homes/u/a', local: 0 },
      { name: 'homes/u/b', local: 0 },
      { name: 'homes/u/c', local: 0 },
      { name: 'homes/u/ok', local: 1 },
    ]));
    expect([...(await overlappingMembers(bomb))].sort()).toEqual(['homes/u/a', 'homes/u/b', 'homes/u/c']);
    const plain = join(dir, 'plain.zip');
    writeFileSync(plain, rawZip([{ name: 'x', data }, { name: 'y', data }], [{ name: 'x', local: 0 }, { name: 'y', local: 1 }]));
    expect([...(await overlappingMembers(plain))]).toEqual([]);
  });
});
