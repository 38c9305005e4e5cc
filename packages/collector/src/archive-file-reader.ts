import { close, read } from 'node:fs';
import { Readable } from 'node:stream';
import yauzl from 'yauzl';

/**
 * Bytes per read of a member's data. yauzl's own file reader reads 16 KiB at a time (a stream's
 * default), and each read and each inflate write is a round trip: reading and inflating every
 * member of the 160 MiB bench archive took 1.8-2.4 s of CPU that way, 1.0-1.3 s at 256 KiB.
 */
export const MEMBER_READ_BYTES = 256 * 1024;

/** Bytes read at once for small reads, kept for the next ones (see {@link ArchiveFileReader.readBlock}). */
export const BLOCK_BYTES = 64 * 1024;

/** Reads up to this size go through the block. */
const SMALL_READ_BYTES = 16 * 1024;

/**
 * yauzl's reader over an open file, for `yauzl.fromRandomAccessReader`: yauzl keeps every check of
 * its own (headers, bounds, sizes); only the reads are ours, positioned and in large pieces.
 */
export class ArchiveFileReader extends yauzl.RandomAccessReader {
  /** The last block read for small reads (see {@link BLOCK_BYTES}). */
  private block: { pos: number; buf: Buffer } | undefined;

  /** `base`: bytes of the file before the zip's first byte; yauzl's offsets count from there. */
  constructor(
    readonly fd: number,
    private readonly base = 0,
  ) {
    super();
  }

  /** The bytes of `[start, end)` as a stream of pieces of at most {@link MEMBER_READ_BYTES}. */
  override _readStreamForRange(start: number, end: number): Readable {
    return new RangeStream(this, start + this.base, end + this.base);
  }

  /** `[position, position + length)` copied from the block in hand, if it holds them (else false). */
  fromBlock(buffer: Buffer, offset: number, length: number, position: number): boolean {
    const b = this.block;
    if (!b || position < b.pos || position + length > b.pos + b.buf.length) return false;
    b.buf.copy(buffer, offset, position - b.pos, position - b.pos + length);
    return true;
  }

  /**
   * Read the block at `position` (fewer bytes at the end of the file) and keep it: the next small
   * reads nearby (the central directory's entries, a member's local header, a small member's
   * data, the members after it) are copied from it instead of each being a read of its own.
   */
  readBlock(position: number, callback: (err: Error | null) => void): void {
    const buf = Buffer.allocUnsafeSlow(BLOCK_BYTES);
    read(this.fd, buf, 0, BLOCK_BYTES, position, (err, n) => {
      if (!err) this.block = { pos: position, buf: n < BLOCK_BYTES ? buf.subarray(0, n) : buf };
      callback(err);
    });
  }

  /**
   * Fill `buffer[offset, offset + length)` from the zip's offset `at`; the bytes read go to the callback too,
   * fewer at the end of the file (yauzl then says "unexpected EOF", as with its own reader).
   */
  override read(buffer: Buffer, offset: number, length: number, at: number, callback: (err: Error | null) => void): void {
    const done = callback as (err: Error | null, bytesRead?: number) => void;
    const position = at + this.base;
    if (length <= SMALL_READ_BYTES) {
      if (this.fromBlock(buffer, offset, length, position)) {
        process.nextTick(done, null, length);
        return;
      }
      this.readBlock(position, (err) => {
        if (err) done(err);
        else if (this.fromBlock(buffer, offset, length, position)) done(null, length);
        else this.readDirect(buffer, offset, length, position, done);
      });
      return;
    }
    this.readDirect(buffer, offset, length, position, done);
  }

  /** Positioned reads until `length` bytes or the end of the file. */
  private readDirect(buffer: Buffer, offset: number, length: number, position: number, done: (err: Error | null, bytesRead?: number) => void): void {
    const step = (got: number): void => {
      if (got >= length) {
        done(null, got);
        return;
      }
      read(this.fd, buffer, offset + got, length - got, position + got, (err, n) => {
        if (err) done(err);
        else if (n === 0) done(null, got);
        else step(got + n);
      });
    };
    step(0);
  }

  /** Close the file (yauzl calls this once the archive and its streams are done with it). */
  override close(callback: (err: Error | null) => void): void {
    close(this.fd, (err) => callback(err ?? null));
  }
}

/**
 * Positioned reads of `[start, end)` of a shared file. Not fs.createReadStream: destroying one of
 * those closes its fd even with autoClose off, and yauzl destroys each member's stream when done.
 */
class RangeStream extends Readable {
  private pos: number;

  constructor(
    private readonly reader: ArchiveFileReader,
    start: number,
    private readonly end: number,
  ) {
    super({ highWaterMark: MEMBER_READ_BYTES });
    this.pos = start;
  }

  override _read(): void {
    const len = Math.min(MEMBER_READ_BYTES, this.end - this.pos);
    if (len <= 0) {
      this.push(null);
      return;
    }
    const b = Buffer.allocUnsafe(len);
    // A small member's data usually sits in the block its local header was read from.
    if (len <= SMALL_READ_BYTES && this.reader.fromBlock(b, 0, len, this.pos)) {
      this.pos += len;
      this.push(b);
      return;
    }
    read(this.reader.fd, b, 0, len, this.pos, (err, got) => {
      if (err) this.destroy(err);
      else if (got === 0) this.push(null);
      else {
        this.pos += got;
        this.push(got < len ? b.subarray(0, got) : b);
      }
    });
  }
}
