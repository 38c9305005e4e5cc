import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { HtmlReportSink } from './report.js';
import type { RowSink } from './sink.js';
import { SqliteSink } from './sqlite-writer.js';
import { TimesketchSink } from './timesketch.js';

/**
 * The report outputs of a run, in the order they must end: timeline.sqlite first (it loads
 * findings.jsonl, so a findings sink goes before all of these), then the Timesketch file, then
 * report.html (it reads timeline.sqlite).
 */
export function reportSinks(out: string): RowSink[] {
  const db = new SqliteSink(out);
  return [db, new TimesketchSink(out), new HtmlReportSink(out)];
}

/** The report outputs' file names. */
export const REPORT_FILES = ['timeline.sqlite', 'timeline.timesketch.jsonl', 'report.html'] as const;

/** After a run without reports: remove report outputs an earlier run left, which would describe other data. */
export async function removeStaleReports(out: string): Promise<void> {
  await Promise.all(REPORT_FILES.map((f) => rm(join(out, f), { force: true })));
}
