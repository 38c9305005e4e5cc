import { pathParser } from '../../sdk/path-parser.js';
import type { AgentPlugin } from '../../sdk/types.js';
import { parseGooseConfig, parseGoosePermissions } from './config-parser.js';
import { parseGooseDb } from './db-parser.js';
import { parseGooseLegacy } from './legacy-parser.js';
import { GOOSE_PATHS } from './paths.js';

/** goose (block/goose): sessions.db and its backups, legacy JSONL sessions, config.yaml (mode, model, extensions) and permission.yaml. */
export const goosePlugin: AgentPlugin = {
  agent: 'goose',
  parsers: [
    pathParser('goose', 'sessions-db', ['<data>/sessions/sessions.db (+ -wal)'], GOOSE_PATHS.db, parseGooseDb, { copyRank: 0 }),
    // An older state of the store: its copies of live sessions yield to sessions.db, deleted sessions stay.
    pathParser('goose', 'backup-db', ['<data>/backups/*.db'], GOOSE_PATHS.backup, parseGooseDb, { copyRank: 2 }),
    pathParser('goose', 'legacy-sessions', ['<data>/sessions/<id>.jsonl'], GOOSE_PATHS.legacy, parseGooseLegacy, { copyRank: 1 }),
    pathParser('goose', 'config', ['<config>/config.yaml'], GOOSE_PATHS.config, parseGooseConfig, { secret: true }),
    pathParser('goose', 'permissions', ['<config>/permission.yaml'], GOOSE_PATHS.permission, parseGoosePermissions),
  ],
};
