import { stat } from 'node:fs/promises';
import { CollectUsageError } from '../options.js';
import { openArchive, readCollection } from '../archive-reader.js';
import { startsAsCollection } from '../zip-salvage.js';
import { openCutAitrail } from './aitrail-cut.js';
import { isKape, openKape } from './kape.js';
import { type FileTree, openDirTree, openZipTree } from './tree.js';
import type { ForeignSource } from './types.js';
import { isUacTree, openUacTar, openUacTree } from './uac.js';
import { isVelociraptor, openVelociraptor } from './velociraptor.js';

/**
 * Where a collection sits in a tree: at the top, or one folder down (a zip unpacked into a folder
 * of its own name, a KAPE `--tdest` holding one run).
 */
function prefixes(tree: FileTree): string[] {
  const tops = new Set(tree.entries.filter((e) => e.kind === 'dir' || e.name.includes('/')).map((e) => `${e.name.split('/')[0]}/`));
  return ['', ...[...tops].sort()];
}

/** Open a foreign collection, its kind told by its layout: Velociraptor, UAC, then KAPE; or an aitrail zip cut short. */
export async function openForeign(input: string): Promise<ForeignSource> {
  const st = await stat(input).catch(() => undefined);
  if (!st) throw new CollectUsageError(`${input}: no such file or folder; give a Velociraptor collection (zip or folder), a KAPE output folder or a UAC output (.tar.gz or folder)`);
  if (st.isFile() && /\.(tar\.gz|tgz|tar)$/i.test(input)) return openUacTar(input, input);
  let tree: FileTree;
  if (st.isDirectory()) tree = await openDirTree(input);
  // A collection cut short is often the collector's own `<out>.partial`, left by a run that was killed.
  else if (st.isFile() && (/\.zip$/i.test(input) || startsAsCollection(input))) {
    try {
      tree = await openZipTree(input);
    } catch (err) {
      // An aitrail collection cut short has no central directory: its whole members are salvaged.
      if (startsAsCollection(input)) return openCutAitrail(input);
      throw new CollectUsageError(`${input}: expected a zip archive, but it cannot be read as one (${(err as Error).message})`);
    }
  } else throw new CollectUsageError(`${input}: expected a folder, a .zip or a .tar.gz/.tar; found another kind of file`);
  for (const prefix of prefixes(tree)) {
    if (isVelociraptor(tree, prefix)) return openVelociraptor(tree, prefix, input);
  }
  if (isUacTree(tree)) return openUacTree(tree, input, st.isFile() ? input : undefined);
  for (const prefix of prefixes(tree)) {
    if (isKape(tree, prefix)) return openKape(tree, prefix, input);
  }
  tree.close();
  // An aitrail zip whose directory lists but whose members do not read where it says (its
  // offsets damaged) is salvaged by its local headers; one that reads needs no import.
  if (st.isFile() && startsAsCollection(input)) {
    if (!(await readsWhole(input))) return openCutAitrail(input);
    throw new CollectUsageError(`${input}: already an aitrail collection, and it reads: analyze or verify it as it is (aitrail import reads other collectors' output, or an aitrail zip cut short or damaged)`);
  }
  throw new CollectUsageError(
    `${input}: not a collection aitrail can import: expected a Velociraptor collection (uploads/ with uploads.json or results/), a UAC output ([root]/) or a KAPE output (<drive letter>/Users/... or a *_CopyLog.csv); for a plain folder tree or a mounted image use aitrail collect --root`,
  );
}

/** Whether an aitrail zip's collection.json and manifest.jsonl read through its central directory. */
async function readsWhole(input: string): Promise<boolean> {
  try {
    const reader = await openArchive(input);
    try {
      const { info, problems } = await readCollection(reader);
      return info.format === 'aitrail-collection' && !problems.some((p) => /not readable|could not be read/.test(p));
    } finally {
      reader.close();
    }
  } catch {
    return false;
  }
}
