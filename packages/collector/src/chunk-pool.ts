/**
 * Read buffers lent out and given back once their bytes are on disk or deflated. A 160 MiB
 * collect took a fresh 1 MiB buffer for every read: the 166 MB of new external memory made V8
 * run a full collection about ten times a second (0.25 s of the main thread's time, more on its
 * helper threads). A buffer is ours only while lent: giving back one that is not (a deflate
 * output, a copy, a buffer given back twice) does nothing, and one never given back (a failed
 * member) is left to the garbage collector.
 */
export class ChunkPool {
  private readonly free: Buffer[] = [];
  private readonly lent = new WeakSet<ArrayBuffer>();
  /** Buffers lent and not given back (a failed member's are never given back). */
  out = 0;

  constructor(
    /** Bytes of each buffer. */
    readonly size: number,
    /** Buffers kept for reuse at most (the rest are left to the garbage collector). */
    private readonly keep = 32,
  ) {}

  /** A buffer of {@link size} bytes, lent until {@link give}; its contents are whatever it held before. */
  take(): Buffer {
    const b = this.free.pop() ?? Buffer.allocUnsafeSlow(this.size);
    this.lent.add(b.buffer as ArrayBuffer);
    this.out += 1;
    return b;
  }

  /** Whether `b` (or a view of it) is a lent buffer of this pool. */
  owns(b: Buffer): boolean {
    return this.lent.has(b.buffer as ArrayBuffer);
  }

  /**
   * Give back a lent buffer (or any view of it) once nothing reads it any more: no write or
   * deflate still uses it. Anything else is ignored.
   */
  give(b: Buffer): void {
    const ab = b.buffer as ArrayBuffer;
    if (!this.lent.has(ab)) return;
    this.lent.delete(ab);
    this.out -= 1;
    if (this.free.length < this.keep) this.free.push(Buffer.from(ab, 0, this.size));
  }

  /** Buffers waiting to be lent again. */
  get idle(): number {
    return this.free.length;
  }
}
