/**
 * `into.push(...items)` without the spread: V8 passes spread items as call arguments, and past
 * about 130,000 of them the call throws ("Maximum call stack size exceeded"). A list that long is
 * one hostile array in an agent's file; the parsers append through this instead.
 */
export function pushAll<T>(into: T[], items: Iterable<T>): T[] {
  for (const x of items) into.push(x);
  return into;
}
