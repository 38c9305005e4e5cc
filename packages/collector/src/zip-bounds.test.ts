import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { openArchive } from './archive-reader.js';
import { findZipBounds } from './zip-bounds.js';

// A file that holds a zip and more (bytes appended after the end record, or put before the first
// member) is read as unzip and Python's zipfile read it: the zip it holds, the extra bytes
// reported. These zips are real (yazl's), the Zip64 one converted by hand to Zip64 end records.

const dir = mkdtempSync(join(tmpdir(), 'aitrail-bounds-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let plain: Buffer;

beforeAll(async () => {
  const zip = new yazl.ZipFile();
  zip.addBuffer(Buffer.from('alpha'), 'homes/u/a.txt', { mtime: new Date('2026-10-01T00:00:00Z') });
  zip.addBuffer(Buffer.from('b'.repeat(5000)), 'homes/u/b.txt', { mtime: new Date('2026-10-01T00:00:00Z') });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const c of zip.outputStream) chunks.push(c as Buffer);
  plain = Buffer.concat(chunks);
});

/** The same zip with Zip64 end records (the end record's counts and offsets all 0xFF). */
function asZip64(z: Buffer): Buffer {
  const e = z.length - 22;
  const rec = Buffer.alloc(56);
  rec.writeUInt32LE(0x06064b50, 0);
  rec.writeBigUInt64LE(44n, 4);
  rec.writeUInt16LE(45, 12);
  rec.writeUInt16LE(45, 14);
  rec.writeBigUInt64LE(BigInt(z.readUInt16LE(e + 8)), 24);
  rec.writeBigUInt64LE(BigInt(z.readUInt16LE(e + 10)), 32);
  rec.writeBigUInt64LE(BigInt(z.readUInt32LE(e + 12)), 40);
  rec.writeBigUInt64LE(BigInt(z.readUInt32LE(e + 16)), 48);
  const loc = Buffer.alloc(20);
  loc.writeUInt32LE(0x07064b50, 0);
  loc.writeBigUInt64LE(BigInt(e), 8);
  loc.writeUInt32LE(1, 16);
  const end = Buffer.from(z.subarray(e));
  end.writeUInt16LE(0xffff, 8);
  end.writeUInt16LE(0xffff, 10);
  end.writeUInt32LE(0xffffffff, 12);
  end.writeUInt32LE(0xffffffff, 16);
  return Buffer.concat([z.subarray(0, e), rec, loc, end]);
}

function boundsOf(bytes: Buffer): ReturnType<typeof findZipBounds> {
  const p = join(dir, 'probe.bin');
  writeFileSync(p, bytes);
  const fd = openSync(p, 'r');
  try {
    return findZipBounds(fd, bytes.length);
  } finally {
    closeSync(fd);
  }
}

async function readAll(file: string): Promise<{ texts: Record<string, number>; problems: string[] }> {
  const r = await openArchive(file);
  try {
    const texts: Record<string, number> = {};
    for (const name of r.members.keys()) texts[name] = (await r.readText(name, 1 << 20)).length;
    return { texts, problems: r.problems };
  } finally {
    r.close();
  }
}

const stray = Buffer.concat([Buffer.from('PK\x05\x06', 'latin1'), Buffer.alloc(300, 0x41)]);

describe('findZipBounds', () => {
  it('finds a plain zip whole, with a comment too', () => {
    expect(boundsOf(plain)).toEqual({ base: 0, end: plain.length });
    const commented = Buffer.from(plain);
    commented.writeUInt16LE(7, commented.length - 2);
    const withComment = Buffer.concat([commented, Buffer.from('made by')]);
    expect(boundsOf(withComment)).toEqual({ base: 0, end: withComment.length });
  });
  it('leaves out bytes after the end record, past a stray end-record signature among them', () => {
    expect(boundsOf(Buffer.concat([plain, stray]))).toEqual({ base: 0, end: plain.length });
  });
  it('counts the bytes before the first member, for plain and Zip64 end records', () => {
    expect(boundsOf(Buffer.concat([Buffer.alloc(1000, 0x5a), plain]))).toEqual({ base: 1000, end: 1000 + plain.length });
    const z64 = asZip64(plain);
    expect(boundsOf(z64)).toEqual({ base: 0, end: z64.length });
    expect(boundsOf(Buffer.concat([Buffer.alloc(777), z64, stray]))).toEqual({ base: 777, end: 777 + z64.length });
  });
  it('finds nothing in a zip cut short, or in bytes holding only the signature', () => {
    expect(boundsOf(plain.subarray(0, plain.length - 30))).toBeUndefined();
    expect(boundsOf(Buffer.concat([Buffer.alloc(100), stray]))).toBeUndefined();
    // A Zip64 locator that points elsewhere than the directory's own offset says: not this zip.
    const z64 = asZip64(plain);
    z64.writeBigUInt64LE(z64.readBigUInt64LE(z64.length - 22 - 20 + 8) - 5n, z64.length - 22 - 20 + 8);
    expect(boundsOf(Buffer.concat([Buffer.alloc(50), z64]))).toBeUndefined();
  });
});

describe('openArchive on a file holding more than the zip', () => {
  it('reads a plain zip as before, with no problem', async () => {
    writeFileSync(join(dir, 'plain.zip'), plain);
    expect(await readAll(join(dir, 'plain.zip'))).toEqual({ texts: { 'homes/u/a.txt': 5, 'homes/u/b.txt': 5000 }, problems: [] });
  });
  it('reads every member past bytes appended or put in front, and reports how many bytes were left out', async () => {
    const cases: [string, Buffer, RegExp[]][] = [
      ['after.zip', Buffer.concat([plain, stray]), [/^304 bytes after the zip's end record are not part of the archive: ignored/]],
      ['before.zip', Buffer.concat([Buffer.alloc(70_000, 0x5a), plain]), [/^70000 bytes before the zip's first member are not part of the archive: skipped/]],
      ['both64.zip', Buffer.concat([Buffer.alloc(9), asZip64(plain), stray]), [/^9 bytes before/, /^304 bytes after/]],
    ];
    for (const [name, bytes, want] of cases) {
      writeFileSync(join(dir, name), bytes);
      const got = await readAll(join(dir, name));
      expect(got.texts, name).toEqual({ 'homes/u/a.txt': 5, 'homes/u/b.txt': 5000 });
      expect(got.problems, name).toHaveLength(want.length);
      for (const [i, re] of want.entries()) expect(got.problems[i], name).toMatch(re);
    }
  });
  it('still names the archive when no zip holds together in it', async () => {
    const p = join(dir, 'cut.zip');
    writeFileSync(p, Buffer.concat([plain.subarray(0, plain.length - 30), stray]));
    await expect(openArchive(p)).rejects.toThrow(/cut\.zip: not a readable zip archive/);
  });
});
