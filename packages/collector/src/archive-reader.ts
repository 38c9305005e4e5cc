import { Readable, Transform, type TransformCallback } from 'node:stream';
import { createInflateRaw, inflateRawSync } from 'node:zlib';
import { checkCollectionInfo } from './collection-info.js';
import { MAX_MANIFEST_LINE, type StreamLine, streamLines } from './line-stream.js';
import { misfitField } from './manifest-row.js';
import type { CollectionInfo, ManifestRow } from './types.js';
import { type Listing, listAround, listZip } from './zip-listing.js';
import { startsAsCollection } from './zip-salvage.js';
import { nestedRoot, underRoot } from './zip-nested.js';
import { overlappingSpans } from './zip-overlap.js';

export { unsafeMemberName } from './zip-listing.js';

/** Sizes of one archive member, from the zip's central directory. */
export interface MemberInfo {
  size: number;
  compressedSize: number;
}

/** Read access to a collection zip; members are read one stream at a time, never whole. */
export interface ArchiveReader {
  path: string;
  /** Member name → sizes; only names that passed the safety check. */
  members: Map<string, MemberInfo>;
  /** Unsafe or duplicate member names, reported here and never used as paths. */
  problems: string[];
  /** Members whose compressed data another entry shares (an overlapping-entry zip bomb): never to be read. */
  overlaps: ReadonlySet<string>;
  /** A stream of one member's bytes; errors if it yields more than the header says or the hard cap. */
  openMember(name: string): Promise<NodeJS.ReadableStream>;
  /** A whole member as UTF-8 text; refuses members larger than maxBytes. */
  readText(name: string, maxBytes: number): Promise<string>;
  close(): void;
}

/** Options of openArchive. */
export interface OpenArchiveOptions {
  /** Hard cap on any member's decompressed bytes (default 16 GiB), whatever its header claims. */
  maxMemberBytes?: number;
}

/** Hard cap on a member's decompressed size, to defeat zip bombs. */
export const DEFAULT_MAX_MEMBER_BYTES = 16 * 1024 ** 3;

/** Open a zip for reading; a truncated or corrupt zip is an error naming the archive. */
export async function openArchive(path: string, opts: OpenArchiveOptions = {}): Promise<ArchiveReader> {
  const cap = opts.maxMemberBytes ?? DEFAULT_MAX_MEMBER_BYTES;
  let listed: Listing;
  try {
    listed = await listZip(path, 0, undefined);
  } catch (err) {
    // A file that holds more than the zip (bytes appended after it, or put before it) is read
    // as unzip and Python's zipfile read it, and the extra bytes are reported; anything else
    // keeps the strict reader's message.
    const again = await listAround(path).catch(() => undefined);
    if (!again && startsAsCollection(path)) {
      throw new Error(`${(err as Error).message}. It starts as an aitrail collection whose end is cut short or damaged (its central directory, and when the cut is earlier, collection.json and manifest.jsonl, written last): \`aitrail import ${path} --out <new.zip>\` recovers its members into a new archive`);
    }
    if (!again) throw err;
    listed = again;
  }
  const root = nestedRoot(listed.members);
  if (root) listed = underRoot(listed, root);
  const { zip, entries, members, problems, spans } = listed;
  const openMember = async (name: string): Promise<NodeJS.ReadableStream> => {
    const entry = entries.get(name);
    if (!entry) throw new Error(`${path}: no member named ${JSON.stringify(name)}`);
    if (entry.uncompressedSize > cap) {
      throw new Error(`${path}: member ${name} claims ${entry.uncompressedSize} bytes, above the ${cap}-byte limit; not read`);
    }
    // A deflated member is inflated here in 256 KB pieces: yauzl's own inflate hands out 16 KB
    // ones, sixteen times the callbacks and stream hops for the same bytes. Its size check is
    // yauzl's, with yauzl's messages.
    const deflated = entry.compressionMethod === 8;
    let stream: NodeJS.ReadableStream;
    try {
      stream = await new Promise((resolve, reject) => zip.openReadStream(entry, deflated ? { decompress: false } : {}, (err, s) => (err ? reject(err) : resolve(s))));
    } catch (err) {
      throw new Error(`${path}: cannot read member ${name} (${(err as Error).message})`);
    }
    const limit = Math.min(entry.uncompressedSize, cap);
    const expected = entry.uncompressedSize;
    let seen = 0;
    const fail = (message: string) => new Error(`${path}: member ${name}: ${message}`);
    const guard = new Transform({
      transform(chunk: Buffer, _enc, cb: TransformCallback) {
        seen += chunk.length;
        if (deflated && seen > expected) cb(fail(`too many bytes in the stream. expected ${expected}. got at least ${seen}`));
        else if (seen > limit) cb(new Error(`${path}: member ${name} holds more than the ${limit} bytes its header declares; not trusted`));
        else cb(null, chunk);
      },
      flush(cb: TransformCallback) {
        if (deflated && seen < expected) cb(fail(`not enough bytes in the stream. expected ${expected}. got only ${seen}`));
        else cb();
      },
    });
    if (deflated && entry.compressedSize <= WHOLE_INFLATE_IN && expected <= WHOLE_INFLATE_OUT) return Readable.from(inflateWhole(stream, expected, fail));
    stream.on('error', (err: Error) => guard.destroy(fail(err.message)));
    if (!deflated) return stream.pipe(guard);
    // Output pieces of at most the size declared: a 256 KiB buffer for each of 10,000 small
    // members was 2.5 GB of allocation for the parse threads' garbage collector.
    const inflate = createInflateRaw({ chunkSize: Math.min(256 * 1024, Math.max(1024, expected + 1)) });
    inflate.on('error', (err: Error) => guard.destroy(fail(err.message)));
    return stream.pipe(inflate).pipe(guard);
  };
  const overlaps = overlappingSpans(spans);
  return {
    path,
    members,
    problems,
    overlaps,
    openMember,
    async readText(name, maxBytes) {
      const info = members.get(name);
      if (!info) throw new Error(`${path}: no member named ${JSON.stringify(name)}`);
      if (info.size > maxBytes) throw new Error(`${path}: member ${name} is ${info.size} bytes, above the ${maxBytes}-byte limit for text`);
      const chunks: Buffer[] = [];
      for await (const chunk of await openMember(name)) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
    close() {
      zip.close();
    },
  };
}

/** A deflated member this small (compressed) and declared at most {@link WHOLE_INFLATE_OUT} is inflated at once. */
const WHOLE_INFLATE_IN = 64 * 1024;
/** The most a member inflated at once may declare. */
const WHOLE_INFLATE_OUT = 1024 * 1024;

/**
 * A small member's bytes inflated in one call, with the streamed path's checks: never more than
 * declared (zlib stops at one byte past it; the cap was checked against the declared size), nor
 * fewer. An inflate stream for each
 * of 10,000 small session files (a zlib handle, three streams, a trip to libuv's pool) was a
 * third of a parse thread's time.
 */
async function* inflateWhole(raw: NodeJS.ReadableStream, expected: number, fail: (message: string) => Error): AsyncGenerator<Buffer> {
  const parts: Buffer[] = [];
  try {
    for await (const c of raw) parts.push(c as Buffer);
  } catch (err) {
    throw fail((err as Error).message);
  }
  let out: Buffer;
  try {
    out = inflateRawSync(parts.length === 1 ? parts[0] : Buffer.concat(parts), { maxOutputLength: expected + 1 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw fail(`too many bytes in the stream. expected ${expected}. got at least ${expected + 1}`);
    throw fail((err as Error).message);
  }
  if (out.length > expected) throw fail(`too many bytes in the stream. expected ${expected}. got at least ${out.length}`);
  if (out.length < expected) throw fail(`not enough bytes in the stream. expected ${expected}. got only ${out.length}`);
  if (out.length > 0) yield out;
}

/** Largest manifest.jsonl / collection.json read into memory. */
const MAX_META_BYTES = 1024 ** 3;

/** Read collection.json and manifest.jsonl; bad lines become problems, not crashes. */
export async function readCollection(
  reader: ArchiveReader,
): Promise<{ info: CollectionInfo; manifest: ManifestRow[]; problems: string[] }> {
  const problems: string[] = [...reader.problems];
  let info = {} as CollectionInfo;
  if (!reader.members.has('collection.json')) problems.push('collection.json is missing: the collection is incomplete');
  else {
    try {
      const checked = checkCollectionInfo(JSON.parse(await reader.readText('collection.json', 16 * 1024 ** 2)));
      info = checked.info;
      problems.push(...checked.problems);
      if (info.format !== 'aitrail-collection') problems.push(`collection.json: format is ${JSON.stringify(info.format)}, expected "aitrail-collection"`);
      else if (info.complete !== true) problems.push('collection.json: "complete" is not true; the collection did not finish');
    } catch (err) {
      problems.push(`collection.json is not readable JSON (${(err as Error).message})`);
    }
  }
  const manifest: ManifestRow[] = [];
  if (!reader.members.has('manifest.jsonl')) problems.push('manifest.jsonl is missing');
  else {
    const take = ({ lineNo, text }: StreamLine) => {
      if (text === null) {
        problems.push(`manifest.jsonl line ${lineNo}: longer than ${MAX_MANIFEST_LINE} bytes, not a manifest row; skipped`);
        return;
      }
      if (text.trim() === '') return;
      try {
        const row = JSON.parse(text) as ManifestRow;
        if (row === null || typeof row !== 'object' || typeof row.status !== 'string') throw new Error('not a manifest row');
        const misfit = misfitField(row as unknown as Record<string, unknown>);
        if (misfit) throw new Error(`a row with ${misfit}`);
        manifest.push(row);
      } catch (err) {
        problems.push(`manifest.jsonl line ${lineNo}: not a manifest row (${(err as Error).message}): ${text.slice(0, 200)}`);
      }
    };
    try {
      const info2 = reader.members.get('manifest.jsonl')!;
      if (info2.size > MAX_META_BYTES) throw new Error(`${info2.size} bytes, above the ${MAX_META_BYTES}-byte limit`);
      const source = (await reader.openMember('manifest.jsonl')) as AsyncIterable<Buffer>;
      for await (const line of streamLines(source)) take(line);
    } catch (err) {
      problems.push(`manifest.jsonl could not be read to the end (${(err as Error).message})`);
    }
  }
  return { info, manifest, problems };
}
