import { createHash } from 'node:crypto';

/**
 * The prefix rule of deduplication (docs/formats.md, Deduplication): a secondary row tagged
 * `truncated` holds the beginning of a text its store cut (Copilot's session-store.db keeps the
 * first 97 characters of a prompt and appends "...", the extension's debug log appends
 * `[truncated]`). Its key is built from the text before that marker, and a primary row of the
 * same host, user, agent and turn type gets a second key from its own text cut to the same
 * length, so the cut copy joins the full text's cluster under the usual rules (same session, time
 * tolerance, one row per file).
 */

// One trailing marker: an ellipsis, `[truncated]` (with anything inside the brackets), or both.
const MARKER = /(?:\.{3}|…)?(?:\[truncated[^\]\n]*\])?\s*$/;

/** Distinct prefix lengths per turn type beyond this are not matched (each costs every primary row of that type a hash). */
export const MAX_PREFIX_LENGTHS = 64;

/** The text before a truncation marker, trimmed at its end; undefined when there is no marker or nothing before it. */
export function truncatedPrefix(text: string): string | undefined {
  const m = MARKER.exec(text);
  if (!m || m[0].trim() === '') return undefined;
  const p = text.slice(0, m.index).trimEnd().trimStart();
  return p === '' ? undefined : p;
}

/** The dedup key of a prefix (never equal to an exact-text key: the tuple has one more member). */
export function prefixKey(host: string, user: string, agent: string, turn: string, prefix: string): string {
  return createHash('sha1').update(JSON.stringify([host, user, agent, turn, prefix, 'prefix'])).digest('base64');
}

/** The prefix lengths seen per turn type, and the keys, while secondary units run. */
export class PrefixIndex {
  private readonly lengths = new Map<string, Set<number>>();
  private readonly keys = new Set<string>();

  /** Record a truncated secondary row; returns its key, or undefined when it has no prefix or the lengths are full. */
  add(host: string, user: string, agent: string, turn: string, text: string): string | undefined {
    const p = truncatedPrefix(text);
    if (p === undefined) return undefined;
    let set = this.lengths.get(turn);
    if (!set) {
      set = new Set();
      this.lengths.set(turn, set);
    }
    if (!set.has(p.length)) {
      if (set.size >= MAX_PREFIX_LENGTHS) return undefined;
      set.add(p.length);
    }
    const k = prefixKey(host, user, agent, turn, p);
    this.keys.add(k);
    return k;
  }

  /** The prefix keys of a primary row that some truncated row has (usually none). */
  match(host: string, user: string, agent: string, turn: string, text: string): string[] {
    const set = this.lengths.get(turn);
    if (!set) return [];
    const t = text.trimStart();
    const out: string[] = [];
    for (const n of set) {
      if (t.length <= n) continue;
      const k = prefixKey(host, user, agent, turn, t.slice(0, n));
      if (this.keys.has(k)) out.push(k);
    }
    return out;
  }
}
