import { describe, expect, it } from 'vitest';
import { streamLines } from './line-stream.js';

async function lines(chunks: (string | Buffer)[], max?: number) {
  const out: { lineNo: number; text: string | null }[] = [];
  async function* src() {
    yield* chunks;
  }
  for await (const l of streamLines(src(), max)) out.push(l);
  return out;
}

describe('streamLines', () => {
  it('numbers lines across chunk boundaries and keeps a last line without a newline', async () => {
    expect(await lines(['a\nb', 'c\n\nd'])).toEqual([
      { lineNo: 1, text: 'a' },
      { lineNo: 2, text: 'bc' },
      { lineNo: 3, text: '' },
      { lineNo: 4, text: 'd' },
    ]);
  });

  it('keeps a UTF-8 character split between two chunks whole', async () => {
    const euro = Buffer.from('€\n');
    expect(await lines([euro.subarray(0, 1), euro.subarray(1)])).toEqual([{ lineNo: 1, text: '€' }]);
  });

  it('drops a line over the cap (text null) and goes on with the next, numbered right', async () => {
    expect(await lines(['12345', '678\nok\n', 'abcdefghij'], 6)).toEqual([
      { lineNo: 1, text: null },
      { lineNo: 2, text: 'ok' },
      { lineNo: 3, text: null },
    ]);
  });
});
