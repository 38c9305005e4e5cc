import { type MemberRead, readFails } from './integrity.js';
import type { SecondaryKeys, UnitOutcome } from './job.js';
import type { ParsePlan } from './plan.js';
import { PrefixIndex } from './prefix-keys.js';

/**
 * What the secondary phase found, for the primary one: the exact keys and shapes of the secondary
 * rows of members that passed their check, and the prefix index of their truncated rows. The
 * prefix index is built here, unit by unit in plan order and row by row, because which prefix
 * lengths fit under its cap depends on that order, not on the threads' (prefix-keys.ts). A cut
 * row whose length does not fit is keyed like any other row: its record (in `outcomes`) takes
 * its exact key, and its key and shape join the others.
 */
export function secondaryKeys(plan: ParsePlan, outcomes: ReadonlyMap<number, UnitOutcome>, reads: ReadonlyMap<string, MemberRead>): SecondaryKeys {
  const keys = new Set<string>();
  const shapes = new Set<string>();
  const prefixes = new PrefixIndex();
  for (const u of plan.ordered) {
    if (!u.secondary) break; // ordered: the secondary units first
    const read = reads.get(`${u.input.index}\0${u.row.archive_path}`);
    if (read && readFails(u.row, read)) continue;
    const o = outcomes.get(u.index);
    if (!o) continue;
    for (const k of o.keys) keys.add(k);
    for (const s of o.shapes) shapes.add(s);
    for (const [at, turn, length, exactKey, shape] of o.cuts) {
      const rec = o.records[at];
      if (prefixes.accept(turn, length, rec[1])) continue;
      rec[1] = exactKey;
      keys.add(exactKey);
      shapes.add(shape);
    }
  }
  return { keys: [...keys], shapes: [...shapes], prefixes: prefixes.state() };
}
