import { createHash, type Hash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { lstat, mkdir, mkdtemp, rm, symlink, utimes } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import picomatch from 'picomatch';
import type { Catalog } from '../catalog.js';
import { collect, systemGlobs } from '../collect.js';
import type { Layout } from '../homes.js';
import { type CollectEvents, type CollectOptions, type CollectSummary, CollectUsageError, type ImportHook } from '../options.js';
import type { ImportedFrom, ManifestRow } from '../types.js';
import { CutMemberError } from '../zip-salvage.js';
import { openForeign } from './open.js';
import { badSegment } from './paths.js';
import type { ForeignFile, ForeignSource, Recorded } from './types.js';

/** Options of `aitrail import`: the collect options that apply, and the foreign collection. */
export type ImportOptions = Pick<CollectOptions, 'out' | 'full' | 'secrets' | 'compression' | 'catalogs' | 'agents' | 'arguments' | 'toolVersion' | 'signal'> & {
  /** A Velociraptor collection (zip or folder), a KAPE output folder, a UAC output (.tar.gz or folder). */
  input: string;
  /** The host name to record, in place of the one the source names. */
  host?: string;
  /** Where the staged copy is made; default the system's temporary folder. */
  tmpDir?: string;
};

/** The collect summary of an import, with what was noticed reading the source. */
export interface ImportSummary extends CollectSummary {
  collector: string;
  source_notes: string[];
  /** Members whose recorded hash did not match: reported as error rows, not parsed. */
  mismatched: number;
  /** Files imported as their first bytes only: the source was cut inside them. */
  partial: number;
  /** What the source says of itself (collection.json `imported_from` holds it too). */
  source_details: Record<string, unknown>;
}

interface Staged {
  file: ForeignFile;
  computed: Record<string, string>;
  recorded: Recorded;
  refused?: string;
  /** The source was cut inside this file: what is staged is its first bytes, and says so (CutMemberError). */
  partial?: string;
}

const HOME_GLOBS: Record<Layout, string[]> = {
  linux: ['home/*/**', 'root/**'],
  darwin: ['Users/*/**', 'var/root/**', 'private/var/root/**'],
  win32: ['Users/*/**', 'Documents and Settings/*/**'],
};

/**
 * Which target paths are worth staging: anything under a home, the catalogs' system paths, and
 * the files their project globs name anywhere (a project root is only known once logs are read).
 * Others (a KAPE $MFT, event logs, a UAC live-response output) are never a catalog's to claim.
 */
function stageFilter(catalogs: Catalog[], win: boolean): (rel: string) => boolean {
  // A tar names its OS only in uac.log, after the files: Unix layouts are staged alike.
  const layouts: Layout[] = win ? ['win32'] : ['linux', 'darwin'];
  const globs = layouts.flatMap((l) => HOME_GLOBS[l]);
  for (const c of catalogs) {
    for (const g of layouts.flatMap((l) => systemGlobs(c.system, l))) globs.push(g.replace(/^([A-Za-z]:)?\/+/, ''));
    for (const g of [...c.project.collect, ...c.project.secrets]) globs.push(`**/${g}`);
  }
  // A UAC run over a mounted image records paths under its mount point.
  const m = picomatch([...globs, ...globs.map((g) => `**/${g}`)], { dot: true, nocase: true });
  return (rel) => m(rel);
}

/** The drive whose files are staged (the target's `C:` unless its homes are on another). */
function homeDrive(targets: string[]): string {
  const count = new Map<string, number>();
  for (const t of targets) {
    const m = /^([A-Z]):\/Users\//i.exec(t);
    if (m) count.set(m[1].toUpperCase(), (count.get(m[1].toUpperCase()) ?? 0) + 1);
  }
  return [...count].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'C';
}

/** The bytes of `src`, hashed on the way; a cut member's first bytes end it without an error, the cut said to `s`. */
async function* hashing(src: AsyncIterable<Buffer>, hs: [string, Hash][], s: Staged): AsyncGenerator<Buffer> {
  try {
    for await (const c of src) {
      for (const [, h] of hs) h.update(c);
      yield c;
    }
  } catch (err) {
    if (!(err instanceof CutMemberError)) throw err;
    s.partial = err.message;
  }
}

/** Each recorded hash against the computed one. */
function hashChecks(computed: Record<string, string>, r: Recorded): ImportedFrom['hashes'] {
  const out: ImportedFrom['hashes'] = {};
  for (const alg of ['sha256', 'sha1', 'md5'] as const) {
    const want = r[alg];
    if (want && computed[alg]) out[alg] = { recorded: want, computed: computed[alg], check: want === computed[alg] ? 'match' : 'mismatch' };
  }
  return out;
}

/** Read a foreign collection into a staging folder laid out as the target, then collect it as a mounted image. */
export async function importForeign(opts: ImportOptions, events: CollectEvents = {}): Promise<ImportSummary> {
  const source = await openForeign(opts.input);
  const stage = await mkdtemp(path.join(opts.tmpDir ?? os.tmpdir(), 'aitrail-import-'));
  try {
    return await importSource(source, stage, opts, events);
  } finally {
    await source.close().catch(() => undefined);
    await rm(stage, { recursive: true, force: true });
  }
}

async function importSource(source: ForeignSource, stage: string, opts: ImportOptions, events: CollectEvents): Promise<ImportSummary> {
  const notes = source.notes;
  const win = source.layout === 'win32';
  const catalogs = opts.agents?.length ? opts.catalogs.filter((c) => opts.agents!.includes(c.agent)) : opts.catalogs;
  const wanted = stageFilter(catalogs, win);
  const staged = new Map<string, Staged>();
  let left = 0;
  const bad: string[] = [];
  try {
    for await (const f of source.files()) {
      opts.signal?.throwIfAborted();
      const m = /^([A-Z]):\/(.*)$/.exec(f.target);
      if (win && !m) continue;
      const rel = m ? m[2] : f.target.replace(/^\/+/, '');
      if (!wanted(rel)) {
        left++;
        continue;
      }
      const segs = rel.split('/');
      const why = segs.map(badSegment).find(Boolean);
      if (why) {
        bad.push(`${f.member}: ${why}`);
        continue;
      }
      // Windows drives are staged side by side; the one holding the homes is collected.
      const dst = path.join(stage, m ? m[1] : 'fs', ...segs);
      if (await lstat(dst).catch(() => undefined)) {
        notes.push(`${source.collector}: ${f.member} names the same file as another member (${f.target}); the first one is imported`);
        continue;
      }
      await mkdir(path.dirname(dst), { recursive: true });
      const s: Staged = { file: f, computed: {}, recorded: {} };
      if (f.kind === 'symlink') {
        await symlink(f.linkTarget ?? '', dst);
      } else {
        const hs: [string, Hash][] = [...new Set(['sha256', ...source.hashes])].map((a) => [a, createHash(a)]);
        try {
          await pipeline(hashing(f.open(), hs, s), createWriteStream(dst, { flags: 'wx', mode: 0o600 }));
          for (const [a, h] of hs) s.computed[a] = h.digest('hex');
        } catch (err) {
          s.refused = `${f.member} could not be read from the ${source.collector} collection (${(err as Error).message}); not parsed`;
          await rm(dst, { force: true });
          await pipeline(async function* () {}, createWriteStream(dst, { mode: 0o600 }));
        }
      }
      staged.set(dst, s);
    }
  } catch (err) {
    if (opts.signal?.aborted) throw err;
    if (staged.size === 0 && left === 0) {
      throw new CollectUsageError(`${source.label}: expected a ${source.collector} collection, but it cannot be read (${(err as Error).message}); check that the file is whole`);
    }
    notes.push(`${source.collector}: the collection could not be read to its end (${(err as Error).message}); the files before that point are imported`);
  }
  for (const st of staged.values()) if (st.partial) notes.push(`${source.collector}: ${st.partial}: those bytes are imported as the file, its manifest row says so`);
  if (left > 0) notes.push(`${source.collector}: ${left} files outside the homes and the catalogs' system and project paths were not imported`);
  const targets = [...staged.values()].map((s) => s.file.target);
  const drive = win ? homeDrive(targets) : undefined;
  const otherDrives = new Set(targets.map((t) => /^([A-Z]):/.exec(t)?.[1]).filter((d) => d && d !== drive));
  if (otherDrives.size > 0) notes.push(`${source.collector}: files of drive ${[...otherDrives].join(', ')} not imported (only the drive holding the homes, ${drive}:, is)`);
  if (bad.length > 0) notes.push(`${source.collector}: ${bad.length} members whose names cannot be files here were not imported (first: ${bad[0]})`);
  const whole = source.untrusted();
  let mismatched = 0;
  for (const [dst, s] of staged) {
    const r = { ...s.file.recorded, ...source.recordedFor(s.file) };
    r.from = [...new Set([...(s.file.recorded.from ?? []), ...(source.recordedFor(s.file).from ?? [])])];
    s.recorded = r;
    const bad = Object.entries(hashChecks(s.computed, r)).find(([, c]) => c.check === 'mismatch');
    s.refused ??= whole ? `${whole}; not parsed` : undefined;
    if (!s.refused && bad) {
      s.refused = `${source.collector} recorded ${bad[0]} ${bad[1].recorded} for this file, but ${s.file.member} holds ${bad[1].computed}: not the bytes it collected; not parsed`;
    }
    if (s.refused) mismatched++;
    if (r.mtime && s.file.kind === 'file') await utimes(dst, new Date(r.atime ?? r.mtime), new Date(r.mtime)).catch(() => undefined);
  }
  const mp = source.mountPoint?.();
  const top = path.join(stage, drive ?? 'fs');
  await mkdir(top, { recursive: true });
  const root = mp && mp !== '/' ? path.join(top, ...mp.split('/').filter(Boolean)) : top;
  if (root !== top) notes.push(`${source.collector}: collected from an image mounted at ${mp}; paths are the image's own`);
  const toTarget = (p: string): string => {
    const rel = path.relative(root, p);
    if (rel.startsWith('..') || path.isAbsolute(rel)) return p;
    const segs = rel.split(path.sep).filter(Boolean);
    return win ? `${drive ?? 'C'}:\\${segs.join('\\')}` : `/${segs.join('/')}`;
  };
  const hook: ImportHook = {
    layout: source.layout,
    refuse: (p) => staged.get(p)?.refused,
    row: (row: ManifestRow) => rewriteRow(row, staged.get(row.source_path), source.collector, toTarget),
    home: (p, user) => source.homeOf?.(user) ?? toTarget(p),
    info: {
      collector: source.collector,
      source: path.basename(source.label),
      host: source.host,
      started_utc: source.started ?? null,
      ended_utc: source.ended ?? null,
      ...source.details,
      notes,
    },
  };
  const summary = await collect(
    {
      root,
      out: opts.out,
      full: opts.full,
      secrets: opts.secrets,
      compression: opts.compression,
      catalogs: opts.catalogs,
      agents: opts.agents,
      dryRun: false,
      host: opts.host ?? source.host,
      arguments: opts.arguments,
      toolVersion: opts.toolVersion,
      signal: opts.signal,
      imported: hook,
    },
    events,
  );
  const partial = [...staged.values()].filter((st) => st.partial).length;
  return { ...summary, collector: source.collector, source_notes: notes, mismatched, partial, source_details: source.details };
}

/** A row as the target had it: its path there, the source's times, and where it came from. */
function rewriteRow(row: ManifestRow, s: Staged | undefined, collector: string, toTarget: (p: string) => string): void {
  // The staged copy's own times are the import's: only what the source recorded is the target's.
  const r = s?.recorded ?? {};
  row.source_path = r.path ?? toTarget(row.source_path);
  if (row.home) row.home = r.home ?? toTarget(row.home);
  row.mtime = r.mtime ?? '';
  row.atime = r.atime ?? '';
  row.ctime = r.ctime ?? '';
  row.birthtime = r.birthtime ?? '';
  if (r.mode) row.mode = r.mode;
  if (!s) return;
  const recorded: Record<string, string | number> = {};
  for (const k of ['size', 'mtime', 'atime', 'ctime', 'birthtime', 'mode', 'path'] as const) if (r[k] !== undefined) recorded[k] = r[k]!;
  row.imported = { collector, member: s.file.member, hashes: hashChecks(s.computed, r), recorded, from: r.from ?? [] };
  // Collected as what survived: its first bytes, parsed as a file cut short is (its last line a row that says so).
  if (s.partial) row.reason = [row.reason, s.partial].filter(Boolean).join('; ');
  if (r.size !== undefined && row.size !== null && r.size !== row.size && !s.refused) {
    row.reason = [row.reason, `${collector} recorded ${r.size} bytes, the collection holds ${row.size}`].filter(Boolean).join('; ');
  }
}
