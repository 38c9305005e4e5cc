import { describe, expect, it } from 'vitest';
import { lineIndex } from './line-index.js';

describe('lineIndex', () => {
  it('gives the line the split-count would give, for every offset of texts with and without newlines', () => {
    for (const text of ['', 'one line', 'a\nb', '\n\nx\n', 'first\r\nsecond\n\nfourth', '\n']) {
      const lineOf = lineIndex(text);
      for (let at = 0; at <= text.length; at++) expect([text, at, lineOf(at)]).toEqual([text, at, text.slice(0, at).split('\n').length]);
    }
  });
});
