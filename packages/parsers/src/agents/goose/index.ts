import type { AgentPlugin, Parser } from '../../sdk/types.js';
import { parseGooseConfig, parseGoosePermissions } from './config-parser.js';
import { parseGooseDb } from './db-parser.js';
import { parseGooseLegacy } from './legacy-parser.js';
import { GOOSE_PATHS } from './paths.js';

function gooseParser(name: string, patterns: string[], re: RegExp, parse: Parser['parse'], opts: { secret?: boolean; copyRank?: number } = {}): Parser {
  return {
    agent: 'goose',
    name,
    patterns,
    wants: (rel) => re.test(rel),
    secondary: () => false,
    secondaryToleranceSeconds: () => 0,
    recordsSync: false,
    readsSecretFile: (rel) => opts.secret === true && re.test(rel),
    ...(opts.copyRank !== undefined ? { copyRank: (rel: string) => (re.test(rel) ? opts.copyRank! : 0) } : {}),
    parse,
  };
}

/** goose (block/goose): sessions.db and its backups, legacy JSONL sessions, config.yaml (mode, model, extensions) and permission.yaml. */
export const goosePlugin: AgentPlugin = {
  agent: 'goose',
  parsers: [
    gooseParser('sessions-db', ['<data>/sessions/sessions.db (+ -wal)'], GOOSE_PATHS.db, parseGooseDb, { copyRank: 0 }),
    // An older state of the store: its copies of live sessions yield to sessions.db, deleted sessions stay.
    gooseParser('backup-db', ['<data>/backups/*.db'], GOOSE_PATHS.backup, parseGooseDb, { copyRank: 2 }),
    gooseParser('legacy-sessions', ['<data>/sessions/<id>.jsonl'], GOOSE_PATHS.legacy, parseGooseLegacy, { copyRank: 1 }),
    gooseParser('config', ['<config>/config.yaml'], GOOSE_PATHS.config, parseGooseConfig, { secret: true }),
    gooseParser('permissions', ['<config>/permission.yaml'], GOOSE_PATHS.permission, parseGoosePermissions),
  ],
};
