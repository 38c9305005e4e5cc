import { pathParser } from '../../sdk/path-parser.js';
import type { AgentPlugin } from '../../sdk/types.js';
import { parseQAgent, parseQMcp, parseQSettings } from './config-parser.js';
import { parseQDb } from './db-parser.js';
import { parseQHistory } from './history-parser.js';
import { parseKiroSession } from './kiro-session.js';
import { parseKiroSidecar } from './kiro-sidecar.js';
import { Q_PATHS } from './paths.js';

/**
 * Amazon Q Developer CLI and Kiro CLI: data.sqlite3 conversations (a mixed store: tokens in
 * auth_kv are never read), Kiro CLI session transcripts and sidecars, the prompt history, MCP and
 * agent configs, settings. Kiro IDE stores are collected, not parsed (their layout is known only
 * from two peers that disagree).
 */
export const amazonQPlugin: AgentPlugin = {
  agent: 'amazon-q',
  parsers: [
    pathParser('amazon-q', 'data-db', ['<data>/{amazon-q,kiro-cli}/data.sqlite3 (+ -wal)'], Q_PATHS.db, parseQDb, { secret: true }),
    pathParser('amazon-q', 'kiro-session', ['~/.kiro/sessions/cli/<uuid>.jsonl'], Q_PATHS.kiroSession, parseKiroSession),
    pathParser('amazon-q', 'kiro-sidecar', ['~/.kiro/sessions/cli/<uuid>.json'], Q_PATHS.kiroSidecar, parseKiroSidecar),
    pathParser('amazon-q', 'prompt-history', ['~/.aws/amazonq/.cli_bash_history'], Q_PATHS.history, parseQHistory, { secret: true, secondary: true }),
    pathParser('amazon-q', 'mcp-config', ['~/.aws/amazonq/mcp.json', '~/.kiro/settings/mcp.json', '<project>/{.amazonq/mcp.json,.kiro/settings/mcp.json}'], Q_PATHS.mcp, parseQMcp, { secret: true }),
    pathParser('amazon-q', 'agent-config', ['~/.aws/amazonq/cli-agents/*.json', '~/.kiro/agents/*.json', '<project>/.amazonq/cli-agents/*.json'], Q_PATHS.agent, parseQAgent, { secret: true }),
    pathParser('amazon-q', 'settings', ['<data>/{amazon-q,kiro-cli}/settings.json'], Q_PATHS.settings, parseQSettings),
  ],
};
