// The `@aitrail/collector/archive` entry: what the analysis threads need to read a collection
// (its zip, its manifest's lines) and to match catalog globs. The main entry also loads the
// catalogs, YAML, TOML and the catalog exports: 100-110 ms of every thread's start, for nothing.
export {
  type ArchiveReader,
  DEFAULT_MAX_MEMBER_BYTES,
  type MemberInfo,
  type OpenArchiveOptions,
  openArchive,
  readCollection,
  unsafeMemberName,
} from './archive-reader.js';
export { compileGlobs } from './globs.js';
export { MAX_MANIFEST_LINE, type StreamLine, streamLines } from './line-stream.js';
export type { CollectionInfo, ManifestRow, ManifestStatus } from './types.js';
