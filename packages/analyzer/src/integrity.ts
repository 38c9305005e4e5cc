import { createHash } from 'node:crypto';
import type { ManifestRow } from '@aitrail/collector';
import { type CredentialKind, CredentialScanner, credentialScanEligible } from './credential-scan.js';
import { checkArchivePath } from './safe-path.js';
import type { CollectionSource, MemberInfo } from './source.js';

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

/** What one read of a member found: size and SHA-256, and what the credential scan saw. */
export interface MemberRead {
  bytes: number;
  sha256: string;
  /** Findings in file order, at most the per-file cap; `line` null in a binary member. */
  findings: MemberFinding[];
  /** Findings seen, kept or not. */
  seen: number;
  /** The read failed part way: the error's name and message. */
  error?: { name: string; message: string };
}

/**
 * Takes a member's chunks in order and computes what the integrity pass needs of them: SHA-256,
 * size, the binary sniff and the credential scan. Whoever reads the member feeds it, so a member
 * parsed from one read is hashed from that same read.
 */
export class MemberDigest {
  private readonly h = createHash('sha256');
  private bytes = 0;
  private binary = false;
  private readonly scanner: CredentialScanner | null;
  private readonly found: MemberFinding[] = [];
  private seen = 0;
  private error: MemberRead['error'];

  /** `maxFindings`: findings kept (the per-file cap), or null for no credential scan. */
  constructor(private readonly maxFindings: number | null) {
    this.scanner = maxFindings === null ? null : new CredentialScanner();
  }

  /** The next chunk of the member. */
  take(c: Buffer): void {
    if (this.bytes < BINARY_SNIFF && c.subarray(0, BINARY_SNIFF - this.bytes).includes(0)) this.binary = true;
    this.h.update(c);
    this.bytes += c.length;
    if (this.scanner) this.keep(this.scanner.push(c));
  }

  /** The read failed: the member is unreadable, whatever was hashed so far. */
  fail(e: unknown): void {
    this.error ??= { name: (e as Error)?.name ?? 'Error', message: (e as Error)?.message ?? String(e) };
  }

  /** Done: the digest of what was taken. */
  finish(): MemberRead {
    if (this.scanner && !this.error) this.keep(this.scanner.end());
    if (this.binary) for (const f of this.found) f.line = null;
    return { bytes: this.bytes, sha256: this.h.digest('hex'), findings: this.found, seen: this.seen, ...(this.error ? { error: this.error } : {}) };
  }

  private keep(fs: { line: number; kind: CredentialKind; preview: string }[]): void {
    for (const f of fs) {
      this.seen++;
      if (this.found.length < this.maxFindings!) this.found.push({ line: f.line, kind: f.kind, preview: f.preview });
    }
  }
}

/** Read a whole member into a {@link MemberDigest}. */
export async function readMember(chunks: AsyncIterable<Buffer>, maxFindings: number | null): Promise<MemberRead> {
  const d = new MemberDigest(maxFindings);
  try {
    for await (const c of chunks) d.take(c);
  } catch (e) {
    d.fail(e);
  }
  return d.finish();
}

/** The manifest rows the integrity pass checks: archived and collected. */
export function checkedRows(src: CollectionSource): ManifestRow[] {
  return src.manifest.filter((r) => r.archive_path !== '' && r.status === 'collected');
}

/**
 * What can be said of a member before reading it: an unsafe name, missing, unreadable (a link in
 * a folder, an overlapping zip entry), or a size other than the manifest's. A member larger than
 * the manifest says is never inflated: that is how a zip bomb would look. null: read it.
 */
export function precheck(row: ManifestRow, present: ReadonlyMap<string, MemberInfo>): IntegrityProblem | null {
  const name = row.archive_path;
  try {
    checkArchivePath(name);
  } catch (e) {
    return { archive_path: name, problem: 'unsafe_path', detail: (e as Error).message };
  }
  const m = present.get(name);
  if (!m) return { archive_path: name, problem: 'missing', detail: `the manifest lists ${name} (${expectedSize(row)} bytes) but the collection does not hold it` };
  if (m.problem) return { archive_path: name, problem: 'unreadable', detail: m.problem };
  const want = expectedSize(row);
  if (want !== null && m.size !== want) return { archive_path: name, problem: 'mismatch', detail: `expected ${want} bytes, found ${m.size}` };
  return null;
}

/** Whether a member read whole differs from what the manifest recorded (size or SHA-256). */
export function readMismatches(row: ManifestRow, r: MemberRead): boolean {
  const want = expectedSize(row);
  return (want !== null && r.bytes !== want) || (!!row.sha256 && r.sha256 !== row.sha256.toLowerCase());
}

/** Whether a member failed the check, from its read: unreadable or not what the manifest says. */
export function readFails(row: ManifestRow, r: MemberRead): boolean {
  return r.error !== undefined || readMismatches(row, r);
}

/** The credential caps in force, or null when the scan is off. */
export function credentialLimits(opts: IntegrityOptions = {}): CredentialScanLimits | null {
  return opts.credentials === false ? null : { ...DEFAULT_CREDENTIAL_LIMITS, ...opts.credentials };
}

/**
 * The integrity result of one input from the members' reads, in manifest order: `reads` gives
 * the read of every member {@link precheck} passed (and the caller read).
 */
export function assembleIntegrity(src: CollectionSource, reads: (archivePath: string) => MemberRead | undefined, limits: CredentialScanLimits | null): IntegrityResult {
  const present = new Map(src.members().map((m) => [m.name, m]));
  const named = new Set<string>();
  const credentials: CredentialScanSummary = { scanned: [], total: 0, kept: 0 };
  const res: IntegrityResult = { ok: true, checked: 0, mismatched: [], missing: [], extra: [], unreadable: [], failed: new Set(), credentials };
  for (const row of checkedRows(src)) {
    const name = row.archive_path;
    named.add(name);
    const pre = precheck(row, present);
    if (pre) {
      (pre.problem === 'missing' ? res.missing : pre.problem === 'mismatch' ? res.mismatched : res.unreadable).push(pre);
      res.failed.add(name);
      continue;
    }
    const r = reads(name);
    if (!r) throw new Error(`internal: ${name} passed the precheck but was not read`);
    if (r.error) {
      res.unreadable.push({ archive_path: name, problem: r.error.name === 'UnsafePathError' ? 'unsafe_path' : 'unreadable', detail: r.error.message });
      res.failed.add(name);
      continue;
    }
    res.checked++;
    if (readMismatches(row, r)) {
      const want = expectedSize(row);
      res.mismatched.push({ archive_path: name, problem: 'mismatch', detail: `expected ${want} bytes sha256 ${row.sha256 || '-'}, found ${r.bytes} bytes sha256 ${r.sha256}` });
      res.failed.add(name);
      continue;
    }
    // Findings count only for a member that is what the collector read: a failed one is not parsed either.
    if (limits && credentialScanEligible(row)) {
      const room = Math.max(0, Math.min(limits.maxPerFile, limits.maxTotal - credentials.kept));
      const found = r.findings.slice(0, room);
      credentials.scanned.push({ row, findings: found, total: r.seen });
      credentials.total += r.seen;
      credentials.kept += found.length;
    }
  }
  for (const m of src.members()) {
    if (!named.has(m.name)) res.extra.push({ archive_path: m.name, problem: 'extra', detail: `${m.name} (${m.size} bytes) is in the collection but not in its manifest; not parsed` });
  }
  res.ok = res.mismatched.length + res.missing.length + res.extra.length + res.unreadable.length === 0;
  return res;
}

/**
 * Stream every member the manifest says was archived once, hashing it, and compare SHA-256 and
 * size with the manifest; members present but not in the manifest are `extra`. (`analyze` reads
 * members in its parse jobs instead, through {@link MemberDigest}, and assembles the same result.)
 */
export async function checkIntegrity(src: CollectionSource, onMember?: (done: number, total: number) => void, opts: IntegrityOptions = {}): Promise<IntegrityResult> {
  const present = new Map(src.members().map((m) => [m.name, m]));
  const limits = credentialLimits(opts);
  const rows = checkedRows(src);
  const reads = new Map<string, MemberRead>();
  let done = 0;
  for (const row of rows) {
    onMember?.(++done, rows.length);
    if (precheck(row, present)) continue;
    reads.set(row.archive_path, await readMember(src.openMember(row.archive_path), limits && credentialScanEligible(row) ? limits.maxPerFile : null));
  }
  return assembleIntegrity(src, (n) => reads.get(n), limits);
}

/** One stderr line about an input's credential findings: counts and kinds, never a value or a preview. */
export function credentialNotice(c: CredentialScanSummary): string | null {
  if (c.total === 0) return null;
  const files = c.scanned.filter((m) => m.total > 0);
  const kinds = [...new Set(files.flatMap((m) => m.findings.map((f) => f.kind)))].sort();
  const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  return `${plural(c.total, 'credential-like string', 'credential-like strings')} in ${plural(files.length, 'collected file', 'collected files')} that are not secret files (${kinds.join(', ')}); listed by file, line, kind and a 4-character preview in inventory.json credential_findings; values are never printed`;
}
