import { createHash } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { open, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { type Readable, Transform, type TransformCallback } from 'node:stream';
import yazl from 'yazl';

// Zip entry dates are DOS dates: 1980..2107. Real times live in the manifest.
const DOS_MIN = Date.UTC(1980, 0, 1, 12);
const DOS_MAX = Date.UTC(2107, 11, 31);

/** Clamp a time into the DOS date range a zip header can hold. */
export function zipDate(ms: number): Date {
  return new Date(Number.isFinite(ms) ? Math.min(Math.max(ms, DOS_MIN), DOS_MAX) : DOS_MIN);
}

/** Writes the collection zip to `<out>.partial`; renamed to `<out>` with a `<out>.sha256` only when complete. */
export class ZipWriter {
  readonly partial: string;
  private readonly zip = new yazl.ZipFile();
  private readonly file: WriteStream;
  private readonly hash = createHash('sha256');
  private readonly names = new Set<string>();
  private failure: Error | undefined;
  private readonly failed: Promise<never>;
  private readonly closed: Promise<void>;
  /** Stop the run now (a signal): pending and later adds reject with this error. */
  readonly fail: (err: Error) => void;

  private constructor(readonly out: string) {
    this.partial = `${out}.partial`;
    // 'wx': never overwrite; a stale .partial from a killed run must be looked at, not clobbered.
    this.file = createWriteStream(this.partial, { flags: 'wx' });
    // yazl writes many small chunks (headers, descriptors): coalesce them into ~1 MiB writes.
    const hash = this.hash;
    let held: Buffer[] = [];
    let heldBytes = 0;
    const tap = new Transform({
      transform(chunk: Buffer, _enc, cb: TransformCallback) {
        hash.update(chunk);
        held.push(chunk);
        heldBytes += chunk.length;
        if (heldBytes >= 1 << 20) {
          this.push(Buffer.concat(held));
          held = [];
          heldBytes = 0;
        }
        cb();
      },
      flush(cb: TransformCallback) {
        if (heldBytes > 0) this.push(Buffer.concat(held));
        cb();
      },
    });
    this.zip.outputStream.pipe(tap).pipe(this.file);
    let reject!: (err: Error) => void;
    this.failed = new Promise<never>((_res, rej) => {
      reject = rej;
    });
    this.failed.catch(() => {});
    const fail = (err: Error) => {
      if (!this.failure) {
        this.failure = err.name === 'AbortError' ? err : new Error(`cannot write ${this.partial}: ${err.message}`);
        reject(this.failure);
      }
    };
    this.fail = fail;
    this.file.on('error', fail);
    this.zip.outputStream.on('error', fail);
    this.closed = new Promise((resolve) => this.file.on('close', () => resolve()));
  }

  /** Start writing `<out>.partial`; fails when it cannot be created. */
  static async create(out: string): Promise<ZipWriter> {
    const w = new ZipWriter(out);
    await Promise.race([new Promise<void>((resolve) => w.file.once('open', () => resolve())), w.failed]);
    const st = await stat(w.partial, { bigint: true });
    w.identity = `${st.dev}:${st.ino}`;
    return w;
  }

  /** `dev:ino` of the `.partial`, so a walk that meets the archive being written can skip it. */
  identity = '';

  /**
   * yazl looks for its next entry from the start of its list on every pump: O(n²) over a
   * collection. Entries whose data is written (state FILE_DATA_DONE = 3) are parked here and
   * put back, in order, before end() writes the central directory.
   */
  private parked: unknown[] = [];

  private park(): void {
    const z = this.zip as unknown as { entries: { state: number }[] };
    let k = 0;
    while (k < z.entries.length && z.entries[k].state >= 3) k += 1;
    if (k === 0) return;
    for (const e of z.entries.splice(0, k)) this.parked.push(e);
  }

  /** A member name not used yet: `name`, else `name~2`, `name~3`, ... */
  uniqueName(name: string): string {
    let n = name;
    for (let i = 2; this.names.has(n); i += 1) n = `${name}~${i}`;
    this.names.add(n);
    return n;
  }

  /** Add a member from a stream; resolves when yazl has consumed it, rejects if the output failed. */
  async addStream(stream: Readable, name: string, mtimeMs: number, mode: number): Promise<void> {
    if (this.failure) throw this.failure;
    this.names.add(name);
    this.park();
    const consumed = new Promise<void>((resolve, reject) => {
      stream.once('end', () => resolve());
      stream.once('error', reject);
    });
    this.zip.addReadStream(stream, name, { mtime: zipDate(mtimeMs), mode: (mode & 0o777) | 0o100000, compress: true });
    await Promise.race([consumed, this.failed]);
  }

  /** Add a small in-memory member (manifest, collection.json). */
  addBuffer(buf: Buffer, name: string, mtimeMs: number): void {
    this.names.add(name);
    this.zip.addBuffer(buf, name, { mtime: zipDate(mtimeMs), compress: true });
  }

  /** Finish the zip, flush it to disk, rename it into place and write the `.sha256` sidecar. */
  async finish(): Promise<{ path: string; sha256: string; bytes: number }> {
    const z = this.zip as unknown as { entries: unknown[] };
    z.entries = this.parked.concat(z.entries);
    this.parked = [];
    this.zip.end();
    await Promise.race([this.closed, this.failed]);
    if (this.failure) throw this.failure;
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
    this.file.destroy();
    this.zip.outputStream.unpipe();
    await rm(this.partial, { force: true });
  }
}
