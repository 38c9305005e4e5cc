/** The static directory part of a catalog glob: `.copilot/**` gives `.copilot`. */
export function globRoot(glob: string): string {
  const segs = glob.split('/');
  const out: string[] = [];
  for (const s of segs) {
    if (/[*?[\]{}!]/.test(s)) break;
    out.push(s);
  }
  if (out.length === segs.length) out.pop(); // a plain file: its directory
  return out.join('/');
}
