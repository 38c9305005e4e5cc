/** Buffers bytes into large writes to a file, one write in flight while the next fills. */
export class ByteWriter {
  private buf: Buffer;
  private pos = 0;
  private inFlight: Promise<unknown> | null = null;

  constructor(
    private readonly write: (b: Buffer) => Promise<unknown>,
    private readonly size = 1 << 20,
  ) {
    this.buf = Buffer.allocUnsafe(size);
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
    return this.put(b, 0, b.length);
  }

  private async putSlow(b: Buffer, start: number, end: number): Promise<void> {
    await this.flush(false);
    if (end - start > this.buf.length) await this.hand(Buffer.from(b.subarray(start, end)));
    else {
      b.copy(this.buf, 0, start, end);
      this.pos = end - start;
    }
  }

  private async hand(b: Buffer): Promise<void> {
    if (this.inFlight) await this.inFlight;
    const p = this.write(b);
    p.catch(() => {});
    this.inFlight = p;
  }

  /** Hand over what is buffered; `wait`: and wait until every write is done. */
  async flush(wait = true): Promise<void> {
    if (this.pos > 0) {
      const full = this.buf.subarray(0, this.pos);
      this.buf = Buffer.allocUnsafe(this.size);
      this.pos = 0;
      await this.hand(full);
    }
    if (wait && this.inFlight) {
      const p = this.inFlight;
      this.inFlight = null;
      await p;
    }
  }
}
