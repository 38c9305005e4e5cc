import { utf8Stream } from './text-encoding.js';

/**
 * Streaming reader for one large JSON document (a chat session file, a task's message list):
 * the elements of the array at a key path come one at a time, each parsed by `JSON.parse`, so
 * memory holds one element, never the document. The other members of the objects on the way
 * come as fields. A document cut mid-write gives every complete element, then an end event that
 * says where it was cut; a broken element is reported and skipped, the next one still read.
 *
 * Bytes are scanned, not characters: every structural character of JSON is ASCII and no byte of
 * a multi-byte UTF-8 sequence is below 0x80, so a chunk may end anywhere.
 */

/** What {@link readJsonArray} yields. */
export type JsonStreamEvent =
  /** One element of the array at the path, with its 0-based index. */
  | { kind: 'item'; index: number; value: unknown }
  /** An element that did not parse (or exceeded the size limit): skipped, reading goes on. */
  | { kind: 'bad'; index: number; reason: string; preview: string }
  /** A member of an object on the way to the array (`sessionId` beside `requests`). */
  | { kind: 'field'; path: string[]; value: unknown }
  /** The end: `complete` when the document closed properly; `found` whether the array was met. */
  | { kind: 'end'; complete: boolean; found: boolean; reason?: string; items: number };

/** Options of {@link readJsonArray}. */
export interface JsonStreamOptions {
  /** Largest element or field kept, in bytes (default 256 MB); a larger element becomes `bad`. */
  maxValueBytes?: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;

interface Frame {
  array: boolean;
  /** Objects: the key of the member being read; arrays: unused. */
  key: string;
  /** Arrays: the index of the element being read. */
  index: number;
  /** On the way to the target (the document, an object on the path, or the target array itself). */
  spine: boolean;
}

interface Capture {
  parts: Buffer[];
  bytes: number;
  /** Stack depth the value lives in (the depth of its container). */
  depth: number;
  form: 'string' | 'scalar' | 'container';
  item: boolean;
  index: number;
  path: string[];
  over: boolean;
}

/**
 * Read the array at `path` (`['requests']`; `[]` for a top-level array) of a JSON document,
 * streamed. Never throws on bad data: a document that is not JSON ends with `complete: false`.
 */
export async function* readJsonArray(source: AsyncIterable<Buffer | Uint8Array>, path: readonly string[], opts: JsonStreamOptions = {}): AsyncGenerator<JsonStreamEvent> {
  const max = opts.maxValueBytes ?? 256 * 1024 * 1024;
  const targetDepth = path.length + 1;
  const stack: Frame[] = [];
  let inString = false;
  let escaped = false;
  let expectKey = false;
  let keyBytes: number[] | null = null;
  // Set inside the helpers below; typed wide so control flow does not narrow it to null.
  let cap = null as Capture | null;
  let capFrom = 0;
  let found = false;
  let items = 0;
  let started = false;
  let done = false;
  let garbage = false;

  const finish = (chunk: Buffer, end: number): JsonStreamEvent | undefined => {
    const c = cap!;
    cap = null;
    if (!c.over) {
      c.bytes += end - capFrom;
      if (c.bytes > max) c.over = true;
      else c.parts.push(chunk.subarray(capFrom, end));
    }
    if (c.over) return c.item ? { kind: 'bad', index: c.index, reason: `element larger than ${max} bytes, skipped`, preview: '' } : undefined;
    const text = c.parts.length === 1 ? c.parts[0].toString('utf8') : Buffer.concat(c.parts).toString('utf8');
    try {
      const value = JSON.parse(text) as unknown;
      if (!c.item) return { kind: 'field', path: c.path, value };
      items++;
      return { kind: 'item', index: c.index, value };
    } catch (e) {
      return c.item ? { kind: 'bad', index: c.index, reason: (e as Error).message, preview: text.slice(0, 200) } : undefined;
    }
  };

  /** Whether a value starting now is an element of the target, or a member of a spine object (not the next step). */
  const begin = (i: number, form: Capture['form']): void => {
    const top = stack[stack.length - 1];
    if (!top?.spine) return;
    const d = stack.length;
    if (top.array) {
      if (d === targetDepth) cap = { parts: [], bytes: 0, depth: d, form, item: true, index: top.index, path: [], over: false };
    } else if (d > path.length || top.key !== path[d - 1]) {
      cap = { parts: [], bytes: 0, depth: d, form, item: false, index: 0, path: [...path.slice(0, d - 1), top.key], over: false };
    }
    if (cap) capFrom = i;
  };

  for await (const raw of withoutBom(utf8Stream(source))) {
    if (done || garbage) continue;
    const chunk = Buffer.isBuffer(raw) ? raw : Buffer.from(raw);
    const events: JsonStreamEvent[] = [];
    capFrom = 0;
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i];
      if (inString) {
        if (escaped) escaped = false;
        else if (b === BACKSLASH) escaped = true;
        else if (b === QUOTE) {
          inString = false;
          if (keyBytes) {
            const top = stack[stack.length - 1];
            const rawKey = Buffer.from(keyBytes).toString('utf8');
            try {
              top.key = JSON.parse(`"${rawKey}"`) as string;
            } catch {
              top.key = rawKey;
            }
            keyBytes = null;
            continue;
          }
          if (cap?.form === 'string' && stack.length === cap.depth) {
            const ev = finish(chunk, i + 1);
            if (ev) events.push(ev);
          }
          continue;
        }
        if (keyBytes && keyBytes.length < 4096) keyBytes.push(b);
        continue;
      }
      // A scalar ends at the first byte that cannot continue it.
      if (cap?.form === 'scalar' && stack.length === cap.depth && (b <= 0x20 || b === COMMA || b === 0x5d || b === 0x7d)) {
        const ev = finish(chunk, i);
        if (ev) events.push(ev);
      }
      if (b <= 0x20 || b === COLON) continue;
      if (b === QUOTE) {
        inString = true;
        const top = stack[stack.length - 1];
        if (top && !top.array && expectKey) {
          expectKey = false;
          // Keys matter only on the spine; elsewhere they are skipped like any string.
          keyBytes = top.spine && !cap ? [] : null;
        } else if (!cap) begin(i, 'string');
        continue;
      }
      if (b === 0x7b || b === 0x5b) {
        if (!started) started = true;
        else if (stack.length === 0) {
          done = true; // a second top-level value: the document ended before it
          break;
        } else if (!cap) begin(i, 'container');
        const parent = stack[stack.length - 1];
        const d = stack.length; // depth of the parent
        const spine = !cap && (!parent || (parent.spine && !parent.array && d <= path.length && parent.key === path[d - 1]));
        stack.push({ array: b === 0x5b, key: '', index: 0, spine });
        if (spine && b === 0x5b && stack.length === targetDepth) found = true;
        expectKey = b === 0x7b;
        continue;
      }
      if (b === 0x7d || b === 0x5d) {
        if (stack.length === 0) {
          garbage = true;
          break;
        }
        stack.pop();
        expectKey = false;
        if (cap?.form === 'container' && stack.length === cap.depth) {
          const ev = finish(chunk, i + 1);
          if (ev) events.push(ev);
        }
        if (stack.length === 0) {
          done = true;
          break;
        }
        continue;
      }
      if (b === COMMA) {
        const top = stack[stack.length - 1];
        if (top?.array) top.index++;
        else if (top) expectKey = true;
        continue;
      }
      // The first byte of a number, true, false or null.
      if (!started) {
        garbage = true;
        break;
      }
      if (!cap && !(expectKey && !stack[stack.length - 1]?.array)) begin(i, 'scalar');
    }
    if (cap && !done) {
      const c: Capture = cap;
      const piece = chunk.subarray(capFrom);
      c.bytes += piece.length;
      if (c.bytes > max) {
        c.over = true;
        c.parts = [];
      } else if (!c.over) c.parts.push(Buffer.from(piece));
    }
    for (const ev of events) yield ev;
  }
  const reason = done
    ? undefined
    : garbage || !started
      ? 'not a JSON object or array'
      : `the document ends inside ${stack.length} open ${stack.length === 1 ? 'container' : 'containers'}${inString ? ' and a string' : ''} (cut mid-write)`;
  yield { kind: 'end', complete: done, found, items, ...(reason ? { reason } : {}) };
}

// A document saved by a Windows editor or PowerShell may begin with a UTF-8 BOM, which is not JSON
// whitespace; the bytes after it are the document. The three bytes may arrive in separate chunks.
async function* withoutBom(source: AsyncIterable<Buffer | Uint8Array>): AsyncGenerator<Buffer | Uint8Array> {
  const BOM = [0xef, 0xbb, 0xbf];
  let head = Buffer.alloc(0);
  let checked = false;
  for await (const raw of source) {
    if (checked) {
      yield raw;
      continue;
    }
    head = Buffer.concat([head, Buffer.isBuffer(raw) ? raw : Buffer.from(raw)]);
    if (head.length < 3 && BOM.slice(0, head.length).every((b, i) => head[i] === b)) continue;
    checked = true;
    const bom = head.length >= 3 && BOM.every((b, i) => head[i] === b);
    yield bom ? head.subarray(3) : head;
  }
  if (!checked && head.length > 0 && !BOM.slice(0, head.length).every((b, i) => head[i] === b)) yield head;
}
