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
  parser: Parser;
  secondary: boolean;
  tolerance: number;
  /** Position in (input, archive path, parser) order: the artifact part of the global order. */
  index: number;
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
  const byAgent = new Map<string, Parser[]>();
  for (const p of parsers) byAgent.set(p.agent, [...(byAgent.get(p.agent) ?? []), p]);
  const units: Unit[] = [];
  for (const { input, rows } of inputs) {
    for (const row of rows) {
      for (const parser of byAgent.get(row.agent) ?? []) {
        if (!safeCall(() => parser.wants(row.rel), false)) continue;
        // A secret file goes only to a parser that says it reads its non-credential fields.
        if (row.secret && !safeCall(() => parser.readsSecretFile?.(row.rel) === true, false)) continue;
        const secondary = safeCall(() => parser.secondary(row.rel), false);
        const tolerance = secondary ? safeCall(() => parser.secondaryToleranceSeconds(row.rel), 0) : 0;
        units.push({ input, row, parser, secondary, tolerance, index: units.length });
      }
    }
  }
  return units;
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
}

/**
 * The {@link Artifact} a parser sees for one manifest row. `localPath()` copies the member and its
 * `-wal`/`-shm` siblings into a fresh folder inside the private temp root; `sibling()` resolves in
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
    sha256: row.sha256 ?? '',
    stream: hooks.stream ?? (() => access.openMember(row.archive_path)),
    localPath() {
      local ??= (async () => {
        const dir = await mkdtemp(join(tmpRoot, 'm-'));
        const sidecars = ['-wal', '-shm'].map((s) => row.archive_path + s).filter((n) => index.has(n));
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
      return r ? makeArtifact(access, host, r, index, tmpRoot, { observe: hooks.observe }) : undefined;
    },
  };
}
