import os from 'node:os';
import path from 'node:path';
import { type CollectSummary, defaultOutName, type ManifestRow } from '@aitrail/collector';
import { Command, Flags } from '@oclif/core';
import { createProgress } from '../progress.js';
import { catalogsWithPlugins, loadPluginsOrFail } from './analyze.js';
import { collectionFlags, collectionOptions, collectOrExit } from './collection-flags.js';
import { terminalText } from '../terminal-text.js';

/** Bytes for people: 1.2 MB. */
export function humanBytes(n: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let v = n;
  let i = 0;
  while (v >= 1000 && i < units.length - 1) {
    v /= 1000;
    i += 1;
  }
  return i === 0 ? `${n} B` : `${v.toFixed(1)} ${units[i]}`;
}

/** The human summary printed on stdout after a collect run. */
export function formatSummary(s: CollectSummary): string {
  const lines: string[] = [];
  const head = ['user', 'agent', 'scope', 'files', 'bytes', 'secrets', 'skipped', 'errors'];
  const table = s.groups.map((g) => [g.user || '-', g.agent, g.scope, String(g.files), humanBytes(g.bytes), String(g.secrets), String(g.skipped), String(g.errors)]);
  const widths = head.map((h, i) => Math.max(h.length, ...table.map((r) => r[i].length)));
  for (const row of [head, ...table]) lines.push(row.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd());
  lines.push('');
  lines.push(`homes: ${s.homes.map((h) => `${h.user} (${h.home})`).join(', ') || 'none'}   layout: ${s.layout}`);
  lines.push(`rows: ${Object.entries(s.counts).map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}`);
  for (const p of s.projects) lines.push(`project ${p.root} (${p.user}, ${p.agent}): ${p.status}`);
  for (const n of s.notes) lines.push(`note: ${n}`);
  if (s.out) lines.push(`archive: ${s.out} (${humanBytes(s.archive_bytes)}, sha256 ${s.sha256}, sidecar ${s.out}.sha256)`);
  else lines.push('dry run: nothing was read or written');
  return `${lines.join('\n')}\n`;
}

function dryRunLine(r: ManifestRow): string {
  // An excluded directory is counted (files, bytes); an excluded file keeps its own size.
  const size = r.status === 'skipped_excluded' && r.files !== undefined ? `${r.files} files ${humanBytes(r.bytes ?? 0)}` : r.size === null || r.size === undefined ? '-' : humanBytes(r.size);
  const shared = r.agents ? `  (claimed by ${r.agents.join(', ')})` : '';
  return `${r.status.padEnd(16)} ${r.kind.padEnd(7)} ${size.padStart(10)}${r.secret ? ' SECRET' : ''}  ${r.source_path}${r.archive_path ? ` -> ${r.archive_path}` : ''}${shared}`;
}

/** `aitrail collect`: copy the cataloged files of every home into one verified zip. */
export class CollectCommand extends Command {
  static override description =
    'Collect the cataloged agent files of every user home (or --home, or a mounted image with --root) into one zip with a manifest, read-only.';
  static override examples = [
    '<%= config.bin %> collect',
    '<%= config.bin %> collect --home /home/sean --out sean.zip',
    '<%= config.bin %> collect --root /mnt/image --secrets hash',
    '<%= config.bin %> collect --home /home/sean --system --compression store',
    '<%= config.bin %> collect --dry-run',
  ];
  static override flags = {
    ...collectionFlags,
    out: Flags.string({ description: 'the archive to write, outside every home and project collected; default aitrail-<host>-<UTC time>.zip here' }),
    'dry-run': Flags.boolean({ description: 'list what would be collected; read and write nothing' }),
    json: Flags.boolean({ description: 'print the summary as JSON on stdout' }),
    plugin: Flags.string({ description: 'a plugin package or path whose catalog is collected too (repeatable; also AITRAIL_PLUGINS)', multiple: true }),
  };

  override async run(): Promise<void> {
    const { flags } = await this.parse(CollectCommand);
    const catalogs = catalogsWithPlugins(this, await loadPluginsOrFail(this, flags.plugin), flags.catalog);
    const out = path.resolve(flags.out ?? defaultOutName(os.hostname(), new Date()));
    const progress = createProgress({ label: 'collect' });
    const summary = await collectOrExit(
      this,
      'collect',
      {
        ...collectionOptions(flags),
        out,
        dryRun: flags['dry-run'],
        catalogs,
        env: process.env,
        arguments: process.argv.slice(2),
        toolVersion: this.config.version,
      },
      {
        progress: (p) => progress.update({ phase: p.phase, user: p.user || '-', agent: p.agent || '-', files: p.files, bytes: humanBytes(p.bytes) }),
        log: (line) => progress.log(line),
      },
      () => progress.stop(),
    );
    progress.stop();
    if (flags.json) {
      process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
      return;
    }
    if (summary.rows) process.stdout.write(`${terminalText(summary.rows.map(dryRunLine).join('\n'))}\n\n`);
    process.stdout.write(terminalText(formatSummary(summary)));
  }
}
