import { posix } from 'node:path';

// CODEX_HOME as collected: `.codex` (the default on every OS, and where the collector archives
// $CODEX_HOME). A user's copy of the whole home inside it (`.codex/main_codex.back/`, real) keeps
// the same layout one level down, so one extra folder is allowed; case-insensitive because
// Windows and macOS homes fold case.
const HOME = String.raw`\.codex(?:/(?!(?:sessions|archived_sessions|log|rules|policy|skills|plugins|memories|prompts|agents|attachments|tmp|\.tmp|cache|shell_snapshots)/)[^/]+)?`;
const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

/** Rollouts: live (`sessions/YYYY/MM/DD/`) and archived (flat), plain or zstd-compressed. */
export const ROLLOUT_RE = new RegExp(String.raw`^${HOME}/(?:sessions/\d{4}/\d{2}/\d{2}|archived_sessions)/rollout-[^/]+\.jsonl(?:\.zst)?$`, 'i');
/** The TypeScript CLI's JSON rollouts: `sessions/rollout-<date>-<uuid>.json`, later `sessions/<uuid>.json`. */
export const LEGACY_JSON_RE = new RegExp(String.raw`^${HOME}/sessions/(?:rollout-\d{4}-\d{2}-\d{2}-${UUID}|${UUID})\.json$`, 'i');
/** The global prompt history (Rust: JSONL; TypeScript CLI: one JSON array). */
export const HISTORY_RE = new RegExp(String.raw`^${HOME}/history\.jsonl$`, 'i');
/** The TypeScript CLI's prompt history. */
export const HISTORY_JSON_RE = new RegExp(String.raw`^${HOME}/history\.json$`, 'i');
/** The thread-name index. */
export const SESSION_INDEX_RE = new RegExp(String.raw`^${HOME}/session_index\.jsonl$`, 'i');
/** The thread-metadata mirror: `state_<n>.sqlite` (and the legacy unversioned `state.sqlite`). */
export const STATE_DB_RE = new RegExp(String.raw`^${HOME}/state(?:_\d+)?\.sqlite$`, 'i');
/** Turn items of paginated-history threads. */
export const THREAD_HISTORY_DB_RE = new RegExp(String.raw`^${HOME}/thread_history_\d+\.sqlite$`, 'i');
/** The tracing log store. */
export const LOGS_DB_RE = new RegExp(String.raw`^${HOME}/logs_\d+\.sqlite$`, 'i');
/** The TUI's text tracing log (rotated copies keep a suffix). */
export const TUI_LOG_RE = new RegExp(String.raw`^${HOME}/log/codex-tui\.log(?:\.[^/]+)?$`, 'i');
/** User config and its backups (`config.toml.backup`, `config.toml.backup.<time>`); a project's `.codex/config.toml` has the same rel. */
export const CONFIG_RE = new RegExp(String.raw`^${HOME}/config\.toml(?:\.backup[^/]*)?$`, 'i');
/** System configuration an administrator installs: `/etc/codex/config.toml`, `requirements.toml` (macOS: under /private/etc). */
export const SYSTEM_CONFIG_RE = /^(?:private\/)?etc\/codex\/(?:config|requirements|managed_config)\.toml$/i;
/** Lifecycle hooks. */
export const HOOKS_RE = new RegExp(String.raw`^${HOME}/hooks\.json$`, 'i');
/** Execution-policy rules: Starlark `rules/*.rules`, December 2025 `policy/*.codexpolicy|*.execpolicy`. */
export const RULES_RE = new RegExp(String.raw`^${HOME}/(?:rules/[^/]+\.rules|policy/[^/]+\.(?:codexpolicy|execpolicy))$`, 'i');
/** Sessions imported from other agents (Codex Desktop). */
export const IMPORTS_RE = new RegExp(String.raw`^${HOME}/external_agent_session_imports\.json$`, 'i');
/** Background processes the desktop app started per conversation. */
export const PROCESSES_RE = new RegExp(String.raw`^${HOME}/process_manager/chat_processes\.json$`, 'i');

/**
 * The thread id a rollout's file name ends with (`rollout-<local time>-<uuid>.jsonl[.zst]`, the
 * TypeScript `rollout-<date>-<uuid>.json` and `<uuid>.json`), or ''.
 */
export function sessionIdFromPath(rel: string): string {
  const m = new RegExp(String.raw`(${UUID})\.json(?:l(?:\.zst)?)?$`, 'i').exec(posix.basename(rel));
  return m ? m[1].toLowerCase() : '';
}

/** True for a zstd-compressed rollout. */
export function isCompressed(rel: string): boolean {
  return /\.zst$/i.test(rel);
}

/**
 * Why a file under CODEX_HOME gives no rows, for the files no parser wants (inventory and the
 * corpus test account for every file with this): bookkeeping, secrets, caches, agent inputs.
 * '' when a parser wants the file or the file is not Codex's.
 */
export function notParsedReason(rel: string): string {
  if (!new RegExp(`^${HOME}/`, 'i').test(rel)) return '';
  const base = posix.basename(rel).toLowerCase();
  const table: [RegExp, string][] = [
    [/(?:^|\/)(?:auth\.json|\.credentials\.json|\.env)$/i, 'credentials: flagged, never parsed'],
    [/\/shell_snapshots\//i, 'shell snapshot: exported environment, flagged as a secret, never parsed'],
    [/\.sqlite-(?:wal|shm|journal)$/i, 'SQLite sidecar: read with its database'],
    [/\/(?:goals|memories|queue)_\d+\.sqlite$/i, 'goal, memory and queue stores: not timeline evidence yet (listed for a later issue)'],
    [/\/(?:version|update-check|models_cache|chrome-native-hosts(?:-v2)?)\.json$|\/installation_id$|\/\.personality_migration$|\/\.sandbox_migration$|\/\.app-server-state-reconciled-v\d+$/i, 'bookkeeping: versions, caches, migration markers'],
    [/\/(?:config\.json|config\.ya?ml|instructions\.md|providers\.json|AGENTS(?:\.override)?\.md)$/i, 'agent input or TypeScript CLI config: collected as is'],
    [/\/(?:memories|prompts|skills|agents|attachments|computer-use|thread-writer-locks|\.tmp|tmp|cache|plugins)\//i, 'agent inputs, attachments, locks and caches: collected as is'],
    [/\/log\/codex-login\.log$/i, 'login log: collected as is'],
  ];
  for (const [re, why] of table) if (re.test(rel)) return why;
  return base.endsWith('.lock') ? 'lock file' : '';
}
