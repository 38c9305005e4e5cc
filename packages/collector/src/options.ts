import type { Catalog } from './catalog.js';
import type { Layout } from './homes.js';
import type { ManifestRow } from './types.js';
import type { Compression } from './zip-writer.js';

/** What `--secrets` does with a file matched by a secret glob. */
export type SecretsMode = 'collect' | 'hash' | 'skip';

/** Options of one collect run. */
export interface CollectOptions {
  /** Homes named directly (`--home`); else homes are discovered. */
  homes?: string[];
  /** A mounted image whose homes are discovered with the same rules (`--root`). */
  root?: string;
  /**
   * Also walk the catalogs' system paths (`/etc/...`, `/tmp/claude-*`) when `homes` names the
   * homes (`--system`). A whole-machine or `--root` collection always walks them; a run that
   * names its homes otherwise collects those homes only, not the host it runs on.
   */
  system?: boolean;
  /** Only these catalog agents (`--agent`); all when absent or empty. */
  agents?: string[];
  /** The archive to write (`<out>.partial` until complete). */
  out: string;
  /** Collect excluded directories too. */
  full: boolean;
  secrets: SecretsMode;
  /** How members are compressed (`--compression`); default `fast`. */
  compression?: Compression;
  /** Walk and list, read nothing, write nothing. */
  dryRun: boolean;
  catalogs: Catalog[];
  /** Environment (COPILOT_HOME, SystemDrive, ...); default process.env. */
  env?: Record<string, string | undefined>;
  /** Platform whose layout the live system has (tests); default process.platform. */
  platform?: NodeJS.Platform;
  /** The running user's home (env_homes apply to it only); default os.homedir(). */
  currentHome?: string;
  /** The command line, recorded in collection.json. */
  arguments?: string[];
  /** Host name recorded in collection.json; default os.hostname(). */
  host?: string;
  /** Tool version recorded in collection.json. */
  toolVersion?: string;
  /** Bounds of each project root's walk (tests); default PROJECT_WALK_LIMIT (docs/catalog.md). */
  projectWalkLimit?: { maxDepth?: number; maxEntries?: number };
  /** Abort (Ctrl-C, SIGTERM): the `.partial` is removed and collect rejects. */
  signal?: AbortSignal;
  /** Set by `aitrail import`: `root` is a staged copy of a foreign collection standing in for the target. */
  imported?: ImportHook;
}

/**
 * How a collection of a staged foreign collection (`aitrail import`) differs from one of a
 * mounted image: rows name the target's paths and the source's times, a member whose recorded
 * hash does not match is refused, and collection.json says where it came from.
 */
export interface ImportHook {
  /** The target's layout, as the source collector recorded it (the staged tree may be too sparse to tell). */
  layout: Layout;
  /** Why a staged file must not be read or parsed (its recorded hash does not match), or undefined. */
  refuse(fsPath: string): string | undefined;
  /** Rewrite a row in place: target paths, the source's times, provenance. */
  row(row: ManifestRow): void;
  /** A staged home's path on the target, for collection.json `homes` (never the private staging folder). */
  home(staged: string, user: string): string;
  /** collection.json `imported_from`. */
  info: Record<string, unknown>;
}

/** A progress snapshot (never any file content). */
export interface CollectProgress {
  phase: 'homes' | 'system' | 'projects' | 'archive';
  user: string;
  agent: string;
  files: number;
  bytes: number;
  /** The rel being read. */
  current: string;
}

/** Callbacks of a collect run. */
export interface CollectEvents {
  progress?(p: CollectProgress): void;
  row?(row: ManifestRow): void;
  /** A line for the operator (not a secret, not file content). */
  log?(line: string): void;
}

/** Per user and agent totals of the summary. */
export interface SummaryGroup {
  user: string;
  agent: string;
  scope: ManifestRow['scope'];
  files: number;
  bytes: number;
  secrets: number;
  skipped: number;
  errors: number;
}

/** A project root recorded in a collected file, and what became of it. */
export interface ProjectOutcome {
  root: string;
  user: string;
  agent: string;
  /** `remote`: a folder on another host (`vscode-remote://...`), named by a hint, not collected here. */
  status: 'collected' | 'missing' | 'not_a_directory' | 'symlink_not_followed' | 'unmappable' | 'remote';
}

/** What a collect run did. */
export interface CollectSummary {
  /** The archive written; null for a dry run. */
  out: string | null;
  sha256: string;
  archive_bytes: number;
  dry_run: boolean;
  layout: Layout;
  started_utc: string;
  ended_utc: string;
  homes: { user: string; home: string }[];
  counts: Record<string, number>;
  groups: SummaryGroup[];
  projects: ProjectOutcome[];
  notes: string[];
  /** The manifest rows of a dry run (a real run has them in the archive). */
  rows?: ManifestRow[];
}

/** A mistake in the options (bad --root, unknown --agent, existing --out): exit 2, no stack. */
export class CollectUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CollectUsageError';
  }
}
