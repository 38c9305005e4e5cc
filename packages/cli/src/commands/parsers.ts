import { builtInPlugins } from '@aitrail/parsers';
import { Command, Flags } from '@oclif/core';
import { loadPluginsOrFail } from './analyze.js';
import { terminalText } from '../terminal-text.js';

/** `aitrail parsers`: the built-in and plugin parsers with the paths they read. */
export class ParsersCommand extends Command {
  static override description = 'List the parsers (built-in and plugins) with the home-relative path patterns each reads.';
  static override examples = ['<%= config.bin %> parsers', '<%= config.bin %> parsers --json --plugin ./my-plugin'];
  static override flags = {
    json: Flags.boolean({ description: 'print the list as JSON' }),
    plugin: Flags.string({ description: 'a plugin package name or path (repeatable; also AITRAIL_PLUGINS)', multiple: true }),
  };

  override async run(): Promise<void> {
    const { flags } = await this.parse(ParsersCommand);
    const plugins = await loadPluginsOrFail(this, flags.plugin);
    const list = [...builtInPlugins.map((p) => ({ source: 'built-in', plugin: p })), ...plugins.map((p) => ({ source: p.spec, plugin: p.plugin }))].flatMap(({ source, plugin }) =>
      plugin.parsers.map((q) => ({ agent: q.agent, parser: q.name, source, records_sync: q.recordsSync, patterns: [...q.patterns] })),
    );
    if (flags.json) {
      process.stdout.write(`${JSON.stringify(list, null, 2)}\n`);
      return;
    }
    const lines: string[] = [];
    for (const p of list) {
      lines.push(`${p.agent}/${p.parser}  (${p.source}${p.records_sync ? ', records sync' : ''})`);
      for (const pat of p.patterns) lines.push(`    ${pat}`);
    }
    if (list.length === 0) lines.push('No parsers registered.');
    // Plugin names and patterns are a third party's text.
    process.stdout.write(`${terminalText(lines.join('\n'))}\n`);
  }
}
