import { createHash } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { open, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import { DeflatePool } from './deflate-pool.js';
import type { CollectionInfo } from './types.js';
import { centralRecord, checkedName, dataDescriptor, dosDateTime, endRecords, localHeader, type ZipEntry } from './zip-format.js';
import { CHUNK_BYTES, chunkPool, type IntakeHost, MEMBER_WEIGHT, type Member, READ_AHEAD_BYTES, STORE_ABOVE, signal, takeIn, waitFor } from './zip-member.js';

export { CHUNK_BYTES, READ_AHEAD_BYTES, STORE_ABOVE } from './zip-member.js';

// Zip entry dates are DOS dates: 1980..2107. Real times live in the manifest.
const DOS_MIN = Date.UTC(1980, 0, 1, 12);
const DOS_MAX = Date.UTC(2107, 11, 31);

/** Clamp a time into the DOS date range a zip header can hold. */
export function zipDate(ms: number): Date {
  return new Date(Number.isFinite(ms) ? Math.min(Math.max(ms, DOS_MIN), DOS_MAX) : DOS_MIN);
}

/** How archive members are compressed (`--compression`). */
export const COMPRESSIONS = ['fast', 'standard', 'best', 'store'] as const;

/** One of {@link COMPRESSIONS}. */
export type Compression = (typeof COMPRESSIONS)[number];

/** The deflate level of each choice; 0 stores. */
export const COMPRESSION_LEVEL: Record<Compression, number> = { fast: 1, standard: 6, best: 9, store: 0 };

/** The stage for small writes: the ~1 MiB gathered plus one piece under 64 KiB. */
const STAGE_BYTES = (1 << 20) + (1 << 16);

// An empty final block (BFINAL, fixed Huffman, end of block): closes a stream of sync-flushed chunks.
const FINAL_BLOCK = Buffer.from([0x03, 0x00]);

/** Writes the collection zip to `<out>.partial`; renamed to `<out>` with a `<out>.sha256` only when complete. */
export class ZipWriter implements IntakeHost {
  readonly partial: string;
  private readonly file: WriteStream;
  private readonly hash = createHash('sha256');
  private readonly names = new Set<string>();
  private readonly entries: ZipEntry[] = [];
  readonly level: number;
  private offset = 0;
  /**
   * Headers and small members, copied in until ~1 MiB is gathered for one write. Copied rather
   * than held: each small buffer is a slice of one of Node's shared 8 KiB pool blocks, and held
   * ones kept their whole blocks alive (tens of MB over thousands of small files).
   */
  private stage = Buffer.allocUnsafeSlow(STAGE_BYTES);
  private heldBytes = 0;
  private intakes: Promise<void> = Promise.resolve();
  private outputs: Promise<void> = Promise.resolve();
  readonly pool = new DeflatePool();
  private pending = 0;
  private readonly roomWaiters = new Set<() => void>();
  private failure: Error | undefined;
  private readonly onFail = new Set<(err: Error) => void>();
  /** Stop the run now (a signal): pending and later adds reject with this error. */
  readonly fail: (err: Error) => void;

  private constructor(
    readonly out: string,
    readonly compression: Compression,
  ) {
    this.partial = `${out}.partial`;
    this.level = COMPRESSION_LEVEL[compression];
    // 'wx': never overwrite; a stale .partial from a killed run must be looked at, not clobbered.
    this.file = createWriteStream(this.partial, { flags: 'wx' });
    this.fail = (err: Error) => {
      if (!this.failure) {
        this.failure = err.name === 'AbortError' ? err : new Error(`cannot write ${this.partial}: ${err.message}`);
        for (const f of this.onFail) f(this.failure);
        this.onFail.clear();
      }
    };
    this.file.on('error', this.fail);
  }

  /**
   * `p`, or the failure if the run fails first. Not a race against one long-lived promise: each
   * such race leaves a reaction on it that holds its result (a chunk) until the run ends.
   */
  until<T>(p: Promise<T>): Promise<T> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise<T>((resolve, reject) => {
      this.onFail.add(reject);
      p.then(
        (v) => {
          this.onFail.delete(reject);
          resolve(v);
        },
        (e: unknown) => {
          this.onFail.delete(reject);
          reject(e);
        },
      );
    });
  }

  /** Start writing `<out>.partial`; fails when it cannot be created. */
  static async create(out: string, compression: Compression = 'fast'): Promise<ZipWriter> {
    const w = new ZipWriter(out, compression);
    await w.until(new Promise<void>((resolve) => w.file.once('open', () => resolve())));
    const st = await stat(w.partial, { bigint: true });
    w.identity = `${st.dev}:${st.ino}`;
    return w;
  }

  /** `dev:ino` of the `.partial`, so a walk that meets the archive being written can skip it. */
  identity = '';

  /** The compression record of collection.json, over every member added so far (once they are written). */
  async compressionInfo(): Promise<NonNullable<CollectionInfo['compression']>> {
    await this.intakes;
    await this.outputs;
    this.check();
    const deflated = this.entries.filter((e) => e.method === 8).length;
    return { choice: this.compression, level: this.level, chunk_bytes: CHUNK_BYTES, store_above: STORE_ABOVE, stored_members: this.entries.length - deflated, deflated_members: deflated };
  }

  /** A member name not used yet: `name`, else `name~2`, `name~3`, ... */
  uniqueName(name: string): string {
    let n = name;
    for (let i = 2; this.names.has(n); i += 1) n = `${name}~${i}`;
    this.names.add(n);
    return n;
  }

  /**
   * Add a member from a stream; resolves once the stream is taken in (read, checked, its deflate
   * started), while the member is written in turn behind the ones added before it. A failure
   * while writing fails the run: later adds and {@link finish} reject.
   */
  addStream(stream: Readable | AsyncIterable<Buffer>, name: string, mtimeMs: number, mode: number): Promise<void> {
    this.names.add(name);
    const job = this.intakes.then(() => this.intake(stream, name, mtimeMs, mode));
    this.intakes = job.catch(() => {});
    return job;
  }

  /** Add a small in-memory member (collection.json); written in turn, awaited by {@link finish}. */
  addBuffer(buf: Buffer, name: string, mtimeMs: number): void {
    this.addStream(Readable.from([buf]), name, mtimeMs, 0o644).catch((e: Error) => this.fail(e));
  }

  /** Throws the run's failure, if any. */
  check(): void {
    if (this.failure) throw this.failure;
  }

  /**
   * Queue bytes for the file (hashed on the way), in ~1 MiB writes; waits when the disk is behind.
   * A buffer lent by {@link chunkPool} is given back once written (or copied into the stage).
   */
  private async emit(buf: Buffer): Promise<void> {
    this.check();
    if (buf.length === 0) return;
    this.hash.update(buf);
    this.offset += buf.length;
    // Headers and small members are gathered into ~1 MiB writes; large pieces go out as they are.
    if (buf.length >= 1 << 16) {
      await this.flush();
      await this.write(buf);
      return;
    }
    if (this.heldBytes + buf.length > this.stage.length) await this.flush();
    buf.copy(this.stage, this.heldBytes);
    if (chunkPool.owns(buf)) chunkPool.give(buf);
    this.heldBytes += buf.length;
    if (this.heldBytes >= 1 << 20) await this.flush();
  }

  private async write(data: Buffer): Promise<void> {
    // Given back when the write is done (or failed): until then libuv reads it.
    const lent = chunkPool.owns(data);
    if (!this.file.write(data, lent ? () => chunkPool.give(data) : undefined)) await this.until(new Promise<void>((resolve) => this.file.once('drain', () => resolve())));
    this.check();
  }

  private async flush(): Promise<void> {
    if (this.heldBytes === 0) return;
    // A fresh stage: libuv reads this one until the write is done.
    const data = this.stage.subarray(0, this.heldBytes);
    this.stage = Buffer.allocUnsafeSlow(STAGE_BYTES);
    this.heldBytes = 0;
    await this.write(data);
  }

  /** Wait until the raw bytes taken in but not written are under {@link READ_AHEAD_BYTES}. */
  async room(): Promise<void> {
    while (this.pending > READ_AHEAD_BYTES) {
      await this.until(new Promise<void>((resolve) => this.roomWaiters.add(resolve)));
    }
  }

  /** Count raw bytes taken in, not yet written. */
  taken(raw: number): void {
    this.pending += raw;
  }

  private written(raw: number): void {
    this.pending -= raw;
    if (this.pending > READ_AHEAD_BYTES) return;
    for (const w of this.roomWaiters) w();
    this.roomWaiters.clear();
  }

  /** Read a member's stream into chunks and start their deflate; its output is queued first, in turn. */
  private async intake(stream: Readable | AsyncIterable<Buffer>, name: string, mtimeMs: number, mode: number): Promise<void> {
    this.check();
    const date = zipDate(mtimeMs);
    const e: ZipEntry = { name: checkedName(name), method: 0, known: false, crc: 0, csize: 0, usize: 0, offset: 0, ...dosDateTime(date), unixSeconds: Math.floor(date.getTime() / 1000), mode: (mode & 0o777) | 0o100000 };
    const m: Member = { e, pieces: [], done: false };
    const out = this.outputs.then(() => this.output(m));
    this.outputs = out.catch((err: Error) => this.fail(err));
    try {
      await takeIn(this, stream, m);
    } catch (err) {
      m.error = err as Error;
      throw err;
    } finally {
      m.done = true;
      signal(m);
    }
  }

  /** Write one member: header, data, and the data descriptor of a streamed one. */
  private async output(m: Member): Promise<void> {
    const e = m.e;
    const until = <T>(p: Promise<T>) => this.until(p);
    await waitFor(m, () => m.first !== undefined, until);
    if (m.error || !m.first) throw m.error ?? new Error(`no data for ${e.name.toString('utf8')}`);
    const { raw, whole } = m.first;
    const firstOut = m.first.out ? await this.until(m.first.out) : undefined;
    m.first = undefined;
    if (firstOut && firstOut.length <= raw.length * STORE_ABOVE) {
      e.method = 8;
      // Its deflate is done and its tail copied: the chunk as read is not needed any more.
      chunkPool.give(raw);
    }
    e.offset = this.offset;
    if (whole) {
      // The whole member is in hand: sizes in the local header, no data descriptor.
      const data = e.method === 8 ? firstOut! : raw;
      Object.assign(e, { known: true, csize: data.length });
      await this.emit(localHeader(e));
      await this.emit(data);
      this.written(raw.length);
    } else {
      await this.emit(localHeader(e));
      const put = async (b: Buffer, rawBytes: number) => {
        e.csize += b.length;
        await this.emit(b);
        this.written(rawBytes);
      };
      await put(e.method === 8 ? firstOut! : raw, raw.length);
      for (let i = 0; ; i += 1) {
        await waitFor(m, () => i < m.pieces.length, until);
        if (m.error) throw m.error;
        const p = m.pieces[i];
        if (!p) break;
        m.pieces[i] = undefined;
        await put(await this.until(p.data), p.raw);
      }
      if (e.method === 8) await put(FINAL_BLOCK, 0);
      await this.emit(dataDescriptor(e));
    }
    this.written(MEMBER_WEIGHT);
    this.entries.push(e);
  }

  /** Finish the zip, flush it to disk, rename it into place and write the `.sha256` sidecar. */
  async finish(): Promise<{ path: string; sha256: string; bytes: number }> {
    await this.intakes;
    await this.outputs;
    this.check();
    const cdOffset = this.offset;
    for (const e of this.entries) await this.emit(centralRecord(e));
    await this.emit(endRecords(this.entries.length, cdOffset, this.offset - cdOffset));
    await this.flush();
    await this.until(new Promise<void>((resolve) => this.file.end(() => resolve())));
    this.check();
    const fh = await open(this.partial, 'r+');
    let bytes = 0;
    try {
      await fh.sync();
      bytes = (await fh.stat()).size;
    } finally {
      await fh.close();
    }
    const sha256 = this.hash.digest('hex');
    await rename(this.partial, this.out);
    await writeFile(`${this.out}.sha256`, `${sha256}  ${basename(this.out)}\n`, { flag: 'wx' });
    return { path: this.out, sha256, bytes };
  }

  /** Stop writing and delete the `.partial`: nothing that looks complete is left. */
  async abort(): Promise<void> {
    this.fail(Object.assign(new Error('aborted'), { name: 'AbortError' }));
    this.file.destroy();
    await rm(this.partial, { force: true });
  }
}
