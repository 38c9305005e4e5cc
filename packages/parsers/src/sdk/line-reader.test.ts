import fc from 'fast-check';
import { TextDecoder } from 'node:util';
import { describe, expect, it, vi } from 'vitest';
import { compactJson } from './compact-json.js';
import { type JsonLine, type RawLine, readJsonLines, readLines } from './line-reader.js';

async function* chunked(buf: Buffer, cuts: number[] = []): AsyncGenerator<Buffer> {
  let at = 0;
  for (const c of [...cuts].sort((a, b) => a - b)) {
    if (c <= at || c >= buf.length) continue;
    yield buf.subarray(at, c);
    at = c;
  }
  if (at < buf.length) yield buf.subarray(at);
}

async function all<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

const jsonLines = (text: string | Buffer, cuts?: number[]) => all(readJsonLines(chunked(Buffer.isBuffer(text) ? text : Buffer.from(text), cuts)));

// What readLines must produce, computed from the whole buffer at once.
function splitWhole(file: Buffer): RawLine[] {
  // A file that starts with a UTF-16 byte order mark is read as UTF-16 (text-encoding.ts).
  const utf16 = file[0] === 0xff && file[1] === 0xfe ? 'utf-16le' : file[0] === 0xfe && file[1] === 0xff ? 'utf-16be' : undefined;
  const buf = utf16 ? Buffer.from(new TextDecoder(utf16).decode(file.subarray(2)), 'utf8') : file;
  const pieces: Buffer[] = [];
  let at = 0;
  for (let nl = buf.indexOf(0x0a); nl >= 0; nl = buf.indexOf(0x0a, at)) {
    pieces.push(buf.subarray(at, nl));
    at = nl + 1;
  }
  const cutTail = at < buf.length;
  if (cutTail) pieces.push(buf.subarray(at));
  return pieces.map((p, i) => {
    let b = i === 0 && p[0] === 0xef && p[1] === 0xbb && p[2] === 0xbf ? p.subarray(3) : p;
    if (b[b.length - 1] === 0x0d) b = b.subarray(0, -1);
    let text: string;
    let badUtf8 = false;
    try {
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(b);
    } catch {
      text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(b);
      badUtf8 = true;
    }
    return { line: i + 1, text, cut: cutTail && i === pieces.length - 1, badUtf8 };
  });
}

describe('readJsonLines', () => {
  it('reads good lines with 1-based numbers', async () => {
    const out = await jsonLines('{"a":1}\n{"b":"x"}\n');
    expect(out).toEqual([
      { line: 1, text: '{"a":1}', value: { a: 1 } },
      { line: 2, text: '{"b":"x"}', value: { b: 'x' } },
    ]);
  });

  it('reports a cut last line that is not valid JSON, saying it was cut', async () => {
    const out = await jsonLines('{"a":1}\n{"type":"user.message","data":{"content":"and run');
    expect(out).toHaveLength(2);
    expect(out[1].line).toBe(2);
    expect(out[1].value).toBeUndefined();
    expect(out[1].error).toMatch(/cut/);
    expect(out[1].text).toBe('{"type":"user.message","data":{"content":"and run');
  });

  it('keeps a cut last line that is still valid JSON as a good line', async () => {
    const out = await jsonLines('{"a":1}\n{"b":2}');
    expect(out[1]).toEqual({ line: 2, text: '{"b":2}', value: { b: 2 } });
  });

  it('drops the CR of CRLF line ends, and only that CR', async () => {
    const out = await jsonLines('{"a":"x\\r"}\r\n{"b":1}\r\n\r\n');
    expect(out.map((l) => l.text)).toEqual(['{"a":"x\\r"}', '{"b":1}', '']);
    expect(out[0].value).toEqual({ a: 'x\r' });
    expect(out[2].blank).toBe(true);
  });

  it('drops a UTF-8 BOM at the start of the file, even when a chunk ends inside it', async () => {
    const buf = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":1}\n{"b":2}\n')]);
    for (const cuts of [[], [1], [2], [3]]) {
      const out = await jsonLines(buf, cuts);
      expect(out.map((l) => l.value)).toEqual([{ a: 1 }, { b: 2 }]);
      expect(out[0].text).toBe('{"a":1}');
    }
  });

  it('keeps a BOM in the middle of a file in the text, and still parses the line', async () => {
    const out = await jsonLines('{"a":1}\n\ufeff{"b":2}\n');
    expect(out[1].text).toBe('\ufeff{"b":2}');
    expect(out[1].value).toEqual({ b: 2 });
  });

  it('yields a line with invalid UTF-8 with a reason, U+FFFD in place of the bad bytes', async () => {
    const bad = Buffer.concat([Buffer.from('{"a":"x'), Buffer.from([0xff, 0xfe]), Buffer.from('y"}\n{"b":"'), Buffer.from([0xc3]), Buffer.from('\n')]);
    const out = await jsonLines(bad);
    expect(out).toHaveLength(2);
    expect(out[0].error).toMatch(/invalid UTF-8/);
    expect(out[0].value).toEqual({ a: 'x\ufffd\ufffdy' });
    expect(out[1].error).toMatch(/invalid UTF-8; invalid JSON/);
    expect(out[1].value).toBeUndefined();
    const cutBad = await jsonLines(Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xff])]));
    expect(cutBad[0].error).toBe('cut line, no newline at end of file: invalid UTF-8; invalid JSON');
  });

  it('yields blank lines as blank, numbered, without an error', async () => {
    const out = await jsonLines('\n{"a":1}\n   \n\t\n{"b":2}\n');
    expect(out.map((l) => [l.line, l.blank ?? false, l.error])).toEqual([
      [1, true, undefined],
      [2, false, undefined],
      [3, true, undefined],
      [4, true, undefined],
      [5, false, undefined],
    ]);
  });

  it('reports valid JSON that is not an object, naming what it is', async () => {
    const out = await jsonLines('[1,2]\n"text"\n42\nnull\ntrue\n');
    expect(out.map((l) => l.error)).toEqual([
      'not a JSON object: an array',
      'not a JSON object: a string',
      'not a JSON object: a number',
      'not a JSON object: null',
      'not a JSON object: a boolean',
    ]);
    expect(out.every((l) => l.value === undefined)).toBe(true);
  });

  it('names a line of NUL bytes (a crash-cut tail) as such', async () => {
    const out = await jsonLines(Buffer.concat([Buffer.from('{"a":1}\n'), Buffer.alloc(4096), Buffer.from('\n{"b":2}\n'), Buffer.alloc(10)]));
    expect(out.map((l) => l.error)).toEqual([undefined, 'only NUL bytes (4096)', undefined, 'cut line, no newline at end of file: only NUL bytes (10)']);
    // The NULs are no preview: a bad line's row would print them into every output.
    expect(out.map((l) => l.text)).toEqual(['{"a":1}', '', '{"b":2}', '']);
  });

  it('reads a whole object that NUL bytes follow on its line (a crash after the write, before the newline)', async () => {
    const out = await jsonLines(Buffer.concat([Buffer.from('{"a":1}\n{"b":2}'), Buffer.alloc(300)]));
    expect(out.map((l) => [l.line, l.value, l.error, l.text])).toEqual([
      [1, { a: 1 }, undefined, '{"a":1}'],
      [2, { b: 2 }, undefined, '{"b":2}'],
    ]);
    const cut = await jsonLines(Buffer.concat([Buffer.from('{"b":'), Buffer.alloc(3)]));
    expect(cut.map((l) => l.error)).toEqual(['cut line, no newline at end of file: invalid JSON']);
  });

  it('reports invalid JSON in the middle of a file and goes on', async () => {
    const out = await jsonLines('{"a":1}\n{oops\n{"b":2}\n');
    expect(out.map((l) => l.error)).toEqual([undefined, 'invalid JSON', undefined]);
    expect(out[2].value).toEqual({ b: 2 });
  });

  it('yields a single 64 MB line whole and parses it', async () => {
    const size = 64 * 1024 * 1024;
    const buf = Buffer.alloc(size + 1, 0x78);
    buf.write('{"big":"', 0, 'latin1');
    buf.write('"}\n', size - 2, 'latin1');
    const cuts = Array.from({ length: Math.floor(size / 65536) }, (_, i) => (i + 1) * 65536 - 7);
    let count = 0;
    for await (const l of readJsonLines(chunked(buf, cuts))) {
      count += 1;
      expect(l.error).toBeUndefined();
      expect(String(l.value?.big).length).toBe(size - 10);
      expect(l.text.length).toBe(size);
    }
    expect(count).toBe(1);
  });

  it('reports a line longer than maxLineBytes with a preview, and reads the next line', async () => {
    const text = `{"a":"${'y'.repeat(1000)}"}\n{"b":2}\n`;
    const out = await jsonLines(text, [100, 200, 700]);
    const small = await all(readJsonLines(chunked(Buffer.from(text), [100, 200, 700]), { maxLineBytes: 500, previewChars: 10 }));
    expect(out[0].value).toBeDefined();
    expect(small[0]).toMatchObject({ line: 1, text: '{"a":"yyyy' });
    expect(small[0].error).toMatch(/longer than 500 bytes/);
    expect(small[1]).toEqual({ line: 2, text: '{"b":2}', value: { b: 2 } });
  });

  it('survives 100,000 nested arrays and objects in one line', async () => {
    const depth = 100_000;
    const arrays = '['.repeat(depth) + ']'.repeat(depth);
    const objects = `{"k":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`;
    const out = await jsonLines(`${arrays}\n${objects}\n{"after":true}\n`);
    expect(out).toHaveLength(3);
    // V8's JSON.parse is iterative; if it ever throws RangeError the line still gets a reason.
    expect(out[0].error).toMatch(/^(not a JSON object: an array|nested too deep)$/);
    expect(out[1].error === undefined || out[1].error === 'nested too deep').toBe(true);
    if (out[1].value) expect(compactJson(out[1].value).length).toBe(objects.length);
    expect(out[2].value).toEqual({ after: true });
  });

  it('turns a RangeError from JSON.parse into a reason, not a throw', async () => {
    const spy = vi.spyOn(JSON, 'parse').mockImplementation(() => {
      throw new RangeError('Maximum call stack size exceeded');
    });
    try {
      const out = await jsonLines('{"a":1}\n{"b":2');
      expect(out.map((l) => l.error)).toEqual(['nested too deep', 'cut line, no newline at end of file: nested too deep']);
    } finally {
      spy.mockRestore();
    }
  });

  it('accepts Uint8Array and string chunks', async () => {
    async function* mixed(): AsyncGenerator<Buffer | Uint8Array> {
      yield new Uint8Array(Buffer.from('{"a":'));
      yield Buffer.from('1}\n');
    }
    const out = await all(readJsonLines(mixed()));
    expect(out).toEqual([{ line: 1, text: '{"a":1}', value: { a: 1 } }]);
  });
});

describe('readJsonLines, lines that cannot start JSON', () => {
  it('says invalid JSON exactly where JSON.parse throws, and reads what it parses (property)', async () => {
    // First characters of every kind, then JSON-ish text: the quick refusal must agree with JSON.parse.
    const first = fc.constantFrom('{', '[', '"', '-', '0', '7', 't', 'f', 'n', ' ', '\t', '\r', '`', '#', 'x', '}', ']', ',', ':', '\u00e9', '\u0000', '\ufeff', '+', '.');
    const rest = fc.string({ unit: fc.constantFrom('{', '}', '[', ']', '"', ':', ',', '1', 'a', 'true', 'null', ' ', '\\') , maxLength: 12 });
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(first, rest).map(([a, b]) => a + b), { minLength: 1, maxLength: 20 }), async (texts) => {
        const lines = texts.map((t) => t.replace(/\n/g, ''));
        const got = await jsonLines(lines.map((l) => `${l}\n`).join(''));
        for (const [i, l] of lines.entries()) {
          const r = got[i];
          if (r.blank) continue;
          let parsed: unknown;
          let threw = false;
          try {
            parsed = JSON.parse(l.charCodeAt(0) === 0xfeff ? l.slice(1) : l);
          } catch {
            threw = true;
          }
          const stripped = l.replace(/\0+$/, '');
          if (threw && stripped !== l && stripped !== '' && r.error === undefined) expect(r.value, JSON.stringify(l)).toEqual(JSON.parse(stripped.charCodeAt(0) === 0xfeff ? stripped.slice(1) : stripped));
          else if (threw) expect(r.error === 'invalid JSON' || /^only NUL bytes \(\d+\)$/.test(r.error ?? '') || (stripped !== l && /^not a JSON object/.test(r.error ?? '')), `${JSON.stringify(l)}: ${r.error}`).toBe(true);
          else if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) expect(r.value, JSON.stringify(l)).toEqual(parsed);
          else expect(r.error, JSON.stringify(l)).toMatch(/^not a JSON object/);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('a file of 250,000 lines of garbage gives a bad line each, saying so', async () => {
    const got = await jsonLines('```\n'.repeat(250_000));
    expect(got).toHaveLength(250_000);
    expect(got.every((l) => l.error === 'invalid JSON' && l.text === '```')).toBe(true);
    expect((await jsonLines('\u0000\u0000\n'))[0].error).toBe('only NUL bytes (2)');
  });
});

describe('readLines over arbitrary chunkings', () => {
  // Bytes that matter to the reader: LF, CR, a BOM's bytes, multi-byte and invalid UTF-8.
  const byte = fc.constantFrom(0x0a, 0x0d, 0xef, 0xbb, 0xbf, 0xe2, 0x80, 0xa2, 0xff, 0xc3, 0x7b, 0x7d, 0x22, 0x61, 0x20, 0x31);
  const input = fc.record({
    bom: fc.boolean(),
    body: fc.array(fc.oneof(byte, fc.integer({ min: 0, max: 255 })), { maxLength: 300 }).map((b) => Buffer.from(b)),
  });

  it('yields exactly the lines of splitting the whole buffer, each once, numbered from 1', async () => {
    await fc.assert(
      fc.asyncProperty(input, fc.array(fc.nat(700), { maxLength: 40 }), async ({ bom, body }, cuts) => {
        const buf = bom ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), body]) : body;
        const got = await all(readLines(chunked(buf, cuts)));
        expect(got).toEqual(splitWhole(buf));
        const parsed = await all(readJsonLines(chunked(buf, cuts)));
        // The JSON reader's text is the raw line's, but for NULs: a line of them alone has none,
        // and a whole object they follow is read without them.
        const withoutNuls = (t: string, read: boolean) => (/^\0+$/.test(t) ? '' : read ? t.replace(/\0+$/, '') : t);
        expect(parsed.map((l) => [l.line, l.text])).toEqual(got.map((l, i) => [l.line, withoutNuls(l.text, parsed[i]?.value !== undefined)]));
      }),
      { numRuns: 500 },
    );
  });

  it('gives readJsonLines one entry per physical line for any JSONL and any chunking', async () => {
    const line = fc.oneof(fc.jsonValue().map((v) => JSON.stringify(v)), fc.string({ unit: 'grapheme', maxLength: 30 }).filter((s) => !s.includes('\n')));
    await fc.assert(
      fc.asyncProperty(fc.array(line, { maxLength: 30 }), fc.boolean(), fc.boolean(), fc.array(fc.nat(2000), { maxLength: 30 }), async (lines, crlf, trailingNl, cuts) => {
        const text = lines.join(crlf ? '\r\n' : '\n') + (trailingNl && lines.length > 0 ? '\n' : '');
        const got: JsonLine[] = await all(readJsonLines(chunked(Buffer.from(text), cuts)));
        const expected = splitWhole(Buffer.from(text));
        expect(got.map((l) => l.line)).toEqual(expected.map((l) => l.line));
        expect(got.map((l) => l.text)).toEqual(expected.map((l) => l.text));
        for (const l of got) expect(Number(l.value !== undefined) + Number(l.error !== undefined && l.value === undefined) + Number(l.blank === true)).toBe(1);
      }),
      { numRuns: 300 },
    );
  });
});
