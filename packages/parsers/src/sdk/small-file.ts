/** Read a whole artifact into memory, refusing past `maxBytes` (config files, not logs). */
export async function readSmall(stream: AsyncIterable<Buffer>, maxBytes = 64 * 1024 * 1024): Promise<{ ok: true; buffer: Buffer } | { ok: false; reason: string }> {
  const parts: Buffer[] = [];
  let n = 0;
  for await (const c of stream) {
    n += c.length;
    if (n > maxBytes) return { ok: false, reason: `file larger than ${maxBytes} bytes; not read whole` };
    parts.push(c);
  }
  return { ok: true, buffer: Buffer.concat(parts, n) };
}
