import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { anchorDirs, type Catalog, CatalogError, EXPORT_FORMATS, type ExportFormat, exportCatalogs, loadCatalogs, type ProjectHint } from '@aitrail/collector';
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
  static override examples = [
    '<%= config.bin %> catalog',
    '<%= config.bin %> catalog --json --catalog ./my-agent.yaml',
    '<%= config.bin %> catalog --format velociraptor --out ./artifacts',
    '<%= config.bin %> catalog --format kape --out C:\\KAPE',
    '<%= config.bin %> catalog --format uac --out ./uac',
  ];
  static override flags = {
    json: Flags.boolean({ description: 'print the catalogs as JSON' }),
    format: Flags.string({ description: 'export the catalogs for another collector: a Velociraptor artifact, KAPE targets or UAC artifacts', options: [...EXPORT_FORMATS] }),
    out: Flags.string({ description: 'with --format: the folder the files are written into (KAPE: its folder, UAC: its source tree)', dependsOn: ['format'] }),
    catalog: Flags.string({ description: 'an extra catalog YAML file (repeatable)', multiple: true }),
  };

  override async run(): Promise<void> {
    const { flags } = await this.parse(CatalogCommand);
    const catalogs = loadCatalogsOrFail(this, flags.catalog);
    if (flags.format) {
      const files = exportCatalogs(flags.format as ExportFormat, catalogs, this.config.version);
      if (!flags.out) {
        if (files.length > 1) this.error(`--format ${flags.format} writes ${files.length} files: give --out <folder>`, { exit: 2 });
        process.stdout.write(files[0].text);
        return;
      }
      for (const f of files) {
        const dst = path.join(flags.out, ...f.name.split('/'));
        mkdirSync(path.dirname(dst), { recursive: true });
        writeFileSync(dst, f.text);
        process.stdout.write(`${terminalText(dst)}\n`);
      }
      return;
    }
    if (flags.json) {
      process.stdout.write(`${JSON.stringify(catalogs, null, 2)}\n`);
      return;
    }
    const lines: string[] = [];
    const anchors = new Set<string>();
    // The globs as written: an anchor line stands for dozens of expanded globs (--json has them).
    const shown = (globs: string[]) => {
      for (const g of globs) {
        const a = /^@([a-z0-9-]+)\//.exec(g);
        if (a) anchors.add(a[1]);
      }
      return globs;
    };
    for (const c of catalogs) {
      lines.push(`${c.agent}  ${c.name}  (catalog version ${c.version}, ${c.source})`);
      const section = (title: string, globs: string[]) => {
        if (globs.length > 0) lines.push(`  ${title}:`, ...shown(globs).map((g) => `    ${g}`));
      };
      const w = c.written;
      section('collect', w.collect);
      section('exclude (--full collects)', w.exclude);
      section('secrets (flagged; --secrets hash|skip)', w.secrets);
      section('session files (one session each, counted in the inventory)', w.session_files);
      section(
        'collect only if (--full collects all)',
        c.collect_if.map((x) => `${x.dir} holding ${x.contains.join(' or ')}`),
      );
      section('project collect', w.project.collect);
      section('project secrets', w.project.secrets);
      section('project exclude (--full collects)', w.project.exclude);
      section('project session files', w.project.session_files);
      section('system', c.system);
      section(
        'env homes',
        c.env_homes.map((e) => `$${e.var} → ${e.rel === '.' ? 'the home' : e.rel}${e.separator ? ` (a list split on "${e.separator}")` : ''}${e.layouts ? ` (on ${e.layouts.join(', ')})` : ''}`),
      );
      section('project hints', c.project_hints.map(hintLine));
      lines.push('');
    }
    if (anchors.size > 0) {
      lines.push('anchors (catalog/families/editors.yaml; aitrail catalog --json lists every expanded glob):');
      for (const a of anchors) {
        const dirs = anchorDirs(a) ?? [];
        const editors = [...new Set(dirs.map((d) => d.editor))];
        lines.push(`  @${a}: ${editors.length > 1 ? `${editors.length} editors (${editors.join(', ')}), ` : ''}${dirs.length} data folders: ${dirs.map((d) => d.dir).join(', ')}`);
      }
      lines.push('');
    }
    // A --catalog file is text someone else may have written.
    process.stdout.write(terminalText(lines.join('\n')));
  }
}

/** One project hint, readably: its file, format, what it reads and its options. */
function hintLine(h: ProjectHint): string {
  const what = [
    ...(h.path ?? []),
    ...(h.keys_of !== undefined ? [h.keys_of === '.' ? 'top-level keys' : `keys of ${h.keys_of}`] : []),
    ...(h.regex !== undefined ? [`/${h.regex}/`] : h.format === 'text' ? ['each line'] : []),
  ].join(', ');
  const opts = [
    h.where ? `where ${h.where.map((c) => `${c.path} in ${c.values.join('|')}`).join(' and ')}` : '',
    h.max_lines ? `lines: ${h.max_lines}` : '',
    h.home_token ? `${h.home_token} = the home` : '',
    h.dirname ? 'its folder' : '',
  ].filter(Boolean);
  return `${h.file} (${h.format} ${what}${opts.length > 0 ? `, ${opts.join(', ')}` : ''})`;
}
