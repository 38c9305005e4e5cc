import type { ManifestRow } from '@aitrail/collector';
import type { Parser } from '@aitrail/parsers';
import { type Input, parseableRows, planUnits, type Unit } from './artifacts.js';
import { credentialScanEligible } from './credential-scan.js';
import { checkedRows, precheck } from './integrity.js';
import { type Job, type JobUnit, jobBytes } from './job.js';

/** Who a unit's rows belong to, as the timeline says it. */
export interface UnitIdentity {
  host: string;
  user: string;
  agent: string;
  /** The archive path (`source_file`). */
  file: string;
}

/** The rows of a unit belong to its input's host, the member's home and the unit's agent (of the agents that claim the file, the parser's). */
export function unitIdentity(u: Unit): UnitIdentity {
  return { host: u.input.host, user: u.row.user, agent: u.agent, file: u.row.archive_path };
}

/** The parse of an analysis laid out: units, and the jobs that run them. */
export interface ParsePlan {
  units: Unit[];
  identities: UnitIdentity[];
  /** Units in the order their bookkeeping is applied: secondary ones first, then primary, each by index. */
  ordered: Unit[];
  /** First phase: members with secondary units (their dedup keys are needed by the second), and members only hashed. */
  first: Job[];
  /** Second phase: the members' primary units. */
  second: Job[];
  /** Per input: the members parsers may see as siblings (non-secret, parseable). */
  indexes: ManifestRow[][];
  /** Per input: every parseable member, secret ones too (a database's own sidecars are looked up there). */
  sidecars: string[][];
}

/**
 * Plan the parse. `failed` (per input) are members already known to fail the integrity check;
 * when null, only what {@link precheck} can tell is excluded and every member is hashed by the
 * job that reads it first (or a job that only hashes it). `dedup` false: one phase.
 */
export function planParse(inputs: Input[], parsers: readonly Parser[], failed: ReadonlySet<string>[] | null, dedup: boolean): ParsePlan {
  const hashing = failed === null;
  const excluded = inputs.map((input, i) => {
    if (failed) return failed[i];
    const present = new Map(input.src.members().map((m) => [m.name, m]));
    return new Set(checkedRows(input.src).filter((r) => precheck(r, present) !== null).map((r) => r.archive_path));
  });
  const offered = inputs.map((input, i) => ({ input, rows: parseableRows(input.src, new Set(excluded[i])).rows }));
  const units = planUnits(offered, parsers);
  const parserIndex = new Map(parsers.map((p, i) => [p, i]));
  const identities = units.map(unitIdentity);
  const byMember = new Map<string, Unit[]>();
  for (const u of units) {
    const k = `${u.input.index}\0${u.row.archive_path}`;
    const list = byMember.get(k);
    if (list) list.push(u);
    else byMember.set(k, [u]);
  }
  const first: Job[] = [];
  const second: Job[] = [];
  let id = 0;
  const job = (input: number, row: ManifestRow, hash: boolean, list: Unit[]): Job => ({
    id: id++,
    input,
    row,
    hash,
    scan: hash && credentialScanEligible(row),
    units: list.map((u): JobUnit => ({ index: u.index, parser: parserIndex.get(u.parser)!, secondary: u.secondary, tolerance: u.tolerance, ...identities[u.index] })),
  });
  for (const input of inputs) {
    const rows = hashing ? checkedRows(input.src).filter((r) => !excluded[input.index].has(r.archive_path)) : offered[input.index].rows;
    const seen = new Set<string>();
    for (const row of rows) {
      if (seen.has(row.archive_path)) continue;
      seen.add(row.archive_path);
      const list = byMember.get(`${input.index}\0${row.archive_path}`) ?? [];
      const sec = list.filter((u) => u.secondary);
      const pri = list.filter((u) => !u.secondary);
      if (sec.length > 0) first.push(job(input.index, row, hashing, sec));
      if (pri.length > 0) (dedup ? second : first).push(job(input.index, row, hashing && sec.length === 0, pri));
      if (list.length === 0 && hashing) first.push(job(input.index, row, true, []));
    }
  }
  // Largest first, so the last job to finish is a small one (the order changes nothing in the outputs).
  for (const list of [first, second]) list.sort((a, b) => jobBytes(b) - jobBytes(a) || a.id - b.id);
  const ordered = [...units.filter((u) => u.secondary), ...units.filter((u) => !u.secondary)];
  const indexes = offered.map(({ rows }) => rows.filter((r) => !r.secret));
  const sidecars = offered.map(({ rows }) => rows.map((r) => r.archive_path));
  return { units, identities, ordered, first, second, indexes, sidecars };
}
