import { pathParser } from '../../sdk/path-parser.js';
import type { AgentPlugin } from '../../sdk/types.js';
import { parseAiaEvents } from './aia-events.js';
import { parseJunieEvents } from './junie-events.js';
import { parseJunieIndex } from './junie-index.js';
import { parseWorkspaceChats } from './workspace-chats.js';

/** Junie's home ($JUNIE_HOME maps to it) and the IDEs' config folders per OS (JetBrains, and Google's Android Studio). */
const PATHS = {
  junieEvents: /^\.junie\/sessions\/[^/]+\/events\.jsonl$/,
  junieIndex: /^\.junie\/sessions\/index\.jsonl$/,
  aia: /^(?:AppData\/Roaming|Library\/Application Support|\.config)\/(?:JetBrains|Google)\/[^/]+\/aia-task-history\/[^/]+\.events$/,
  workspace: /^(?:AppData\/Roaming|Library\/Application Support|\.config)\/(?:JetBrains|Google)\/[^/]+\/workspace\/[^/]+\.xml$/,
};

/** JetBrains AI: Junie's session logs and index, AI Assistant's agent task logs (aia-task-history) and its chats (the workspace XML). */
export const jetbrainsAiPlugin: AgentPlugin = {
  agent: 'jetbrains-ai',
  parsers: [
    pathParser('jetbrains-ai', 'junie-events', ['~/.junie/sessions/<id>/events.jsonl'], PATHS.junieEvents, parseJunieEvents),
    pathParser('jetbrains-ai', 'junie-index', ['~/.junie/sessions/index.jsonl'], PATHS.junieIndex, parseJunieIndex),
    pathParser('jetbrains-ai', 'aia-task-history', ['<IDE config>/<Product><version>/aia-task-history/<uid>.events'], PATHS.aia, parseAiaEvents),
    pathParser('jetbrains-ai', 'workspace-chats', ['<IDE config>/<Product><version>/workspace/<id>.xml (ChatSessionStateTemp)'], PATHS.workspace, parseWorkspaceChats),
  ],
};
