import type { AgentPlugin, Parser } from '../../sdk/types.js';
import { parseQAgent, parseQMcp, parseQSettings } from './config-parser.js';
import { parseQDb } from './db-parser.js';
import { parseQHistory } from './history-parser.js';
import { parseKiroSession } from './kiro-session.js';
import { parseKiroSidecar } from './kiro-sidecar.js';
import { Q_PATHS } from './paths.js';

function qParser(name: string, patterns: string[], re: RegExp, parse: Parser['parse'], opts: { secret?: boolean; secondary?: boolean } = {}): Parser {
  return {
    agent: 'amazon-q',
    name,
    patterns,
    wants: (rel) => re.test(rel),
    secondary: (rel) => opts.secondary === true && re.test(rel),
    secondaryToleranceSeconds: () => 0,
    recordsSync: false,
    readsSecretFile: (rel) => opts.secret === true && re.test(rel),
    parse,
  };
}

/**
 * Amazon Q Developer CLI and Kiro CLI: data.sqlite3 conversations (a mixed store: tokens in
 * auth_kv are never read), Kiro CLI session transcripts and sidecars, the prompt history, MCP and
 * agent configs, settings. Kiro IDE stores are collected, not parsed (their layout is known only
 * from two peers that disagree).
 */
export const amazonQPlugin: AgentPlugin = {
  agent: 'amazon-q',
  parsers: [
    qParser('data-db', ['<data>/{amazon-q,kiro-cli}/data.sqlite3 (+ -wal)'], Q_PATHS.db, parseQDb, { secret: true }),
    qParser('kiro-session', ['~/.kiro/sessions/cli/<uuid>.jsonl'], Q_PATHS.kiroSession, parseKiroSession),
    qParser('kiro-sidecar', ['~/.kiro/sessions/cli/<uuid>.json'], Q_PATHS.kiroSidecar, parseKiroSidecar),
    qParser('prompt-history', ['~/.aws/amazonq/.cli_bash_history'], Q_PATHS.history, parseQHistory, { secret: true, secondary: true }),
    qParser('mcp-config', ['~/.aws/amazonq/mcp.json', '~/.kiro/settings/mcp.json', '<project>/{.amazonq/mcp.json,.kiro/settings/mcp.json}'], Q_PATHS.mcp, parseQMcp, { secret: true }),
    qParser('agent-config', ['~/.aws/amazonq/cli-agents/*.json', '~/.kiro/agents/*.json', '<project>/.amazonq/cli-agents/*.json'], Q_PATHS.agent, parseQAgent, { secret: true }),
    qParser('settings', ['<data>/{amazon-q,kiro-cli}/settings.json'], Q_PATHS.settings, parseQSettings),
  ],
};
