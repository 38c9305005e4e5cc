import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command } from '@oclif/core';
import { createProgress } from '../progress.js';
import { analyzeFlags, catalogsWithPlugins, loadPluginsOrFail, runAnalysis } from './analyze.js';
import { collectionFlags, collectionOptions, collectOrExit } from './collection-flags.js';
import { terminalText } from '../terminal-text.js';

/** `aitrail scan`: collect this machine (or named homes) and analyze it in one go. */
export class ScanCommand extends Command {
  static override description = 'Collect this machine (or the --home folders, or a mounted image with --root) into OUT/collection.zip, then analyze it into OUT.';
  static override examples = ['<%= config.bin %> scan', '<%= config.bin %> scan --home ~ --out my-trail', '<%= config.bin %> scan --root /mnt/image --secrets hash --out case-42'];
  static override flags = {
    ...collectionFlags,
    ...analyzeFlags,
  };

  override async run(): Promise<void> {
    const { flags } = await this.parse(ScanCommand);
    const plugins = await loadPluginsOrFail(this, flags.plugin);
    const catalogs = catalogsWithPlugins(this, plugins, flags.catalog);
    const outDir = path.resolve(flags.out);
    mkdirSync(outDir, { recursive: true });
    const zip = path.join(outDir, 'collection.zip');
    const progress = createProgress({ label: 'collect' });
    await collectOrExit(
      this,
      'scan: collect',
      { ...collectionOptions(flags), out: zip, dryRun: false, catalogs, env: process.env, arguments: process.argv.slice(2), toolVersion: this.config.version, host: os.hostname() },
      { progress: (p) => progress.update({ phase: p.phase, user: p.user || '-', agent: p.agent || '-', files: p.files }), log: (l) => progress.log(l) },
      () => progress.stop(),
    );
    progress.stop();
    process.stderr.write(`${terminalText(`collected ${zip}`)}\n`);
    await runAnalysis(this, [zip], flags, plugins, catalogs);
  }
}
