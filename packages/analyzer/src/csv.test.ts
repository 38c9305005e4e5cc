import { describe, expect, it } from 'vitest';
import { CSV_BOM, csvField, csvLine } from './csv.js';

describe('CSV (RFC 4180)', () => {
  it('leaves plain fields as they are and empties null', () => {
    expect(csvLine(['a', 1, null, undefined, ''])).toBe('a,1,,,\r\n');
  });
  it('quotes commas, quotes, CR and LF, doubling quotes', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('cr\rhere')).toBe('"cr\rhere"');
  });
  it('keeps formula-looking text exact (forensic fidelity, docs/formats.md)', () => {
    for (const t of ['=1+1', '+cmd', '-2', '@SUM(A1)']) expect(csvField(t)).toBe(t);
    expect(csvField('=HYPERLINK("x")')).toBe('"=HYPERLINK(""x"")"');
  });
  it('keeps non-ASCII text and the BOM is U+FEFF', () => {
    expect(csvField('GitHub Copilot • Auto, é')).toBe('"GitHub Copilot • Auto, é"');
    expect(Buffer.from(CSV_BOM, 'utf8')).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
  });
});
