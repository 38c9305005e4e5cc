/**
 * Amazon Q Developer CLI (`q`, aws/amazon-q-developer-cli crates/chat-cli/src/util/paths.rs) and
 * its successor Kiro CLI: the SQLite store in the OS data-local dir (`amazon-q/`, `kiro-cli/`),
 * the prompt history and agent configs under `~/.aws/amazonq/`, and Kiro CLI's session
 * transcripts under `~/.kiro/sessions/cli/` (KIRO_HOME moves `~/.kiro`; collected as `.kiro`).
 */
const DATA = '(?:\\.local/share|Library/Application Support|AppData/Local)/(?:amazon-q|kiro-cli)';

/** The amazon-q paths the parsers read, as regexes over a home- or project-relative path. */
export const Q_PATHS = {
  /** data.sqlite3: conversations (q), conversations_v2 (kiro-cli), history; auth_kv and state are never read. */
  db: new RegExp(`^${DATA}/data\\.sqlite3$`),
  /** rustyline prompt history of `q chat`. */
  history: /^\.aws\/amazonq\/\.cli_bash_history$/,
  /** Kiro CLI v2 session transcript. */
  kiroSession: /^\.kiro\/sessions\/cli\/[^/]+\.jsonl$/,
  /** Its JSON sidecar (session_state, turn metadata, permissions). */
  kiroSidecar: /^\.kiro\/sessions\/cli\/[^/]+\.json$/,
  /** MCP configs: global (q, Kiro) and a project's. */
  mcp: /^(?:\.aws\/amazonq\/mcp\.json|\.amazonq\/mcp\.json|\.kiro\/settings\/mcp\.json)$/,
  /** Agent configs: allowed tools, tool settings, MCP servers. */
  agent: /^(?:\.aws\/amazonq\/cli-agents|\.amazonq\/cli-agents|\.kiro\/agents)\/[^/]+\.json$/,
  /** settings.json in the data dir (`chat.defaultModel`, ...). */
  settings: new RegExp(`^${DATA}/settings\\.json$`),
};

/** Which product wrote a data-dir file: `q-cli` or `kiro-cli`. */
export function clientOf(rel: string): string {
  return /(?:^|\/)kiro-cli\//.test(rel) || rel.startsWith('.kiro/') ? 'kiro-cli' : 'q-cli';
}
