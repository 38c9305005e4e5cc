import type { Layout } from '../homes.js';

/** The collectors whose output `aitrail import` reads (`aitrail`: one of its own archives, cut short). */
export type ForeignCollector = 'velociraptor' | 'kape' | 'uac' | 'aitrail';

/** What the source collector recorded of one file (absent fields: it recorded nothing). */
export interface Recorded {
  sha256?: string;
  sha1?: string;
  md5?: string;
  /** The size it says the file had on the target. */
  size?: number;
  /** ISO-8601 UTC. */
  mtime?: string;
  atime?: string;
  ctime?: string;
  birthtime?: string;
  /** Octal permission bits (`0644`). */
  mode?: string;
  /** The file's path on the target as the source wrote it (native form), where staging could only guess it (a damaged aitrail zip). */
  path?: string;
  /** Its home on the target as the source wrote it, likewise. */
  home?: string;
  /** Where these values come from (`results/Generic.Collectors.File%2FUploads.json line 3`). */
  from?: string[];
}

/** One file (or link, or directory) of a foreign collection, at its place on the target. */
export interface ForeignFile {
  /**
   * The path on the target, `/`-separated and absolute: `/home/sean/.claude/x`, or with a drive
   * on Windows: `C:/Users/sean/.claude/x`.
   */
  target: string;
  /** Its name inside the foreign collection, as stored (`uploads/auto/C%3A/Users/...`). */
  member: string;
  kind: 'file' | 'dir' | 'symlink';
  /** Bytes stored in the collection. */
  size: number;
  linkTarget?: string;
  recorded: Recorded;
  /** The stored bytes. For a tar member, only while the stream is at this entry. */
  open(): AsyncIterable<Buffer>;
}

/** A foreign collection opened for import: what it says of itself and its files. */
export interface ForeignSource {
  collector: ForeignCollector;
  /** The input as the user named it. */
  label: string;
  /** The host name it records (or the best guess, said so in `notes`). */
  host: string;
  layout: Layout;
  /** Hash algorithms the source may have recorded per file: these are computed as the bytes are copied. */
  hashes: ('sha256' | 'sha1' | 'md5')[];
  /** When the source collector started and ended, when it says (ISO-8601 UTC). */
  started?: string;
  ended?: string;
  /** What was noticed reading it (skipped volumes, unknown accessors, ...). */
  notes: string[];
  /** Facts about the source kept in collection.json `imported_from` (version, client id, archive hash check). */
  details: Record<string, unknown>;
  /** Every file in collection order; a tar source streams, so each file is read before the next. */
  files(): AsyncIterable<ForeignFile>;
  /**
   * What the source recorded, looked up after every file went by (a tar may hold its logs after
   * the files): `target` is the file's target path.
   */
  recordedFor(file: ForeignFile): Recorded;
  /**
   * Set when the collection as a whole fails its recorded hash (a UAC archive against its
   * acquisition log): every member is then untrusted and none is parsed.
   */
  untrusted(): string | undefined;
  /**
   * Where the target's `/` was when the collector ran over a mounted image (UAC `--mount-point`):
   * target paths begin with it. Asked after every file went by.
   */
  mountPoint?(): string | undefined;
  /** A user's home on the target as the source recorded it, where the staging can only guess it. */
  homeOf?(user: string): string | undefined;
  close(): Promise<void>;
}
