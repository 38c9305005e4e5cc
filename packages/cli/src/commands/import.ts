import path from 'node:path';
import { COMPRESSIONS, type Compression, CollectUsageError, importForeign, type SecretsMode } from '@aitrail/collector';
import { Args, Command, Flags } from '@oclif/core';
import { createProgress } from '../progress.js';
import { terminalText } from '../terminal-text.js';
import { catalogsWithPlugins, loadPluginsOrFail } from './analyze.js';
import { formatSummary, humanBytes } from './collect.js';

/** `aitrail import`: turn a Velociraptor, KAPE or UAC collection into an ordinary aitrail collection. */
export class ImportCommand extends Command {
  static override description =
    'Read a Velociraptor collection (zip or folder), a KAPE target output folder or a UAC output (.tar.gz or folder) into an aitrail collection zip: the catalogs pick the agent files, each keeps the source collector\'s recorded hashes and times, and a file whose recorded hash does not match is reported, not parsed. An aitrail collection zip cut short or damaged (no readable central directory) is read too: its members, found by their local headers, go into a new archive that says what was lost (nothing, when its collection.json and manifest.jsonl survived).';
  static override examples = [
    '<%= config.bin %> import Collection-HOST-2026-12-01T04_30_00Z.zip --out host.zip',
    '<%= config.bin %> import D:\\kape\\tout\\HOST --out host.zip',
    '<%= config.bin %> import uac-host-linux-20261201043000.tar.gz --out host.zip && <%= config.bin %> analyze host.zip',
  ];
  static override args = { input: Args.string({ description: 'the foreign collection', required: true }) };
  static override flags = {
    out: Flags.string({ description: 'the aitrail collection zip to write', required: true }),
    host: Flags.string({ description: 'the host name to record (default: the one the source names)' }),
    agent: Flags.string({ description: 'only this catalog agent (repeatable)', multiple: true }),
    full: Flags.boolean({ description: 'also take the excluded directories' }),
    secrets: Flags.string({ description: 'files matching a secret glob: collect and flag, hash only, or skip', options: ['collect', 'hash', 'skip'], default: 'collect' }),
    compression: Flags.string({ description: 'archive members: fast, standard, best or store', options: [...COMPRESSIONS], default: 'fast' }),
    catalog: Flags.string({ description: 'an extra catalog YAML file (repeatable)', multiple: true }),
    plugin: Flags.string({ description: 'a plugin package or path whose catalog applies too (repeatable)', multiple: true }),
    json: Flags.boolean({ description: 'print the summary as JSON on stdout' }),
  };

  override async run(): Promise<void> {
    const { args, flags } = await this.parse(ImportCommand);
    const catalogs = catalogsWithPlugins(this, await loadPluginsOrFail(this, flags.plugin), flags.catalog);
    const progress = createProgress({ label: 'import' });
    const ac = new AbortController();
    const onSignal = (sig: NodeJS.Signals) => ac.abort(new Error(`interrupted by ${sig}`));
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    let summary: Awaited<ReturnType<typeof importForeign>>;
    try {
      summary = await importForeign(
        {
          input: args.input,
          out: path.resolve(flags.out),
          host: flags.host,
          agents: flags.agent,
          full: flags.full,
          secrets: flags.secrets as SecretsMode,
          compression: flags.compression as Compression,
          catalogs,
          arguments: process.argv.slice(2),
          toolVersion: this.config.version,
          signal: ac.signal,
        },
        {
          progress: (p) => progress.update({ phase: p.phase, user: p.user || '-', agent: p.agent || '-', files: p.files, bytes: humanBytes(p.bytes) }),
          log: (line) => progress.log(line),
        },
      );
    } catch (err) {
      progress.stop();
      if (err instanceof CollectUsageError) this.error(terminalText(err.message), { exit: 2 });
      if (ac.signal.aborted) this.error(terminalText(`${(ac.signal.reason as Error).message}: no archive written`), { exit: 130 });
      this.error(terminalText(`import failed: ${(err as Error).message}; no archive was left behind`), { exit: 1 });
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
    progress.stop();
    if (flags.json) {
      process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
      return;
    }
    const salvaged = summary.source_details.metadata ? 'imported: an aitrail collection damaged after its manifest, as that manifest recorded it' : `imported: the whole members of an aitrail collection cut short${summary.partial > 0 ? ', and the first bytes of the one the cut fell in' : ''}`;
    const head = [summary.collector === 'aitrail' ? salvaged : `imported: a ${summary.collector} collection`];
    for (const n of summary.source_notes) head.push(`source: ${n}`);
    if (summary.mismatched > 0) head.push(`${summary.mismatched} files do not match the hash their collector recorded: error rows, not parsed`);
    process.stdout.write(terminalText(`${head.join('\n')}\n${formatSummary(summary)}`));
  }
}
