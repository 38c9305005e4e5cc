// The `@aitrail/collector/archive` entry: what the analysis threads need to read a collection
// (its zip, its manifest's lines) and to match catalog globs. The main entry also loads the
// catalog loader, the walker, the zip writer, the exports and the foreign readers (51 modules):
// 85-110 ms of each thread's start when it still loaded YAML and TOML too, 58-61 ms without.
export { archiveDigest, type SidecarCheck } from './archive-digest.js';
export { type ArchiveReader, type OpenArchiveOptions, openArchive } from './archive-reader.js';
export { checkCollectionInfo } from './collection-info.js';
export { compileGlobs } from './globs.js';
export { MAX_MANIFEST_LINE, type StreamLine, streamLines } from './line-stream.js';
export { misfitField } from './manifest-row.js';
export type { CollectionInfo, ManifestRow, ManifestStatus } from './types.js';
export { startsAsCollection } from './zip-salvage.js';
