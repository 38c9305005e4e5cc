import type { AgentPlugin } from '../../sdk/types.js';
import { familyParsers } from '../gemini-cli/family.js';
import { COMMON_SETTINGS, type FamilyProfile, SYNTHETIC_PROMPTS } from '../gemini-cli/profile.js';

/**
 * Qwen Code (`~/.qwen`), Alibaba's fork of Gemini CLI: its chats are `projects/<sanitized cwd>/
 * chats/<session>.jsonl` ChatRecords, and early builds kept Gemini CLI's `tmp/<sha256>/` layout.
 */
export const QWEN_PROFILE: FamilyProfile = {
  agent: 'qwen-code',
  dir: '.qwen',
  layouts: ['projects', 'tmp'],
  settings: COMMON_SETTINGS,
  // settings.ts getSystemSettingsPath / getSystemDefaultsPath (QWEN_CODE_SYSTEM_SETTINGS_PATH overrides).
  systemDirs: ['etc/qwen-code', 'private/etc/qwen-code', 'Library/Application Support/QwenCode', 'C:/ProgramData/qwen-code'],
  usageRecords: true,
  syntheticPrompts: SYNTHETIC_PROMPTS,
};

/** Qwen Code: the Gemini CLI family's parsers under the qwen-code id and paths. */
export const qwenCodePlugin: AgentPlugin = {
  agent: QWEN_PROFILE.agent,
  parsers: familyParsers(QWEN_PROFILE),
};
