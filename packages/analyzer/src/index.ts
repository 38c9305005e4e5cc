export { ANALYZER_VERSION } from './version.js';
export { AnalyzeError, analyze, type AnalyzeEvents, type AnalyzeOptions, type AnalyzeResult } from './analyze.js';
export { type DedupDrop, type DedupOptions, type DedupRecord, dedupRows } from './dedup.js';
export { CSV_BOM, csvField, csvLine, TIMELINE_COLUMNS } from './csv.js';
export { formatSummary, type SummaryEntry, type SummaryTotals } from './summary.js';
export { checkIntegrity, type IntegrityResult } from './integrity.js';
export { openDirectorySource, type CollectionSource } from './source.js';
export { openZipSource } from './zip-source.js';
export { globRoot } from './inventory.js';
