export { COLLECTOR_VERSION } from './version.js';
export type { CollectionInfo, ManifestRow, ManifestStatus } from './types.js';
export {
  BUILTIN_CATALOG_DIR,
  type Catalog,
  CatalogError,
  type CatalogGlobs,
  type CollectIf,
  type EnvHome,
  type HintFormat,
  type HintRule,
  loadCatalogs,
  parseCatalog,
  type ProjectHint,
} from './catalog.js';
export {
  type AnchorDir,
  anchorDirs,
  anchorIds,
  EDITOR_TABLE_FILE,
  type Editor,
  type EditorFamily,
  type EditorPlace,
  EditorTableError,
  editorDirs,
  expandAnchor,
  loadEditorFamilies,
  parseEditorFamilies,
} from './editors.js';
export { compileGlobs, globPrefix, globProblem, PROJECT_PRUNED_DIRS, walkRoots } from './globs.js';
export {
  type ArchiveReader,
  DEFAULT_MAX_MEMBER_BYTES,
  type MemberInfo,
  type OpenArchiveOptions,
  openArchive,
  readCollection,
  unsafeMemberName,
} from './archive-reader.js';
export { archiveDigest, type SidecarCheck, sha256File } from './archive-digest.js';
export { type MemberMismatch, type VerifyReport, verifyArchive } from './verify.js';
export { collect, defaultOutName, layoutOf, listDir } from './collect.js';
export { COMPRESSION_LEVEL, COMPRESSIONS, type Compression } from './zip-writer.js';
export {
  type CollectEvents,
  type CollectOptions,
  type CollectProgress,
  type CollectSummary,
  CollectUsageError,
  type ProjectOutcome,
  type SecretsMode,
  type SummaryGroup,
} from './options.js';
export {
  type DirEntry,
  detectLayout,
  discoverHomes,
  type Home,
  type Layout,
  type ListDir,
  layoutIgnoresCase,
  mapTargetPath,
  type PathModule,
  uniqueUsers,
} from './homes.js';
export { decodeName, decodeRoot, encodeRoot, memberRel } from './names.js';
export { atPath, hintText, hintValues, readHintValues, stripJsonComments } from './project-hints.js';
export { classifyRel, type Disposition } from './classify.js';
export { MAX_MANIFEST_LINE, type StreamLine, streamLines } from './line-stream.js';
export { importForeign, type ImportOptions, type ImportSummary } from './foreign/import.js';
export type { ImportedFrom } from './types.js';
export type { ImportHook } from './options.js';
export { EXPORT_FORMATS, type ExportFormat, exportCatalogs } from './export/index.js';
export { YAML_MAX_DEPTH, yamlTooDeep } from './yaml-guard.js';
