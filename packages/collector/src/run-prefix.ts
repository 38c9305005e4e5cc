import { lstatSync, readdirSync } from 'node:fs';
import type { ManifestRow } from './types.js';
import { baseRow, type TreeScope } from './walk.js';

/**
 * Resolve a prefix segment by segment: case-insensitively on Windows/macOS layouts (an image
 * mounted on Linux keeps its case, and may even hold two spellings: both are walked), and
 * never through a link on the way.
 */
export function resolvePrefix(
  host: { sep: string; row(row: ManifestRow): void },
  scope: TreeScope,
  start: { fs: string; rel: string[] },
  segs: string[],
  nocase: boolean,
): { fsPath: Buffer; rel: string }[] {
  // '' is this machine's root and 'C:' a bare drive: both are listed with a separator added.
  const dirOf = (fs: string) => (fs === '' || /^[A-Za-z]:$/.test(fs) ? fs + host.sep : fs);
  let level: { fs: string; rel: string[] }[] = [start];
  for (let i = 0; i < segs.length; i += 1) {
    const next: { fs: string; rel: string[] }[] = [];
    for (const cur of level) {
      let names: string[];
      if (nocase) {
        const listed = probe(() => readdirSync(dirOf(cur.fs))) ?? [];
        names = listed.filter((n) => n.toLowerCase() === segs[i].toLowerCase()).sort();
      } else {
        names = probe(() => lstatSync(cur.fs + host.sep + segs[i])) ? [segs[i]] : [];
      }
      for (const name of names) {
        const fs = cur.fs + host.sep + name;
        const rel = [...cur.rel, name];
        if (i < segs.length - 1) {
          const st = probe(() => lstatSync(fs, { bigint: true }));
          if (st?.isSymbolicLink()) {
            const row = baseRow(scope, rel.join('/'), Buffer.from(fs), false, st);
            row.status = 'skipped_special';
            row.reason = `symbolic link on the way to ${segs.join('/')}: not followed`;
            host.row(row);
            continue;
          }
          if (!st?.isDirectory()) continue;
        }
        next.push({ fs, rel });
      }
    }
    level = next;
  }
  return level.map((l) => ({ fsPath: Buffer.from(/^[A-Za-z]:$/.test(l.fs) ? dirOf(l.fs) : l.fs), rel: l.rel.join('/') }));
}

/**
 * A prefix probe, synchronous: every catalog's anchors are looked up in every home, most of them
 * absent, and each awaited lstat was a round trip to libuv's pool (~0.2 s of an empty home's run).
 */
function probe<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch {
    return undefined;
  }
}
