import { createHash } from 'node:crypto';
import { type BigIntStats, constants } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { Transform, type TransformCallback } from 'node:stream';

/** Open flags: read-only, never through a link, never block on a FIFO swapped in after lstat. */
export const SAFE_OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** Linux's O_NOATIME (0 elsewhere): the read then leaves the target's atime as it was. */
export const NOATIME_FLAG = process.platform === 'linux' ? (constants.O_NOATIME ?? 0) : 0;

/**
 * Open a target file with {@link SAFE_OPEN_FLAGS}, first adding O_NOATIME so the collector's own
 * read does not update atime (relatime would); the kernel grants O_NOATIME only to the file's
 * owner or CAP_FOWNER, so on EPERM the open is retried without it, and atime may then change.
 * `openFile` is for tests (an open that refuses O_NOATIME as the kernel would).
 */
export async function openEvidence(fsPath: Buffer | string, openFile: (p: Buffer | string, flags: number) => Promise<FileHandle> = open): Promise<FileHandle> {
  if (NOATIME_FLAG !== 0) {
    try {
      return await openFile(fsPath, SAFE_OPEN_FLAGS | NOATIME_FLAG);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EPERM') throw err;
    }
  }
  return openFile(fsPath, SAFE_OPEN_FLAGS);
}

/** What reading one regular file gave. */
export interface ReadResult {
  /** Set when the file could not be opened or read at all; the row becomes an `error`. */
  error?: string;
  /** A warning for a file that was read (changed while read, read error after some bytes). */
  warning?: string;
  sha256: string;
  bytesRead: number;
}

/** Why an open failed, in words for the manifest. */
export function openErrorReason(err: NodeJS.ErrnoException): string {
  switch (err.code) {
    case 'ENOENT':
      return 'vanished before it could be read (ENOENT)';
    case 'EACCES':
    case 'EPERM':
      return `permission denied (${err.code})`;
    case 'ELOOP':
      return 'became a symbolic link before it could be opened; not followed (ELOOP)';
    case 'EISDIR':
      return 'became a directory before it could be opened (EISDIR)';
    default:
      return `cannot open (${err.code ?? err.message})`;
  }
}

/**
 * Read a regular file once: open it without following links, check it is the file lstat saw,
 * stream its bytes through a hash into `sink` (the zip entry) or nowhere (hash only), and
 * check it again afterwards. The hash and the archived bytes are the same bytes; `observe` sees
 * them too (a project hint's scan), in order.
 */
export async function readRegularFile(
  fsPath: Buffer | string,
  before: BigIntStats,
  sink: ((stream: Transform) => Promise<void>) | undefined,
  observe?: (chunk: Buffer) => void,
): Promise<ReadResult> {
  let fh: FileHandle;
  try {
    fh = await openEvidence(fsPath);
  } catch (err) {
    return { error: openErrorReason(err as NodeJS.ErrnoException), sha256: '', bytesRead: 0 };
  }
  try {
    const atOpen = await fh.stat({ bigint: true });
    if (!atOpen.isFile()) return { error: 'no longer a regular file when opened; not read', sha256: '', bytesRead: 0 };
    const changes: string[] = [];
    if (atOpen.dev !== before.dev || atOpen.ino !== before.ino) changes.push('replaced after listing (device/inode differ)');
    const hash = createHash('sha256');
    let bytesRead = 0;
    const tap = new Transform({
      transform(chunk: Buffer, _enc, cb: TransformCallback) {
        hash.update(chunk);
        bytesRead += chunk.length;
        observe?.(chunk);
        cb(null, chunk);
      },
    });
    let readError: string | undefined;
    // Read at most the size seen at open: a file that grows as fast as it is read would never end.
    if (atOpen.size === 0n) tap.end();
    else {
      const source = fh.createReadStream({ start: 0, end: Number(atOpen.size) - 1, autoClose: false, highWaterMark: 1 << 20 });
      source.on('error', (err: NodeJS.ErrnoException) => {
        // Keep what was read (the archive must stay consistent); the row says where it stopped.
        readError = `read error after ${bytesRead} bytes (${err.code ?? err.message}); the archived copy holds the bytes read`;
        tap.end();
      });
      source.pipe(tap);
    }
    if (sink) await sink(tap);
    else {
      tap.resume();
      await new Promise<void>((resolve, reject) => {
        tap.once('end', () => resolve());
        tap.once('error', reject);
      });
    }
    const after = await fh.stat({ bigint: true });
    if (after.size !== before.size) changes.push(`size ${before.size} → ${after.size}`);
    if (after.mtimeNs !== before.mtimeNs) changes.push('mtime changed');
    if (BigInt(bytesRead) !== before.size) changes.push(`read ${bytesRead} of the ${before.size} bytes listed`);
    else if (after.size > atOpen.size) changes.push(`the ${after.size - atOpen.size} bytes appended while reading were not read`);
    const warnings = [...(changes.length > 0 ? [`changed while read: ${changes.join(', ')}`] : []), ...(readError ? [readError] : [])];
    return { sha256: hash.digest('hex'), bytesRead, ...(warnings.length > 0 ? { warning: warnings.join('; ') } : {}) };
  } finally {
    await fh.close().catch(() => {});
  }
}
