import type { Listing } from './zip-listing.js';

/*
 * A collection unpacked and zipped again (Explorer's "Compress", Finder's, `zip -r folder`) holds
 * every member one folder down, `aitrail-<host>-<time>/collection.json`, often beside Finder's
 * `__MACOSX/` copies. Its members are the collection's bytes all the same: read from that folder,
 * and checked against the manifest as always. The container is not the one aitrail wrote, and
 * that is said.
 */

/** Members outside the folder named in a problem, at most. */
const NAMED_OUTSIDE = 5;

/** The one top folder holding collection.json and manifest.jsonl, when the zip's root holds neither. */
export function nestedRoot(all: ReadonlyMap<string, unknown>): string | undefined {
  // Checked first and cheaply: every thread of an analysis opens the archive.
  if (all.has('collection.json') || all.has('manifest.jsonl')) return undefined;
  const roots = [...all.keys()].filter((n) => /^[^/]+\/collection\.json$/.test(n) && !n.startsWith('__MACOSX/')).map((n) => n.slice(0, -'collection.json'.length));
  return roots.length === 1 && all.has(`${roots[0]}manifest.jsonl`) ? roots[0] : undefined;
}

/** The listing with the members under `root` named as at a collection's root; the others left out, each said. */
export function underRoot(listing: Listing, root: string): Listing {
  const entries: Listing['entries'] = new Map();
  const members: Listing['members'] = new Map();
  const outside: string[] = [];
  for (const [name, entry] of listing.entries) {
    if (name.startsWith(root)) {
      entries.set(name.slice(root.length), entry);
      members.set(name.slice(root.length), listing.members.get(name)!);
    } else outside.push(name);
  }
  const problems = [
    ...listing.problems,
    `the collection lies in the folder ${JSON.stringify(root)} of this zip: it was unpacked and zipped again, so this is not the archive aitrail wrote; its members are read from that folder and checked against its manifest`,
  ];
  if (outside.length > 0) problems.push(`${outside.length} members outside ${JSON.stringify(root)} are not part of the collection, not read (first: ${outside.slice(0, NAMED_OUTSIDE).map((n) => JSON.stringify(n)).join(', ')})`);
  const spans = listing.spans.map((s) => (s.name.startsWith(root) ? { ...s, name: s.name.slice(root.length) } : s));
  return { ...listing, entries, members, problems, spans };
}
