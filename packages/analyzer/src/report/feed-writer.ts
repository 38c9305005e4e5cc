import { ByteWriter } from '../byte-writer.js';
import type { LineFeed } from './sink.js';

/**
 * The writer of the timeline.jsonl bytes the line feeds (sink threads) are given: its 1 MB
 * buffers are SharedArrayBuffers every feed reads in place, filled again once each feed is done
 * with one. Before, every chunk was copied once per feed but the last and a new buffer taken for
 * each: 134 MB copied and 268 MB of new external memory at 160 MiB, on the main thread.
 */
export function feedWriter(feeds: readonly LineFeed[], size = 1 << 20): ByteWriter {
  const pool: Buffer[] = [];
  const alloc = (n: number) => pool.pop() ?? Buffer.from(new SharedArrayBuffer(n));
  const write = (b: Buffer): Promise<unknown> => {
    const shared = b.buffer;
    // A piece larger than the buffer comes as a copy of its own: given away, so one copy per feed.
    if (!(shared instanceof SharedArrayBuffer)) return Promise.all(feeds.map((f, i) => f.write(i === feeds.length - 1 ? b : Buffer.from(b))));
    let left = feeds.length;
    const release = () => {
      if (--left === 0) pool.push(Buffer.from(shared));
    };
    return Promise.all(feeds.map((f) => f.write(b, release)));
  };
  return new ByteWriter(write, { size, alloc });
}
