/**
 * goose's folders (crates/goose/src/config/paths.rs): the etcetera app strategy for "Block" /
 * "goose" gives XDG on Linux and macOS (`.config/goose`, `.local/share/goose`, `.local/state/goose`)
 * and `AppData/Roaming/Block/goose/{config,data}` on Windows; some macOS installs keep
 * `Library/Application Support/Block/goose/`. `GOOSE_PATH_ROOT` replaces all three with
 * `<root>/{config,data,state}`: the catalog walks it as `.goose-path-root`.
 */
const DATA = '(?:\\.local/share/goose|AppData/Roaming/Block/goose/data|Library/Application Support/Block/goose/data|\\.goose-path-root/data)';
const CONFIG = '(?:\\.config/goose|AppData/Roaming/Block/goose/config|Library/Application Support/Block/goose/config|\\.goose-path-root/config)';

/** The goose paths the parsers read, as regexes over a home-relative path. */
export const GOOSE_PATHS = {
  /** The session store (schema v1-v5+). */
  db: new RegExp(`^${DATA}/sessions/sessions\\.db$`),
  /**
   * Pre-migration and pre-restore copies (`pre_migration_v4_to_v5`, `pre_restore_<time>`; the
   * backup folder's place under data is not read in source): any other `.db` under the data folder.
   */
  backup: new RegExp(`^${DATA}/(?!sessions/sessions\\.db$)(?:[^/]+/)*[^/]+\\.db$`),
  /** Sessions written before the database (one JSONL file per session, imported once and left in place). */
  legacy: new RegExp(`^${DATA}/sessions/[^/]+\\.jsonl$`),
  /** config.yaml: GOOSE_MODE, GOOSE_PROVIDER, GOOSE_MODEL, extensions (MCP servers). */
  config: new RegExp(`^${CONFIG}/config\\.yaml$`),
  /** permission.yaml: per-tool always_allow / ask_before / never_allow lists. */
  permission: new RegExp(`^${CONFIG}/permission\\.yaml$`),
};
