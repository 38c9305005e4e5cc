import { posix } from 'node:path';

// A config dir: `~/.claude`, a sibling `~/.claude-<account>` (CLAUDE_CONFIG_DIR per account),
// or the 1.0.30-era `~/.config/claude`. Case-insensitive: Windows and macOS homes fold case.
const CFG = String.raw`(?:\.claude|\.claude-[^/]+|\.config/claude)`;

/** Session transcripts: main, set-aside copies (`.orphaned-*`, `.superseded-*`) and flat `agent-*.jsonl`. */
export const TRANSCRIPT_RE = new RegExp(String.raw`^${CFG}/projects/[^/]+/[^/]+\.jsonl(?:\.superseded-[^/]+)?$`, 'i');
/** Subagent transcripts under `<session>/subagents/` (workflow agents nest deeper). */
export const SUBAGENT_RE = new RegExp(String.raw`^${CFG}/projects/[^/]+/[^/]+/subagents/(?:[^/]+/)*agent-[^/]+\.jsonl$`, 'i');
/** The picker index of a project dir (facts only). */
export const SESSIONS_INDEX_RE = new RegExp(String.raw`^${CFG}/projects/[^/]+/sessions-index\.json$`, 'i');
/** The global prompt history. */
export const HISTORY_RE = new RegExp(String.raw`^${CFG}/history\.jsonl$`, 'i');
/** Legacy todo lists, `<session>-agent-<agent>.json`. */
export const TODOS_RE = new RegExp(String.raw`^${CFG}/todos/[^/]+\.json$`, 'i');
/** The running-process registry, `sessions/<pid>.json`. */
export const PROCESS_RE = new RegExp(String.raw`^${CFG}/sessions/\d+\.json$`, 'i');
/** User or project settings (the rel is the same for both; the artifact's scope tells them apart). */
export const SETTINGS_RE = new RegExp(String.raw`^${CFG}/settings(?:\.local)?\.json$`, 'i');
/** Managed settings, as system-scope paths under `ClaudeCode` or `claude-code`. */
export const MANAGED_SETTINGS_RE = /(?:^|\/)(?:ClaudeCode|claude-code)\/(?:managed-settings\.json|managed-settings\.d\/[^/]+\.json)$/i;
/** Global state `.claude<suffix>.json`, in the home root or inside a config dir. */
export const GLOBAL_STATE_RE = new RegExp(String.raw`^(?:${CFG}/)?\.claude[^/]*\.json$`, 'i');

/** True for transcripts written by a subagent (a sidechain), in either layout. */
export function isSidechainPath(rel: string): boolean {
  return SUBAGENT_RE.test(rel) || /^agent-/i.test(posix.basename(rel));
}

/**
 * The session id a transcript's path names: the file stem before the first `.` for a main
 * transcript, the directory above `subagents/` for a subagent, '' for a flat `agent-*.jsonl`
 * (whose lines carry it). Never derived from the project slug.
 */
export function sessionIdFromPath(rel: string): string {
  const parts = rel.split('/');
  const sub = parts.findIndex((p, i) => i > 2 && p.toLowerCase() === 'subagents');
  if (SUBAGENT_RE.test(rel) && sub > 0) return parts[sub - 1];
  const base = parts[parts.length - 1];
  if (/^agent-/i.test(base)) return '';
  return base.split('.')[0];
}

/** The agent id a subagent file name carries (`agent-<id>.jsonl`), or ''. */
export function agentIdFromPath(rel: string): string {
  const m = /^agent-(.+)\.jsonl$/i.exec(posix.basename(rel));
  return m ? m[1] : '';
}

/**
 * The rel of `<session dir>/tool-results/<name>` as seen from the transcript's own directory,
 * for Artifact.sibling(): `<sid>/tool-results/x.txt` beside a main transcript, `../../tool-results/x.txt`
 * from `<sid>/subagents/`.
 */
export function toolResultSiblingPath(rel: string, sessionId: string, name: string): string | undefined {
  if (!sessionId || name.includes('/') || name.includes('\\')) return undefined;
  const parts = rel.split('/');
  const dir = parts.slice(0, -1).join('/');
  const sub = parts.findIndex((p, i) => i > 2 && p.toLowerCase() === 'subagents');
  const sessionDir = SUBAGENT_RE.test(rel) && sub > 0 ? parts.slice(0, sub).join('/') : `${dir}/${sessionId}`;
  return posix.relative(dir, `${sessionDir}/tool-results/${name}`);
}

/** `user.`, `project.` or `managed.`: how settings rows name where a rule came from. */
export function settingsScopeLabel(scope: 'home' | 'project' | 'system'): string {
  return scope === 'home' ? 'user' : scope === 'project' ? 'project' : 'managed';
}

/** A project's `.mcp.json` (project-scope MCP servers), at the project root. */
export const PROJECT_MCP_RE = /^\.mcp\.json$/i;
/** Managed MCP servers, as system-scope paths under `ClaudeCode` or `claude-code`. */
export const MANAGED_MCP_RE = /(?:^|\/)(?:ClaudeCode|claude-code)\/managed-mcp\.json$/i;
/**
 * MCP server logs: `claude-cli-nodejs/<cwd slug>/mcp-logs-<server>/<time>.jsonl` (`.txt` in older
 * builds) under the Linux, macOS or Windows cache (Windows adds a `Cache/` level).
 */
export const MCP_LOG_RE = /^(?:\.cache|Library\/Caches|AppData\/Local)\/claude-cli-nodejs\/(?:Cache\/)?[^/]+\/mcp-logs-([^/]+)\/[^/]+\.(?:jsonl|txt|json)$/i;
