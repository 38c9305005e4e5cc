/** Status of one manifest row. */
export type ManifestStatus = 'collected' | 'skipped_excluded' | 'skipped_secret' | 'skipped_special' | 'skipped_too_large' | 'error';

/** One row of `manifest.jsonl`: a file, a skipped directory, or something that could not be read. */
export interface ManifestRow {
  /** The home folder's name, made unique per collection (e.g. `sean`, `sean-2`). */
  user: string;
  /** The home directory as found on the target (native path). */
  home: string;
  /** Catalog agent id (the first catalog that claims the file). */
  agent: string;
  /**
   * Every catalog that claims this file (or skipped entry) at this place, `agent` first;
   * present only when more than one does (VS Code's global state.vscdb: Copilot Chat and Cline).
   */
  agents?: string[];
  scope: 'home' | 'project' | 'system';
  /** Relative to the home (or project root), `/`-separated; for system scope the absolute path without the leading `/`. */
  rel: string;
  /** The real path on the target (native form). */
  source_path: string;
  /** Member name in the zip (`homes/<user>/<rel>`, `projects/<encoded root>/<rel>`, `system/<path>`); '' when not archived. */
  archive_path: string;
  status: ManifestStatus;
  /** Why the row is not `collected` (or a warning for a collected file, e.g. changed while read). */
  reason: string;
  /** Matched a catalog secret glob. */
  secret: boolean;
  /** file | dir | symlink | fifo | socket | block_device | char_device | unknown */
  kind: string;
  size: number | null;
  bytes_read: number | null;
  sha256: string;
  mtime: string;
  atime: string;
  ctime: string;
  birthtime: string;
  /** Octal permission bits, e.g. `0644`. */
  mode: string;
  /** For a skipped directory: how many files and bytes it held. */
  files?: number;
  bytes?: number;
  /** For a project-scope row: the project root on the target. */
  project_root?: string;
  /** For a symlink: its target, as read with readlink (never followed). */
  link_target?: string;
  /** In an imported collection (`aitrail import`): where the file came from and what its collector recorded. */
  imported?: ImportedFrom;
}

/** The provenance of a row of an imported collection. */
export interface ImportedFrom {
  /** velociraptor, kape or uac. */
  collector: string;
  /** The member's name in the foreign collection, as stored. */
  member: string;
  /** The hashes the source recorded, each compared with the bytes: `match` or `mismatch`. */
  hashes: Record<string, { recorded: string; computed: string; check: 'match' | 'mismatch' }>;
  /** Times and size as the source recorded them (ISO-8601 UTC). */
  recorded: Record<string, string | number>;
  /** Where those values were read (`uploads.json line 3`, `..._CopyLog.csv line 7`). */
  from: string[];
}

/** `collection.json`: what the collection is. */
export interface CollectionInfo {
  format: 'aitrail-collection';
  format_version: 1;
  host: string;
  os: { platform: string; release: string; arch: string };
  tool: { name: 'aitrail'; version: string };
  catalog: { agent: string; version: string; sha256: string }[];
  arguments: string[];
  started_utc: string;
  ended_utc: string;
  counts: Record<string, number>;
  complete: true;
  /** Layout of the target: linux, darwin or win32. */
  layout?: string;
  /** The homes collected, with their collection-unique user names. */
  homes?: { user: string; home: string }[];
  /** Operator notes (moved config homes, no home found, dry-run limits). */
  notes?: string[];
  /** The mounted image collected with --root. */
  root?: string;
  /** With --root: the machine that ran the collector (os then describes the image's layout). */
  collector_os?: { platform: string; release: string; arch: string };
  /**
   * How members were compressed (`--compression`): the choice, its deflate level (0: none), and
   * the rule that stores a member whose first chunk does not shrink. Absent in older archives.
   */
  compression?: { choice: string; level: number; chunk_bytes: number; store_above: number; stored_members: number; deflated_members: number };
  /** Made by `aitrail import` from another collector's output: which, and what it said of itself. */
  imported_from?: Record<string, unknown>;
  /** Whether the host's system paths were walked (a run naming its homes skips them unless --system). */
  system_paths?: boolean;
}
