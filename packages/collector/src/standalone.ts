import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadCatalogs } from './catalog.js';
import { collect, defaultOutName } from './collect.js';
import { type EmbeddedCatalogs, useEmbeddedCatalogs } from './embedded.js';
import { CollectUsageError, type SecretsMode } from './options.js';
import { COLLECTOR_VERSION } from './version.js';
import { COMPRESSIONS, type Compression } from './zip-writer.js';

const USAGE = `aitrail-collect: collect the AI coding agent files of this machine into one verified zip
(the collector of aitrail in one file; analyze the zip with aitrail analyze on another machine).

usage: node aitrail-collect.cjs [options]
  --out FILE         the archive (default aitrail-<host>-<UTC time>.zip here)
  --home DIR         a home to collect (repeatable; default every home on this machine)
  --root DIR         a mounted disk image: find the homes inside it
  --system           with --home, also this host's system paths
  --agent ID         only this agent (repeatable)
  --secrets MODE     collect (default), hash or skip the files a catalog marks as secrets
  --full             also the excluded folders (package caches)
  --compression C    fast (default), standard, best or store
  --version          print the version and this file's SHA-256
`;

/** The one-file collector's command line: `collect` with its flags, `--version` naming this file's SHA-256. */
export async function runStandalone(argv: string[], embedded: EmbeddedCatalogs, self: string): Promise<number> {
  useEmbeddedCatalogs(embedded);
  let values: Record<string, string | boolean | string[] | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        out: { type: 'string' },
        home: { type: 'string', multiple: true },
        root: { type: 'string' },
        system: { type: 'boolean' },
        agent: { type: 'string', multiple: true },
        secrets: { type: 'string' },
        full: { type: 'boolean' },
        compression: { type: 'string' },
        version: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (err) {
    process.stderr.write(`aitrail-collect: ${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (values.version) {
    // Operators check the copy they pushed against the one they built.
    const sha = createHash('sha256').update(readFileSync(self)).digest('hex');
    process.stdout.write(`aitrail-collect ${COLLECTOR_VERSION} node ${process.version}\nsha256 ${sha}  ${path.basename(self)}\n`);
    return 0;
  }
  const secrets = (values.secrets as string | undefined) ?? 'collect';
  const compression = (values.compression as string | undefined) ?? 'fast';
  if (!['collect', 'hash', 'skip'].includes(secrets)) return usage(`--secrets ${secrets}: expected collect, hash or skip`);
  if (!(COMPRESSIONS as readonly string[]).includes(compression)) return usage(`--compression ${compression}: expected ${COMPRESSIONS.join(', ')}`);
  try {
    const summary = await collect(
      {
        out: path.resolve((values.out as string | undefined) ?? defaultOutName(os.hostname(), new Date())),
        homes: values.home as string[] | undefined,
        root: values.root as string | undefined,
        system: Boolean(values.system),
        agents: values.agent as string[] | undefined,
        full: Boolean(values.full),
        secrets: secrets as SecretsMode,
        compression: compression as Compression,
        dryRun: false,
        catalogs: loadCatalogs(),
        arguments: argv,
        toolVersion: `${COLLECTOR_VERSION} (aitrail-collect)`,
      },
      { log: (line) => process.stderr.write(`${line}\n`) },
    );
    process.stdout.write(`${JSON.stringify({ out: summary.out, sha256: summary.sha256, bytes: summary.archive_bytes, counts: summary.counts, homes: summary.homes })}\n`);
    return 0;
  } catch (err) {
    if (err instanceof CollectUsageError) return usage(err.message);
    process.stderr.write(`aitrail-collect: collect failed: ${(err as Error).message}; no archive was left behind\n`);
    return 1;
  }
}

function usage(message: string): number {
  process.stderr.write(`aitrail-collect: ${message}\n`);
  return 2;
}
