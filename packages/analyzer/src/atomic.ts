import { createWriteStream, type WriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * A file written under a temporary name in its final directory and renamed when complete, so a
 * reader never sees half an output and a failed run leaves the previous output in place.
 */
export class AtomicFile {
  private readonly tmp: string;
  private readonly out: WriteStream;
  private failed: Error | null = null;

  constructor(readonly path: string) {
    this.tmp = join(dirname(path), `.${basename(path)}.${process.pid}.partial`);
    this.out = createWriteStream(this.tmp, { mode: 0o644 });
    this.out.on('error', (e) => {
      this.failed = e;
    });
  }

  /** Write text, waiting when the stream's buffer is full (memory stays bounded). */
  async write(text: string | Uint8Array): Promise<void> {
    if (this.failed) throw this.failed;
    if (!this.out.write(text)) {
      await new Promise<void>((res, rej) => {
        const onDrain = () => {
          this.out.off('error', rej);
          res();
        };
        this.out.once('drain', onDrain);
        this.out.once('error', rej);
      });
    }
  }

  /** Close and rename to the final name. */
  async commit(): Promise<void> {
    await new Promise<void>((res, rej) => this.out.end((e?: Error | null) => (e ? rej(e) : res())));
    if (this.failed) throw this.failed;
    await rename(this.tmp, this.path);
  }

  /** Close and remove the temporary file (on error). */
  async abort(): Promise<void> {
    await new Promise<void>((res) => this.out.end(() => res()));
    await rm(this.tmp, { force: true });
  }
}

/** Write a whole file atomically. */
export async function writeFileAtomic(path: string, text: string): Promise<void> {
  const f = new AtomicFile(path);
  try {
    await f.write(text);
    await f.commit();
  } catch (e) {
    await f.abort();
    throw e;
  }
}
