import { zstdLib } from './libs.js';

/** Why a zstd stream stopped before its end; thrown by {@link zstdDecompress} after the bytes decoded so far. */
export class ZstdError extends Error {}

const MAGIC = [0x28, 0xb5, 0x2f, 0xfd];

/** True when the bytes start with the zstd frame magic number (`28 b5 2f fd`). */
export function isZstd(head: Uint8Array): boolean {
  return head.length >= 4 && MAGIC.every((b, i) => head[i] === b);
}

/**
 * Decompress a zstd stream (one or more frames), streaming: each decoded block is yielded as it
 * comes, so a large compressed log is never held whole (fzstd keeps one window, at most a few
 * MB). Pure JavaScript, so it runs on Node 20, whose zlib has no zstd. A stream that is not zstd,
 * is corrupt or ends mid-frame yields what decoded before the fault, then throws {@link ZstdError}
 * saying what was expected and where it stopped; the caller turns that into a row.
 */
export async function* zstdDecompress(source: AsyncIterable<Buffer | Uint8Array>): AsyncGenerator<Buffer> {
  let out: Buffer[] = [];
  const d = new (zstdLib().Decompress)((chunk) => {
    // fzstd reuses no buffers across calls, but copy anyway: the caller may keep the chunk.
    out.push(Buffer.from(chunk));
  });
  let read = 0;
  let first = true;
  const fail = (e: unknown): never => {
    const why = e instanceof Error ? e.message : String(e);
    throw new ZstdError(`expected zstd-compressed data, but decoding stopped after ${read} compressed bytes (${why}); the rows decoded before the fault are kept`);
  };
  for await (const raw of source) {
    const chunk = raw instanceof Buffer ? raw : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
    if (chunk.length === 0) continue;
    if (first) {
      first = false;
      if (chunk.length >= 4 && !isZstd(chunk)) {
        throw new ZstdError(`expected zstd-compressed data (magic 28 b5 2f fd), found bytes ${[...chunk.subarray(0, 4)].map((b) => b.toString(16).padStart(2, '0')).join(' ')}; the file is not zstd or is damaged`);
      }
    }
    try {
      d.push(chunk);
    } catch (e) {
      yield* out;
      out = [];
      fail(e);
    }
    read += chunk.length;
    if (out.length > 0) {
      yield* out;
      out = [];
    }
  }
  try {
    d.push(new Uint8Array(0), true);
  } catch (e) {
    yield* out;
    out = [];
    fail(e);
  }
  if (first) throw new ZstdError('expected zstd-compressed data, found an empty file');
  yield* out;
}
