import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Args, Command, Flags } from '@oclif/core';
import { terminalText } from '../terminal-text.js';

/** `aitrail serve OUT`: browse timeline.sqlite in a local web view. */
export class ServeCommand extends Command {
  static override description = 'Browse an analysis (OUT/timeline.sqlite) in a local, read-only web view on 127.0.0.1: filters, full-text search, paging.';
  static override examples = ['<%= config.bin %> serve ./aitrail-out', '<%= config.bin %> serve ./aitrail-out --port 8080'];
  static override args = { out: Args.string({ description: 'the output folder of `aitrail analyze` (or its timeline.sqlite)', required: true }) };
  static override flags = { port: Flags.integer({ description: 'port on 127.0.0.1 (default: an ephemeral port)', default: 0, min: 0, max: 65535 }) };

  override async run(): Promise<void> {
    const { args, flags } = await this.parse(ServeCommand);
    const db = existsSync(args.out) && statSync(args.out).isDirectory() ? join(args.out, 'timeline.sqlite') : args.out;
    if (!existsSync(db)) this.error(terminalText(`${db}: not found; expected the output folder of \`aitrail analyze\` (run it without --no-reports)`), { exit: 2 });
    const [{ startServer }, { TimelineViewError }] = await Promise.all([import('../serve/server.js'), import('@aitrail/analyzer')]);
    let srv: Awaited<ReturnType<typeof startServer>>;
    try {
      srv = await startServer(db, flags.port);
    } catch (e) {
      if (e instanceof TimelineViewError || (e as NodeJS.ErrnoException).code === 'EADDRINUSE') this.error(terminalText((e as Error).message), { exit: 2 });
      throw e;
    }
    process.stdout.write(`aitrail serve: ${srv.url} (read-only, 127.0.0.1 only; Ctrl-C stops)\n`);
    await new Promise<void>((res) => {
      const stop = () => void srv.close().then(res);
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
  }
}
