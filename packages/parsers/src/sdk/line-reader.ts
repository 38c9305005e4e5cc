import { isObject, type JsonObject } from './decode.js';
import { utf8Stream } from './text-encoding.js';

/** One physical line of a JSONL file, as {@link readJsonLines} yields it. */
export interface JsonLine {
  /** 1-based line number. */
  line: number;
  /** The line's text (line-end CR and the file's leading BOM removed; invalid UTF-8 as U+FFFD). */
  text: string;
  /** The parsed object when the line is one. */
  value?: JsonObject;
  /**
   * Why the line is not a clean JSON object (absent on good lines and blank lines). With
   * `value` also present the line parsed but was not clean (invalid UTF-8 replaced).
   */
  error?: string;
  /** A line with nothing but whitespace: a deliberate skip, not an error. */
  blank?: boolean;
}

/** Limits for {@link readJsonLines}. */
export interface LineReaderOptions {
  /** A longer line is reported (with a preview) instead of held in memory. Default 256 MiB. */
  maxLineBytes?: number;
  /** How many characters of an over-long line the bad-line row keeps. Default 4096. */
  previewChars?: number;
}

const NL = 0x0a;
// ignoreBOM: the decoders would otherwise drop a BOM at the start of every line; only the
// file's own first BOM is dropped (in readLines), so a mid-file BOM stays in the text.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const utf8Lossy = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

/**
 * Split a byte stream into lines and parse each as JSON. Streams: memory holds one line at a
 * time. Survives a cut last line, CRLF, a UTF-8 BOM, invalid UTF-8, blank lines and very long
 * lines; every physical line is yielded once, with a reason when it is not a JSON object.
 */
export async function* readJsonLines(source: AsyncIterable<Buffer | Uint8Array>, opts: LineReaderOptions = {}): AsyncGenerator<JsonLine> {
  for await (const raw of readLines(source, opts)) {
    if (raw.error) {
      yield { line: raw.line, text: raw.text, error: raw.error };
      continue;
    }
    if (raw.text.trim() === '') {
      yield { line: raw.line, text: raw.text, blank: true };
      continue;
    }
    yield parseLine(raw.line, raw.text, raw.cut, raw.badUtf8);
  }
}

/** Thrown for a line that cannot start JSON: made once, no stack captured per line. */
const NOT_JSON = new SyntaxError('not JSON');

/**
 * Whether JSON.parse would throw a SyntaxError before reading a value: the first character past
 * JSON whitespace starts none. Such a line (garbage, a binary file named .jsonl) is told apart
 * without the exception, whose stack capture cost ~16 µs a line.
 */
function cannotStartJson(text: string, from: number): boolean {
  let i = from;
  let c = text.charCodeAt(i);
  while (c === 32 || c === 9 || c === 10 || c === 13) c = text.charCodeAt(++i);
  // { [ " - 0-9 t f n; NaN (the end) leaves it to JSON.parse.
  return !(c === 123 || c === 91 || c === 34 || c === 45 || (c >= 48 && c <= 57) || c === 116 || c === 102 || c === 110 || Number.isNaN(c));
}

function parseLine(line: number, text: string, cut: boolean, badUtf8: boolean): JsonLine {
  let value: unknown;
  try {
    // A BOM in mid-file (two files concatenated) is not JSON whitespace; parse past it.
    const from = text.charCodeAt(0) === 0xfeff ? 1 : 0;
    if (cannotStartJson(text, from)) throw NOT_JSON;
    value = JSON.parse(from === 1 ? text.slice(1) : text);
  } catch (e) {
    // A run of NULs is what a crash leaves where the file system had allocated a block not yet
    // written: a line of them alone is said with its length (the NULs are no preview), and a
    // whole JSON object before them is read.
    const nuls = text.length - text.replace(/\0+$/, '').length;
    if (nuls > 0 && nuls < text.length && !(e instanceof RangeError)) {
      const whole = parseLine(line, text.slice(0, text.length - nuls), cut, badUtf8);
      if (whole.value !== undefined) return whole;
    }
    const why = e instanceof RangeError ? 'nested too deep' : nuls === text.length ? `only NUL bytes (${nuls})` : 'invalid JSON';
    const detail = badUtf8 ? `invalid UTF-8; ${why}` : why;
    const reason = cut ? `cut line, no newline at end of file: ${detail}` : detail;
    return { line, text: nuls === text.length ? '' : text, error: reason };
  }
  if (!isObject(value)) {
    const kind = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
    return { line, text, error: `not a JSON object: ${kind}` };
  }
  if (badUtf8) return { line, text, value, error: 'invalid UTF-8' };
  return { line, text, value };
}

/** A raw line from {@link readLines}. */
export interface RawLine {
  /** 1-based line number. */
  line: number;
  /** The line's text (CR, first-line BOM removed; invalid UTF-8 replaced by U+FFFD). */
  text: string;
  /** The last line had no newline after it. */
  cut: boolean;
  /** The bytes were not valid UTF-8 (text holds U+FFFD in their place). */
  badUtf8: boolean;
  /** The line could not be kept whole (too long); text is a preview. */
  error?: string;
}

/**
 * Bytes of whole lines decoded in one call. A string past V8's 128 KiB regular object size is a
 * large object, mapped and faulted in on its own and unmapped when collected: decoding a whole
 * 256 KiB chunk at once (two bytes a character when one is outside Latin-1) made one per chunk,
 * a quarter of an analysis's page faults, dear in a VM.
 */
const DECODE_WINDOW = 48 * 1024;

/** Split a byte stream into text lines (LF or CRLF), streaming; see {@link readJsonLines}. */
export async function* readLines(source: AsyncIterable<Buffer | Uint8Array>, opts: LineReaderOptions = {}): AsyncGenerator<RawLine> {
  const max = opts.maxLineBytes ?? 256 * 1024 * 1024;
  const previewChars = opts.previewChars ?? 4096;
  let parts: Buffer[] = [];
  let partLen = 0;
  let overLong = false;
  let preview = '';
  let lineNo = 0;
  let first = true;

  const emit = (buf: Buffer, cut: boolean): RawLine => {
    lineNo += 1;
    if (overLong) {
      const r: RawLine = { line: lineNo, text: preview, cut, badUtf8: false, error: `line longer than ${max} bytes; first ${previewChars} characters kept` };
      overLong = false;
      preview = '';
      first = false;
      return r;
    }
    let b = buf;
    if (first && b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) b = b.subarray(3);
    first = false;
    if (b.length > 0 && b[b.length - 1] === 0x0d) b = b.subarray(0, b.length - 1);
    let text: string;
    let badUtf8 = false;
    try {
      text = utf8.decode(b);
    } catch {
      text = utf8Lossy.decode(b);
      badUtf8 = true;
    }
    return { line: lineNo, text, cut, badUtf8 };
  };

  const take = (chunk: Buffer) => {
    if (overLong) return;
    if (partLen + chunk.length > max) {
      // Only the head is needed: never concatenate the whole over-long line.
      const want = previewChars * 4;
      const headParts: Buffer[] = [];
      let n = 0;
      for (const p of [...parts, chunk]) {
        if (n >= want) break;
        headParts.push(p.subarray(0, want - n));
        n += headParts[headParts.length - 1].length;
      }
      const head = Buffer.concat(headParts);
      preview = utf8Lossy.decode(head).slice(0, previewChars);
      overLong = true;
      parts = [];
      partLen = 0;
      return;
    }
    parts.push(chunk);
    partLen += chunk.length;
  };

  for await (const c of utf8Stream(source)) {
    const chunk = toBuffer(c);
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(NL, start);
      if (nl < 0) break;
      // The whole lines of a chunk after its first are decoded in one call when they are valid
      // UTF-8 (a call per line costs more than the decoding); on a decode error, line by line.
      if (partLen === 0 && !overLong && !first && nl > start && chunk.length <= max) {
        // At most DECODE_WINDOW bytes of whole lines at once (or the one line, if longer).
        const last = Math.max(nl, chunk.lastIndexOf(NL, start + DECODE_WINDOW));
        let text: string | null = null;
        try {
          text = utf8.decode(chunk.subarray(start, last));
        } catch {
          // an invalid sequence somewhere: the per-line path below says which line
        }
        if (text !== null) {
          let at = 0;
          for (let i = text.indexOf('\n'); ; i = text.indexOf('\n', at)) {
            const end = i < 0 ? text.length : i;
            lineNo += 1;
            yield { line: lineNo, text: text.charCodeAt(end - 1) === 13 ? text.slice(at, end - 1) : text.slice(at, end), cut: false, badUtf8: false };
            if (i < 0) break;
            at = i + 1;
          }
          start = last + 1;
          continue;
        }
      }
      take(chunk.subarray(start, nl));
      const buf = parts.length === 1 ? parts[0] : Buffer.concat(parts, partLen);
      parts = [];
      partLen = 0;
      yield emit(buf, false);
      start = nl + 1;
    }
    // Copy the tail: the caller's buffer may be reused by the stream.
    if (start < chunk.length) take(Buffer.from(chunk.subarray(start)));
  }
  if (partLen > 0 || overLong) {
    const buf = parts.length === 1 ? parts[0] : Buffer.concat(parts, partLen);
    yield emit(buf, true);
  }
}

// A stream opened with an encoding yields strings; take them too rather than fail.
function toBuffer(c: Buffer | Uint8Array | string): Buffer {
  if (Buffer.isBuffer(c)) return c;
  if (typeof c === 'string') return Buffer.from(c, 'utf8');
  return Buffer.from(c.buffer, c.byteOffset, c.byteLength);
}
