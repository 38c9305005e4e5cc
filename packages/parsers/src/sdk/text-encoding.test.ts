import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readLines } from './line-reader.js';
import { bomOf, decodeText, utf8Stream } from './text-encoding.js';

const le = (s: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(s, 'utf16le')]);
const be = (s: string) => le(s).swap16();

/** `buf` as a stream of chunks of the given sizes (the last takes the rest). */
async function* chunks(buf: Buffer, sizes: number[]): AsyncGenerator<Buffer> {
  let at = 0;
  for (const n of sizes) {
    if (at >= buf.length) return;
    yield buf.subarray(at, at + n);
    at += n;
  }
  if (at < buf.length) yield buf.subarray(at);
}

async function streamed(buf: Buffer, sizes: number[]): Promise<string> {
  const out: Buffer[] = [];
  for await (const c of utf8Stream(chunks(buf, sizes))) out.push(Buffer.from(c));
  return Buffer.concat(out).toString('utf8');
}

describe('bomOf', () => {
  it('names the three marks and nothing else', () => {
    expect(bomOf(Buffer.from([0xef, 0xbb, 0xbf, 0x7b]))).toEqual({ encoding: 'utf-8', length: 3 });
    expect(bomOf(Buffer.from([0xff, 0xfe, 0x7b, 0]))).toEqual({ encoding: 'utf-16le', length: 2 });
    expect(bomOf(Buffer.from([0xfe, 0xff, 0, 0x7b]))).toEqual({ encoding: 'utf-16be', length: 2 });
    expect(bomOf(Buffer.from('{}'))).toBeUndefined();
    expect(bomOf(Buffer.from([0xef, 0xbb]))).toBeUndefined();
    expect(bomOf(Buffer.alloc(0))).toBeUndefined();
  });
});

describe('decodeText', () => {
  it('drops a UTF-8 mark and keeps the rest', () => {
    expect(decodeText(Buffer.from('\ufeffid: s1 •'))).toBe('id: s1 •');
    expect(decodeText(Buffer.from('id: s1'))).toBe('id: s1');
  });

  it('decodes UTF-16 by its mark, either byte order', () => {
    expect(decodeText(le('{"a": "é😀"}\r\n'))).toBe('{"a": "é😀"}\r\n');
    expect(decodeText(be('model: gpt-5 •'))).toBe('model: gpt-5 •');
  });

  it('drops the NUL bytes the file ends with, in every encoding, keeping a UTF-16 character whose high byte is zero', () => {
    expect(decodeText(Buffer.concat([Buffer.from('a: 1\n'), Buffer.alloc(100)]))).toBe('a: 1\n');
    expect(decodeText(Buffer.concat([le('{"k": "A"}'), Buffer.alloc(9)]))).toBe('{"k": "A"}');
    expect(decodeText(Buffer.concat([be('x'), Buffer.alloc(6)]))).toBe('x');
    expect(decodeText(Buffer.alloc(8))).toBe('');
    expect(decodeText(Buffer.from('a\0b'))).toBe('a\0b');
  });

  it('reads bytes without a mark as UTF-8, invalid ones as U+FFFD', () => {
    expect(decodeText(Buffer.from([0x61, 0xff, 0x62]))).toBe('a\ufffdb');
  });
});

describe('utf8Stream', () => {
  it('passes a UTF-8 stream through as it is, its mark included', async () => {
    const b = Buffer.from('\ufeff{"a":1}\n');
    expect(await streamed(b, [1, 1, 1, 2])).toBe('\ufeff{"a":1}\n');
  });

  it('re-encodes UTF-16 however the chunks cut it, a surrogate pair or the mark included', async () => {
    const text = 'line 1 é\n😀 line 2\r\n{"k":"√"}';
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 7 }), { maxLength: 40 }), fc.boolean(), async (sizes, big) => {
        expect(await streamed(big ? be(text) : le(text), sizes)).toBe(text);
      }),
    );
  });

  it('keeps an odd last byte and an unpaired surrogate as U+FFFD rather than failing', async () => {
    const b = Buffer.concat([le('ab'), Buffer.from([0x3d, 0xd8]), Buffer.from('c', 'utf16le'), Buffer.from([0x41])]);
    expect(await streamed(b, [3])).toBe('ab\ufffdc\ufffd');
  });

  it('gives a one-byte stream back and an empty one as nothing', async () => {
    expect(await streamed(Buffer.from([0xff]), [])).toBe(Buffer.from([0xff]).toString('utf8'));
    expect(await streamed(Buffer.alloc(0), [])).toBe('');
  });

  it('keeps line numbers: the line reader counts the lines of the file', async () => {
    const lines = [];
    for await (const l of readLines(chunks(le('{"a":1}\r\n{"b":2}\r\n{"c":'), [5, 3]))) lines.push([l.line, l.text, l.cut]);
    expect(lines).toEqual([
      [1, '{"a":1}', false],
      [2, '{"b":2}', false],
      [3, '{"c":', true],
    ]);
  });
});
