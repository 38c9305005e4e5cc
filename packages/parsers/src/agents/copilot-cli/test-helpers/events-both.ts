import { expect } from 'vitest';
import { type EventsRun, jsonl, type RunOptions, runEvents, stringified } from './events-run.js';

/**
 * Parse the lines in the native encoding and in seed 001's stringified one, check that both give
 * the same rows, facts and skips, and return the native run.
 */
export async function both(lines: string[], opts: RunOptions = {}): Promise<EventsRun> {
  const native = await runEvents(jsonl(lines), opts);
  const str = await runEvents(jsonl(stringified(lines)), opts);
  expect(str.rows, 'stringified encoding gives the same rows').toEqual(native.rows);
  expect(str.facts, 'stringified encoding gives the same facts').toEqual(native.facts);
  expect(str.skips, 'stringified encoding skips the same lines').toEqual(native.skips);
  return native;
}

/** The texts of a run's rows. */
export function texts(run: EventsRun): string[] {
  return run.rows.map((r) => r.text);
}
