import type { AgentPlugin } from '../../sdk/types.js';
import { familyParsers } from './family.js';
import { GEMINI_PROFILE } from './profile.js';

/** Gemini CLI: chats (JSONL and legacy JSON, main and subagent), prompt logs, checkpoints, settings, trust, policies, account. */
export const geminiCliPlugin: AgentPlugin = {
  agent: GEMINI_PROFILE.agent,
  parsers: familyParsers(GEMINI_PROFILE),
};
