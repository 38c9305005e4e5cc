/**
 * What tells Cline and its forks Roo Code and Kilo Code apart, as data. The three extensions keep
 * the same task folders (`tasks/<id>/ui_messages.json`, `api_conversation_history.json`,
 * `task_metadata.json`) in their own `globalStorage/<publisher.ext>/`; the parsers are one code
 * instantiated per profile (`familyParsers`), so a difference is a value here, never a branch.
 */

/** A globalState key read into a settings row, and the row it gives. */
export interface StateKey {
  /** Dotted path in the extension's globalState object (`autoApprovalSettings.enabled`). */
  path: string;
  /** `permission` → permission_setting, `mode` → permission_mode, `model` → model setting. */
  kind: 'permission' | 'mode' | 'model';
}

/** One agent of the Cline family. */
export interface ClineFamilyProfile {
  /** Catalog id of the agent (`cline`, `roo-code`, `kilo-code`). */
  agent: string;
  /** The extension id; VS Code writes its globalStorage folder in lower case, state.vscdb keys as published. */
  extensionId: string;
  /**
   * Home-relative folders that hold the same storage layout outside an editor: Cline's CLI and
   * JetBrains host (`.cline/data`), the Roo CLI's VS Code shim (`.vscode-mock/global-storage`).
   */
  extraRoots: readonly string[];
  /** The MCP settings file under `settings/` (`cline_mcp_settings.json`, `mcp_settings.json`). */
  mcpSettings: readonly string[];
  /** Project MCP files, relative to a project root (`.roo/mcp.json`). */
  projectMcp: readonly string[];
  /** Files holding the extension's globalState outside state.vscdb, home-relative (`.cline/data/globalState.json`). */
  stateFiles: readonly string[];
  /** globalState keys read into rows (approvals, modes, models). */
  stateKeys: readonly StateKey[];
  /** Whether the agent writes Cline's SDK session store (`.cline/data/sessions`, `db/sessions.db`). */
  sdkStore: boolean;
  /** CLI prompt histories holding no times of their own, home-relative. */
  cliHistory: readonly string[];
}

const CLINE_STATE: readonly StateKey[] = [
  { path: 'mode', kind: 'mode' },
  { path: 'autoApprovalSettings.enabled', kind: 'permission' },
  { path: 'autoApprovalSettings.actions', kind: 'permission' },
  { path: 'autoApprovalSettings.maxRequests', kind: 'permission' },
  { path: 'yoloModeToggled', kind: 'permission' },
  { path: 'autoApproveAllToggled', kind: 'permission' },
  { path: 'strictPlanModeEnabled', kind: 'permission' },
  { path: 'actModeApiProvider', kind: 'model' },
  { path: 'actModeApiModelId', kind: 'model' },
  { path: 'planModeApiProvider', kind: 'model' },
  { path: 'planModeApiModelId', kind: 'model' },
  { path: 'apiProvider', kind: 'model' },
  { path: 'apiModelId', kind: 'model' },
];

// Roo Code's globalSettings (packages/types/src/global-settings.ts); Kilo Code's legacy extension keeps them.
const ROO_STATE: readonly StateKey[] = [
  { path: 'mode', kind: 'mode' },
  { path: 'autoApprovalEnabled', kind: 'permission' },
  { path: 'alwaysAllowReadOnly', kind: 'permission' },
  { path: 'alwaysAllowReadOnlyOutsideWorkspace', kind: 'permission' },
  { path: 'alwaysAllowWrite', kind: 'permission' },
  { path: 'alwaysAllowWriteOutsideWorkspace', kind: 'permission' },
  { path: 'alwaysAllowWriteProtected', kind: 'permission' },
  { path: 'alwaysAllowExecute', kind: 'permission' },
  { path: 'allowedCommands', kind: 'permission' },
  { path: 'deniedCommands', kind: 'permission' },
  { path: 'alwaysAllowBrowser', kind: 'permission' },
  { path: 'alwaysAllowMcp', kind: 'permission' },
  { path: 'alwaysAllowModeSwitch', kind: 'permission' },
  { path: 'alwaysAllowSubtasks', kind: 'permission' },
  { path: 'alwaysAllowFollowupQuestions', kind: 'permission' },
  { path: 'alwaysAllowUpdateTodoList', kind: 'permission' },
  { path: 'alwaysApproveResubmit', kind: 'permission' },
  { path: 'allowedMaxRequests', kind: 'permission' },
  { path: 'yoloMode', kind: 'permission' },
  { path: 'currentApiConfigName', kind: 'model' },
];

/** Cline (`saoudrizwan.claude-dev`; `~/.cline/data` for its CLI, JetBrains host and SDK store). */
export const CLINE_PROFILE: ClineFamilyProfile = {
  agent: 'cline',
  extensionId: 'saoudrizwan.claude-dev',
  extraRoots: ['.cline/data'],
  mcpSettings: ['cline_mcp_settings.json'],
  projectMcp: [],
  stateFiles: ['.cline/data/globalState.json'],
  stateKeys: CLINE_STATE,
  sdkStore: true,
  cliHistory: ['.cline/data/cache/user_input_history.jsonl'],
};

/** Roo Code (`RooVeterinaryInc.roo-cline`; the Roo CLI runs it in a shim storing `~/.vscode-mock/global-storage`). */
export const ROO_PROFILE: ClineFamilyProfile = {
  agent: 'roo-code',
  extensionId: 'rooveterinaryinc.roo-cline',
  extraRoots: ['.vscode-mock/global-storage'],
  mcpSettings: ['mcp_settings.json'],
  projectMcp: ['.roo/mcp.json'],
  stateFiles: ['.vscode-mock/global-storage/global-state.json'],
  stateKeys: ROO_STATE,
  sdkStore: false,
  cliHistory: ['.roo/cli-history.json'],
};

/** Kilo Code's legacy extension (`kilocode.kilo-code`, a Roo Code fork); its CLI (kilo.db) is OpenCode's format. */
export const KILO_PROFILE: ClineFamilyProfile = {
  agent: 'kilo-code',
  extensionId: 'kilocode.kilo-code',
  extraRoots: [],
  mcpSettings: ['mcp_settings.json'],
  projectMcp: ['.kilocode/mcp.json'],
  stateFiles: [],
  stateKeys: ROO_STATE,
  sdkStore: false,
  cliHistory: [],
};
