/**
 * What tells Gemini CLI and its fork Qwen Code apart, as data: the state directory, the store
 * layouts each writes, and the settings keys each reads. The parsers are the same code
 * instantiated once per profile (`familyParsers`), so a difference between the two is a value
 * here, never a branch in a parser.
 */

/** Where a settings key sits and what row it gives. */
export interface SettingKey {
  /** Dotted path in settings.json (v2 nested, or a v1 flat key). */
  path: string;
  /** `permission setting`, `permission mode`, `auth`, `retention setting`, `model setting`. */
  kind: 'permission' | 'mode' | 'auth' | 'retention' | 'model';
}

/** One agent of the Gemini CLI family. */
export interface FamilyProfile {
  /** Catalog id of the agent (`gemini-cli`, `qwen-code`). */
  agent: string;
  /** The state directory under the home (`.gemini`, `.qwen`). */
  dir: string;
  /**
   * Store layouts: `tmp` = `<dir>/tmp/<slug or sha256>/chats/...` (Gemini CLI; early Qwen builds),
   * `projects` = `<dir>/projects/<sanitized cwd>/chats/<id>.jsonl` (Qwen Code).
   */
  layouts: readonly ('tmp' | 'projects')[];
  /** Settings keys read into rows, in row order. */
  settings: readonly SettingKey[];
  /**
   * System settings directories as system-scope rels (the absolute path without its leading `/`;
   * `C:/...` on Windows): settings.json, system-defaults.json and policies/ live there.
   */
  systemDirs: readonly string[];
  /** Whether the agent writes `<dir>/usage_record.jsonl` (Qwen Code's per-run summaries). */
  usageRecords: boolean;
  /** User texts the CLI itself sends as a user turn (not typed): they give system rows. */
  syntheticPrompts: readonly string[];
}

/** The settings keys both CLIs read (v2 nested names and their v1 flat equivalents). */
export const COMMON_SETTINGS: readonly SettingKey[] = [
  { path: 'security.auth.selectedType', kind: 'auth' },
  { path: 'selectedAuthType', kind: 'auth' },
  { path: 'general.defaultApprovalMode', kind: 'mode' },
  { path: 'tools.approvalMode', kind: 'mode' },
  { path: 'approvalMode', kind: 'mode' },
  { path: 'tools.allowed', kind: 'permission' },
  { path: 'tools.exclude', kind: 'permission' },
  { path: 'tools.core', kind: 'permission' },
  { path: 'coreTools', kind: 'permission' },
  { path: 'excludeTools', kind: 'permission' },
  { path: 'allowedTools', kind: 'permission' },
  { path: 'allowMCPServers', kind: 'permission' },
  { path: 'excludeMCPServers', kind: 'permission' },
  { path: 'mcp.allowed', kind: 'permission' },
  { path: 'mcp.excluded', kind: 'permission' },
  { path: 'security.folderTrust.enabled', kind: 'permission' },
  { path: 'security.disableYoloMode', kind: 'permission' },
  { path: 'general.checkpointing.enabled', kind: 'permission' },
  { path: 'checkpointing.enabled', kind: 'permission' },
  { path: 'general.sessionRetention', kind: 'retention' },
  { path: 'model.name', kind: 'model' },
  { path: 'model', kind: 'model' },
];

/** geminiClient.ts: an invalid stream is retried with this text as a user turn (no one typed it). */
export const SYNTHETIC_PROMPTS: readonly string[] = ['System: Please continue.'];

/** Gemini CLI (`~/.gemini`, GEMINI_CLI_HOME). */
export const GEMINI_PROFILE: FamilyProfile = {
  agent: 'gemini-cli',
  dir: '.gemini',
  layouts: ['tmp'],
  settings: COMMON_SETTINGS,
  // storage.ts getSystemConfigDir; macOS /etc is a link into /private (the collector walks /private/etc).
  systemDirs: ['etc/gemini-cli', 'private/etc/gemini-cli', 'Library/Application Support/GeminiCli', 'C:/ProgramData/gemini-cli'],
  usageRecords: false,
  syntheticPrompts: SYNTHETIC_PROMPTS,
};
