import path from 'node:path';
import { csvObjects } from './csv.js';
import { isoTime, pathKey, targetPath } from './paths.js';
import { count, hexDigest } from './records.js';
import type { FileTree, TreeEntry } from './tree.js';
import type { ForeignFile, ForeignSource, Recorded } from './types.js';

// A KAPE target output folder (`--tdest`, or the zip `--zip` makes of it): the files under
// `<tdest>/<drive letter>/<path>` (RecreateDirectories), and `<timestamp>_CopyLog.csv` with one
// row per copied file: CopiedTimestamp, SourceFile, DestinationFile, FileSize, SourceFileSha1,
// DeferredCopy, CreatedOnUtc, ModifiedOnUtc, LastAccessedOnUtc, CopyDuration. KAPE deduplicates
// by SHA-1: a file whose twin was already copied is not, and `<timestamp>_SkipLog.csv`
// (SourceFile, SourceFileSha1, Reason) says so. References: EricZimmerman/KapeFiles, the KAPE
// documentation, Timeline Explorer's KAPE file specs; fox-it/dissect.target loaders/kape.py.

const COPY_LOG = /(^|\/)[^/]*CopyLog[^/]*\.csv$/i;
const SKIP_LOG = /(^|\/)[^/]*SkipLog[^/]*\.csv$/i;

/** Whether a tree holds a KAPE output at `prefix`: a CopyLog, or a drive-letter folder with Users/ in it. */
export function isKape(tree: FileTree, prefix: string): boolean {
  return tree.entries.some((e) => {
    if (!e.name.startsWith(prefix)) return false;
    const rest = e.name.slice(prefix.length);
    return (COPY_LOG.test(rest) && !rest.includes('/')) || /^[A-Za-z]\/(Users|Windows|ProgramData)\//i.test(rest);
  });
}

/** Open a KAPE output in `tree` at `prefix` for import. */
export async function openKape(tree: FileTree, prefix: string, label: string): Promise<ForeignSource> {
  const notes: string[] = [...tree.problems];
  const files: { entry: TreeEntry; target: string }[] = [];
  const others = new Set<string>();
  for (const entry of tree.entries) {
    if (!entry.name.startsWith(prefix) || (entry.kind !== 'file' && entry.kind !== 'symlink')) continue;
    const rest = entry.name.slice(prefix.length);
    const m = /^([A-Za-z])\/(.+)$/.exec(rest);
    if (!m) {
      if (rest.includes('/')) others.add(rest.split('/')[0]);
      continue;
    }
    files.push({ entry, target: `${m[1].toUpperCase()}:/${m[2]}` });
  }
  for (const o of others) notes.push(`kape: ${o}/ is not a drive-letter folder (volume shadow copies, module output); not imported`);
  const copied = new Map<string, Recorded>();
  const bySha1 = new Map<string, string>();
  const skippedDupes: { target: string; sha1: string; line: number; log: string }[] = [];
  const logs = tree.entries.filter((e) => e.name.startsWith(prefix) && !e.name.slice(prefix.length).includes('/'));
  let started: string | undefined;
  let ended: string | undefined;
  for (const log of logs.filter((e) => COPY_LOG.test(e.name))) {
    const name = log.name.slice(prefix.length);
    try {
      for await (const row of csvObjects(tree.open(log.name))) {
        const target = targetPath(row.get('SourceFile') ?? '');
        if (!target) continue;
        const r: Recorded = { from: [`${name} line ${row.line}`] };
        const sha1 = hexDigest(row.get('SourceFileSha1'), 40);
        const size = count(row.get('FileSize'));
        if (sha1) r.sha1 = sha1;
        if (size !== undefined) r.size = size;
        const times: [keyof Recorded, string][] = [['birthtime', 'CreatedOnUtc'], ['mtime', 'ModifiedOnUtc'], ['atime', 'LastAccessedOnUtc']];
        for (const [k, col] of times) {
          const t = isoTime(row.get(col));
          if (t) (r as Record<string, string>)[k] = t;
        }
        const copiedAt = isoTime(row.get('CopiedTimestamp'));
        if (copiedAt) {
          if (!started || copiedAt < started) started = copiedAt;
          if (!ended || copiedAt > ended) ended = copiedAt;
        }
        copied.set(pathKey(target, true), r);
        if (sha1) bySha1.set(sha1, pathKey(target, true));
      }
    } catch (err) {
      notes.push(`kape: ${name} could not be read whole (${(err as Error).message}); its rows so far are used`);
    }
  }
  for (const log of logs.filter((e) => SKIP_LOG.test(e.name))) {
    const name = log.name.slice(prefix.length);
    try {
      for await (const row of csvObjects(tree.open(log.name))) {
        const target = targetPath(row.get('SourceFile') ?? '');
        const sha1 = hexDigest(row.get('SourceFileSha1'), 40);
        if (target && sha1) skippedDupes.push({ target, sha1, line: row.line, log: name });
      }
    } catch (err) {
      notes.push(`kape: ${name} could not be read whole (${(err as Error).message})`);
    }
  }
  if (copied.size === 0) notes.push('kape: no CopyLog rows: the files keep no recorded hash or times (their own times in the folder are the copy\'s, not the target\'s)');
  const byTarget = new Map(files.map((f) => [pathKey(f.target, true), f]));
  // A file KAPE skipped as the twin of one it copied (same SHA-1) is restored from that twin.
  const restored: { entry: TreeEntry; target: string; recorded: Recorded }[] = [];
  for (const s of skippedDupes) {
    const twin = byTarget.get(bySha1.get(s.sha1) ?? '');
    if (!twin || byTarget.has(pathKey(s.target, true))) continue;
    restored.push({ entry: twin.entry, target: s.target, recorded: { sha1: s.sha1, from: [`${s.log} line ${s.line} (skipped by KAPE as a duplicate; content of ${twin.target})`] } });
  }
  if (restored.length > 0) notes.push(`kape: ${restored.length} files KAPE skipped as duplicates (SkipLog) were restored from the twin with the same SHA-1`);
  const host = path.basename(label).replace(/\.zip$/i, '');
  notes.push(`kape: KAPE records no host name; the host is "${host}", the output folder's name (--host to name it)`);
  const foreign = (entry: TreeEntry, target: string, recorded: Recorded): ForeignFile => ({
    target,
    member: entry.name,
    kind: entry.kind === 'symlink' ? 'symlink' : 'file',
    size: entry.size,
    linkTarget: entry.linkTarget,
    recorded,
    open: () => tree.open(entry.name),
  });
  return {
    collector: 'kape',
    label,
    host,
    layout: 'win32',
    hashes: ['sha1'],
    started,
    ended,
    notes,
    details: { copy_logs: logs.filter((e) => COPY_LOG.test(e.name)).map((e) => e.name.slice(prefix.length)), copied_rows: copied.size },
    async *files() {
      for (const f of files) yield foreign(f.entry, f.target, {});
      for (const r of restored) yield foreign(r.entry, r.target, r.recorded);
    },
    recordedFor(f) {
      return f.recorded.from ? f.recorded : (copied.get(pathKey(f.target, true)) ?? {});
    },
    untrusted: () => undefined,
    close: async () => tree.close(),
  };
}
