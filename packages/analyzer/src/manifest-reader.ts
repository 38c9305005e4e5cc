import type { ManifestRow } from '@aitrail/collector';

/** Longest manifest row read; a real row is well under 64 KB, so a longer line is refused. */
export const MAX_MANIFEST_LINE = 4 * 1024 * 1024;

/**
 * Read manifest.jsonl from a byte stream, one row per line, in bounded memory and linear time:
 * a line longer than {@link MAX_MANIFEST_LINE} is skipped (its bytes are not kept) and, like a
 * line that is not a manifest row, becomes a problem naming its line number.
 */
export async function readManifestStream(source: AsyncIterable<Buffer | Uint8Array | string>): Promise<{ manifest: ManifestRow[]; problems: string[] }> {
  const manifest: ManifestRow[] = [];
  const problems: string[] = [];
  let parts: Buffer[] = [];
  let partLen = 0;
  let overlong = false;
  let lineNo = 0;
  const take = (buf: Buffer | null) => {
    lineNo++;
    if (buf === null) {
      problems.push(`manifest.jsonl line ${lineNo}: longer than ${MAX_MANIFEST_LINE} bytes, not a manifest row; skipped`);
      return;
    }
    const line = buf.toString('utf8').trim();
    if (line === '') return;
    try {
      const row = JSON.parse(line) as ManifestRow;
      if (row === null || typeof row !== 'object' || Array.isArray(row) || typeof row.status !== 'string' || typeof row.archive_path !== 'string' || typeof row.rel !== 'string') throw new Error('no status, rel or archive_path');
      manifest.push(row);
    } catch (e) {
      problems.push(`manifest.jsonl line ${lineNo}: expected a manifest row (a JSON object), found ${(e as Error).message}: ${line.slice(0, 200)}`);
    }
  };
  const push = (b: Buffer) => {
    if (overlong || b.length === 0) return;
    if (partLen + b.length > MAX_MANIFEST_LINE) {
      overlong = true;
      parts = [];
      partLen = 0;
      return;
    }
    parts.push(b);
    partLen += b.length;
  };
  const end = () => {
    take(overlong ? null : Buffer.concat(parts, partLen));
    parts = [];
    partLen = 0;
    overlong = false;
  };
  for await (const c of source) {
    const chunk = typeof c === 'string' ? Buffer.from(c) : Buffer.from(c.buffer, c.byteOffset, c.byteLength);
    let start = 0;
    for (let nl = chunk.indexOf(10, start); nl !== -1; nl = chunk.indexOf(10, start)) {
      push(chunk.subarray(start, nl));
      end();
      start = nl + 1;
    }
    push(chunk.subarray(start));
  }
  if (partLen > 0 || overlong) end();
  return { manifest, problems };
}
