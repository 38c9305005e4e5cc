// The `@aitrail/analyzer/host` entry: what the CLI's own process needs around the analysis child
// (the catalog roots it passes in, the summary it prints, the partial outputs it removes). The
// main entry loads the parsers, SQLite and the report writers, 0.35 s of every analyze's start-up
// spent before the child could begin; these modules import none of that.
export { globRoot } from './glob-root.js';
export { OUTPUT_FILES, REPORT_FILES } from './report/sinks.js';
export { formatSummary, type SummaryEntry, type SummaryTotals, type UnparsedEntry } from './summary.js';
