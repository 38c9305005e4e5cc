import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { openArchive } from './archive-reader.js';
import { centralRecord, crc32, dosDateTime, endRecords, localHeader, type ZipEntry } from './zip-format.js';
import { CHUNK_BYTES, COMPRESSIONS, ZipWriter, zipDate } from './zip-writer.js';

const dir = mkdtempSync(join(tmpdir(), 'aitrail-zipw-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const has = (cmd: string, args: string[]) => spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;
const SEVEN_ZIP = ['7z', '7za', '7zz'].find((c) => has(c, ['i']));

// Members that exercise each path of the writer: empty, small text, small random, text and
// random past one chunk (streamed with a data descriptor), and text then random in one member.
const text = (n: number) => Buffer.from('{"type":"user.message","data":{"content":"fix the failing test"}}\n'.repeat(Math.ceil(n / 66)).slice(0, n));
const MEMBERS: [string, Buffer][] = [
  ['empty.txt', Buffer.alloc(0)],
  ['small.jsonl', text(5000)],
  ['small.bin', randomBytes(5000)],
  ['big.jsonl', text(CHUNK_BYTES * 3 + 12345)],
  ['big.png', randomBytes(CHUNK_BYTES * 2 + 7)],
  ['mixed.db', Buffer.concat([text(CHUNK_BYTES + 100), randomBytes(CHUNK_BYTES)])],
  ['exact.jsonl', text(CHUNK_BYTES)],
];

async function write(compression: (typeof COMPRESSIONS)[number], label: string = compression, uneven = false): Promise<string> {
  const out = join(dir, `${label}.zip`);
  const w = await ZipWriter.create(out, compression);
  // Fed in the reader's own 1 MiB pieces, and one member in many small pieces (or, uneven, every
  // member in odd pieces that arrive late, while the members before them are still deflating).
  for (const [name, data] of MEMBERS) {
    const pieces: Buffer[] = [];
    const step = uneven ? 99_991 : name === 'mixed.db' ? 4096 : 1 << 20;
    for (let i = 0; i < data.length; i += step) pieces.push(data.subarray(i, i + step));
    const source = uneven
      ? (async function* () {
          for (const p of pieces) {
            await new Promise((resolve) => setTimeout(resolve, 1));
            yield p;
          }
        })()
      : Readable.from(pieces);
    await w.addStream(source, `m/${name}`, Date.UTC(2026, 9, 1), 0o640);
  }
  w.addBuffer(Buffer.from('{}'), 'collection.json', Date.UTC(2026, 9, 1));
  await w.finish();
  return out;
}

describe('ZipWriter', () => {
  it.each(COMPRESSIONS)('writes a zip that its own reader, unzip and Python read back byte for byte (%s)', async (compression) => {
    const out = await write(compression);
    const r = await openArchive(out);
    for (const [name, data] of MEMBERS) {
      const parts: Buffer[] = [];
      for await (const c of await r.openMember(`m/${name}`)) parts.push(c as Buffer);
      expect(Buffer.concat(parts).equals(data), name).toBe(true);
    }
    r.close();
    expect(execFileSync('unzip', ['-tq', out], { encoding: 'utf8' })).toContain('No errors detected');
    const py = `import zipfile,sys,json\nz=zipfile.ZipFile(sys.argv[1])\nprint(json.dumps({"bad": z.testzip(), "methods": {i.filename: i.compress_type for i in z.infolist()}, "modes": sorted({oct(i.external_attr >> 16) for i in z.infolist()})}))`;
    const info = JSON.parse(execFileSync('python3', ['-c', py, out], { encoding: 'utf8' })) as { bad: string | null; methods: Record<string, number>; modes: string[] };
    expect(info.bad).toBeNull();
    expect(info.modes).toEqual(['0o100640', '0o100644']);
    // Deflate (8) for what shrinks, stored (0) for what does not, and everything stored with store.
    // collection.json here is 2 bytes, which deflate makes 4: stored.
    const deflated = compression === 'store' ? [] : ['m/big.jsonl', 'm/exact.jsonl', 'm/mixed.db', 'm/small.jsonl'];
    expect(Object.entries(info.methods).filter(([, m]) => m === 8).map(([n]) => n).sort(), JSON.stringify(info.methods)).toEqual(deflated.sort());
    if (SEVEN_ZIP) expect(execFileSync(SEVEN_ZIP, ['t', out], { encoding: 'utf8' })).toContain('Everything is Ok');
  });

  it('writes a member that does not shrink as it is: stored, the same size as read', async () => {
    const out = await write('fast', 'fast-stored');
    const r = await openArchive(out);
    expect(r.members.get('m/big.png')).toMatchObject({ size: CHUNK_BYTES * 2 + 7, compressedSize: CHUNK_BYTES * 2 + 7 });
    expect(r.members.get('m/small.bin')).toMatchObject({ size: 5000, compressedSize: 5000 });
    expect(r.members.get('m/big.jsonl')!.compressedSize).toBeLessThan(CHUNK_BYTES / 4);
    r.close();
  });

  it('writes the same bytes for the same members, however their reads are cut and timed', async () => {
    const a = readFileSync(await write('fast', 'same-a'));
    const b = readFileSync(await write('fast', 'same-b', true));
    expect(b.length).toBe(a.length);
    expect(b.equals(a)).toBe(true);
  });

  it('writes Zip64 end records past 65,535 members, which Python and unzip follow', () => {
    // Built from the writer's own records without streams, read back by Python and unzip.
    const n = 0x10000 + 5;
    const parts: Buffer[] = [];
    const entries: ZipEntry[] = [];
    let offset = 0;
    for (let i = 0; i < n; i += 1) {
      const data = Buffer.from(`member ${i}\n`);
      const e: ZipEntry = { name: Buffer.from(`m/${String(i).padStart(5, '0')}.txt`), method: 0, known: true, crc: crc32(data), csize: data.length, usize: data.length, offset, ...dosDateTime(new Date(2026, 9, 1)), unixSeconds: 0, mode: 0o100644 };
      const h = localHeader(e);
      parts.push(h, data);
      offset += h.length + data.length;
      entries.push(e);
    }
    const cd = Buffer.concat(entries.map(centralRecord));
    const out = join(dir, 'many.zip');
    writeFileSync(out, Buffer.concat([...parts, cd, endRecords(n, offset, cd.length)]));
    // (The collector's own reader takes one read per entry of a central directory: about 5 s here.)
    expect(execFileSync('python3', ['-c', 'import zipfile,sys; z=zipfile.ZipFile(sys.argv[1]); print(len(z.infolist()), z.read("m/12345.txt").decode())', out], { encoding: 'utf8' })).toBe(`${n} member 12345\n\n`);
    expect(execFileSync('unzip', ['-tq', out], { encoding: 'utf8' })).toContain('No errors detected');
    expect(execFileSync('unzip', ['-p', out, 'm/65540.txt'], { encoding: 'utf8' })).toBe('member 65540\n');
  });

  it('computes the zip CRC-32 of a stream in pieces, with or without zlib', () => {
    const data = randomBytes(100_000);
    const whole = crc32(data);
    expect(crc32(data.subarray(60_000), crc32(data.subarray(0, 60_000)))).toBe(whole);
    expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926);
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

  it('refuses a member name that would leave the folder it is extracted into', async () => {
    const w = await ZipWriter.create(join(dir, 'names.zip'));
    for (const bad of ['../x', '/etc/x', 'a\\b', 'C:/x', '']) await expect(w.addStream(Readable.from([Buffer.from('x')]), bad, 0, 0o644)).rejects.toThrow(/invalid zip member name/);
    await w.abort();
  });

  it('clamps entry dates into the DOS range', () => {
    expect(zipDate(0).getUTCFullYear()).toBe(1980);
    expect(zipDate(Date.UTC(2200, 0, 1)).getUTCFullYear()).toBe(2107);
    expect(zipDate(Date.UTC(2026, 9, 1)).toISOString()).toBe('2026-10-01T00:00:00.000Z');
  });
});
