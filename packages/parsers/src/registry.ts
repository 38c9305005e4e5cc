import type { AgentPlugin } from './sdk/types.js';
import { aiderPlugin } from './agents/aider/index.js';
import { amazonQPlugin } from './agents/amazon-q/index.js';
import { claudeCodePlugin } from './agents/claude-code/index.js';
import { clinePlugin } from './agents/cline/index.js';
import { codexCliPlugin } from './agents/codex-cli/index.js';
import { continuePlugin } from './agents/continue/index.js';
import { copilotCliPlugin } from './agents/copilot-cli/index.js';
import { vscodeCopilotChatPlugin } from './agents/vscode-copilot-chat/index.js';
import { crushPlugin } from './agents/crush/index.js';
import { geminiCliPlugin } from './agents/gemini-cli/index.js';
import { goosePlugin } from './agents/goose/index.js';
import { kiloCodePlugin } from './agents/kilo-code/index.js';
import { openCodePlugin } from './agents/opencode/index.js';
import { qwenCodePlugin } from './agents/qwen-code/index.js';
import { rooCodePlugin } from './agents/roo-code/index.js';
import { cursorPlugin } from './agents/cursor/index.js';
import { zedPlugin } from './agents/zed/index.js';
import { lettaCodePlugin } from './agents/letta-code/index.js';
import { ampPlugin } from './agents/amp/index.js';
import { jetbrainsAiPlugin } from './agents/jetbrains-ai/index.js';
import { windsurfPlugin } from './agents/windsurf/index.js';

/**
 * The built-in agents, registered explicitly (no discovery by folder): the conventions test
 * checks that every folder under `agents/` is listed here under its own name.
 */
export const builtInPlugins: readonly AgentPlugin[] = [
  copilotCliPlugin,
  claudeCodePlugin,
  codexCliPlugin,
  geminiCliPlugin,
  qwenCodePlugin,
  vscodeCopilotChatPlugin,
  cursorPlugin,
  openCodePlugin,
  goosePlugin,
  crushPlugin,
  amazonQPlugin,
  clinePlugin,
  rooCodePlugin,
  kiloCodePlugin,
  continuePlugin,
  aiderPlugin,
  zedPlugin,
  lettaCodePlugin,
  ampPlugin,
  jetbrainsAiPlugin,
  windsurfPlugin,
];
