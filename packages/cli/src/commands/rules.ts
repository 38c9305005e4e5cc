import { resolve } from 'node:path';
import type { Rule } from '@aitrail/analyzer';
import { Command, Flags } from '@oclif/core';
import { terminalText } from '../terminal-text.js';

/** One rule as `aitrail rules --json` lists it. */
export interface RuleListing {
  id: string;
  title: string;
  level: string;
  kind: string;
  /** false: used by a correlation only, it makes no findings of its own. */
  reports: boolean;
  file: string;
  line: number;
  description: string;
}

/** The listing of one rule. */
export function ruleListing(r: Rule): RuleListing {
  const kind = r.kind === 'correlation' ? `correlation ${r.type} of ${r.rules.join(', ')}` : `detection over ${r.category === 'timeline' ? 'timeline rows' : 'inventory MCP servers'}`;
  return { id: r.id, title: r.title, level: r.level, kind, reports: r.kind === 'correlation' || r.generate, file: r.source.file, line: r.source.line, description: r.description };
}

/** `aitrail rules`: the finding rules analyze runs (built-in, plus --rules folders). */
export class RulesCommand extends Command {
  static override description = 'List the Sigma-style rules analyze turns into findings.jsonl: the built-in ones and those of --rules folders. A rule that does not parse is reported with its file and line.';
  static override examples = ['<%= config.bin %> rules', '<%= config.bin %> rules --rules ./my-rules --json'];
  static override flags = {
    json: Flags.boolean({ description: 'print the list as JSON' }),
    rules: Flags.string({ description: 'a folder of your own rules (.yml) to check and list beside the built-in ones (repeatable)', multiple: true }),
  };

  override async run(): Promise<void> {
    const { flags } = await this.parse(RulesCommand);
    const { loadRules, RuleError } = await import('@aitrail/analyzer');
    let rules: Rule[];
    try {
      rules = await loadRules((flags.rules ?? []).map((d) => resolve(d)));
    } catch (e) {
      if (e instanceof RuleError) this.error(terminalText(`expected rules that parse, found a problem: ${e.message}`), { exit: 2 });
      throw e;
    }
    const list = rules.map(ruleListing);
    if (flags.json) {
      process.stdout.write(`${JSON.stringify(list, null, 2)}\n`);
      return;
    }
    const lines: string[] = [];
    for (const r of list) {
      lines.push(`${r.id}  [${r.level}]  ${r.title}${r.reports ? '' : '  (part of a correlation)'}`);
      lines.push(`    ${r.kind}; ${r.file}:${r.line}`);
    }
    // A user's rule text is theirs, not ours: escaped for the terminal.
    process.stdout.write(`${terminalText(lines.join('\n'))}\n`);
  }
}
