/**
 * What tells OpenCode and its forks apart, as data. OpenCode (`sst/opencode`, now
 * `anomalyco/opencode`) and Kilo Code's CLI (`@kilocode/cli`, `packages/opencode` with
 * `kilocode_change` markers) keep the same SQLite schema and JSON storage under their own XDG
 * folder name; the parsers are one code instantiated per profile (`familyParsers`).
 */
export interface OpenCodeProfile {
  /** Catalog id of the agent the rows belong to (`opencode`; Kilo's CLI: `kilo-code`). */
  agent: string;
  /** Prefix of every parser name, so a fork's folder can hold other parsers too (`''`, `cli-`). */
  parserPrefix: string;
  /** The XDG folder name (`opencode`, `kilo`): data `.local/share/<app>`, config `.config/<app>`, state `.local/state/<app>`. */
  app: string;
  /**
   * Base names of the database in the data folder, as a regex source: `opencode.db` on release
   * channels, `opencode-<channel>.db` on others (Kilo: `kilo.db`, `kilo-<channel>.db`, and an older
   * `opencode-<channel>.db` it falls back to).
   */
  dbNames: string;
  /** Config file names in the config folder (`.config/<app>/`). */
  configNames: readonly string[];
  /** Config file names at a project's root and in its hidden folders. */
  projectConfigNames: readonly string[];
  /** Hidden per-project folders that hold a config file of the same names (`.opencode`). */
  projectDirs: readonly string[];
  /**
   * Part metadata that marks a UI-only part the agent writes and removes again (Kilo's
   * `"kilocode.lifecycle": "transient"` spinner text): the event log's copies of such parts give no row.
   */
  transientMetadata: readonly { key: string; value: string }[];
}

/** OpenCode: `~/.local/share/opencode/opencode.db` (every OS: xdg-basedir), `~/.config/opencode/opencode.json(c)`. */
export const OPENCODE_PROFILE: OpenCodeProfile = {
  agent: 'opencode',
  parserPrefix: '',
  app: 'opencode',
  dbNames: 'opencode(?:-[^/]+)?\\.db',
  // config.json is the oldest name; opencode.jsonc wins over opencode.json when both exist.
  configNames: ['opencode.json', 'opencode.jsonc', 'config.json'],
  projectConfigNames: ['opencode.json', 'opencode.jsonc'],
  projectDirs: ['.opencode'],
  transientMetadata: [],
};
