import { mkdtemp } from 'node:fs/promises';
import { join, posix } from 'node:path';
import type { ManifestRow } from '@aitrail/collector';
import type { Artifact, Parser } from '@aitrail/parsers';
import { checkArchivePath } from './safe-path.js';
import type { CollectionSource, MemberAccess } from './source.js';

/** One input opened for analysis. */
export interface Input {
  index: number;
  src: CollectionSource;
  /** Host name as shown in the outputs (suffixed when two inputs share one). */
  host: string;
}

/** One (artifact, parser) pair to run. */
export interface Unit {
  input: Input;
  row: ManifestRow;
  /** The agent the rows belong to: the parser's, one of the agents that claim the file. */
  agent: string;
  parser: Parser;
  secondary: boolean;
  tolerance: number;
  /** Position in (copy rank, input, archive path, parser) order: the artifact part of the global order. */
  index: number;
  /** The parser's copyRank for the file (0 unless the file is a copy of another). */
  rank: number;
}

/**
 * The manifest rows an input offers to parsers: collected, intact, with a safe name. Secret
 * rows are included: {@link planUnits} hands them only to a parser that declares
 * `readsSecretFile(rel)`.
 */
export function parseableRows(src: CollectionSource, failed: Set<string>): { rows: ManifestRow[]; refused: { row: ManifestRow; reason: string }[] } {
  const rows: ManifestRow[] = [];
  const refused: { row: ManifestRow; reason: string }[] = [];
  for (const r of src.manifest) {
    if (r.status !== 'collected' || r.archive_path === '') continue;
    if (failed.has(r.archive_path)) {
      refused.push({ row: r, reason: 'failed the integrity check; not parsed' });
      continue;
    }
    try {
      checkArchivePath(r.archive_path);
    } catch (e) {
      refused.push({ row: r, reason: (e as Error).message });
      continue;
    }
    rows.push(r);
  }
  rows.sort((a, b) => (a.archive_path < b.archive_path ? -1 : a.archive_path > b.archive_path ? 1 : 0));
  return { rows, refused };
}

/**
 * Pair every parseable artifact with every parser of its agent that wants its rel. Parsers match
 * on the agent id the manifest row records (the catalog that collected the file), so one agent's
 * parser never reads another agent's files even when a path looks alike. Secret files go only
 * to parsers whose `readsSecretFile(rel)` is true.
 */
export function planUnits(inputs: { input: Input; rows: ManifestRow[] }[], parsers: readonly Parser[]): Unit[] {
  const byAgent = parsersByAgent(parsers);
  const units: Unit[] = [];
  for (const { input, rows } of inputs) {
    for (const row of rows) {
      for (const parser of claimants(row).flatMap((a) => byAgent.get(a) ?? [])) {
        if (!safeCall(() => parser.wants(row.rel), false)) continue;
        // A secret file goes only to a parser that says it reads its non-credential fields.
        if (row.secret && !safeCall(() => parser.readsSecretFile?.(row.rel) === true, false)) continue;
        const secondary = safeCall(() => parser.secondary(row.rel), false);
        const tolerance = secondary ? safeCall(() => parser.secondaryToleranceSeconds(row.rel), 0) : 0;
        const rank = safeCall(() => parser.copyRank?.(row.rel) ?? 0, 0);
        units.push({ input, row, agent: parser.agent, parser, secondary, tolerance, index: units.length, rank: Number.isFinite(rank) ? rank : 0 });
      }
    }
  }
  // The global order puts files of a higher copy rank after the others, so among exact copies of a
  // row (docs/formats.md, "Copies of one session") the live file's comes first and is kept.
  const ordered = units.map((u, i) => ({ u, i })).sort((a, b) => a.u.rank - b.u.rank || a.i - b.i);
  ordered.forEach(({ u }, i) => {
    u.index = i;
  });
  return ordered.map(({ u }) => u);
}

function parsersByAgent(parsers: readonly Parser[]): Map<string, Parser[]> {
  const byAgent = new Map<string, Parser[]>();
  for (const p of parsers) byAgent.set(p.agent, [...(byAgent.get(p.agent) ?? []), p]);
  return byAgent;
}

/** The agents whose catalogs claim a file (DESIGN, a file two agents claim): `agents`, else `agent`. */
export function claimants(row: ManifestRow): string[] {
  const list = Array.isArray(row.agents) ? row.agents.filter((a): a is string => typeof a === 'string' && a !== '') : [];
  return list.length > 0 ? [...new Set([row.agent, ...list])].filter(Boolean) : [row.agent];
}

/**
 * Secret files that were not archived (`--secrets hash|skip`) although a parser reads the
 * conversations they hold (a mixed store such as Cursor's state.vscdb): what was given up, for
 * inventory.json `not_parsed`.
 */
export function givenUpStores(src: CollectionSource, parsers: readonly Parser[]): { row: ManifestRow; agent: string; reason: string }[] {
  const byAgent = parsersByAgent(parsers);
  const out: { row: ManifestRow; agent: string; reason: string }[] = [];
  for (const row of src.manifest) {
    if (row.status !== 'skipped_secret' || !row.secret) continue;
    for (const agent of claimants(row)) {
      const reader = (byAgent.get(agent) ?? []).find((p) => safeCall(() => p.wants(row.rel) && p.readsSecretFile?.(row.rel) === true, false));
      if (reader) out.push({ row, agent, reason: `a store that holds conversations beside credentials was not archived (${row.reason || 'secrets not collected'}): the conversations it holds (read by ${reader.agent}/${reader.name}) are not in the timeline; collect with --secrets collect to read them` });
    }
  }
  return out;
}

function safeCall<T>(f: () => T, fallback: T): T {
  try {
    return f();
  } catch {
    return fallback;
  }
}

/** What a parse job wants to know of an artifact's use: its own stream, and other members it touched. */
export interface ArtifactHooks {
  /** The artifact's bytes (default: a fresh read of the member). */
  stream?: () => AsyncIterable<Buffer>;
  /** Another member the parser used: a sibling it found, a SQLite sidecar materialized with it. */
  observe?: (archivePath: string) => void;
  /** Every parseable member, secret ones too: a database's own sidecars are looked up there. */
  sidecars?: ReadonlySet<string>;
}

/**
 * The {@link Artifact} a parser sees for one manifest row. `localPath()` copies the member and its
 * `-wal`/`-shm`/`-journal` siblings into a fresh folder inside the private temp root; `sibling()` resolves in
 * the same archive directory, among parseable members only (never a secret).
 */
export function makeArtifact(access: MemberAccess, host: string, row: ManifestRow, index: ReadonlyMap<string, ManifestRow>, tmpRoot: string, hooks: ArtifactHooks = {}): Artifact {
  let local: Promise<string> | null = null;
  return {
    rel: row.rel,
    user: row.user,
    host,
    scope: row.scope,
    size: row.bytes_read ?? row.size ?? 0,
    mtime: row.mtime ?? '',
    projectRoot: row.scope === 'project' ? (row.project_root ?? '') : '',
    home: row.home ?? '',
    sha256: row.sha256 ?? '',
    stream: hooks.stream ?? (() => access.openMember(row.archive_path)),
    localPath() {
      local ??= (async () => {
        const dir = await mkdtemp(join(tmpRoot, 'm-'));
        // A database's own sidecars go with it, even when flagged secret like their database (a
        // mixed store read by an opted-in parser); a rollback journal too, so a copy taken
        // mid-transaction is rolled back as SQLite would.
        const sidecars = ['-wal', '-shm', '-journal'].map((s) => row.archive_path + s).filter((n) => index.has(n) || hooks.sidecars?.has(n));
        for (const n of sidecars) hooks.observe?.(n);
        await access.materialize([row.archive_path, ...sidecars], dir);
        return join(dir, posix.basename(row.archive_path));
      })();
      return local;
    },
    sibling(name: string) {
      const other = posix.normalize(posix.join(posix.dirname(row.archive_path), name));
      // Stay inside the same home (or project, or system) tree of the same input.
      const top = row.archive_path.split('/').slice(0, 2).join('/') + '/';
      const r = other.startsWith(top) ? index.get(other) : undefined;
      if (r) hooks.observe?.(other);
      return r ? makeArtifact(access, host, r, index, tmpRoot, { observe: hooks.observe, sidecars: hooks.sidecars }) : undefined;
    },
  };
}
