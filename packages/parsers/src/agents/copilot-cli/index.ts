import type { AgentPlugin } from '../../sdk/types.js';
import { copilotEventsParser } from './events-parser.js';
import { copilotHistoryParser } from './history-parser.js';
import { copilotMcpConfigParser } from './mcp-config-parser.js';
import { copilotMcpToolsParser } from './mcp-tools-parser.js';
import { copilotPermissionsParser } from './permissions-parser.js';
import { copilotProcessLogParser } from './process-log-parser.js';
import { copilotSettingsParser } from './settings-parser.js';
import { copilotSidebarParser } from './sidebar-parser.js';
import { copilotSnapshotsParser } from './snapshots-parser.js';
import { copilotStoreParser } from './store-parser.js';
import { copilotVscodeMetadataParser } from './vscode-metadata-parser.js';
import { copilotWorkspaceParser } from './workspace-parser.js';

export { COPILOT_HOME, COPILOT_PATTERNS } from './paths.js';

/** GitHub Copilot CLI: one parser per file kind of the seed's Parser plan, the event log first. */
export const copilotCliPlugin: AgentPlugin = {
  agent: 'copilot-cli',
  parsers: [
    copilotEventsParser,
    copilotWorkspaceParser,
    copilotStoreParser,
    copilotHistoryParser,
    copilotSnapshotsParser,
    copilotPermissionsParser,
    copilotSettingsParser,
    copilotSidebarParser,
    copilotProcessLogParser,
    copilotMcpConfigParser,
    copilotMcpToolsParser,
    copilotVscodeMetadataParser,
  ],
};
