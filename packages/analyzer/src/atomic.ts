import { createWriteStream, type WriteStream } from 'node:fs';
import { lstat, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * The temporary name an output has in its folder until the run publishes it: readers later in
 * the same run (the SQLite sink, report.html) read it there. Worker threads share the pid.
 */
export function stagedPath(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.partial`);
}

/**
 * A file written under its staged name ({@link stagedPath}) in its final directory; once closed
 * it waits there for {@link publishOutputs}, which renames a run's outputs together at its very
 * end. A reader never sees half an output, and a run that fails at any point, its last sink
 * included, leaves every earlier output in place rather than a mix of two runs.
 */
export class AtomicFile {
  private readonly tmp: string;
  private readonly out: WriteStream;
  private failed: Error | null = null;

  constructor(readonly path: string) {
    this.tmp = stagedPath(path);
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

  /** Write bytes; resolves once they are written, so the caller may fill the buffer again. */
  writeAll(b: Uint8Array): Promise<void> {
    if (this.failed) return Promise.reject(this.failed);
    return new Promise<void>((res, rej) => {
      this.out.write(b, (e?: Error | null) => (e ? rej(e) : res()));
    });
  }

  /** Close: complete under its staged name, for {@link publishOutputs} to rename. */
  async close(): Promise<void> {
    await new Promise<void>((res, rej) => this.out.end((e?: Error | null) => (e ? rej(e) : res())));
    if (this.failed) throw this.failed;
  }

  /** Close and remove the temporary file (on error). */
  async abort(): Promise<void> {
    await new Promise<void>((res) => this.out.end(() => res()));
    await rm(this.tmp, { force: true });
  }
}

/** Write a whole file under its staged name (see {@link AtomicFile}). */
export async function writeFileStaged(path: string, text: string): Promise<void> {
  const f = new AtomicFile(path);
  try {
    await f.write(text);
    await f.close();
  } catch (e) {
    await f.abort();
    throw e;
  }
}

/** A run's outputs could not be put in place; none of them was. */
export class PublishError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PublishError';
  }
}

/**
 * Put a run's staged outputs in place under their names in `out`, in the order given (so the
 * last named, inventory.json, comes last). First every target is checked: when one cannot take
 * its file (a directory by that name), nothing is renamed, the staged files are removed and a
 * PublishError says which.
 */
export async function publishOutputs(out: string, names: readonly string[]): Promise<void> {
  const staged: string[] = [];
  for (const n of names) {
    const st = await lstat(stagedPath(join(out, n))).catch(() => undefined);
    if (!st) continue;
    const target = await lstat(join(out, n)).catch(() => undefined);
    if (target?.isDirectory()) {
      await discardStaged(out, names);
      throw new PublishError(`cannot put ${join(out, n)} in place: expected a file or nothing there, found a directory; move it away and run again`);
    }
    staged.push(n);
  }
  for (const n of staged) await rename(stagedPath(join(out, n)), join(out, n));
}

/**
 * Remove a run's staged outputs (a failed run), with a rollback journal SQLite may have left
 * beside timeline.sqlite's: the folder keeps what it held before.
 */
export async function discardStaged(out: string, names: readonly string[]): Promise<void> {
  await Promise.all(names.flatMap((n) => [stagedPath(join(out, n)), `${stagedPath(join(out, n))}-journal`]).map((p) => rm(p, { force: true })));
}
