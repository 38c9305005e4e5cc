import type { ManifestRow } from '@aitrail/collector';
import type { McpServerReport } from '@aitrail/parsers';
import { claimants } from './artifacts.js';
import { McpCollector, type McpCredentialFinding, type McpServerEntry } from './mcp-inventory.js';
import type { CredentialScanSummary, IntegrityProblem, MemberFinding } from './integrity.js';
import type { ArchiveCheck } from './source.js';
import type { SessionRecord } from './sessions.js';

/** A parse warning as inventory.json lists it. */
export interface ParseWarning {
  file: string;
  line: number | null;
  parser: string;
  message: string;
}

/** One agent in one home (inventory.json `homes[].agents[]`). */
export interface AgentInventory {
  agent: string;
  artifacts: number;
  bytes: number;
  parsed_artifacts: number;
  manifest_status: Record<string, number>;
  rows: number;
  /** Sessions the parsers read (rows with a session id). */
  sessions: number;
  /**
   * Collected files the catalog's `session_files` globs name, one session each (docs/catalog.md,
   * "session_files"): counted from the manifest without parsing, so a catalog-only agent has a
   * count, and a parsed agent's count beside `sessions` shows conversation files no parser read.
   */
  session_files: number;
  synced_sessions: number;
  projects: string[];
  scratch_directories: string[];
  secret_files: { path: string; size: number | null; sha256: string }[];
  not_parsed: { file: string; reason: string }[];
  parse_warnings: ParseWarning[];
  parse_warnings_total: number;
  /** Non-secret collected files the credential scan read whole. */
  credential_scanned_files: number;
  credential_findings: CredentialFindingEntry[];
  /** Findings seen, listed or not. */
  credential_findings_total: number;
  /** Findings seen but not listed (past the per-file or per-input cap). */
  credential_findings_truncated: number;
  /** Records of kinds the parsers do not know: parser → kind → count (DESIGN, unknown record kinds). */
  unknown_records: Record<string, Record<string, number>>;
  /** MCP servers from configs, tool caches and logs (DESIGN, MCP servers): never a secret value. */
  mcp_servers: McpServerEntry[];
}

/** A credential found in a non-secret file or an MCP config (inventory.json `credential_findings[]`): never the value. */
export type CredentialFindingEntry = (MemberFinding & { /** Archive path, as `source_file` in the timeline. */ file: string }) | McpCredentialFinding;

/** One home (inventory.json `homes[]`). */
export interface HomeInventory {
  host: string;
  user: string;
  home: string;
  agents: AgentInventory[];
}

/**
 * The host's own files (inventory.json `system[]`): manifest rows of system scope, which belong
 * to no home (their `user` is ''), such as `/etc/claude-code/**` or `/tmp/claude-<uid>/**`.
 */
export interface SystemInventory {
  host: string;
  agents: (AgentInventory & {
    /** Uids named by the temp folders the files came from (`/tmp/claude-1000/` → 1000). */
    temp_folder_uids: number[];
  })[];
}

/** The uid a per-user temp folder's name gives (`/tmp/claude-1000/...`, `/private/tmp/...`), if any. */
export function tempFolderUid(sourcePath: string): number | undefined {
  const m = /^\/(?:private\/)?(?:var\/)?tmp\/[^/]*?-(\d{1,10})(?:\/|$)/.exec(sourcePath);
  return m ? Number(m[1]) : undefined;
}

/** What inventory.json says about one input. */
export interface CollectionEntry {
  input: string;
  host: string;
  host_recorded: string;
  os: { platform: string; release: string; arch: string } | null;
  started_utc: string;
  ended_utc: string;
  tool_version: string;
  catalog: unknown;
  complete: boolean;
  manifest_problems: string[];
  integrity: { ok: boolean; checked: number; mismatched: IntegrityProblem[]; missing: IntegrityProblem[]; extra: IntegrityProblem[]; unreadable: IntegrityProblem[] };
  /** A zip input's own SHA-256 and its sidecar's word (absent for a folder). */
  archive?: ArchiveCheck;
  /** Made by `aitrail import`: its collection.json's `imported_from` (the source collector and the notes made reading it). */
  imported_from?: Record<string, unknown>;
}

/** Warnings kept per agent; the rest are counted. */
const MAX_WARNINGS = 500;

/** Distinct (file, kind) warnings for unknown records kept per agent; every record is still counted. */
const MAX_UNKNOWN_WARNINGS = 200;

interface AgentAcc extends AgentInventory {
  home: string;
  uids: Set<number>;
  mcp: McpCollector;
  unknownWarned: Set<string>;
  projectSet: Set<string>;
  scratchSet: Set<string>;
  roots: Set<string>;
}

/** Collects inventory.json while the analysis runs. */
export class InventoryBuilder {
  private readonly homes = new Map<string, { host: string; user: string; home: string; agents: Map<string, AgentAcc> }>();

  /** The entry of one agent in one home, created on first use. */
  agent(host: string, user: string, agent: string, home = ''): AgentAcc {
    const hk = `${host}\0${user}`;
    let h = this.homes.get(hk);
    if (!h) {
      h = { host, user, home, agents: new Map() };
      this.homes.set(hk, h);
    }
    if (!h.home && home) h.home = home;
    let a = h.agents.get(agent);
    if (!a) {
      a = { agent, artifacts: 0, bytes: 0, parsed_artifacts: 0, manifest_status: {}, rows: 0, sessions: 0, session_files: 0, synced_sessions: 0, projects: [], scratch_directories: [], secret_files: [], not_parsed: [], parse_warnings: [], parse_warnings_total: 0, credential_scanned_files: 0, credential_findings: [], credential_findings_total: 0, credential_findings_truncated: 0, unknown_records: Object.create(null) as Record<string, Record<string, number>>, mcp_servers: [], home: '', uids: new Set(), mcp: new McpCollector(), unknownWarned: new Set(), projectSet: new Set(), scratchSet: new Set(), roots: new Set() };
      h.agents.set(agent, a);
    }
    if (!a.home && home && home !== '') a.home = home;
    return a;
  }

  /** Files and bytes collected, each file once however many agents claim it (inventory.json totals). */
  readonly distinct = { artifacts: 0, bytes: 0 };

  /**
   * Count an input's manifest rows; flag secret files (path, size, hash only). A file several
   * agents claim counts under each. `sessionFile` says whether a collected row is one of an
   * agent's session files (its catalog's `session_files`).
   */
  addManifest(host: string, rows: ManifestRow[], catalogRoots: (agent: string) => string[] | undefined, sessionFile: (agent: string, row: ManifestRow) => boolean = () => false): void {
    for (const r of rows) {
      if (r.status === 'collected') {
        this.distinct.artifacts++;
        this.distinct.bytes += r.bytes_read ?? r.size ?? 0;
      }
      for (const agent of claimants(r)) {
        const a = this.agent(host, r.user, agent, r.scope === 'home' ? r.home : '');
        a.manifest_status[r.status] = (a.manifest_status[r.status] ?? 0) + 1;
        if (r.status === 'collected') {
          a.artifacts++;
          a.bytes += r.bytes_read ?? r.size ?? 0;
        }
        // A file kept only as a hash, too large or unreadable still stands for a session that was there.
        if (r.kind === 'file' && r.status !== 'skipped_excluded' && sessionFile(agent, r)) a.session_files++;
        if (r.secret) a.secret_files.push({ path: r.source_path, size: r.size, sha256: r.sha256 });
        const uid = r.scope === 'system' ? tempFolderUid(r.source_path) : undefined;
        if (uid !== undefined) a.uids.add(uid);
        if (r.scope === 'home') {
          const roots = catalogRoots(agent) ?? [guessRoot(r.rel)];
          for (const root of roots) if (root) a.roots.add(root);
        }
      }
    }
    for (const o of orphanSidecars(rows)) {
      this.warn(host, o.user, o.agent, { file: o.archive_path, line: null, parser: 'analyzer', message: `a SQLite ${o.suffix} without its database (${o.base} was not collected): the rows it holds cannot be read; collect the database with it` });
    }
  }

  /** The credential findings of one input's integrity pass, filed under each member's home and agent. */
  addCredentialFindings(host: string, c: CredentialScanSummary): void {
    for (const m of c.scanned) {
      const a = this.agent(host, m.row.user, m.row.agent);
      a.credential_scanned_files++;
      a.credential_findings_total += m.total;
      a.credential_findings_truncated += m.total - m.findings.length;
      for (const f of m.findings) a.credential_findings.push({ file: m.row.archive_path, line: f.line, kind: f.kind, preview: f.preview });
    }
  }

  /** A parse warning for a home's agent (kept up to a limit, always counted). */
  warn(host: string, user: string, agent: string, w: ParseWarning, times = 1): void {
    const a = this.agent(host, user, agent);
    a.parse_warnings_total += times;
    if (a.parse_warnings.length < MAX_WARNINGS) a.parse_warnings.push(w);
  }

  /** A record of a kind its parser does not know: counted, and one warning per file and kind. */
  unknown(host: string, user: string, agent: string, parser: string, file: string, kind: string, line: number | null, times = 1): void {
    const a = this.agent(host, user, agent);
    const k = String(kind);
    // No prototype: a hostile kind named "__proto__" is just a key.
    let byKind = a.unknown_records[parser];
    if (!byKind) {
      byKind = Object.create(null) as Record<string, number>;
      a.unknown_records[parser] = byKind;
    }
    byKind[k] = (byKind[k] ?? 0) + times;
    const w = `${file}\0${k}`;
    if (a.unknownWarned.has(w) || a.unknownWarned.size >= MAX_UNKNOWN_WARNINGS) return;
    a.unknownWarned.add(w);
    this.warn(host, user, agent, { file, line, parser, message: `unknown record kind ${JSON.stringify(k)} (first at this line; every record of it is counted in unknown_records): the parser does not know it, so it gives no row` });
  }

  /** An MCP server a parser found in `file` (an archive path). */
  mcp(host: string, user: string, agent: string, file: string, report: McpServerReport): void {
    this.agent(host, user, agent).mcp.add(report, file);
  }

  /** A working directory seen on a kept row; `scratch` when a row says it is the agent's own. */
  project(host: string, user: string, agent: string, path: string, scratch: boolean): void {
    if (!path) return;
    const a = this.agent(host, user, agent);
    (scratch ? a.scratchSet : a.projectSet).add(path);
  }

  private systemScope: SystemInventory[] = [];

  /** The system-scope entries, once {@link finish} has run (they are not among its homes). */
  system(): SystemInventory[] {
    return this.systemScope;
  }

  /** Finish with the sessions: counts, and projects split from scratch directories. */
  finish(sessions: SessionRecord[]): HomeInventory[] {
    for (const s of sessions) {
      const a = this.agent(s.host, s.user, s.agent);
      a.sessions++;
      if (s.synced === 'yes') a.synced_sessions++;
      if (s.scratch_directory) a.scratchSet.add(s.scratch_directory);
      else if (s.project_path) a.projectSet.add(s.project_path);
      // Every directory the session worked in (a resume elsewhere, a cd), not only its last.
      for (const p of s.project_paths) if (p !== s.scratch_directory) a.projectSet.add(p);
    }
    const out: HomeInventory[] = [];
    this.systemScope = [];
    for (const h of [...this.homes.values()].sort((x, y) => cmp(x.host, y.host) || cmp(x.user, y.user))) {
      const agents: (AgentInventory & { temp_folder_uids: number[] })[] = [];
      for (const a of [...h.agents.values()].sort((x, y) => cmp(x.agent, y.agent))) {
        const home = a.home || h.home;
        // A directory inside the agent's own catalog roots is the agent's, whoever used it; one
        // that a real session also worked in stays a project.
        for (const p of a.projectSet) if (insideRoots(p, home, a.roots)) a.scratchSet.add(p);
        for (const p of a.scratchSet) if (insideRoots(p, home, a.roots)) a.projectSet.delete(p);
        for (const p of a.projectSet) a.scratchSet.delete(p);
        // File order, then line order within a file (stable), whatever the manifest's order.
        const servers = a.mcp.finish();
        a.credential_findings.push(...a.mcp.findings);
        a.credential_findings_total += a.mcp.findings.length;
        a.credential_findings.sort((x, y) => cmp(x.file, y.file));
        const { home: _h, projectSet, scratchSet, roots: _r, mcp: _m, unknownWarned: _u, unknown_records, uids, ...rest } = a;
        const unknown: Record<string, Record<string, number>> = {};
        for (const p of Object.keys(unknown_records).sort()) {
          unknown[p] = Object.create(null) as Record<string, number>;
          for (const k of Object.keys(unknown_records[p]).sort()) unknown[p][k] = unknown_records[p][k];
        }
        agents.push({ ...rest, unknown_records: unknown, mcp_servers: servers, projects: [...projectSet].sort(), scratch_directories: [...scratchSet].sort(), temp_folder_uids: [...uids].sort((x, y) => x - y) });
      }
      // Rows of no home (user '') are the host's system scope: listed apart, never as a nameless home.
      if (h.user === '') this.systemScope.push({ host: h.host, agents });
      else out.push({ host: h.host, user: h.user, home: h.home, agents: agents.map(({ temp_folder_uids: _u, ...a }) => a) });
    }
    return out;
  }
}

const SIDECAR = /^(.*)(-wal|-shm|-journal)$/;

/**
 * Collected SQLite sidecars whose database was not collected beside them. The rows of a WAL-mode
 * store live in its `-wal`, which cannot be read alone: no parser wants a sidecar, so without
 * this its evidence would be lost silently.
 */
export function orphanSidecars(rows: ManifestRow[]): (ManifestRow & { base: string; suffix: string })[] {
  const collected = new Set(rows.filter((r) => r.status === 'collected').map((r) => r.archive_path));
  const out: (ManifestRow & { base: string; suffix: string })[] = [];
  for (const r of rows) {
    const m = r.status === 'collected' ? SIDECAR.exec(r.archive_path) : null;
    if (m && !collected.has(m[1])) out.push({ ...r, base: SIDECAR.exec(r.rel)?.[1] ?? m[1], suffix: m[2] });
  }
  return out;
}

/** A catalog root guessed from a collected path when no catalog is at hand: `.copilot`, `AppData/Local/copilot`. */
export function guessRoot(rel: string): string {
  const segs = rel.split('/');
  if (segs.length < 2) return '';
  if (segs[0].startsWith('.') && !['.config', '.local', '.cache'].includes(segs[0])) return segs[0];
  return segs.slice(0, Math.min(3, segs.length - 1)).join('/');
}

function norm(p: string, fold: boolean): string {
  const s = p.replace(/\\/g, '/').replace(/\/+$/, '');
  return fold ? s.toLowerCase() : s;
}

/** Whether a working directory lies inside one of the agent's catalog roots under this home. */
export function insideRoots(path: string, home: string, roots: Iterable<string>): boolean {
  if (!home) return false;
  const fold = /^[A-Za-z]:[\\/]/.test(home) || home.startsWith('/Users/');
  const p = norm(path, fold);
  for (const root of roots) {
    if (!root) continue;
    const r = norm(`${home}/${root}`, fold);
    if (p === r || p.startsWith(r + '/')) return true;
  }
  return false;
}

/** Inventory totals of the credential scan, over every home and agent. */
export function credentialTotals(homes: { agents: AgentInventory[] }[]): { credential_scanned_files: number; credential_findings: number } {
  const t = { credential_scanned_files: 0, credential_findings: 0 };
  for (const h of homes) {
    for (const a of h.agents) {
      t.credential_scanned_files += a.credential_scanned_files;
      t.credential_findings += a.credential_findings_total;
    }
  }
  return t;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
