import type { Command } from '@oclif/core';

/** The explicit command map oclif loads (package.json `oclif.commands`). */
export const COMMANDS: Record<string, Command.Class> = {};
