import { Command, Flags } from '@oclif/core';
import { catalogsWithPlugins, loadPluginsOrFail } from './analyze.js';
import { terminalText } from '../terminal-text.js';

/** What `aitrail parsers` says of an agent its catalog collects but no parser reads. */
export const NOT_PARSED = 'collected, not parsed';

/** `aitrail parsers`: every agent, with the parsers (built-in and plugins) and the paths they read. */
export class ParsersCommand extends Command {
  static override description = 'List every cataloged agent with its parsers (built-in and plugins) and the home-relative path patterns each reads; an agent no parser reads is listed as "collected, not parsed".';
  static override examples = ['<%= config.bin %> parsers', '<%= config.bin %> parsers --json --plugin ./my-plugin'];
  static override flags = {
    json: Flags.boolean({ description: 'print the list as JSON' }),
    plugin: Flags.string({ description: 'a plugin package name or path (repeatable; also AITRAIL_PLUGINS)', multiple: true }),
  };

  override async run(): Promise<void> {
    const { flags } = await this.parse(ParsersCommand);
    const plugins = await loadPluginsOrFail(this, flags.plugin);
    const catalogs = catalogsWithPlugins(this, plugins);
    const { builtInPlugins } = await import('@aitrail/parsers');
    const parsed = [...builtInPlugins.map((p) => ({ source: 'built-in', plugin: p })), ...plugins.map((p) => ({ source: p.spec, plugin: p.plugin }))].flatMap(({ source, plugin }) =>
      plugin.parsers.map((q) => ({ agent: q.agent, parser: q.name as string | null, source, records_sync: q.recordsSync, patterns: [...q.patterns] as string[], note: undefined as string | undefined })),
    );
    // A catalog-only agent (no parser reads its files) is still an agent the collection covers.
    const withParsers = new Set(parsed.map((p) => p.agent));
    const catalogOnly = catalogs
      .filter((c) => !withParsers.has(c.agent))
      .map((c) => ({ agent: c.agent, parser: null, source: c.source.startsWith('plugin ') ? c.source.slice('plugin '.length) : 'built-in', records_sync: false, patterns: [] as string[], note: NOT_PARSED }));
    // Catalog order (built-in by name, then plugins), each agent's parsers together.
    const order = [...catalogs.map((c) => c.agent), ...parsed.map((p) => p.agent)];
    const rank = (a: string) => order.indexOf(a);
    const list = [...parsed, ...catalogOnly].sort((x, y) => rank(x.agent) - rank(y.agent));
    if (flags.json) {
      process.stdout.write(`${JSON.stringify(list, null, 2)}\n`);
      return;
    }
    const lines: string[] = [];
    for (const p of list) {
      if (p.parser === null) {
        lines.push(`${p.agent}  ${NOT_PARSED} (catalog only: its files are collected and counted in the inventory)`);
        continue;
      }
      lines.push(`${p.agent}/${p.parser}  (${p.source}${p.records_sync ? ', records sync' : ''})`);
      for (const pat of p.patterns) lines.push(`    ${pat}`);
    }
    if (list.length === 0) lines.push('No agents cataloged and no parsers registered.');
    // Plugin names and patterns are a third party's text.
    process.stdout.write(`${terminalText(lines.join('\n'))}\n`);
  }
}
