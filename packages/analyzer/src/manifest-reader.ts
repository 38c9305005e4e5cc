import { type ManifestRow, MAX_MANIFEST_LINE, misfitField, streamLines } from '@aitrail/collector/archive';

/**
 * Read manifest.jsonl from a byte stream, one row per line, in bounded memory and linear time:
 * a line longer than the collector's `MAX_MANIFEST_LINE` is skipped (its bytes are not kept) and, like a
 * line that is not a manifest row (or one with a field of the wrong type), becomes a problem
 * naming its line number.
 */
export async function readManifestStream(source: AsyncIterable<Buffer | Uint8Array | string>): Promise<{ manifest: ManifestRow[]; problems: string[] }> {
  const manifest: ManifestRow[] = [];
  const problems: string[] = [];
  for await (const { lineNo, text } of streamLines(source, MAX_MANIFEST_LINE)) {
    if (text === null) {
      problems.push(`manifest.jsonl line ${lineNo}: longer than ${MAX_MANIFEST_LINE} bytes, not a manifest row; skipped`);
      continue;
    }
    const line = text.trim();
    if (line === '') continue;
    try {
      const row = JSON.parse(line) as ManifestRow;
      if (row === null || typeof row !== 'object' || Array.isArray(row) || typeof row.status !== 'string' || typeof row.archive_path !== 'string' || typeof row.rel !== 'string') throw new Error('no status, rel or archive_path');
      const misfit = misfitField(row as unknown as Record<string, unknown>);
      if (misfit) throw new Error(`a row with ${misfit}`);
      manifest.push(row);
    } catch (e) {
      problems.push(`manifest.jsonl line ${lineNo}: expected a manifest row (a JSON object), found ${(e as Error).message}: ${line.slice(0, 200)}`);
    }
  }
  return { manifest, problems };
}
