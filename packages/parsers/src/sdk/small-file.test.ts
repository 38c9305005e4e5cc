import { describe, expect, it } from 'vitest';
import { readSmall } from './small-file.js';

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
