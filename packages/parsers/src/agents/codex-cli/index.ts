import type { AgentPlugin } from '../../sdk/types.js';
import { configParser } from './config.js';
import { desktopStoresParser } from './desktop-stores.js';
import { historyParser } from './history.js';
import { legacySessionParser } from './legacy-json.js';
import { logsParser } from './logs.js';
import { rolloutParser } from './rollout.js';
import { rulesParser } from './rules.js';
import { sessionIndexParser } from './session-index.js';
import { stateDbParser } from './state-db.js';
import { threadHistoryParser } from './thread-history-db.js';

/** OpenAI Codex (CLI, IDE extension, desktop app): rollouts of every layout, history, indexes, state and log stores, config and rules. */
export const codexCliPlugin: AgentPlugin = {
  agent: 'codex-cli',
  parsers: [rolloutParser, legacySessionParser, historyParser, sessionIndexParser, stateDbParser, threadHistoryParser, logsParser, configParser, rulesParser, desktopStoresParser],
};
