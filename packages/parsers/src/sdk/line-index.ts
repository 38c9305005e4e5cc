/**
 * The 1-based line of any offset into `text`, from one pass over its newlines: a parser that
 * names the line of each of many items (servers, keys) costs the text's length once, where
 * `text.slice(0, offset).split('\n').length` for each item cost the length times the items.
 */
export function lineIndex(text: string): (offset: number) => number {
  const starts: number[] = [0];
  for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', nl + 1)) starts.push(nl + 1);
  return (offset) => {
    // The last line start at or before the offset.
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
}
