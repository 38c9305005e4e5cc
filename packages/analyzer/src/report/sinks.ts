import { rm } from 'node:fs/promises';
import { join } from 'node:path';

/** The report outputs' file names (the sinks that write them: sink-specs.ts). */
export const REPORT_FILES = ['timeline.sqlite', 'timeline.timesketch.jsonl', 'report.html'] as const;

/**
 * Every output file of a run, in the order they are put in place at its end: inventory.json, the
 * run's index, last.
 */
export const OUTPUT_FILES = ['timeline.csv', 'timeline.jsonl', 'duplicates.jsonl', 'sessions.jsonl', 'findings.jsonl', ...REPORT_FILES, 'inventory.json'] as const;

/**
 * After a run without reports or without findings: remove those outputs an earlier run left,
 * which would describe other data.
 */
export async function removeStale(out: string, names: readonly string[]): Promise<void> {
  await Promise.all(names.map((f) => rm(join(out, f), { force: true })));
}
