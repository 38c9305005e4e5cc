import { createHash } from 'node:crypto';
import { type BigIntStats, closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { CHUNK_BYTES, chunkPool } from './zip-member.js';

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
 * hash its bytes and hand them to `sink` (the zip entry) or nowhere (hash only), and check it
 * again afterwards. The hash and the archived bytes are the same bytes; `observe` sees them too
 * (a project hint's scan), in order, before `sink` does. The sink gets chunks of exactly
 * {@link CHUNK_BYTES} but the last; the whole ones are lent by {@link chunkPool}, and the sink
 * gives each back once nothing reads it any more (the next chunk is read meanwhile).
 */
export async function readRegularFile(
  fsPath: Buffer | string,
  before: BigIntStats,
  sink: ((chunks: AsyncIterable<Buffer>) => Promise<void>) | undefined,
  observe?: (chunk: Buffer) => void,
): Promise<ReadResult> {
  if (before.size <= BigInt(SYNC_READ_BYTES)) {
    const small = await readSmallFile(fsPath, before, sink, observe);
    if (small) return small;
  }
  let fh: FileHandle;
  try {
    fh = await openEvidence(fsPath);
  } catch (err) {
    return { error: openErrorReason(err as NodeJS.ErrnoException), sha256: '', bytesRead: 0 };
  }
  try {
    const atOpen = await fh.stat({ bigint: true });
    if (!atOpen.isFile()) return { error: 'no longer a regular file when opened; not read', sha256: '', bytesRead: 0 };
    const hash = createHash('sha256');
    let bytesRead = 0;
    let readError: string | undefined;
    // Read at most the size seen at open: a file that grows as fast as it is read would never end.
    const chunks = readChunks(fh, Number(atOpen.size), (chunk) => {
      hash.update(chunk);
      bytesRead += chunk.length;
      observe?.(chunk);
    }, (err) => {
      // Keep what was read (the archive must stay consistent); the row says where it stopped.
      readError = `read error after ${bytesRead} bytes (${err.code ?? err.message}); the archived copy holds the bytes read`;
    });
    if (sink) await sink(chunks);
    else for await (const c of chunks) chunkPool.give(c);
    return readOutcome(before, atOpen, await fh.stat({ bigint: true }), bytesRead, readError, hash.digest('hex'));
  } finally {
    await fh.close().catch(() => {});
  }
}

/**
 * The result of a read, from the file's lstat when listed, its fstat when opened and after the
 * read: what changed meanwhile, and a read error, become the row's warning.
 */
export function readOutcome(before: BigIntStats, atOpen: BigIntStats, after: BigIntStats, bytesRead: number, readError: string | undefined, sha256: string): ReadResult {
  const changes: string[] = [];
  if (atOpen.dev !== before.dev || atOpen.ino !== before.ino) changes.push('replaced after listing (device/inode differ)');
  if (after.size !== before.size) changes.push(`size ${before.size} → ${after.size}`);
  if (after.mtimeNs !== before.mtimeNs) changes.push('mtime changed');
  if (BigInt(bytesRead) !== before.size) changes.push(`read ${bytesRead} of the ${before.size} bytes listed`);
  else if (after.size > atOpen.size) changes.push(`the ${after.size - atOpen.size} bytes appended while reading were not read`);
  const warnings = [...(changes.length > 0 ? [`changed while read: ${changes.join(', ')}`] : []), ...(readError ? [readError] : [])];
  return { sha256, bytesRead, ...(warnings.length > 0 ? { warning: warnings.join('; ') } : {}) };
}

/**
 * The first `size` bytes of `fh` (fewer if it ends sooner or a read fails: `failed` says why) in
 * chunks of {@link CHUNK_BYTES} but the last, each seen by `seen` before it is yielded;
 * the next chunk's read runs while the consumer works on the one yielded.
 */
async function* readChunks(fh: FileHandle, size: number, seen: (chunk: Buffer) => void, failed: (err: NodeJS.ErrnoException) => void): AsyncGenerator<Buffer> {
  let pos = 0;
  let over = size === 0;
  const fill = async (): Promise<Buffer | undefined> => {
    if (over) return undefined;
    const want = Math.min(CHUNK_BYTES, size - pos);
    // Only whole chunks are pooled: a small file held 1 MiB until written, and thousands of them
    // fit in the read-ahead (which counts the bytes read).
    const buf = want === CHUNK_BYTES ? chunkPool.take() : Buffer.allocUnsafe(want);
    let got = 0;
    try {
      while (got < want) {
        const { bytesRead } = await fh.read(buf, got, want - got, pos + got);
        if (bytesRead === 0) break;
        got += bytesRead;
      }
    } catch (err) {
      failed(err as NodeJS.ErrnoException);
      over = true;
    }
    pos += got;
    // A short read is the end of a file that shrank meanwhile (the row's checks say so).
    if (got < want || pos >= size) over = true;
    if (got > 0) return got === buf.length ? buf : buf.subarray(0, got);
    chunkPool.give(buf);
    return undefined;
  };
  let next = fill();
  try {
    for (let cur = await next; cur; cur = await next) {
      next = fill();
      seen(cur);
      yield cur;
    }
  } finally {
    // A consumer that stopped early: the read in flight still ends (and is given back) before the close.
    const left = await next.catch(() => undefined);
    if (left) chunkPool.give(left);
  }
}

/**
 * Files listed at this size or less are read with synchronous calls. Each await on libuv's pool
 * (lstat, open, fstat, read, fstat, close) cost more than the call itself: a home of 10,000 small
 * session files spent most of its collect between them. The calls, flags and checks are those
 * of the streamed read; a file that grew past this by the time it is opened is streamed.
 */
export const SYNC_READ_BYTES = 256 * 1024;

/** {@link openEvidence}, synchronous: O_NOATIME first, retried without it on EPERM (`openFile` is for tests). */
export function openEvidenceSync(fsPath: Buffer | string, openFile: (p: Buffer | string, flags: number) => number = openSync): number {
  if (NOATIME_FLAG !== 0) {
    try {
      return openFile(fsPath, SAFE_OPEN_FLAGS | NOATIME_FLAG);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EPERM') throw err;
    }
  }
  return openFile(fsPath, SAFE_OPEN_FLAGS);
}

/**
 * A small file read as readRegularFile reads it, with synchronous calls: the bytes seen at open
 * in one buffer, hashed, seen by `observe`, then handed to `sink`. Undefined when the open file
 * is larger than {@link SYNC_READ_BYTES} (then it is closed and streamed instead).
 */
export async function readSmallFile(
  fsPath: Buffer | string,
  before: BigIntStats,
  sink: ((chunks: AsyncIterable<Buffer>) => Promise<void>) | undefined,
  observe?: (chunk: Buffer) => void,
): Promise<ReadResult | undefined> {
  let fd: number;
  try {
    fd = openEvidenceSync(fsPath);
  } catch (err) {
    return { error: openErrorReason(err as NodeJS.ErrnoException), sha256: '', bytesRead: 0 };
  }
  try {
    const atOpen = fstatSync(fd, { bigint: true });
    if (!atOpen.isFile()) return { error: 'no longer a regular file when opened; not read', sha256: '', bytesRead: 0 };
    if (atOpen.size > BigInt(SYNC_READ_BYTES)) return undefined;
    const size = Number(atOpen.size);
    // Memory of its own, not a slice of Node's shared 8 KiB pool: the member holds it while it
    // waits its turn, and a slice would keep the whole pool block alive.
    const buf = Buffer.allocUnsafeSlow(size);
    let got = 0;
    let readError: string | undefined;
    try {
      while (got < size) {
        const n = readSync(fd, buf, got, size - got, got);
        if (n === 0) break;
        got += n;
      }
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      readError = `read error after ${got} bytes (${e.code ?? e.message}); the archived copy holds the bytes read`;
    }
    const bytes = buf.subarray(0, got);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    if (got > 0) observe?.(bytes);
    if (sink) await sink(once(got > 0 ? bytes : undefined));
    return readOutcome(before, atOpen, fstatSync(fd, { bigint: true }), got, readError, sha256);
  } finally {
    try {
      closeSync(fd);
    } catch {
      // Nothing to do: the bytes were read.
    }
  }
}

async function* once(b: Buffer | undefined): AsyncGenerator<Buffer> {
  if (b) yield b;
}
