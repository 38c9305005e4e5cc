import { TextDecoder } from 'node:util';

// Agents write UTF-8, but a config or rules file a person saved on Windows may be UTF-16: Windows
// PowerShell 5's `>` and `Out-File`, and Notepad's "Unicode", write UTF-16LE with a byte order
// mark. Read as UTF-8, such a file is NULs between letters: JSON and YAML readers refuse it and
// text parsers find nothing in it, so the file's content was lost without a word. The mark at
// offset 0 says which encoding it is; without a mark the text is UTF-8, as the agents write it.

/** A text encoding a byte order mark names. */
export type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be';

/** The byte order mark `head` starts with, or undefined; `head` may be a partial first chunk. */
export function bomOf(head: Uint8Array): { encoding: TextEncoding; length: number } | undefined {
  if (head.length >= 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return { encoding: 'utf-8', length: 3 };
  if (head.length >= 2 && head[0] === 0xff && head[1] === 0xfe) return { encoding: 'utf-16le', length: 2 };
  if (head.length >= 2 && head[0] === 0xfe && head[1] === 0xff) return { encoding: 'utf-16be', length: 2 };
  return undefined;
}

/**
 * Decode a whole text file: UTF-16 when it starts with a UTF-16 byte order mark, else UTF-8; the
 * mark dropped, and the NUL bytes it ends with: a file cut short by a crash or a power loss keeps
 * its old length filled with zeros (the blocks allocated but never written), and a config whose
 * text is whole before them is read rather than lost to one unreadable row.
 */
export function decodeText(buf: Buffer): string {
  const bom = bomOf(buf);
  let end = buf.length;
  while (end > 0 && buf[end - 1] === 0) end--;
  if (bom && bom.encoding !== 'utf-8') {
    // A UTF-16 NUL is two zero bytes: keep the last character's high byte when the count is odd.
    if ((end - bom.length) % 2 === 1) end++;
    return new TextDecoder(bom.encoding).decode(buf.subarray(bom.length, end));
  }
  const s = buf.toString('utf8', 0, end);
  return s.charCodeAt(0) === 0xfeff ? s.slice(1) : s;
}

/**
 * A byte stream as UTF-8: a stream that starts with a UTF-16 byte order mark is decoded and
 * re-encoded as it comes (the mark dropped, a character split across chunks kept whole, an
 * unpaired surrogate as U+FFFD), so line numbers stay those of the file. Any other stream, a
 * UTF-8 mark included, passes through as it is.
 */
export async function* utf8Stream(source: AsyncIterable<Buffer | Uint8Array | string>): AsyncGenerator<Buffer | Uint8Array> {
  let head: Buffer | undefined;
  let decoder: TextDecoder | undefined;
  let decided = false;
  for await (const chunk of source) {
    // A stream opened with an encoding yields strings: UTF-8 again, as the readers expect.
    const raw = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    if (decided) {
      if (decoder) {
        const s = decoder.decode(raw, { stream: true });
        if (s) yield Buffer.from(s, 'utf8');
      } else yield raw;
      continue;
    }
    const b = Buffer.isBuffer(raw) ? raw : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
    head = head ? Buffer.concat([head, b]) : b;
    // A mark is two bytes: wait for them (a stream may give one byte at a time).
    if (head.length < 2) continue;
    decided = true;
    const bom = bomOf(head);
    if (bom && bom.encoding !== 'utf-8') {
      decoder = new TextDecoder(bom.encoding);
      const s = decoder.decode(head.subarray(bom.length), { stream: true });
      if (s) yield Buffer.from(s, 'utf8');
    } else yield head;
    head = undefined;
  }
  if (!decided && head && head.length > 0) yield head;
  if (decoder) {
    const s = decoder.decode();
    if (s) yield Buffer.from(s, 'utf8');
  }
}
