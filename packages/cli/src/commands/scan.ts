import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CollectUsageError, collect } from '@aitrail/collector';
import { Command, Flags } from '@oclif/core';
import { createProgress } from '../progress.js';
import { analyzeFlags, catalogsWithPlugins, loadPluginsOrFail, runAnalysis } from './analyze.js';
import { terminalText } from '../terminal-text.js';

/** `aitrail scan`: collect this machine (or named homes) and analyze it in one go. */
export class ScanCommand extends Command {
  static override description = 'Collect this machine (or the --home folders) into OUT/collection.zip, then analyze it into OUT.';
  static override examples = ['<%= config.bin %> scan', '<%= config.bin %> scan --home ~ --out my-trail'];
  static override flags = {
    home: Flags.string({ description: 'a home directory to collect (repeatable); default: every home on this machine', multiple: true }),
    ...analyzeFlags,
  };

  override async run(): Promise<void> {
    const { flags } = await this.parse(ScanCommand);
    const plugins = await loadPluginsOrFail(this, flags.plugin);
    const catalogs = catalogsWithPlugins(this, plugins);
    const outDir = path.resolve(flags.out);
    mkdirSync(outDir, { recursive: true });
    const zip = path.join(outDir, 'collection.zip');
    const progress = createProgress({ label: 'collect' });
    try {
      await collect(
        { homes: flags.home, out: zip, full: false, secrets: 'collect', dryRun: false, catalogs, env: process.env, arguments: process.argv.slice(2), toolVersion: this.config.version, host: os.hostname() },
        { progress: (p) => progress.update({ phase: p.phase, user: p.user || '-', agent: p.agent || '-', files: p.files }), log: (l) => progress.log(l) },
      );
    } catch (e) {
      progress.stop();
      if (e instanceof CollectUsageError) this.error(terminalText(e.message), { exit: 2 });
      this.error(terminalText(`scan: collect failed: ${(e as Error).message}; nothing was analyzed`), { exit: 1 });
    }
    progress.stop();
    process.stderr.write(`${terminalText(`collected ${zip}`)}\n`);
    await runAnalysis(this, [zip], flags, plugins, catalogs);
  }
}
