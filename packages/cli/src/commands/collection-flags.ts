import { type CollectEvents, type CollectOptions, type CollectSummary, COMPRESSIONS, type Compression, CollectUsageError, collect, type SecretsMode } from '@aitrail/collector';
import { type Command, Flags } from '@oclif/core';
import { terminalText } from '../terminal-text.js';

/**
 * The collection flags of `collect` and `scan`, defined once so the two commands cannot drift
 * (`scan` is `collect` into OUT/collection.zip, then `analyze`).
 */
export const collectionFlags = {
  home: Flags.string({ description: 'a home directory to collect (repeatable); default: every home on this machine', multiple: true }),
  root: Flags.string({ description: 'a mounted disk image: find the homes inside it' }),
  system: Flags.boolean({
    description: "with --home, also collect this host's system paths (/etc/..., /tmp/claude-<uid>/...); a whole-machine or --root collection always does",
  }),
  agent: Flags.string({ description: 'only this catalog agent (repeatable)', multiple: true }),
  full: Flags.boolean({ description: 'also collect the excluded directories (package caches, marketplace clones)' }),
  secrets: Flags.string({
    description: 'files matching a secret glob: collect and flag, hash only, or skip (metadata only)',
    options: ['collect', 'hash', 'skip'],
    default: 'collect',
  }),
  compression: Flags.string({
    description:
      'archive members: fast (deflate level 1, default), standard (level 6, as zip -6), best (level 9), store (none); members whose first MiB does not shrink are stored',
    options: [...COMPRESSIONS],
    default: 'fast',
  }),
  catalog: Flags.string({ description: 'an extra catalog YAML file (repeatable)', multiple: true }),
};

/** The parsed values of {@link collectionFlags}. */
export interface CollectionFlagValues {
  home?: string[];
  root?: string;
  system: boolean;
  agent?: string[];
  full: boolean;
  secrets: string;
  compression: string;
  catalog?: string[];
}

/** The collect options the collection flags give. */
export function collectionOptions(flags: CollectionFlagValues): Pick<CollectOptions, 'homes' | 'root' | 'system' | 'agents' | 'full' | 'secrets' | 'compression'> {
  return {
    homes: flags.home,
    root: flags.root,
    system: flags.system,
    agents: flags.agent,
    full: flags.full,
    secrets: flags.secrets as SecretsMode,
    compression: flags.compression as Compression,
  };
}

/**
 * Run a collection the way both commands do: Ctrl-C and SIGTERM abort it (the `.partial` is
 * removed, exit 130 or 143), a mistake in the options exits 2 with its message, any other
 * failure exits 1 saying nothing was left behind. `what` prefixes the failure message.
 */
export async function collectOrExit(cmd: Command, what: string, opts: Omit<CollectOptions, 'signal'>, events: CollectEvents, stop: () => void): Promise<CollectSummary> {
  const ac = new AbortController();
  let exitOnSignal = 130;
  const onSignal = (sig: NodeJS.Signals) => {
    exitOnSignal = sig === 'SIGTERM' ? 143 : 130;
    ac.abort(new Error(`interrupted by ${sig}`));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    return await collect({ ...opts, signal: ac.signal }, events);
  } catch (err) {
    stop();
    // Messages may name target paths, whose names are the target's to choose.
    if (err instanceof CollectUsageError) cmd.error(terminalText(err.message), { exit: 2 });
    if (ac.signal.aborted) cmd.error(terminalText(`${(ac.signal.reason as Error).message}: ${opts.out}.partial removed, no archive written`), { exit: exitOnSignal });
    cmd.error(terminalText(`${what} failed: ${(err as Error).message}; no archive was left behind`), { exit: 1 });
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
