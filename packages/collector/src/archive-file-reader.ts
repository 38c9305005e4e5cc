import { close, read } from 'node:fs';
import { Readable } from 'node:stream';
import yauzl from 'yauzl';

/**
 * Bytes per read of a member's data. yauzl's own file reader reads 16 KiB at a time (a stream's
 * default), and each read and each inflate write is a round trip: reading and inflating every
 * member of the 160 MiB bench archive took 1.8-2.4 s of CPU that way, 1.0-1.3 s at 256 KiB.
 */
export const MEMBER_READ_BYTES = 256 * 1024;

/**
 * yauzl's reader over an open file, for `yauzl.fromRandomAccessReader`: yauzl keeps every check of
 * its own (headers, bounds, sizes); only the reads are ours, positioned and in large pieces.
 */
export class ArchiveFileReader extends yauzl.RandomAccessReader {
  constructor(private readonly fd: number) {
    super();
  }

  /** The bytes of `[start, end)` as a stream of pieces of at most {@link MEMBER_READ_BYTES}. */
  override _readStreamForRange(start: number, end: number): Readable {
    return new RangeStream(this.fd, start, end);
  }

  /**
   * Fill `buffer[offset, offset + length)` from `position`; the bytes read go to the callback too,
   * fewer at the end of the file (yauzl then says "unexpected EOF", as with its own reader).
   */
  override read(buffer: Buffer, offset: number, length: number, position: number, callback: (err: Error | null) => void): void {
    const done = callback as (err: Error | null, bytesRead?: number) => void;
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
    private readonly fd: number,
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
    read(this.fd, b, 0, len, this.pos, (err, got) => {
      if (err) this.destroy(err);
      else if (got === 0) this.push(null);
      else {
        this.pos += got;
        this.push(got < len ? b.subarray(0, got) : b);
      }
    });
  }
}
