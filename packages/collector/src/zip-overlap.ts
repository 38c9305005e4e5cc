/** Where one entry's data lies in the zip: its local header's offset to the end of its compressed data. */
export interface EntrySpan {
  name: string;
  start: number;
  end: number;
}

/**
 * Names of the entries whose compressed data overlaps another entry's: the overlapping-entry bomb
 * (many central entries pointing at one local entry, each inflating in full, 64 GiB from 1 MB).
 * `spans` are every data entry of the central directory, as {@link openArchive} lists them.
 */
export function overlappingSpans(spans: readonly EntrySpan[]): Set<string> {
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  const out = new Set<string>();
  let reach = -1;
  let owner: string | null = null;
  for (const s of sorted) {
    if (s.start < reach) {
      out.add(s.name);
      if (owner) out.add(owner);
    }
    if (s.end > reach) {
      reach = s.end;
      owner = s.name;
    }
  }
  return out;
}
