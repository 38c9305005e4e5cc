import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RecordWriter, recordLength, unitText } from './record.js';
import type { TimelineRow } from './row.js';
import { blockRoom, RunWriter, runCursor } from './runs.js';

const dir = mkdtempSync(join(tmpdir(), 'aitrail-runs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const base: TimelineRow = { timestamp_utc: '', host: 'h', user: 'u', agent: 'a', session_id: 's', project_path: '', git_branch: '', model: '', turn_type: 'user', tool_name: '', tool_use_id: '', text: '', source_file: 'f', source_line: 1, ord: 0 };

/** Records of rows whose texts run from a few bytes to several blocks, in order. */
function records(): Buffer[] {
  const out: Buffer[] = [];
  const w = new RecordWriter((chunk) => {
    for (let off = 0; off < chunk.length; off += recordLength(chunk, off)) out.push(Buffer.from(chunk.subarray(off, off + recordLength(chunk, off))));
  }, 1 << 16);
  const sizes = [5, 300, 40, 700, 2500, 90, 9000, 10, 600, 20000, 1, 450, 3000, 60];
  for (let i = 0; i < 400; i++) w.add({ ...base, ord: i, text: `${i}:`.padEnd(sizes[i % sizes.length], String.fromCharCode(97 + (i % 26))) }, unitText('h', 'u', 'a', 'f'));
  w.flush();
  return out;
}

describe('runCursor', () => {
  it.each([
    ['plain', false],
    ['deflated', true],
  ])('hands out every record of a %s run whole, and never writes over bytes it handed out', async (_label, deflated) => {
    const want = records();
    const path = join(dir, `run-${deflated}`);
    const w = await RunWriter.create(path, deflated);
    for (const r of want) await w.put(r, 0, r.length);
    const run = await w.close(want[0], want[want.length - 1]);
    // Blocks of 4 KB: records cut by a block's end, shorter than its room (512 bytes), longer than
    // it, and longer than several blocks.
    expect(blockRoom(4096)).toBe(512);
    const c = await runCursor(run, 4096);
    expect(c).not.toBeNull();
    // Views kept, as the copy rule keeps the rows of the current millisecond, read only at the end.
    const views: Buffer[] = [];
    for (let more = true; more; ) {
      views.push(c!.buf.subarray(c!.off, c!.off + recordLength(c!.buf, c!.off)));
      const n = c!.next();
      more = typeof n === 'boolean' ? n : await n;
    }
    expect(views.length).toBe(want.length);
    const bad = views.findIndex((v, i) => !v.equals(want[i]));
    expect(bad).toBe(-1);
  });
});
