import { type Catalog, CatalogError, loadCatalogs } from '@aitrail/collector';
import { Command, Flags } from '@oclif/core';
import { terminalText } from '../terminal-text.js';

/** Load the built-in catalogs plus --catalog files; a bad catalog is a usage error (exit 2). */
export function loadCatalogsOrFail(cmd: Command, files: string[] | undefined): Catalog[] {
  try {
    return loadCatalogs({ files: files ?? [] });
  } catch (err) {
    if (err instanceof CatalogError) cmd.error(terminalText(err.message), { exit: 2 });
    throw err;
  }
}

/** `aitrail catalog`: list the agents and their globs. */
export class CatalogCommand extends Command {
  static override description = 'List the catalog: each agent and the paths collect takes, excludes and flags as secrets.';
  static override examples = ['<%= config.bin %> catalog', '<%= config.bin %> catalog --json --catalog ./my-agent.yaml'];
  static override flags = {
    json: Flags.boolean({ description: 'print the catalogs as JSON' }),
    catalog: Flags.string({ description: 'an extra catalog YAML file (repeatable)', multiple: true }),
  };

  override async run(): Promise<void> {
    const { flags } = await this.parse(CatalogCommand);
    const catalogs = loadCatalogsOrFail(this, flags.catalog);
    if (flags.json) {
      process.stdout.write(`${JSON.stringify(catalogs, null, 2)}\n`);
      return;
    }
    const lines: string[] = [];
    for (const c of catalogs) {
      lines.push(`${c.agent}  ${c.name}  (catalog version ${c.version}, ${c.source})`);
      const section = (title: string, globs: string[]) => {
        if (globs.length > 0) lines.push(`  ${title}:`, ...globs.map((g) => `    ${g}`));
      };
      section('collect', c.collect);
      section('exclude (--full collects)', c.exclude);
      section('secrets (flagged; --secrets hash|skip)', c.secrets);
      section(
        'collect only if (--full collects all)',
        c.collect_if.map((x) => `${x.dir} holding ${x.contains.join(' or ')}`),
      );
      section('project collect', c.project.collect);
      section('project secrets', c.project.secrets);
      section('project exclude (--full collects)', c.project.exclude);
      section('system', c.system);
      section(
        'env homes',
        c.env_homes.map((e) => `$${e.var} → ${e.rel}${e.separator ? ` (a list split on "${e.separator}")` : ''}`),
      );
      section(
        'project hints',
        c.project_hints.map((h) => `${h.file} (${h.format} ${h.path ?? `keys of ${h.keys_of}`}${h.max_lines ? `, lines: ${h.max_lines}` : ''})`),
      );
      lines.push('');
    }
    // A --catalog file is text someone else may have written.
    process.stdout.write(terminalText(lines.join('\n')));
  }
}
