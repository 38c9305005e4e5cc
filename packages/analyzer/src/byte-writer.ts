/** How a {@link ByteWriter} takes its buffers. */
export interface ByteWriterOptions {
  /** Bytes per buffer (1 MB). */
  size?: number;
  /**
   * The promise `write` returns resolves only once the bytes are written, so the buffer can be
   * filled again. Each new 1 MB buffer was external memory V8 counted towards its next
   * collection: most of the analysis main thread's collections were set off by it.
   */
  reuse?: boolean;
  /** Where a new buffer comes from (a pool of shared ones: report/feed-writer.ts). */
  alloc?: (size: number) => Buffer;
}

/** Buffers bytes into large writes to a file, one write in flight while the next fills. */
export class ByteWriter {
  private buf: Buffer;
  private pos = 0;
  private inFlight: Promise<unknown> | null = null;
  /** Buffers whose write is done, to fill again (when `reuse`). */
  private readonly free: Buffer[] = [];
  private readonly size: number;
  private readonly reuse: boolean;
  private readonly alloc: (size: number) => Buffer;

  constructor(
    private readonly write: (b: Buffer) => Promise<unknown>,
    opts: ByteWriterOptions = {},
  ) {
    this.size = opts.size ?? 1 << 20;
    this.reuse = opts.reuse ?? false;
    this.alloc = opts.alloc ?? Buffer.allocUnsafe;
    this.buf = this.alloc(this.size);
  }

  /** Append `b[start, end)`; the promise resolves when the bytes are buffered or handed over. */
  put(b: Buffer, start: number, end: number): Promise<void> | undefined {
    const n = end - start;
    if (this.pos + n <= this.buf.length) {
      b.copy(this.buf, this.pos, start, end);
      this.pos += n;
      return undefined;
    }
    return this.putSlow(b, start, end);
  }

  /** Append text as UTF-8, written straight into the buffer when it surely fits (no copy of its own). */
  putString(s: string): Promise<void> | undefined {
    if (this.pos + 3 * s.length <= this.buf.length) {
      this.pos += this.buf.write(s, this.pos, 'utf8');
      return undefined;
    }
    return this.putText(s);
  }

  /** Append text as UTF-8. */
  putText(s: string): Promise<void> | undefined {
    const b = Buffer.from(s, 'utf8');
    // Larger than the buffer: handed over as it is (it is ours), not copied again.
    return b.length > this.size ? this.putSlow(b, 0, b.length, true) : this.put(b, 0, b.length);
  }

  private async putSlow(b: Buffer, start: number, end: number, owned = false): Promise<void> {
    await this.flush(false);
    if (end - start > this.buf.length) {
      if (owned || !this.reuse) await this.hand(owned ? b.subarray(start, end) : Buffer.from(b.subarray(start, end)));
      else {
        // `write` is done with the bytes when its promise resolves (reuse): the caller's own are
        // written, and this waits for it, rather than a copy made. A copy of a long row's line was
        // fresh memory, faulted in page by page: 54 MB on the main thread at 160 MiB.
        await this.hand(b.subarray(start, end));
        await this.inFlight;
        this.inFlight = null;
      }
    } else {
      b.copy(this.buf, 0, start, end);
      this.pos = end - start;
    }
  }

  private async hand(b: Buffer, whole?: Buffer): Promise<void> {
    if (this.inFlight) await this.inFlight;
    const p = this.write(b);
    p.catch(() => {});
    if (whole && this.reuse) {
      const done = p.then(() => {
        this.free.push(whole);
      });
      done.catch(() => {});
      this.inFlight = done;
    } else this.inFlight = p;
  }

  /** Hand over what is buffered; `wait`: and wait until every write is done. */
  async flush(wait = true): Promise<void> {
    if (this.pos > 0) {
      const whole = this.buf;
      const full = whole.subarray(0, this.pos);
      this.buf = this.free.pop() ?? this.alloc(this.size);
      this.pos = 0;
      await this.hand(full, whole);
    }
    if (wait && this.inFlight) {
      const p = this.inFlight;
      this.inFlight = null;
      await p;
    }
  }
}
