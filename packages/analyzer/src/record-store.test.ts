import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { compareRecords, RecordWriter, recordLength, unitText } from './record.js';
import { RecordStore } from './record-store.js';
import type { TimelineRow } from './row.js';
import { keyOf, maxOverlap, type RunInfo } from './runs.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const base: TimelineRow = { timestamp_utc: '', host: 'h', user: 'u', agent: 'a', session_id: 's', project_path: '', git_branch: '', model: '', turn_type: 'user', tool_name: '', tool_use_id: '', text: '', source_file: 'f', source_line: 1, ord: 0 };
const u = unitText('h', 'u', 'a', 'f');

/** Rows into record chunks of about `chunkBytes`. */
function chunksOf(rows: TimelineRow[], chunkBytes: number): { chunk: Buffer; n: number }[] {
  const out: { chunk: Buffer; n: number }[] = [];
  const w = new RecordWriter((chunk, n) => out.push({ chunk: Buffer.from(chunk), n }), chunkBytes);
  for (const r of rows) w.add(r, u);
  w.flush();
  return out;
}

async function mergeAll(store: RecordStore): Promise<Buffer[]> {
  const got: Buffer[] = [];
  await store.merge((b, off) => {
    got.push(Buffer.from(b.subarray(off, off + recordLength(b, off))));
    return undefined;
  });
  return got;
}

const stamp = fc.oneof(fc.constant(''), fc.constant('+010000-01-01T00:00:00.000Z'), fc.integer({ min: 0, max: 5000 }).map((s) => new Date(Date.UTC(2026, 0, 1) + s * 1000).toISOString()));

describe('RecordStore', () => {
  it.each([
    ['runs as they are', Number.POSITIVE_INFINITY],
    ['deflated runs', 0],
  ])('hands every record back in timeline order whatever the spills and merge passes (%s, property)', async (_label, rawSpillBytes) => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(stamp, fc.string({ maxLength: 300 })), { minLength: 1, maxLength: 120 }), fc.integer({ min: 200, max: 3000 }), fc.integer({ min: 2, max: 5 }), fc.integer({ min: 1, max: 6000 }), async (spec, chunkBytes, fanIn, memoryBytes) => {
        const dir = mkdtempSync(join(tmpdir(), 'aitrail-store-'));
        dirs.push(dir);
        const rows = spec.map(([ts, text], i) => ({ ...base, timestamp_utc: ts, text, ord: i }));
        const store = new RecordStore(dir, { memoryBytes, fanIn, rawSpillBytes });
        const all: Buffer[] = [];
        for (const { chunk, n } of chunksOf(rows, chunkBytes)) {
          for (let off = 0; off < chunk.length; off += recordLength(chunk, off)) all.push(Buffer.from(chunk.subarray(off, off + recordLength(chunk, off))));
          await store.add(chunk, n);
        }
        const got = await mergeAll(store);
        const want = all.sort((a, b) => compareRecords(a, 0, b, 0));
        expect(got.length).toBe(want.length);
        expect(got.every((g, i) => g.equals(want[i]))).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it('reads runs that follow each other one after the other: no merge pass even past the fan-in', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aitrail-store-'));
    dirs.push(dir);
    const rows = Array.from({ length: 400 }, (_, i) => ({ ...base, text: `line ${i}`, ord: i }));
    const store = new RecordStore(dir, { memoryBytes: 1, fanIn: 2 });
    for (const { chunk, n } of chunksOf(rows, 2000)) await store.add(chunk, n);
    expect(store.runCount).toBeGreaterThan(10);
    const got = await mergeAll(store);
    expect(got.map((b) => b.readDoubleLE(20))).toEqual(rows.map((r) => r.ord));
    expect(readdirSync(dir).filter((n) => n.startsWith('merge-'))).toEqual([]);
  });

  it('counts overlapping key ranges', () => {
    const rec = (ord: number, ts = '') => chunksOf([{ ...base, timestamp_utc: ts, ord }], 1 << 16)[0].chunk;
    const run = (a: number, b: number): RunInfo => ({ path: '', deflated: false, first: rec(a), last: rec(b) });
    expect(maxOverlap([run(0, 9), run(10, 19), run(20, 29)])).toBe(1);
    expect(maxOverlap([run(0, 15), run(10, 19), run(12, 29)])).toBe(3);
    expect(maxOverlap([run(0, 10), run(10, 19)])).toBe(2);
    expect(keyOf(rec(5)).ord).toBe(5);
  });
});
