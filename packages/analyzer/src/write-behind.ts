import type { AtomicFile } from './atomic.js';

/**
 * Writes to an {@link AtomicFile} without waiting for each write to drain: the next chunk is
 * built while the previous one is written, and at most one write is in flight (memory stays
 * bounded by two chunks). {@link flush} waits for it and reports its error.
 */
export class WriteBehind {
  private pending: Promise<void> | null = null;

  constructor(private readonly file: AtomicFile) {}

  /** Wait for the write in flight, then start writing `text`. */
  async write(text: string): Promise<void> {
    await this.flush();
    const p = this.file.write(text);
    // Handled here so a failure while no one awaits is not an unhandled rejection; flush() rethrows it.
    p.catch(() => {});
    this.pending = p;
  }

  /** Wait for the write in flight. */
  async flush(): Promise<void> {
    const p = this.pending;
    this.pending = null;
    if (p) await p;
  }
}
