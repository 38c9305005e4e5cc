import { createHash } from 'node:crypto';
import type { ManifestRow } from '@aitrail/collector';
import { type CredentialKind, credentialScanEligible, scanCredentialStream } from './credential-scan.js';
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
  /** Credential findings in the intact non-secret members (empty when the scan is off). */
  credentials: CredentialScanSummary;
}

/** Caps of the credential scan the integrity pass feeds; findings past them are counted, not kept. */
export interface CredentialScanLimits {
  /** Findings kept per member. */
  maxPerFile: number;
  /** Findings kept per input, all members together. */
  maxTotal: number;
}

/** Default caps: enough to point at every pasted token, bounded against a file of ten million. */
export const DEFAULT_CREDENTIAL_LIMITS: CredentialScanLimits = { maxPerFile: 100, maxTotal: 2_000 };

/** One credential found in a member; `line` is null in a binary member (a SQLite file), where lines mean nothing. */
export interface MemberFinding {
  line: number | null;
  kind: CredentialKind;
  preview: string;
}

/** The findings of one member, with its manifest row (user, agent) for the inventory. */
export interface MemberFindings {
  row: ManifestRow;
  /** Kept findings, in file order. */
  findings: MemberFinding[];
  /** Findings seen in the member, kept or not. */
  total: number;
}

/** What the credential scan of one input found. */
export interface CredentialScanSummary {
  /** Members scanned whole (intact, collected, not secret). */
  scanned: MemberFindings[];
  /** Findings seen in all, kept or not. */
  total: number;
  /** Findings kept (at most `maxTotal`). */
  kept: number;
}

/** Options of {@link checkIntegrity}. */
export interface IntegrityOptions {
  /** Scan the non-secret members' bytes for credentials as they are hashed; false: no scan. */
  credentials?: Partial<CredentialScanLimits> | false;
}

/** A NUL byte in a member's first 8,000 bytes says binary (git's rule): its line numbers mean nothing. */
const BINARY_SNIFF = 8000;

/** Expected byte count of a collected member: what was read and hashed, else the stat size. */
function expectedSize(row: ManifestRow): number | null {
  return row.bytes_read ?? row.size ?? null;
}

/**
 * Stream every member the manifest says was archived once, hashing it, and compare SHA-256 and
 * size with the manifest; members present but not in the manifest are `extra`.
 */
export async function checkIntegrity(src: CollectionSource, onMember?: (done: number, total: number) => void, opts: IntegrityOptions = {}): Promise<IntegrityResult> {
  const present = new Map(src.members().map((m) => [m.name, m]));
  const named = new Set<string>();
  const credentials: CredentialScanSummary = { scanned: [], total: 0, kept: 0 };
  const res: IntegrityResult = { ok: true, checked: 0, mismatched: [], missing: [], extra: [], unreadable: [], failed: new Set(), credentials };
  const limits = opts.credentials === false ? null : { ...DEFAULT_CREDENTIAL_LIMITS, ...opts.credentials };
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
    let binary = false;
    // The scanner pulls the very chunks being hashed: one read of the member serves both.
    const chunks = async function* (): AsyncGenerator<Buffer> {
      for await (const c of src.openMember(name)) {
        if (bytes < BINARY_SNIFF && c.subarray(0, BINARY_SNIFF - bytes).includes(0)) binary = true;
        h.update(c);
        bytes += c.length;
        yield c;
      }
    };
    const found: MemberFinding[] = [];
    let seen = 0;
    try {
      if (limits && credentialScanEligible(row)) {
        const room = Math.max(0, Math.min(limits.maxPerFile, limits.maxTotal - credentials.kept));
        for await (const f of scanCredentialStream(chunks())) {
          seen++;
          if (found.length < room) found.push({ line: f.line, kind: f.kind, preview: f.preview });
        }
      } else {
        for await (const _ of chunks());
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
      continue;
    }
    // Findings count only for a member that is what the collector read: a failed one is not parsed either.
    if (limits && credentialScanEligible(row)) {
      if (binary) for (const f of found) f.line = null;
      credentials.scanned.push({ row, findings: found, total: seen });
      credentials.total += seen;
      credentials.kept += found.length;
    }
  }
  for (const m of src.members()) {
    if (!named.has(m.name)) res.extra.push({ archive_path: m.name, problem: 'extra', detail: `${m.name} (${m.size} bytes) is in the collection but not in its manifest; not parsed` });
  }
  res.ok = res.mismatched.length + res.missing.length + res.extra.length + res.unreadable.length === 0;
  return res;
}

/** One stderr line about an input's credential findings: counts and kinds, never a value or a preview. */
export function credentialNotice(c: CredentialScanSummary): string | null {
  if (c.total === 0) return null;
  const files = c.scanned.filter((m) => m.total > 0);
  const kinds = [...new Set(files.flatMap((m) => m.findings.map((f) => f.kind)))].sort();
  const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  return `${plural(c.total, 'credential-like string', 'credential-like strings')} in ${plural(files.length, 'collected file', 'collected files')} that are not secret files (${kinds.join(', ')}); listed by file, line, kind and a 4-character preview in inventory.json credential_findings; values are never printed`;
}
