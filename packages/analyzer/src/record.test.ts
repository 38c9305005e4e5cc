import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvLine, TIMELINE_COLUMNS } from './csv.js';
import { jsonLine } from './outputs.js';
import { compareRecords, newRecordView, RecordWriter, readRecord, recordOffsets, TEXT_TAGS, timeKey, unitText, utf8Length } from './record.js';
import type { TimelineRow } from './row.js';
import { rowArb } from './test-helpers/row-arb.js';

const base: TimelineRow = { timestamp_utc: '', host: 'h', user: 'u', agent: 'a', session_id: '', project_path: '', git_branch: '', model: '', turn_type: 'user', tool_name: '', tool_use_id: '', text: '', source_file: 'homes/u/f', source_line: null, ord: 7 };

/** Serialize rows into records and read every record back. */
function roundTrip(rows: TimelineRow[], chunkBytes = 1 << 20): { chunk: Buffer; off: number }[] {
  const chunks: Buffer[] = [];
  const w = new RecordWriter((c) => chunks.push(Buffer.from(c)), chunkBytes);
  for (const r of rows) w.add(r, unitText(r.host, r.user, r.agent, r.source_file));
  w.flush();
  return chunks.flatMap((chunk) => [...recordOffsets(chunk)].map((off) => ({ chunk, off })));
}


describe('row records', () => {
  it('hold exactly the timeline.jsonl line and the timeline.csv record of the row (property)', () => {
    fc.assert(
      fc.property(fc.array(rowArb, { minLength: 1, maxLength: 8 }), fc.integer({ min: 64, max: 4096 }), (rows, chunkBytes) => {
        for (const r of rows) if (r.tag === undefined) delete r.tag;
        const got = roundTrip(rows, chunkBytes);
        expect(got).toHaveLength(rows.length);
        const v = newRecordView();
        got.forEach(({ chunk, off }, i) => {
          const r = rows[i];
          readRecord(chunk, off, v);
          // Bytes as the outputs were written before records: each line's text encoded as UTF-8.
          expect(chunk.subarray(v.json[0], v.json[5]).equals(Buffer.from(jsonLine(r)))).toBe(true);
          expect(chunk.subarray(v.csv[0], v.csv[5]).equals(Buffer.from(csvLine(TIMELINE_COLUMNS.map((c) => r[c] as string | number | null))))).toBe(true);
          // The values the last pass may rewrite are where the record says.
          expect(chunk.toString('utf8', v.json[1], v.json[2])).toBe(JSON.stringify(r.project_path));
          expect(chunk.toString('utf8', v.json[3], v.json[4])).toBe(JSON.stringify(r.git_branch));
          // What the copy rule compares: model, turn type, tool, tool use id and text, as JSON.
          expect(chunk.subarray(v.json[4], v.contentEnd).equals(Buffer.from(`,"model":${JSON.stringify(r.model)},"turn_type":${JSON.stringify(r.turn_type)},"tool_name":${JSON.stringify(r.tool_name)},"tool_use_id":${JSON.stringify(r.tool_use_id)},"text":${JSON.stringify(r.text)}`))).toBe(true);
          expect([v.ord, v.sec, v.tag, v.turn_type, v.timestamp_utc]).toEqual([r.ord, !!r.sec, r.tag ?? '', r.turn_type, r.timestamp_utc]);
          expect(v.text).toBe(TEXT_TAGS.has(r.tag ?? '') ? r.text : '');
          expect([v.session_id, v.project_path, v.git_branch, v.model, v.tool_name]).toEqual([r.session_id, r.project_path, r.git_branch, r.model, r.tool_name]);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('sort in timeline order: dated first by time (as strings compare), then undated, ties by ord', () => {
    const stamps = ['', '2026-01-02T00:00:00.000Z', '2026-01-01T23:59:59.999Z', '+010000-01-01T00:00:00.000Z', '-000001-01-01T00:00:00.000Z', '2026-01-01T23:59:59.999Z', ''];
    const rows = stamps.map((ts, i) => ({ ...base, timestamp_utc: ts, ord: 100 - i }));
    const recs = roundTrip(rows);
    const cmpRows = (a: TimelineRow, b: TimelineRow) => {
      if ((a.timestamp_utc === '') !== (b.timestamp_utc === '')) return a.timestamp_utc === '' ? 1 : -1;
      if (a.timestamp_utc !== b.timestamp_utc) return a.timestamp_utc < b.timestamp_utc ? -1 : 1;
      return a.ord - b.ord;
    };
    const want = rows.map((_, i) => i).sort((a, b) => cmpRows(rows[a], rows[b]));
    const got = recs.map((_, i) => i).sort((a, b) => compareRecords(recs[a].chunk, recs[a].off, recs[b].chunk, recs[b].off));
    expect(got).toEqual(want);
  });

  it('key a timestamp by its digits', () => {
    expect(timeKey('2026-10-01T09:08:07.654Z')).toEqual([20261001, 90807654]);
    expect(timeKey('')[0]).toBe(Number.POSITIVE_INFINITY);
    expect(timeKey('+010000-01-01T00:00:00.000Z')[0]).toBe(Number.NEGATIVE_INFINITY);
  });
  it('hold a text of several 32 Ki-unit pieces exactly: a surrogate pair across a piece boundary, lone surrogates, quotes', () => {
    const P = 1 << 15;
    // A pair whose high half is the last unit of the first piece; a lone high surrogate ending the
    // second; quotes, commas, newlines and control characters throughout.
    const filler = (n: number) => 'a"b,c\n\u0001é😀'.repeat(Math.ceil(n / 10)).slice(0, n);
    let t = `${filler(P - 1)}\ud83d\ude00${filler(P - 3)}\ud800${filler(5000)}`;
    if ((t.charCodeAt(P - 1) & 0xfc00) !== 0xd800) throw new Error('the pair must straddle the piece boundary');
    t += '\udc00 end';
    for (const quoted of [t, t.replace(/[",\n\r]/g, '-')]) {
      const r: TimelineRow = { ...base, text: quoted, source_line: 3 };
      const [{ chunk, off }] = roundTrip([r]);
      const v = newRecordView();
      readRecord(chunk, off, v);
      expect(chunk.subarray(v.json[0], v.json[5]).equals(Buffer.from(jsonLine(r)))).toBe(true);
      expect(chunk.subarray(v.csv[0], v.csv[5]).equals(Buffer.from(csvLine(TIMELINE_COLUMNS.map((c) => r[c] as string | number | null))))).toBe(true);
    }
  });
});

describe('RecordWriter chunks', () => {
  const u = unitText('h', 'u', 'a', 'homes/u/f');
  const write = (rows: number, chunkBytes: number) => {
    const shipped: Buffer[] = [];
    const w = new RecordWriter((c) => shipped.push(c), chunkBytes);
    for (let i = 0; i < rows; i++) w.add({ ...base, text: `row ${i}`, ord: i }, u);
    w.flush();
    return shipped;
  };

  it('ship a mostly empty last chunk as an exact copy: the store counts what each chunk holds', () => {
    // Each shipped chunk is transferred to the main thread and held there by its record
    // store, which counts chunk.length against its memory limit: a 1 MiB buffer shipped for a
    // few records held 1 MiB that the store counted as a few hundred bytes.
    const [few] = write(3, 1 << 20);
    expect(few.byteOffset).toBe(0);
    expect(few.buffer.byteLength).toBe(few.length);
    expect([...recordOffsets(few)]).toHaveLength(3);
  });

  it('hand a released buffer to the next writer, never one a shipped chunk still uses', () => {
    // Job after job on one thread: each writer takes the buffer the last one released. What the
    // earlier jobs shipped (exact copies, or full buffers the writer let go) must not change.
    const shipped: Buffer[] = [];
    const texts: string[] = [];
    for (let job = 0; job < 4; job++) {
      const w = new RecordWriter((c) => shipped.push(c), 4096);
      const rows = job === 2 ? 60 : 3;
      for (let i = 0; i < rows; i++) {
        texts.push(`job ${job} row ${i}`);
        w.add({ ...base, text: `job ${job} row ${i}`, ord: texts.length }, u);
      }
      w.flush();
      w.release();
    }
    const seen = shipped.flatMap((c) => [...recordOffsets(c)].map((off) => { const v = newRecordView(); readRecord(c, off, v); return JSON.parse(c.toString('utf8', v.json[0], v.json[5])).text; }));
    expect(seen).toEqual(texts);
  });

  it('ship a record larger than a chunk as an exact copy of its own, never a buffer written again', () => {
    // Long records are written in a scratch buffer the thread keeps: what was shipped must not
    // change when the next long record is written there. Nothing is copied on receipt here.
    const shipped: Buffer[] = [];
    const w = new RecordWriter((c) => shipped.push(c));
    const texts = ['short 1', 'é'.repeat(200_000), 'short 2', 'x"y'.repeat(150_000), 'short 3', 'z'.repeat(400_000)];
    for (const [i, text] of texts.entries()) w.add({ ...base, text, ord: i }, u);
    w.flush();
    const seen = shipped.flatMap((c) => [...recordOffsets(c)].map((off) => { const v = newRecordView(); readRecord(c, off, v); return JSON.parse(c.toString('utf8', v.json[0], v.json[5])).text; }));
    expect(seen).toEqual(texts);
    // Each long text's record went alone, in a buffer of exactly its size.
    const alone = shipped.filter((c) => [...recordOffsets(c)].length === 1 && c.length > 500_000);
    expect(alone).toHaveLength(3);
    for (const c of alone) expect(c.buffer.byteLength).toBe(c.length);
    expect(new Set(shipped.map((c) => c.buffer)).size).toBe(shipped.length);
  });

  it('ship full chunks in their own buffer, each at least half used, with every record once', () => {
    const chunks = write(400, 4096);
    expect(chunks.length).toBeGreaterThan(5);
    for (const c of chunks) {
      expect(c.byteOffset).toBe(0);
      expect(c.length * 2).toBeGreaterThanOrEqual(Math.min(c.buffer.byteLength, 4096));
    }
    const seen = chunks.flatMap((c) => [...recordOffsets(c)].map((off) => { const v = newRecordView(); readRecord(c, off, v); return c.toString('utf8', v.json[0], v.json[5]); }));
    expect(seen.map((l) => JSON.parse(l).text)).toEqual(Array.from({ length: 400 }, (_, i) => `row ${i}`));
  });
});

describe('utf8Length', () => {
  it('counts what Buffer.write writes, lone surrogates as U+FFFD (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'é', '€', '😀', '\ud800', '\udc00', '\u007f', '\u0080', '\u07ff', '\u0800'), maxLength: 400 }), (s) => {
        expect(utf8Length(s)).toBe(Buffer.from(s, 'utf8').length);
      }),
      { numRuns: 1000 },
    );
  });
});
