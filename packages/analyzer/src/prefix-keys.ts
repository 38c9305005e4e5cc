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

/** A {@link PrefixIndex} as plain data, to reach parse worker threads: lengths per turn type in the order first seen, and the keys. */
export interface PrefixState {
  lengths: [string, number[]][];
  keys: string[];
}

/** The prefix lengths seen per turn type, and the keys, while secondary units run. */
export class PrefixIndex {
  private readonly lengths = new Map<string, Set<number>>();
  private readonly keys = new Set<string>();

  /** An index holding a state {@link PrefixIndex.state} gave. */
  static from(state: PrefixState): PrefixIndex {
    const idx = new PrefixIndex();
    for (const [turn, lengths] of state.lengths) idx.lengths.set(turn, new Set(lengths));
    for (const k of state.keys) idx.keys.add(k);
    return idx;
  }

  /** This index as plain data. */
  state(): PrefixState {
    return { lengths: [...this.lengths].map(([turn, set]) => [turn, [...set]]), keys: [...this.keys] };
  }

  /** Record a truncated secondary row; returns its key, or undefined when it has no prefix or the lengths are full. */
  add(host: string, user: string, agent: string, turn: string, text: string): string | undefined {
    const p = truncatedPrefix(text);
    if (p === undefined) return undefined;
    const k = prefixKey(host, user, agent, turn, p);
    return this.accept(turn, p.length, k) ? k : undefined;
  }

  /**
   * Record the key of a prefix of this length (what {@link add} does once the prefix is known);
   * false when a new length would pass {@link MAX_PREFIX_LENGTHS}. Calls must come in the order
   * the rows do: which lengths fit depends on it.
   */
  accept(turn: string, length: number, key: string): boolean {
    let set = this.lengths.get(turn);
    if (!set) {
      set = new Set();
      this.lengths.set(turn, set);
    }
    if (!set.has(length)) {
      if (set.size >= MAX_PREFIX_LENGTHS) return false;
      set.add(length);
    }
    this.keys.add(key);
    return true;
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
