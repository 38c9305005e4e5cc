import { stat } from 'node:fs/promises';
import { verifyArchive } from '@aitrail/collector';
import { Args, Command, Flags } from '@oclif/core';
import { terminalText } from '../terminal-text.js';

/** `aitrail verify ARCHIVE`: re-hash every member against the manifest; exit 1 on any finding. */
export class VerifyCommand extends Command {
  static override description =
    'Check a collection archive: every member against its manifest row (SHA-256, size), missing and extra members, and the archive against ARCHIVE.sha256.';
  static override examples = ['<%= config.bin %> verify aitrail-host-20261001T090000Z.zip'];
  static override args = { archive: Args.string({ description: 'the collection zip', required: true }) };
  static override flags = { json: Flags.boolean({ description: 'print the report as JSON' }) };

  override async run(): Promise<void> {
    const { args, flags } = await this.parse(VerifyCommand);
    const st = await stat(args.archive).catch(() => undefined);
    if (!st?.isFile()) this.error(terminalText(`${args.archive}: expected a collection zip file, found none; check the path`), { exit: 2 });
    let report: Awaited<ReturnType<typeof verifyArchive>>;
    try {
      report = await verifyArchive(args.archive);
    } catch (err) {
      this.error(terminalText((err as Error).message), { exit: 2 });
    }
    if (flags.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    else {
      const out: string[] = [];
      out.push(`${report.archive}: ${report.ok ? 'OK' : 'FAILED'}`);
      out.push(`  archive sha256 ${report.archive_sha256} (sidecar: ${report.sidecar.status})`);
      out.push(`  members checked: ${report.checked}`);
      for (const m of report.mismatched) {
        out.push(`  MISMATCH ${m.member}: ${m.reason} (expected ${m.expected_sha256} ${m.expected_size} bytes, found ${m.actual_sha256} ${m.actual_size} bytes)`);
      }
      for (const m of report.missing) out.push(`  MISSING ${m}: in the manifest, not in the archive`);
      for (const m of report.extra) out.push(`  EXTRA ${m}: in the archive, not in the manifest`);
      for (const p of report.problems) out.push(`  PROBLEM ${p}`);
      if (report.sidecar.status === 'mismatch') out.push(`  SIDECAR ${report.archive}.sha256 says ${report.sidecar.expected}`);
      // Member names and manifest lines come from the archive: never raw controls on a terminal.
      process.stdout.write(`${terminalText(out.join('\n'))}\n`);
    }
    if (!report.ok) this.exit(1);
  }
}
