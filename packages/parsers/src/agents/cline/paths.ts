import { editorOf } from '../../sdk/editors.js';
import type { ClineFamilyProfile } from './profile.js';

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The files of one task folder the parsers read. */
export type TaskFile = 'ui' | 'api' | 'metadata' | 'history_item';

const TASK_FILES: Record<string, TaskFile> = {
  'ui_messages.json': 'ui',
  'api_conversation_history.json': 'api',
  // Cline before 2.x named the API history claude_messages.json (the extension was "Claude Dev").
  'claude_messages.json': 'api',
  'task_metadata.json': 'metadata',
  'history_item.json': 'history_item',
};

/** Where a task file sits: the storage rest and the task id (its folder name). */
export interface TaskPath {
  file: TaskFile;
  taskId: string;
}

/**
 * The path rules of one member of the Cline family, compiled once from its profile. Paths are
 * home-relative; the extension's storage root is `globalStorage/<ext>/` of every VS Code-family
 * user folder (profiles included), found through the SDK's editor table, or one of the profile's
 * extra roots (the CLI's `.cline/data`, the Roo CLI's `.vscode-mock/global-storage`).
 */
export class ClinePaths {
  private readonly ext: string;
  private readonly extra: RegExp;
  private readonly sdk: RegExp;

  constructor(readonly profile: ClineFamilyProfile) {
    this.ext = profile.extensionId.toLowerCase();
    const roots = profile.extraRoots.map(esc).join('|');
    this.extra = roots ? new RegExp(`^(?:${roots})/(.+)$`, 'i') : /$^/;
    this.sdk = profile.sdkStore ? /^\.cline\/data\/(.+)$/i : /$^/;
  }

  /** The path below the extension's storage root, or undefined when the rel is not in one. */
  storageRest(rel: string): string | undefined {
    const loc = editorOf(rel);
    if (loc?.rest !== undefined) {
      // <U>/globalStorage/<ext>/... or <U>/profiles/<id>/globalStorage/<ext>/...
      const m = /^(?:profiles\/[^/]+\/)?globalStorage\/([^/]+)\/(.+)$/i.exec(loc.rest);
      return m && m[1].toLowerCase() === this.ext ? m[2] : undefined;
    }
    return this.extra.exec(rel)?.[1];
  }

  /** A task folder file (`tasks/<id>/ui_messages.json`, ...), or undefined. */
  task(rel: string): TaskPath | undefined {
    const rest = this.storageRest(rel);
    const m = rest ? /^tasks\/([^/]+)\/([^/]+)$/i.exec(rest) : null;
    // `tasks/_index.json` and other `_`/`.` names are not task folders (TaskHistoryStore skips them).
    if (!m || /^[_.]/.test(m[1])) return undefined;
    const file = TASK_FILES[m[2].toLowerCase()];
    return file ? { file, taskId: m[1] } : undefined;
  }

  /** The task index: Cline's `state/taskHistory.json`, Roo's `tasks/_index.json`. */
  isTaskIndex(rel: string): boolean {
    const rest = this.storageRest(rel);
    return rest !== undefined && /^(?:state\/taskHistory\.json|tasks\/_index\.json)$/i.test(rest);
  }

  /** The extension's MCP settings (`settings/cline_mcp_settings.json`). */
  isMcpSettings(rel: string): boolean {
    const rest = this.storageRest(rel);
    const m = rest ? /^settings\/([^/]+)$/i.exec(rest) : null;
    return !!m && this.profile.mcpSettings.some((n) => n.toLowerCase() === m[1].toLowerCase());
  }

  /** A project's MCP file (`.roo/mcp.json`), relative to its root. */
  isProjectMcp(rel: string): boolean {
    return this.profile.projectMcp.some((p) => p.toLowerCase() === rel.toLowerCase());
  }

  /** A file holding the extension's globalState as JSON (`.cline/data/globalState.json`). */
  isStateFile(rel: string): boolean {
    return this.profile.stateFiles.some((p) => p.toLowerCase() === rel.toLowerCase());
  }

  /** VS Code's global state.vscdb of an editor (a profile's too), where the extension's globalState is one row. */
  isStateDb(rel: string): boolean {
    const rest = editorOf(rel)?.rest;
    return rest !== undefined && /^(?:profiles\/[^/]+\/)?globalStorage\/state\.vscdb$/i.test(rest);
  }

  /** The path below `.cline/data` for the SDK store's files, or undefined. */
  sdkRest(rel: string): string | undefined {
    return this.sdk.exec(rel)?.[1];
  }

  /** `.cline/data/sessions/<id>/<name>.messages.json`: the session id (its folder) and the file's agent part. */
  sdkMessages(rel: string): { sessionId: string; name: string } | undefined {
    const m = /^sessions\/([^/]+)\/([^/]+)\.messages\.json$/i.exec(this.sdkRest(rel) ?? '');
    return m ? { sessionId: m[1], name: m[2] } : undefined;
  }

  /** `.cline/data/sessions/<id>/<id>.json`: the session manifest. */
  sdkManifest(rel: string): string | undefined {
    const m = /^sessions\/([^/]+)\/([^/]+)\.json$/i.exec(this.sdkRest(rel) ?? '');
    return m && m[1] === m[2] ? m[1] : undefined;
  }

  /** `.cline/data/db/sessions.db`. */
  isSdkDb(rel: string): boolean {
    return /^db\/sessions\.db$/i.test(this.sdkRest(rel) ?? '');
  }

  /** `.cline/data/logs/hooks.jsonl`. */
  isHooksLog(rel: string): boolean {
    return /^logs\/hooks\.jsonl$/i.test(this.sdkRest(rel) ?? '');
  }

  /** `.cline/data/settings/providers.json` (provider and model; holds the API key too). */
  isProviders(rel: string): boolean {
    return /^settings\/providers\.json$/i.test(this.sdkRest(rel) ?? '');
  }

  /** A CLI prompt history (`.roo/cli-history.json`, `.cline/data/cache/user_input_history.jsonl`). */
  isCliHistory(rel: string): boolean {
    return this.profile.cliHistory.some((p) => p.toLowerCase() === rel.toLowerCase());
  }
}
