/** Version of the collector package, recorded in collection.json. */
export const COLLECTOR_VERSION = '0.1.0';
export type { CollectionInfo, ManifestRow, ManifestStatus } from './types.js';
export { BUILTIN_CATALOG_DIR, type Catalog, CatalogError, type EnvHome, loadCatalogs, parseCatalog, type ProjectHint } from './catalog.js';
export { compileGlobs, globPrefix, globProblem, walkRoots } from './globs.js';
export {
  type ArchiveReader,
  DEFAULT_MAX_MEMBER_BYTES,
  type MemberInfo,
  type OpenArchiveOptions,
  openArchive,
  readCollection,
  unsafeMemberName,
} from './archive-reader.js';
export { type MemberMismatch, sha256File, type VerifyReport, verifyArchive } from './verify.js';
