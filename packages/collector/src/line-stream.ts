/** Longest manifest line read (the analyzer's cap); a real row is well under 64 KB. */
export const MAX_MANIFEST_LINE = 4 * 1024 * 1024;

/** One line of a stream: its 1-based number, and its text, or null when it exceeded the cap. */
export interface StreamLine {
  lineNo: number;
  text: string | null;
}

/**
 * Split a byte stream into lines in linear time and bounded memory: only each new chunk is
 * scanned for newlines, and a line longer than maxLine bytes is dropped (text null) as soon
 * as it passes the cap, so a one-line 64 MB manifest costs maxLine, not 64 MB squared.
 */
export async function* streamLines(source: AsyncIterable<Buffer | Uint8Array | string>, maxLine = MAX_MANIFEST_LINE): AsyncGenerator<StreamLine> {
  let parts: Buffer[] = [];
  let partLen = 0;
  let overlong = false;
  let lineNo = 0;
  const push = (b: Buffer) => {
    if (overlong || b.length === 0) return;
    if (partLen + b.length > maxLine) {
      overlong = true;
      parts = [];
      partLen = 0;
      return;
    }
    parts.push(b);
    partLen += b.length;
  };
  const end = (): StreamLine => {
    lineNo += 1;
    // Bytes are joined before decoding, so a UTF-8 character split across chunks stays whole.
    const text = overlong ? null : Buffer.concat(parts, partLen).toString('utf8');
    parts = [];
    partLen = 0;
    overlong = false;
    return { lineNo, text };
  };
  for await (const c of source) {
    const chunk = typeof c === 'string' ? Buffer.from(c) : Buffer.from(c.buffer, c.byteOffset, c.byteLength);
    let start = 0;
    for (let nl = chunk.indexOf(10, start); nl !== -1; nl = chunk.indexOf(10, start)) {
      push(chunk.subarray(start, nl));
      yield end();
      start = nl + 1;
    }
    push(chunk.subarray(start));
  }
  if (partLen > 0 || overlong) yield end();
}
