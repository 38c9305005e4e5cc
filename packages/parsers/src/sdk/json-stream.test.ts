import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type JsonStreamEvent, readJsonArray } from './json-stream.js';

async function run(text: string | Buffer, path: string[], chunk = 1 << 20, opts = {}): Promise<JsonStreamEvent[]> {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  async function* src() {
    for (let i = 0; i < bytes.length; i += chunk) yield bytes.subarray(i, i + chunk);
  }
  const out: JsonStreamEvent[] = [];
  for await (const e of readJsonArray(src(), path, opts)) out.push(e);
  return out;
}

const doc = {
  version: 3,
  sessionId: 'a"b\\c}]',
  requests: [{ message: { text: 'hi [ { " } ]' } }, 'two', 3.5e2, null, true, [1, [2]], { é: '🙂' }],
  creationDate: 1700000000000,
  nested: { deep: [1, 2] },
};

describe('readJsonArray: one element at a time from a large JSON document', () => {
  it('yields every element and the sibling fields, in document order, whatever the chunking', async () => {
    const text = JSON.stringify(doc, null, 1);
    const want = await run(text, ['requests']);
    expect(want).toEqual([
      { kind: 'field', path: ['version'], value: 3 },
      { kind: 'field', path: ['sessionId'], value: 'a"b\\c}]' },
      ...doc.requests.map((value, index) => ({ kind: 'item', index, value })),
      { kind: 'field', path: ['creationDate'], value: 1700000000000 },
      { kind: 'field', path: ['nested'], value: { deep: [1, 2] } },
      { kind: 'end', complete: true, found: true, items: 7 },
    ]);
    for (const size of [1, 2, 3, 7, 64]) expect(await run(text, ['requests'], size)).toEqual(want);
  });

  it('reads past a UTF-8 BOM at the start (a Windows editor saved the file), in any chunking', async () => {
    const text = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"messages":[1,2],"x":3}')]);
    const want: JsonStreamEvent[] = [
      { kind: 'item', index: 0, value: 1 },
      { kind: 'item', index: 1, value: 2 },
      { kind: 'field', path: ['x'], value: 3 },
      { kind: 'end', complete: true, found: true, items: 2 },
    ];
    for (const size of [1, 2, 3, 4, 1 << 20]) expect(await run(text, ['messages'], size)).toEqual(want);
    // A BOM alone, or a first byte that only looks like one, is no document.
    expect((await run(Buffer.from([0xef, 0xbb, 0xbf]), ['messages'])).at(-1)).toMatchObject({ complete: false, reason: 'not a JSON object or array' });
    expect((await run(Buffer.from([0xef, 0x7b, 0x7d]), ['messages'], 1)).at(-1)).toMatchObject({ complete: false, reason: 'not a JSON object or array' });
  });

  it('reads a top-level array with path [], and a nested path', async () => {
    expect((await run('[1,{"a":2}]', [])).filter((e) => e.kind === 'item').map((e) => (e as { value: unknown }).value)).toEqual([1, { a: 2 }]);
    const ev = await run('{"a":{"x":1,"b":[10,20]},"z":0}', ['a', 'b']);
    expect(ev.filter((e) => e.kind !== 'end')).toEqual([
      { kind: 'field', path: ['a', 'x'], value: 1 },
      { kind: 'item', index: 0, value: 10 },
      { kind: 'item', index: 1, value: 20 },
      { kind: 'field', path: ['z'], value: 0 },
    ]);
  });

  it('keeps every complete element of a document cut mid-write and says where it was cut', async () => {
    const text = JSON.stringify({ requests: [{ n: 1 }, { n: 2 }, { n: 3, long: 'x'.repeat(50) }] });
    const ev = await run(text.slice(0, text.length - 20), ['requests'], 5);
    expect(ev.filter((e) => e.kind === 'item').map((e) => (e as { value: { n: number } }).value.n)).toEqual([1, 2]);
    expect(ev.at(-1)).toEqual({ kind: 'end', complete: false, found: true, items: 2, reason: 'the document ends inside 3 open containers and a string (cut mid-write)' });
  });

  it('reports a broken element and reads on; an element over the limit is skipped, not held', async () => {
    const ev = await run('[1, tru, {"a": 2}, "' + 'y'.repeat(100) + '", 5]', [], 3, { maxValueBytes: 50 });
    expect(ev.map((e) => (e.kind === 'item' ? e.value : e.kind === 'bad' ? `bad ${e.index}` : e.kind))).toEqual([1, 'bad 1', { a: 2 }, 'bad 3', 5, 'end']);
  });

  it('says when the array is absent or the input is not JSON, never throwing', async () => {
    expect((await run('{"other":[1]}', ['requests'])).at(-1)).toEqual({ kind: 'end', complete: true, found: false, items: 0 });
    for (const junk of ['', 'garbage', '"str"', ']', '\u0000\u0001', '{"requests":']) {
      const last = (await run(junk, ['requests'])).at(-1) as { kind: string; complete: boolean };
      expect(last.kind).toBe('end');
      expect(last.complete).toBe(false);
    }
  });

  it('agrees with JSON.parse on arbitrary documents and chunkings (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.jsonValue(), { maxLength: 8 }), fc.jsonValue(), fc.integer({ min: 1, max: 40 }), async (list, other, size) => {
        const text = JSON.stringify({ before: other, list, after: other });
        const ev = await run(text, ['list'], size);
        const items = ev.filter((e) => e.kind === 'item').map((e) => (e as { value: unknown }).value);
        expect(items).toEqual(JSON.parse(JSON.stringify(list)));
        expect(ev.at(-1)).toMatchObject({ kind: 'end', complete: true, found: true });
      }),
      { numRuns: 200 },
    );
  });
});
