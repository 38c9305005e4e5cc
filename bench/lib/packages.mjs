// The workspace packages as the bench sees them: their built dist (`pnpm build` first). The
// root package does not depend on them, so they are imported by path, which is exactly where
// their `exports` point; a package or function that has not landed yet is reported, not thrown.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CLI = join(ROOT, 'packages', 'cli', 'bin', 'run.js');

async function importDist(pkg, file = 'index.js') {
  const path = join(ROOT, 'packages', pkg, 'dist', file);
  if (!existsSync(path)) return undefined;
  return import(pathToFileURL(path).href);
}

/** The parser SDK and the built-in parser that wants an events.jsonl path (undefined if none yet). */
export async function loadParsers(eventsRel) {
  const sdk = await importDist('parsers');
  if (!sdk) throw new Error('packages/parsers/dist is missing: run pnpm build');
  let eventsParser;
  for (const plugin of sdk.builtInPlugins ?? []) for (const p of plugin.parsers) if (!eventsParser && p.wants(eventsRel)) eventsParser = p;
  return { sdk, eventsParser };
}

/** dedupRows from @aitrail/analyzer, or from its module file while the index does not export it yet. */
export async function loadDedup() {
  const index = await importDist('analyzer');
  if (index?.dedupRows) return { dedupRows: index.dedupRows, from: '@aitrail/analyzer' };
  const mod = await importDist('analyzer', 'dedup.js');
  if (mod?.dedupRows) return { dedupRows: mod.dedupRows, from: 'packages/analyzer/dist/dedup.js (not exported from the index yet)' };
  return undefined;
}
