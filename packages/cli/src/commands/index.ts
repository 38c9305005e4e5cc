import type { Command } from '@oclif/core';
import { AnalyzeCommand } from './analyze.js';
import { CatalogCommand } from './catalog.js';
import { CollectCommand } from './collect.js';
import { ImportCommand } from './import.js';
import { ParsersCommand } from './parsers.js';
import { RulesCommand } from './rules.js';
import { ScanCommand } from './scan.js';
import { ServeCommand } from './serve.js';
import { VerifyCommand } from './verify.js';

/** The explicit command map oclif loads (package.json `oclif.commands`). */
export const COMMANDS: Record<string, Command.Class> = {
  analyze: AnalyzeCommand,
  catalog: CatalogCommand,
  collect: CollectCommand,
  import: ImportCommand,
  parsers: ParsersCommand,
  rules: RulesCommand,
  scan: ScanCommand,
  serve: ServeCommand,
  verify: VerifyCommand,
};
