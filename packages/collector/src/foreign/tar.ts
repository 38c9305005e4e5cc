import { decodeName } from '../names.js';

/** One entry of a tar stream. Its body must be read (or is skipped) before the next entry. */
export interface TarEntry {
  /** The name as stored (pax `path`, GNU long name or ustar prefix/name), UTF-8 or `\xNN`-escaped. */
  name: string;
  type: 'file' | 'dir' | 'symlink' | 'hardlink' | 'other';
  size: number;
  /** Permission bits. */
  mode: number;
  mtimeMs?: number;
  atimeMs?: number;
  ctimeMs?: number;
  linkName: string;
  /** Byte offset of the entry's header in the (decompressed) stream, for messages. */
  offset: number;
  body(): AsyncIterable<Buffer>;
}

/** A tar stream that is not one, or is cut or corrupt: the message says where. */
export class TarError extends Error {
  override name = 'TarError';
}

const BLOCK = 512;
/** Long names and pax headers are small; a bigger one is not a header but an attack. */
const MAX_META = 1024 * 1024;

/** Reads exact byte counts from a chunked stream. */
class Bytes {
  private buf: Buffer = Buffer.alloc(0);
  private done = false;
  offset = 0;
  constructor(private readonly it: AsyncIterator<Buffer>) {}

  private async fill(n: number): Promise<boolean> {
    while (this.buf.length < n && !this.done) {
      const r = await this.it.next();
      if (r.done) this.done = true;
      else this.buf = this.buf.length === 0 ? Buffer.from(r.value) : Buffer.concat([this.buf, r.value]);
    }
    return this.buf.length >= n;
  }

  /** Exactly n bytes, or null at a clean end (no byte left), or a TarError when cut. */
  async take(n: number): Promise<Buffer | null> {
    if (!(await this.fill(n))) {
      if (this.buf.length === 0) return null;
      throw new TarError(`tar stream cut at byte ${this.offset + this.buf.length}: expected ${n - this.buf.length} more bytes`);
    }
    const out = this.buf.subarray(0, n);
    this.buf = this.buf.subarray(n);
    this.offset += n;
    return out;
  }

  /** Up to n bytes in the chunks they came in. */
  async *stream(n: number): AsyncGenerator<Buffer> {
    let left = n;
    while (left > 0) {
      if (this.buf.length === 0 && !(await this.fill(1))) throw new TarError(`tar stream cut at byte ${this.offset}: ${left} bytes of a member missing`);
      const part = this.buf.subarray(0, Math.min(left, this.buf.length));
      this.buf = this.buf.subarray(part.length);
      this.offset += part.length;
      left -= part.length;
      yield part;
    }
  }
}

function text(b: Buffer): string {
  const end = b.indexOf(0);
  return decodeName(end < 0 ? b : b.subarray(0, end)).text;
}

/** A numeric header field: octal text, or base-256 when the first byte's high bit is set (GNU, sizes over 8 GiB). */
function num(b: Buffer, what: string, offset: number): number {
  if (b[0] & 0x80) {
    let v = b[0] & 0x7f;
    for (let i = 1; i < b.length; i++) v = v * 256 + b[i];
    return v;
  }
  const s = text(b).trim();
  if (s === '') return 0;
  if (!/^[0-7]+$/.test(s)) throw new TarError(`tar header at byte ${offset}: ${what} is not an octal number (${JSON.stringify(s.slice(0, 20))}); not a tar archive, or a corrupt one`);
  return Number.parseInt(s, 8);
}

function checksumOk(h: Buffer): boolean {
  const stored = text(h.subarray(148, 156)).trim();
  if (!/^[0-7]+$/.test(stored)) return false;
  let unsigned = 0;
  let signed = 0;
  for (let i = 0; i < BLOCK; i++) {
    const c = i >= 148 && i < 156 ? 0x20 : h[i];
    unsigned += c;
    signed += c > 127 ? c - 256 : c;
  }
  const want = Number.parseInt(stored, 8);
  return want === unsigned || want === signed;
}

/** Pax extended records (`<len> key=value\n`) into a map; malformed records end the parse. */
function paxRecords(b: Buffer): Map<string, string> {
  const out = new Map<string, string>();
  let i = 0;
  while (i < b.length) {
    const sp = b.indexOf(0x20, i);
    if (sp < 0) break;
    const len = Number.parseInt(b.subarray(i, sp).toString('latin1'), 10);
    if (!Number.isFinite(len) || len <= 0 || i + len > b.length) break;
    const rec = b.subarray(sp + 1, i + len - 1).toString('utf8');
    const eq = rec.indexOf('=');
    if (eq > 0) out.set(rec.slice(0, eq), rec.slice(eq + 1));
    i += len;
  }
  return out;
}

const paxTime = (v: string | undefined) => {
  if (v === undefined) return undefined;
  const n = Number.parseFloat(v);
  return Number.isFinite(n) ? Math.round(n * 1000) : undefined;
};

async function readMeta(bytes: Bytes, size: number, offset: number): Promise<Buffer> {
  if (size > MAX_META) throw new TarError(`tar header at byte ${offset}: a ${size}-byte long name or pax header (at most ${MAX_META}); not a sane archive`);
  const parts: Buffer[] = [];
  for await (const c of bytes.stream(size)) parts.push(Buffer.from(c));
  await bytes.take((BLOCK - (size % BLOCK)) % BLOCK);
  return Buffer.concat(parts);
}

/**
 * Read a tar stream (ustar, GNU long names, pax headers; what GNU tar, bsdtar and busybox write)
 * entry by entry, in one pass and bounded memory. A header that fails its checksum or a stream
 * cut in the middle is a TarError naming the byte offset.
 */
export async function* readTar(source: AsyncIterable<Buffer>): AsyncGenerator<TarEntry> {
  const bytes = new Bytes(source[Symbol.asyncIterator]());
  let longName: string | undefined;
  let longLink: string | undefined;
  let pax = new Map<string, string>();
  let globalPax = new Map<string, string>();
  let zeros = 0;
  for (;;) {
    const offset = bytes.offset;
    const h = await bytes.take(BLOCK);
    if (h === null) return;
    if (h.every((c) => c === 0)) {
      // Two zero blocks end the archive; some writers stop after one.
      if (++zeros >= 2) return;
      continue;
    }
    zeros = 0;
    if (!checksumOk(h)) throw new TarError(`tar header at byte ${offset} fails its checksum: not a tar archive, or a corrupt one`);
    const flag = String.fromCharCode(h[156] || 0x30);
    const size = num(h.subarray(124, 136), 'size', offset);
    if (flag === 'L' || flag === 'K') {
      const v = text(await readMeta(bytes, size, offset));
      if (flag === 'L') longName = v;
      else longLink = v;
      continue;
    }
    if (flag === 'x' || flag === 'g') {
      const recs = paxRecords(await readMeta(bytes, size, offset));
      if (flag === 'x') pax = recs;
      else globalPax = new Map([...globalPax, ...recs]);
      continue;
    }
    const meta = new Map([...globalPax, ...pax]);
    const ustar = h.subarray(257, 263).toString('latin1') === 'ustar\0';
    const prefix = ustar ? text(h.subarray(345, 500)) : '';
    const base = text(h.subarray(0, 100));
    const name = meta.get('path') ?? longName ?? (prefix ? `${prefix}/${base}` : base);
    const linkName = meta.get('linkpath') ?? longLink ?? text(h.subarray(157, 257));
    const paxSize = meta.has('size') ? Number(meta.get('size')) : undefined;
    const dataSize = paxSize !== undefined && Number.isSafeInteger(paxSize) && paxSize >= 0 ? paxSize : size;
    longName = undefined;
    longLink = undefined;
    pax = new Map();
    const type: TarEntry['type'] =
      flag === '0' || flag === '7' ? 'file' : flag === '5' ? 'dir' : flag === '2' ? 'symlink' : flag === '1' ? 'hardlink' : 'other';
    // Only regular files carry data; a link's size field is ignored by readers (and zero in practice).
    const bodySize = type === 'file' || type === 'other' ? dataSize : 0;
    // The body may be read in part (a consumer that stops early): what is left is skipped below.
    let left = bodySize;
    let started = false;
    const body = async function* (): AsyncGenerator<Buffer> {
      if (started) throw new TarError(`${name}: the tar member was already read`);
      started = true;
      for await (const c of bytes.stream(left)) {
        left -= c.length;
        yield c;
      }
    };
    const mtime = paxTime(meta.get('mtime'));
    yield {
      name,
      type,
      size: bodySize,
      mode: num(h.subarray(100, 108), 'mode', offset) & 0o7777,
      mtimeMs: mtime ?? num(h.subarray(136, 148), 'mtime', offset) * 1000,
      atimeMs: paxTime(meta.get('atime')),
      ctimeMs: paxTime(meta.get('ctime')),
      linkName,
      offset,
      body,
    };
    if (left > 0) for await (const c of bytes.stream(left)) left -= c.length;
    await bytes.take((BLOCK - (bodySize % BLOCK)) % BLOCK);
  }
}
