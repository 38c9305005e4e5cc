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
  | 'mcp_failure' // an MCP server failed to start or connect (also listed in inventory.json mcp_servers[].failures)
  | 'time_session' // the source has no time per record: the row carries its session's time (DESIGN, sessions without timestamps)
  | 'time_file' // the source has no time per record nor per session: the row carries the file's mtime
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
  /**
   * What dedup matches this row by instead of `text`, when an agent's stores word one event
   * differently (a tool call named and argued differently in two stores); never written out.
   */
  dedup_key?: string;
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
  /** For a project-scope artifact: the project root on the target (native form); '' otherwise. */
  projectRoot?: string;
  /** The home directory on the target the file was collected under (native form), for configs that write paths as `~` or `$USER_HOME$`; '' when unknown. */
  home?: string;
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
  /**
   * When the session reported it (`YYYY-MM-DDTHH:mm:ss.sssZ`). A `cwd` or `branch` with a time is
   * one point of the session's history: a row without its own takes the latest report at or before
   * its time (the first report for earlier rows). Without a time the fact stands for the whole session.
   * With a time, an empty `value` says there was none from then on (a move out of a git
   * repository: no branch), so later rows are not given the earlier branch.
   */
  at?: string;
}

/** An MCP server as an agent's config, cache or log describes it (inventory.json `mcp_servers[]`). */
export interface McpServerReport {
  /** The server's name (its key in the config). */
  name: string;
  /**
   * `user` (a config in the home), `project` (a config in a project), `managed` (a system-wide
   * policy file an administrator installs), '' when unknown (a cache or log).
   */
  scope: 'user' | 'project' | 'managed' | '';
  /** The project the config belongs to (project scope, or a per-project entry of a user file). */
  project_path?: string;
  /** `stdio`, `http`, `sse`, `ws`, ... as the config says, or inferred from command/url. */
  transport?: string;
  command?: string;
  args?: string[];
  url?: string;
  /** The names of environment variables the config sets; their values never leave the parser. */
  env_keys?: string[];
  /** The names of headers the config sets; never their values. */
  header_keys?: string[];
  /** Whether the config says it is disabled. */
  disabled?: boolean;
  /** Tools the server offers, where the agent caches them (names and annotations such as `destructiveHint`). */
  tools?: { name: string; annotations?: Record<string, unknown> }[];
  /** A failed start or connection, from a log: when and why. */
  failure?: { timestamp_utc: string; message: string };
  /**
   * Values that may be credentials (env and header values, secret-looking args or URL parts).
   * The analyzer turns each into a credential finding (kind, 4-character preview, hash) and
   * redacts it from `command`, `args` and `url`; no output ever holds the value.
   */
  secrets?: { where: string; value: string }[];
  /** 1-based line (or index) in the file that holds it, when known. */
  line?: number;
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
  /**
   * A record of a kind this parser does not know (a new event type, a new record kind): counted
   * in inventory.json `unknown_records` (per parser and kind) with one parse warning per file and
   * kind. Never drop an unknown record silently; a kind the parser skips on purpose is not unknown.
   */
  unknown(kind: string, line?: number): void;
  /** An MCP server found in a config, a tool cache or a log (inventory.json `mcp_servers[]`). */
  mcp(server: McpServerReport): void;
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
   * By path alone: where this file stands among files that hold copies of one session (a copy a
   * migration left behind, a set-aside transcript, a legacy twin); the analyzer drops a primary
   * row that repeats another file's row exactly, and the file of the lowest rank keeps its rows.
   * Default 0 (the live copy).
   */
  copyRank?(rel: string): number;
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
