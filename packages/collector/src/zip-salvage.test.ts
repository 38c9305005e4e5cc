import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHUNK_BYTES, ZipWriter } from './zip-writer.js';
import { utMtime } from './zip-local-data.js';
import { CutMemberError, type LocalScan, scanLocalHeaders } from './zip-salvage.js';

// Zips written by the collector's own writer, whole and cut at each kind of place: the members
// before the cut come back byte for byte (their CRC-32 and size checked), the cut one is an error
// naming it, and the scan says where and why it stopped.

const dir = mkdtempSync(join(tmpdir(), 'aitrail-salvage-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const text = (n: number) => Buffer.from('{"type":"user.message","data":{"content":"fix the failing test"}}\n'.repeat(Math.ceil(n / 66)).slice(0, n));
// Known sizes (small: stored or deflated), and streamed with a data descriptor (past one chunk:
// deflated text, stored random bytes, and text then random bytes).
const MEMBERS: [string, Buffer][] = [
  ['homes/u/empty.txt', Buffer.alloc(0)],
  ['homes/u/small.jsonl', text(5000)],
  ['homes/u/small.bin', randomBytes(5000)],
  ['homes/u/big.jsonl', text(CHUNK_BYTES * 2 + 12345)],
  ['homes/u/big.png', randomBytes(CHUNK_BYTES + 7)],
  ['homes/u/mixed.db', Buffer.concat([randomBytes(CHUNK_BYTES), text(CHUNK_BYTES + 100)])],
  ['homes/u/last.jsonl', text(300)],
];
let whole: Buffer;
/** Offsets where each member's local header starts, and where the central directory does. */
let starts: number[];
let cd: number;

beforeAll(async () => {
  const out = join(dir, 'whole.zip');
  const w = await ZipWriter.create(out, 'fast');
  for (const [name, data] of MEMBERS) {
    const pieces: Buffer[] = [];
    for (let i = 0; i < data.length; i += 1 << 20) pieces.push(data.subarray(i, i + (1 << 20)));
    await w.addStream(Readable.from(pieces), name, MTIME, 0o640);
  }
  await w.finish();
  whole = readFileSync(out);
  cd = whole.readUInt32LE(whole.length - 22 + 16);
  starts = MEMBERS.map(([name]) => whole.indexOf(Buffer.from(name)) - 30);
});

const MTIME = Date.UTC(2026, 9, 1, 12, 34, 56, 789);

async function scan(
  bytes: Buffer,
  readEvery = true,
): Promise<{ got: Map<string, Buffer>; errors: Map<string, string>; cut: Map<string, Buffer>; end: ReturnType<LocalScan['end']>; seen: string[]; mtimes: (number | undefined)[] }> {
  const p = join(dir, 'probe.zip');
  writeFileSync(p, bytes);
  const s = await scanLocalHeaders(p);
  const got = new Map<string, Buffer>();
  const errors = new Map<string, string>();
  // A cut member's bytes handed out before its CutMemberError (which counts them).
  const cut = new Map<string, Buffer>();
  const seen: string[] = [];
  const mtimes: (number | undefined)[] = [];
  try {
    for await (const m of s.members()) {
      seen.push(m.member.name);
      mtimes.push(m.member.mtime);
      if (!readEvery && m.member.name !== 'homes/u/last.jsonl') continue;
      const parts: Buffer[] = [];
      try {
        for await (const c of m.read()) parts.push(c);
        got.set(m.member.name, Buffer.concat(parts));
      } catch (err) {
        errors.set(m.member.name, (err as Error).message);
        if (err instanceof CutMemberError) {
          expect(err.bytes).toBe(Buffer.concat(parts).length);
          cut.set(m.member.name, Buffer.concat(parts));
        }
      }
    }
  } finally {
    await s.close();
  }
  return { got, errors, cut, end: s.end(), seen, mtimes };
}

describe('scanLocalHeaders', () => {
  it('reads every member of a whole zip byte for byte and stops at its central directory', async () => {
    const r = await scan(whole);
    expect([...r.got.keys()]).toEqual(MEMBERS.map(([n]) => n));
    for (const [name, data] of MEMBERS) expect(r.got.get(name)!.equals(data), name).toBe(true);
    expect(r.errors.size).toBe(0);
    expect(r.end).toEqual({ whole: true, at: cd, why: `the central directory starts at byte ${cd}` });
  });

  it("gives each member's mtime in whole seconds from its local header, which the writer fills", async () => {
    const r = await scan(whole.subarray(0, cd));
    expect(r.mtimes).toEqual(MEMBERS.map(() => Math.floor(MTIME / 1000)));
  });

  it('reads the mtime of a UT field among others, and none from a clamped, flagless or cut one', () => {
    const ut = (flags: number, t: number, len = 5) => {
      const b = Buffer.alloc(4 + len);
      b.writeUInt16LE(0x5455, 0);
      b.writeUInt16LE(len, 2);
      b[4] = flags;
      if (len >= 5) b.writeInt32LE(t, 5);
      return b;
    };
    const other = Buffer.from([0x75, 0x78, 3, 0, 1, 2, 3]);
    expect(utMtime(Buffer.concat([other, ut(1, 1_790_000_000)]))).toBe(1_790_000_000);
    expect(utMtime(ut(3, -86400, 9))).toBe(-86400);
    expect(utMtime(ut(1, 0x7fffffff))).toBeUndefined();
    expect(utMtime(ut(1, -0x80000000))).toBeUndefined();
    expect(utMtime(ut(2, 1_790_000_000))).toBeUndefined();
    expect(utMtime(ut(1, 1_790_000_000).subarray(0, 8))).toBeUndefined();
    expect(utMtime(Buffer.alloc(0))).toBeUndefined();
  });

  it('finds the end of members nobody reads, streamed ones included', async () => {
    const r = await scan(whole, false);
    expect(r.seen).toEqual(MEMBERS.map(([n]) => n));
    expect(r.got.get('homes/u/last.jsonl')!.equals(MEMBERS[6][1])).toBe(true);
    expect(r.end?.whole).toBe(true);
  });

  it('cut before the central directory: every member whole, the end said', async () => {
    const r = await scan(whole.subarray(0, cd));
    expect(r.got.size).toBe(MEMBERS.length);
    expect(r.end).toEqual({ whole: false, at: cd, why: `the file ends at byte ${cd}, with no central directory after the last whole member` });
  });

  it.each([
    ['inside a known-size member', 2, 100],
    ['inside a streamed deflated member', 3, 5000],
    ['inside a streamed stored member', 4, 5000],
    ['inside the header of a member', 5, 10],
  ])('cut %s: the members before it whole, that one an error or the stop, nothing after', async (_what, i, into) => {
    const at = starts[i] + into;
    const r = await scan(whole.subarray(0, at));
    expect([...r.got.keys()]).toEqual(MEMBERS.slice(0, i).map(([n]) => n));
    for (const [name, data] of MEMBERS.slice(0, i)) expect(r.got.get(name)!.equals(data), name).toBe(true);
    expect(r.seen.length).toBeLessThanOrEqual(i + 1);
    if (r.seen.length === i + 1) expect(r.errors.get(MEMBERS[i][0])).toMatch(/cut short|unexpected end|descriptor/i);
    expect(r.end?.whole).toBe(false);
    expect(r.end?.at).toBe(starts[i]);
  });

  it.each([
    ['a known-size stored member', 2, 100],
    ['a streamed deflated member', 3, 5000],
    ['a streamed stored member', 4, 5000],
  ])('cut inside %s: its bytes before the cut come out, then a CutMemberError that says so', async (_what, i, into) => {
    const r = await scan(whole.subarray(0, starts[i] + into));
    const [name, data] = MEMBERS[i];
    const got = r.cut.get(name)!;
    expect(got.length).toBeGreaterThan(0);
    expect(got.equals(data.subarray(0, got.length))).toBe(true);
    // Stored: every data byte before the cut (the header is 30 bytes, the name, the 9-byte UT field).
    if (i !== 3) expect(got.length).toBe(into - 30 - name.length - 9);
    // Deflated text: more out than went in.
    else expect(got.length).toBeGreaterThan(into);
    expect(r.errors.get(name)).toMatch(new RegExp(`^member ${name} is cut short: .*its first ${got.length} bytes are recovered, its end and its CRC-32 are lost$`));
    expect(r.end).toEqual({ whole: false, at: starts[i], why: r.errors.get(name) });
  });

  it.each([
    ['a streamed deflated member', 3],
    ['a streamed stored member', 4],
  ])('cut inside the data descriptor of %s: all its bytes come out, said unchecked', async (_what, i) => {
    // 8 of the descriptor's 16 bytes: its signature and CRC-32, not its sizes.
    const r = await scan(whole.subarray(0, starts[i + 1] - 8));
    const [name, data] = MEMBERS[i];
    expect(r.cut.get(name)!.equals(data)).toBe(true);
    expect(r.errors.get(name)).toMatch(/cut short/);
  });

  it('a member cut before the scan reads it is said cut without being read', async () => {
    const r = await scan(whole.subarray(0, starts[2] + 100), false);
    expect(r.seen).toEqual(MEMBERS.slice(0, 3).map(([n]) => n));
    expect(r.end?.why).toBe(`member ${MEMBERS[2][0]} is cut short: ${MEMBERS[2][1].length} bytes of data declared, ${100 - 30 - MEMBERS[2][0].length - 9} in the file`);
  });

  it('a flipped byte in a known-size member fails that member only (its CRC-32); the scan goes on', async () => {
    const bad = Buffer.from(whole);
    bad[starts[2] + 30 + MEMBERS[2][0].length + 10] ^= 0xff;
    const r = await scan(bad);
    expect(r.errors.get('homes/u/small.bin')).toMatch(/CRC-32 differs/);
    expect(r.got.size).toBe(MEMBERS.length - 1);
    expect(r.end?.whole).toBe(true);
  });

  it('says what it found where no member header is', async () => {
    const r = await scan(Buffer.concat([whole.subarray(0, starts[1]), Buffer.from('not a zip at all')]));
    expect(r.got.size).toBe(1);
    expect(r.end).toEqual({ whole: false, at: starts[1], why: `expected a member's local header at byte ${starts[1]}, found other bytes` });
  });
});
