/** The kind of a timeline row, exactly the seed's turn types. */
export type TurnType = 'system' | 'user' | 'assistant' | 'thinking' | 'tool_use' | 'tool_result';

/**
 * Machine-readable kinds a parser puts on rows so the analyzer never has to read `text`.
 * A parser may use other tags; these are the ones the analyzer acts on.
 */
export type RowTag =
  | 'bad_line' // a line or record that could not be read; text says why, with the line
  | 'unreadable' // a whole artifact could not be read; text says why
  | 'session_start'
  | 'session_end'
  | 'session_name' // text `session name: <name>`; shared by workspace.yaml and the store so dedup can match
  | 'session_metadata'
  | 'sync' // the session was synced to the account (sessions.jsonl synced=yes)
  | 'scratch_directory' // a working directory that belongs to the agent, not the user
  | 'model' // a model: row (the session model changed or was resolved)
  | 'utility_model'
  | 'permission_request'
  | 'permission_decision'
  | 'permission_mode'
  | 'permission_setting' // a standing grant from a config file
  | 'signed_in'
  | 'repeat' // this row repeats an earlier row of the same source file; it may join a cluster that holds a row from its own file
  | (string & {});

/** One timeline row: exactly the seed's columns, plus an optional tag. */
export interface Row {
  /** `YYYY-MM-DDTHH:mm:ss.sssZ`, or '' when the source has no time. */
  timestamp_utc: string;
  session_id: string;
  project_path: string;
  git_branch: string;
  model: string;
  turn_type: TurnType;
  tool_name: string;
  tool_use_id: string;
  text: string;
  /** 1-based line, array index, or rowid; null when the row stands for the whole file. */
  source_line: number | null;
  /** Machine-readable kind of the row (see {@link RowTag}). */
  tag?: RowTag;
}

/** One collected file, as a parser sees it. */
export interface Artifact {
  /** Path relative to the home (or project root), `/`-separated, e.g. `.copilot/session-store.db`. */
  rel: string;
  /** The home folder's name, unique per collection. */
  user: string;
  /** Host the collection came from. */
  host: string;
  /** `home`, `project` or `system`. */
  scope: 'home' | 'project' | 'system';
  /** Size in bytes as recorded in the manifest. */
  size: number;
  /** Modification time, ISO-8601 UTC, as recorded at collection ('' if unknown). */
  mtime: string;
  /** SHA-256 hex of the bytes, as recorded at collection. */
  sha256: string;
  /** The raw bytes, streamed. */
  stream(): AsyncIterable<Buffer>;
  /** The file on disk (materialized if needed) with its `-wal`/`-shm` beside it; for SQLite. */
  localPath(): Promise<string>;
  /** Another artifact in the same directory, by file name (or a path relative to this one's directory). */
  sibling(name: string): Artifact | undefined;
}

/** Session facts other artifacts' rows need; the lower `priority` wins, then the latest report. */
export type FactKey = 'cwd' | 'branch' | 'name' | 'client' | 'synced' | 'has_log';

/** A fact about a session reported by a parser (see {@link ParseContext.fact}). */
export interface SessionFact {
  session_id: string;
  key: FactKey;
  value: string;
  /** 1 = best (the session's own log); larger numbers are fallbacks. */
  priority: number;
}

/** Options that change what parsers emit. */
export interface ParseOptions {
  /** Emit `thinking` rows (reasoning text). */
  includeThinking: boolean;
}

/** What a parser can ask of the analyzer while it parses. */
export interface ParseContext {
  options: ParseOptions;
  /** Record a session fact (cwd, branch, name...) for joins across artifacts. */
  fact(f: SessionFact): void;
  /** Report a problem that is not a row of its own (a parse warning in inventory.json). */
  warn(message: string, line?: number): void;
}

/** A parser for some artifacts of one agent. */
export interface Parser {
  /** Catalog id of the agent, e.g. `copilot-cli`. */
  agent: string;
  /** Short name of this parser, unique within the agent, e.g. `events`. */
  name: string;
  /** Human-readable patterns `wants()` accepts, for `aitrail parsers`. */
  patterns: readonly string[];
  /** By path alone: cheap and pure. */
  wants(rel: string): boolean;
  /** A store that repeats what a primary log holds (its rows may be dropped by dedup). */
  secondary(rel: string): boolean;
  /** How far in time a secondary row may be from the primary row it repeats. */
  secondaryToleranceSeconds(rel: string): number;
  /** Whether this agent's rows can say a session was synced (else sessions say `unknown`). */
  recordsSync: boolean;
  /**
   * Opt-in for a file the catalog flags as secret: true when this parser reads only
   * non-credential fields of it (settings.json's allowedUrls, never its proxy password) and
   * never prints anything else from it. Secret files go to no other parser.
   */
  readsSecretFile?(rel: string): boolean;
  /** Stream rows; never throws on bad data. */
  parse(a: Artifact, ctx: ParseContext): AsyncIterable<Row>;
}

/** What a plugin module's default export is: an agent's parsers and, optionally, its catalog YAML. */
export interface AgentPlugin {
  agent: string;
  parsers: Parser[];
  /** The agent's catalog as YAML text (same schema as the built-in catalog files). */
  catalog?: string;
}
