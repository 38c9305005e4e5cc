import { createHash } from 'node:crypto';
import { checkSidecar, type SidecarCheck, sha256File } from './archive-digest.js';
import { openArchive, readCollection } from './archive-reader.js';

/** A member whose bytes differ from its manifest row. */
export interface MemberMismatch {
  member: string;
  expected_sha256: string;
  actual_sha256: string;
  expected_size: number | null;
  actual_size: number;
  reason: string;
}

/** Result of verifying a collection archive. */
export interface VerifyReport {
  archive: string;
  /** True when no member mismatched, none is missing or extra, and the sidecar (if any) matches. */
  ok: boolean;
  archive_sha256: string;
  /** `<archive>.sha256`: ok, mismatch, missing (no sidecar: noted, not a failure) or unreadable. */
  sidecar: SidecarCheck;
  /** Members checked against the manifest. */
  checked: number;
  mismatched: MemberMismatch[];
  /** In the manifest, absent from the zip. */
  missing: string[];
  /** In the zip, not in the manifest (collection.json and manifest.jsonl aside). */
  extra: string[];
  /** Bad manifest lines, unsafe member names, a missing collection.json, ... */
  problems: string[];
}

/** Re-hash every member against the manifest and the archive against `<path>.sha256`. */
export async function verifyArchive(path: string): Promise<VerifyReport> {
  const archiveSha = await sha256File(path).catch((err: Error) => {
    throw new Error(`${path}: cannot read the archive (${err.message})`);
  });
  const sidecar = await checkSidecar(path, archiveSha);
  const reader = await openArchive(path);
  try {
    const { manifest, problems } = await readCollection(reader);
    const report: VerifyReport = {
      archive: path,
      ok: true,
      archive_sha256: archiveSha,
      sidecar,
      checked: 0,
      mismatched: [],
      missing: [],
      extra: [],
      problems,
    };
    const listed = new Set<string>();
    for (const row of manifest) {
      if (!row.archive_path) continue;
      listed.add(row.archive_path);
      if (!reader.members.has(row.archive_path)) {
        report.missing.push(row.archive_path);
        continue;
      }
      report.checked += 1;
      const h = createHash('sha256');
      let size = 0;
      let reason = '';
      try {
        for await (const chunk of await reader.openMember(row.archive_path)) {
          h.update(chunk as Buffer);
          size += (chunk as Buffer).length;
        }
      } catch (err) {
        reason = `unreadable: ${(err as Error).message}`;
      }
      const actual = h.digest('hex');
      const expectedSize = row.bytes_read ?? row.size;
      if (!reason && actual !== row.sha256) reason = 'sha256 differs';
      if (!reason && expectedSize !== null && expectedSize !== size) reason = 'size differs';
      if (reason) {
        report.mismatched.push({
          member: row.archive_path,
          expected_sha256: row.sha256,
          actual_sha256: actual,
          expected_size: expectedSize,
          actual_size: size,
          reason,
        });
      }
    }
    for (const name of reader.members.keys()) {
      if (name !== 'collection.json' && name !== 'manifest.jsonl' && !listed.has(name)) report.extra.push(name);
    }
    report.ok =
      report.mismatched.length === 0 &&
      report.missing.length === 0 &&
      report.extra.length === 0 &&
      report.problems.length === 0 &&
      (sidecar.status === 'ok' || sidecar.status === 'missing');
    return report;
  } finally {
    reader.close();
  }
}
