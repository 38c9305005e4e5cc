import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** Characters of held lines kept in memory before the rest go to the spill file. */
const MEMORY_CHARS = 8 << 20;

/** Bytes gathered before one write to the spill file. */
const WRITE_BYTES = 1 << 20;

/**
 * The timeline.jsonl lines duplicates.jsonl shows (the dropped rows and the rows they matched),
 * held from the last pass until duplicates.jsonl is written after it. Their number grows with
 * the input (a 1 GiB corpus drops 23,000 rows: 66 MB of duplicates.jsonl), so past a few MB they
 * are appended to a file in the analysis's temp folder and read back by offset.
 */
export class HeldLines {
  private readonly memory = new Map<number, string>();
  private readonly spilled = new Map<number, { at: number; bytes: number }>();
  private memoryChars = 0;
  private fd = -1;
  private size = 0;
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  /** `dir`: where the spill file goes (the run's temp folder; without one, every line stays in memory); `limitChars`: what stays in memory. */
  constructor(
    private readonly dir: string | undefined,
    private readonly limitChars = MEMORY_CHARS,
  ) {}

  /** Hold `line` for row `ord` (a later call for the same row replaces it). */
  set(ord: number, line: string): void {
    const old = this.memory.get(ord);
    if (old !== undefined) {
      this.memory.delete(ord);
      this.memoryChars -= old.length;
    }
    if (this.dir === undefined || this.memoryChars + line.length <= this.limitChars) {
      this.spilled.delete(ord);
      this.memory.set(ord, line);
      this.memoryChars += line.length;
      return;
    }
    const b = Buffer.from(line, 'utf8');
    this.spilled.set(ord, { at: this.size + this.pendingBytes, bytes: b.length });
    this.pending.push(b);
    this.pendingBytes += b.length;
    if (this.pendingBytes >= WRITE_BYTES) this.flush();
  }

  /** The line held for row `ord`, if any. */
  get(ord: number): string | undefined {
    const m = this.memory.get(ord);
    if (m !== undefined) return m;
    const s = this.spilled.get(ord);
    if (!s) return undefined;
    this.flush();
    const b = Buffer.allocUnsafe(s.bytes);
    let got = 0;
    while (got < s.bytes) {
      const n = readSync(this.fd, b, got, s.bytes - got, s.at + got);
      if (n === 0) throw new Error(`the held-lines file ended at byte ${s.at + got}, expected ${s.at + s.bytes}: the temp folder was changed during the run`);
      got += n;
    }
    return b.toString('utf8');
  }

  /** Close the spill file (the temp folder, and the file with it, is removed by the run). */
  close(): void {
    if (this.fd >= 0) closeSync(this.fd);
    this.fd = -1;
  }

  private flush(): void {
    if (this.pendingBytes === 0) return;
    if (this.fd < 0) this.fd = openSync(join(this.dir!, 'held-lines'), 'w+');
    const b = Buffer.concat(this.pending, this.pendingBytes);
    let put = 0;
    while (put < b.length) put += writeSync(this.fd, b, put, b.length - put, this.size + put);
    this.size += b.length;
    this.pending = [];
    this.pendingBytes = 0;
  }
}
