import os from 'node:os';
import zlib from 'node:zlib';

/** A piece this small costs less deflated on the main thread than a round trip to the thread pool. */
export const SYNC_BELOW = 64 * 1024;

const OUT_BYTES = 512 * 1024;

/**
 * Deflate jobs at once: the cores, at least two and at most four. libuv's pool has four threads
 * by default and the reads share it, so deflate never takes them all on a small machine.
 */
export const DEFLATE_SLOTS = Math.max(2, Math.min(4, os.availableParallelism?.() ?? os.cpus().length));

/**
 * Raw deflate of whole pieces on libuv's threads, at most `slots` at once, started in the order
 * asked (so the pieces the zip needs first are done first).
 */
export class DeflatePool {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly slots: number = DEFLATE_SLOTS) {}

  /** Deflate `buf` with `opts`; small pieces synchronously. */
  deflate(buf: Buffer, opts: zlib.ZlibOptions): Promise<Buffer> {
    if (buf.length <= SYNC_BELOW) {
      try {
        const out = zlib.deflateRawSync(buf, opts);
        // Copied to its size: the member waits its turn holding it, and zlib's 16 KiB output
        // buffer (for a few hundred bytes of a small file) was most of what a thousand such held.
        const own = Buffer.allocUnsafeSlow(out.length);
        out.copy(own);
        return Promise.resolve(own);
      } catch (err) {
        return Promise.reject(err);
      }
    }
    // Output buffers of 512 KiB, where one holds a deflated 1 MiB chunk of text: with zlib's
    // 16 KiB default a chunk came back to the main thread some 25 times (0.4 s of its time over
    // 160 MiB); 1 MiB ones made V8 run a full GC for their external memory twice a second.
    const all = { ...opts, chunkSize: Math.min(OUT_BYTES, buf.length + 1024) };
    return new Promise<Buffer>((resolve, reject) => {
      const start = () => {
        this.running += 1;
        zlib.deflateRaw(buf, all, (err, out) => {
          this.running -= 1;
          this.waiting.shift()?.();
          if (err) reject(err);
          else resolve(out);
        });
      };
      if (this.running < this.slots) start();
      else this.waiting.push(start);
    });
  }
}
