import { createHash } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { open, rename, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { CollectionInfo } from './types.js';
import { centralRecord, checkedName, crc32, dataDescriptor, dosDateTime, endRecords, localHeader, type ZipEntry } from './zip-format.js';

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

/**
 * Members are deflated in independent chunks of this size, several at once on libuv's threads
 * (as pigz does): each chunk is primed with the 32 KiB before it and ends on a sync flush, so the
 * chunks join into one ordinary deflate stream. The first chunk also decides store or deflate.
 */
export const CHUNK_BYTES = 1 << 20;

/** A first chunk that deflates to more than this share of its size is stored, with the rest of its member. */
export const STORE_ABOVE = 15 / 16;

const deflateRaw = promisify(zlib.deflateRaw) as (buf: Buffer, opts: zlib.ZlibOptions) => Promise<Buffer>;
// An empty final block (BFINAL, fixed Huffman, end of block): closes a stream of sync-flushed chunks.
const FINAL_BLOCK = Buffer.from([0x03, 0x00]);
const SYNC_BELOW = 64 * 1024;
const IN_FLIGHT = Math.max(2, Math.min(4, os.availableParallelism?.() ?? os.cpus().length));

/** Writes the collection zip to `<out>.partial`; renamed to `<out>` with a `<out>.sha256` only when complete. */
export class ZipWriter {
  readonly partial: string;
  private readonly file: WriteStream;
  private readonly hash = createHash('sha256');
  private readonly names = new Set<string>();
  private readonly entries: ZipEntry[] = [];
  private readonly level: number;
  private offset = 0;
  private held: Buffer[] = [];
  private heldBytes = 0;
  private queue: Promise<void> = Promise.resolve();
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
  private until<T>(p: Promise<T>): Promise<T> {
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

  /** The compression record of collection.json, over the members written so far. */
  compressionInfo(): NonNullable<CollectionInfo['compression']> {
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

  /** Add a member from a stream; resolves once it is written (members go out one after another). */
  addStream(stream: Readable | AsyncIterable<Buffer>, name: string, mtimeMs: number, mode: number): Promise<void> {
    this.names.add(name);
    const job = this.queue.then(() => this.writeMember(stream, name, mtimeMs, mode));
    this.queue = job.catch(() => {});
    return job;
  }

  /** Add a small in-memory member (collection.json); written in turn, awaited by {@link finish}. */
  addBuffer(buf: Buffer, name: string, mtimeMs: number): void {
    this.addStream(Readable.from([buf]), name, mtimeMs, 0o644).catch((e: Error) => this.fail(e));
  }

  private check(): void {
    if (this.failure) throw this.failure;
  }

  /** Queue bytes for the file (hashed on the way), in ~1 MiB writes; waits when the disk is behind. */
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
    this.held.push(buf);
    this.heldBytes += buf.length;
    if (this.heldBytes >= 1 << 20) await this.flush();
  }

  private async write(data: Buffer): Promise<void> {
    if (!this.file.write(data)) await this.until(new Promise<void>((resolve) => this.file.once('drain', () => resolve())));
    this.check();
  }

  private async flush(): Promise<void> {
    if (this.heldBytes === 0) return;
    const data = this.held.length === 1 ? this.held[0] : Buffer.concat(this.held);
    this.held = [];
    this.heldBytes = 0;
    await this.write(data);
  }

  private async writeMember(stream: Readable | AsyncIterable<Buffer>, name: string, mtimeMs: number, mode: number): Promise<void> {
    this.check();
    const date = zipDate(mtimeMs);
    const e: ZipEntry = { name: checkedName(name), method: 0, known: false, crc: 0, csize: 0, usize: 0, offset: this.offset, ...dosDateTime(date), unixSeconds: Math.floor(date.getTime() / 1000), mode: (mode & 0o777) | 0o100000 };
    const it = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
    const next = async (): Promise<Buffer | undefined> => {
      const r = await this.until(it.next());
      this.check();
      if (r.done) return undefined;
      const b = Buffer.isBuffer(r.value) ? r.value : Buffer.from(r.value);
      e.crc = crc32(b, e.crc);
      e.usize += b.length;
      return b;
    };
    // Whole chunks of at least CHUNK_BYTES (the reader's own pieces joined), and whether the stream ended.
    let ended = false;
    const chunk = async (): Promise<Buffer | undefined> => {
      const parts: Buffer[] = [];
      let n = 0;
      while (n < CHUNK_BYTES) {
        const b = await next();
        if (!b) {
          ended = true;
          break;
        }
        parts.push(b);
        n += b.length;
      }
      return parts.length === 0 ? undefined : parts.length === 1 ? parts[0] : Buffer.concat(parts);
    };
    const first = (await chunk()) ?? Buffer.alloc(0);
    const deflate = (buf: Buffer, dict: Buffer | undefined, last: boolean) => {
      const opts: zlib.ZlibOptions = { level: this.level, finishFlush: last ? zlib.constants.Z_FINISH : zlib.constants.Z_SYNC_FLUSH };
      if (dict) opts.dictionary = dict.subarray(Math.max(0, dict.length - 32768));
      // A small member costs less here than a round trip to the thread pool.
      if (buf.length <= SYNC_BELOW) return Promise.resolve(zlib.deflateRawSync(buf, opts));
      const p = deflateRaw(buf, opts);
      p.catch(() => {});
      return p;
    };
    let firstOut: Buffer | undefined;
    if (this.level > 0 && first.length > 0) {
      firstOut = await this.until(deflate(first, undefined, ended));
      if (firstOut.length <= first.length * STORE_ABOVE) e.method = 8;
    }
    if (ended) {
      // The whole member is in hand: sizes in the local header, no data descriptor.
      const data = e.method === 8 ? firstOut! : first;
      Object.assign(e, { known: true, csize: data.length });
      await this.emit(localHeader(e));
      await this.emit(data);
    } else {
      await this.emit(localHeader(e));
      const put = async (b: Buffer) => {
        e.csize += b.length;
        await this.emit(b);
      };
      if (e.method === 0) {
        await put(first);
        for (let b = await chunk(); b; b = await chunk()) await put(b);
      } else {
        await put(firstOut!);
        const inflight: Promise<Buffer>[] = [];
        let prev = first;
        for (let b = await chunk(); b; b = await chunk()) {
          inflight.push(deflate(b, prev, false));
          prev = b;
          if (inflight.length >= IN_FLIGHT) await put(await this.until(inflight.shift()!));
        }
        while (inflight.length > 0) await put(await this.until(inflight.shift()!));
        await put(FINAL_BLOCK);
      }
      await this.emit(dataDescriptor(e));
    }
    this.entries.push(e);
  }

  /** Finish the zip, flush it to disk, rename it into place and write the `.sha256` sidecar. */
  async finish(): Promise<{ path: string; sha256: string; bytes: number }> {
    await this.queue;
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
