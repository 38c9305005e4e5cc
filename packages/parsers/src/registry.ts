import type { AgentPlugin } from './sdk/types.js';
import { claudeCodePlugin } from './agents/claude-code/index.js';
import { codexCliPlugin } from './agents/codex-cli/index.js';
import { copilotCliPlugin } from './agents/copilot-cli/index.js';
import { geminiCliPlugin } from './agents/gemini-cli/index.js';
import { qwenCodePlugin } from './agents/qwen-code/index.js';

/**
 * The built-in agents, registered explicitly (no discovery by folder): the conventions test
 * checks that every folder under `agents/` is listed here under its own name.
 */
export const builtInPlugins: readonly AgentPlugin[] = [copilotCliPlugin, claudeCodePlugin, codexCliPlugin, geminiCliPlugin, qwenCodePlugin];
