import { createHash } from 'node:crypto';
import type { ManifestRow } from '@aitrail/collector';
import { checkArchivePath } from './safe-path.js';
import type { CollectionSource } from './source.js';

/** One member that failed the check against the manifest. */
export interface IntegrityProblem {
  archive_path: string;
  problem: 'mismatch' | 'missing' | 'extra' | 'unreadable' | 'unsafe_path';
  detail: string;
}

/** The integrity result of one input, as written to inventory.json. */
export interface IntegrityResult {
  ok: boolean;
  /** Members checked against the manifest. */
  checked: number;
  mismatched: IntegrityProblem[];
  missing: IntegrityProblem[];
  extra: IntegrityProblem[];
  /** Members the manifest names that could not be read, or whose name is unsafe. */
  unreadable: IntegrityProblem[];
  /** Archive paths that failed and will not be parsed. */
  failed: Set<string>;
}

/** Expected byte count of a collected member: what was read and hashed, else the stat size. */
function expectedSize(row: ManifestRow): number | null {
  return row.bytes_read ?? row.size ?? null;
}

/**
 * Stream every member the manifest says was archived once, hashing it, and compare SHA-256 and
 * size with the manifest; members present but not in the manifest are `extra`.
 */
export async function checkIntegrity(src: CollectionSource, onMember?: (done: number, total: number) => void): Promise<IntegrityResult> {
  const present = new Map(src.members().map((m) => [m.name, m]));
  const named = new Set<string>();
  const res: IntegrityResult = { ok: true, checked: 0, mismatched: [], missing: [], extra: [], unreadable: [], failed: new Set() };
  const rows = src.manifest.filter((r) => r.archive_path !== '' && r.status === 'collected');
  let done = 0;
  for (const row of rows) {
    const name = row.archive_path;
    named.add(name);
    onMember?.(++done, rows.length);
    try {
      checkArchivePath(name);
    } catch (e) {
      res.unreadable.push({ archive_path: name, problem: 'unsafe_path', detail: (e as Error).message });
      res.failed.add(name);
      continue;
    }
    const m = present.get(name);
    if (!m) {
      res.missing.push({ archive_path: name, problem: 'missing', detail: `the manifest lists ${name} (${expectedSize(row)} bytes) but the collection does not hold it` });
      res.failed.add(name);
      continue;
    }
    if (m.problem) {
      res.unreadable.push({ archive_path: name, problem: 'unreadable', detail: m.problem });
      res.failed.add(name);
      continue;
    }
    const want = expectedSize(row);
    // A member larger than the manifest says is never inflated: that is how a zip bomb would look.
    if (want !== null && m.size !== want) {
      res.mismatched.push({ archive_path: name, problem: 'mismatch', detail: `expected ${want} bytes, found ${m.size}` });
      res.failed.add(name);
      continue;
    }
    const h = createHash('sha256');
    let bytes = 0;
    try {
      for await (const c of src.openMember(name)) {
        h.update(c);
        bytes += c.length;
      }
    } catch (e) {
      res.unreadable.push({ archive_path: name, problem: (e as Error).name === 'UnsafePathError' ? 'unsafe_path' : 'unreadable', detail: (e as Error).message });
      res.failed.add(name);
      continue;
    }
    res.checked++;
    const sha = h.digest('hex');
    if ((want !== null && bytes !== want) || (row.sha256 && sha !== row.sha256.toLowerCase())) {
      res.mismatched.push({ archive_path: name, problem: 'mismatch', detail: `expected ${want} bytes sha256 ${row.sha256 || '-'}, found ${bytes} bytes sha256 ${sha}` });
      res.failed.add(name);
    }
  }
  for (const m of src.members()) {
    if (!named.has(m.name)) res.extra.push({ archive_path: m.name, problem: 'extra', detail: `${m.name} (${m.size} bytes) is in the collection but not in its manifest; not parsed` });
  }
  res.ok = res.mismatched.length + res.missing.length + res.extra.length + res.unreadable.length === 0;
  return res;
}
