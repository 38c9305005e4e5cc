import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { ChunkPool } from './chunk-pool.js';
import type { DeflatePool } from './deflate-pool.js';
import { crc32, type ZipEntry } from './zip-format.js';

/**
 * Members are deflated in independent chunks of this size, several at once on libuv's threads
 * (as pigz does): each chunk is primed with the 32 KiB before it and ends on a sync flush, so the
 * chunks join into one ordinary deflate stream. The first chunk also decides store or deflate.
 */
export const CHUNK_BYTES = 1 << 20;

/** A first chunk that deflates to more than this share of its size is stored, with the rest of its member. */
export const STORE_ABOVE = 15 / 16;

/**
 * Bytes read ahead of the zip: members are taken in (read, hashed, cut into chunks, their deflate
 * started) while earlier ones are still deflating and being written in turn; past this many raw
 * bytes not yet written, the read waits.
 */
export const READ_AHEAD_BYTES = 8 * CHUNK_BYTES;

/**
 * What each member counts for in the read-ahead beside its bytes: its buffers, promises and
 * headers. Thousands of small files fit in 8 MiB of bytes; with this, at most 512 are in flight.
 */
export const MEMBER_WEIGHT = 16 * 1024;

/** The collector's read buffers (read-file.ts lends them; the zip writer gives them back). */
export const chunkPool = new ChunkPool(CHUNK_BYTES);

/** A member between its intake and its output (written in the order added). */
export interface Member {
  e: ZipEntry;
  /** The first chunk, its deflate (when the level deflates), and whether it is the whole member. */
  first?: { raw: Buffer; out?: Promise<Buffer>; whole: boolean };
  /**
   * The output of each later chunk, deflated or as read (the first chunk decides), and its raw
   * size. A chunk as read may be lent by {@link chunkPool}: its writer gives it back once written.
   */
  pieces: ({ data: Promise<Buffer>; raw: number } | undefined)[];
  /** The intake is over: no more pieces, CRC and size final. */
  done: boolean;
  error?: Error;
  wake?: () => void;
}

/** What the intake needs of its writer. */
export interface IntakeHost {
  level: number;
  pool: DeflatePool;
  /** Resolves when fewer than {@link READ_AHEAD_BYTES} raw bytes wait to be written. */
  room(): Promise<void>;
  /** `p`, or the run's failure first. */
  until<T>(p: Promise<T>): Promise<T>;
  /** Throws the run's failure, if any. */
  check(): void;
  /** Count raw bytes taken in (the writer counts them out as written). */
  taken(bytes: number): void;
}

/** Wake the output waiting on `m`. */
export function signal(m: Member): void {
  const w = m.wake;
  m.wake = undefined;
  w?.();
}

/** Until `ready` holds for a member being taken in, or its intake ended (or failed: throws). */
export async function waitFor(m: Member, ready: () => boolean, until: IntakeHost['until']): Promise<void> {
  while (!ready()) {
    if (m.error) throw m.error;
    if (m.done) return;
    await until(new Promise<void>((resolve) => (m.wake = resolve)));
  }
}

function deflate(host: IntakeHost, buf: Buffer, dict: Buffer | undefined, last: boolean): Promise<Buffer> {
  // memLevel 9 (zlib's largest hash table) deflates session logs ~10% faster at levels 1 and 6 for
  // 0.1-0.3% more bytes; `best` keeps zlib's default, its point being the size.
  const memLevel = host.level >= 9 ? 8 : 9;
  const opts: zlib.ZlibOptions = { level: host.level, memLevel, finishFlush: last ? zlib.constants.Z_FINISH : zlib.constants.Z_SYNC_FLUSH };
  if (dict) opts.dictionary = dict;
  const p = host.pool.deflate(buf, opts);
  p.catch(() => {});
  return p;
}

/** Read a member's stream into chunks (CRC and size on the way) and start their deflate. */
export async function takeIn(host: IntakeHost, stream: Readable | AsyncIterable<Buffer>, m: Member): Promise<void> {
  const e = m.e;
  const it = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const next = async (): Promise<Buffer | undefined> => {
    const r = await host.until(it.next());
    host.check();
    if (r.done) return undefined;
    const b = Buffer.isBuffer(r.value) ? r.value : Buffer.from(r.value);
    e.crc = crc32(b, e.crc);
    e.usize += b.length;
    return b;
  };
  // Chunks of exactly CHUNK_BYTES but the last, however the reader cuts its pieces (the same
  // bytes give the same archive), and whether the stream ended.
  let ended = false;
  let left: Buffer | undefined;
  let weight = MEMBER_WEIGHT;
  const chunk = async (): Promise<Buffer | undefined> => {
    await host.room();
    const parts: Buffer[] = left ? [left] : [];
    let n = left?.length ?? 0;
    left = undefined;
    while (n < CHUNK_BYTES) {
      const b = await next();
      if (!b) {
        ended = true;
        break;
      }
      parts.push(b);
      n += b.length;
    }
    if (n > CHUNK_BYTES) {
      const last = parts.pop()!;
      const keep = last.length - (n - CHUNK_BYTES);
      parts.push(last.subarray(0, keep));
      // A lent buffer is given back once its chunk is out: the rest must not share its bytes.
      left = chunkPool.owns(last) ? Buffer.from(last.subarray(keep)) : last.subarray(keep);
    }
    const c = parts.length === 0 ? undefined : parts.length === 1 ? parts[0] : Buffer.concat(parts);
    host.taken((c?.length ?? 0) + weight);
    weight = 0;
    return c;
  };
  const first = (await chunk()) ?? Buffer.alloc(0);
  const out = host.level > 0 && first.length > 0 ? deflate(host, first, undefined, ended) : undefined;
  m.first = { raw: first, out, whole: ended };
  signal(m);
  if (ended) return;
  // The later chunks wait for the first one's verdict (store or deflate) before their deflate starts.
  const deflated = out ? out.then((o) => o.length <= first.length * STORE_ABOVE) : Promise.resolve(false);
  deflated.catch(() => {});
  // Primed with the 32 KiB before it: the chunks join into one ordinary deflate stream. The tail
  // is copied at once: a chunk read may be given back (written, or deflated) before the next is in.
  let dict = out ? tail(first) : undefined;
  for (let b = await chunk(); b; b = await chunk()) {
    const raw = b;
    const before = dict;
    dict = out ? tail(raw) : undefined;
    const data = deflated.then((d) => (d ? deflate(host, raw, before, false).finally(() => chunkPool.give(raw)) : raw));
    data.catch(() => {});
    m.pieces.push({ data, raw: raw.length });
    signal(m);
  }
}

function tail(b: Buffer): Buffer {
  return Buffer.from(b.subarray(Math.max(0, b.length - 32768)));
}
