import { describe, expect, it } from 'vitest';
import { readSmall, utf8Text } from './small-file.js';

async function* parts(...xs: string[]): AsyncGenerator<Buffer> {
  for (const x of xs) yield Buffer.from(x);
}

describe('readSmall', () => {
  it('joins the chunks', async () => {
    expect(await readSmall(parts('ab', 'cd'))).toEqual({ ok: true, buffer: Buffer.from('abcd') });
  });

  it('refuses a file past the limit, saying so', async () => {
    const r = await readSmall(parts('abc', 'def'), 5);
    expect(r).toEqual({ ok: false, reason: 'file larger than 5 bytes; not read whole' });
  });

  it('takes a file of exactly the limit', async () => {
    expect((await readSmall(parts('abc', 'de'), 5)).ok).toBe(true);
  });
});

describe('utf8Text', () => {
  it('drops a BOM and keeps the rest', () => {
    expect(utf8Text(Buffer.from('\ufeffid: s1 •'))).toBe('id: s1 •');
    expect(utf8Text(Buffer.from('id: s1'))).toBe('id: s1');
  });
});
