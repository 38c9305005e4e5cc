import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ByteWriter } from '../byte-writer.js';
import { csvLine, TIMELINE_COLUMNS } from '../csv.js';
import type { TimelineRow } from '../row.js';
import { rowArb } from '../test-helpers/row-arb.js';
import { CSV_FEED_END, type Piece, putCsvFeedRow, readCsvFeedRecord, sqliteValues, TEXT_AT } from './csv-feed.js';


/** The feed's bytes for `rows`, each record put in `split` pieces, through a writer of `size`-byte buffers. */
async function feed(rows: TimelineRow[], size: number, split: number): Promise<Buffer> {
  const got: Buffer[] = [];
  const out = new ByteWriter(async (b) => void got.push(Buffer.from(b)), { size });
  for (const r of rows) {
    const rec = Buffer.from(csvLine(TIMELINE_COLUMNS.map((c) => r[c] as string | number | null)));
    const cuts = Array.from({ length: split - 1 }, (_, i) => Math.floor(((i + 1) * rec.length) / split));
    const pieces: Piece[] = [0, ...cuts].map((s, i) => [rec, s, i + 1 < split ? cuts[i] : rec.length]);
    await putCsvFeedRow(out, r.tag ?? '', pieces);
  }
  await out.flush();
  return Buffer.concat(got);
}

/** Every record of a feed, read back. */
function records(b: Buffer): ReturnType<typeof readCsvFeedRecord>[] {
  const out = [];
  for (let at = 0; at < b.length; ) {
    const end = b.indexOf(CSV_FEED_END, at);
    out.push(readCsvFeedRecord(b, at, end));
    at = end + 1;
  }
  return out;
}

describe('the SQLite feed', () => {
  it("gives back each row's values, the text as its UTF-8 bytes, a lone surrogate as U+FFFD (property)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(rowArb, { minLength: 1, maxLength: 6 }), fc.integer({ min: 16, max: 8192 }), fc.integer({ min: 1, max: 5 }), async (rows, size, split) => {
        const got = records(await feed(rows, size, split));
        expect(got).toHaveLength(rows.length);
        got.forEach((v, i) => {
          const want = sqliteValues(rows[i]);
          expect(Buffer.isBuffer(v[TEXT_AT])).toBe(true);
          expect((v[TEXT_AT] as Buffer).equals(Buffer.from(want[TEXT_AT] as string, 'utf8'))).toBe(true);
          expect([...v.slice(0, TEXT_AT), ...v.slice(TEXT_AT + 1)]).toEqual([...want.slice(0, TEXT_AT), ...want.slice(TEXT_AT + 1)]);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('makes well-formed strings of a row given in-process, and no number of a line that is none', () => {
    const r: TimelineRow = { timestamp_utc: '', host: 'h', user: 'u', agent: 'a', session_id: 's\ud800', project_path: '', git_branch: '', model: '', turn_type: 'user', tool_name: '', tool_use_id: '', text: 'lone \udc00 tail \ud83d', source_file: 'f', source_line: Number.NaN, ord: 0, tag: 'x' };
    const v = sqliteValues(r);
    expect([v[4], v[TEXT_AT], v[13], v[14]]).toEqual(['s\ufffd', 'lone \ufffd tail \ufffd', null, 'x']);
  });

  it('refuses a record it cannot have written, naming what it expected', () => {
    const bad = Buffer.from('tag,"unclosed\xff', 'latin1');
    expect(() => readCsvFeedRecord(bad, 0, bad.length - 1)).toThrow(/closing quote/);
    const short = Buffer.from('tag,a,b\r\n\xff', 'latin1');
    expect(() => readCsvFeedRecord(short, 0, short.length - 1)).toThrow(/field 2 runs past the end of its record/);
  });
});
