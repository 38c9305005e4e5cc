import type { McpServerReport } from '@aitrail/parsers';
import { findCredentials, redactCredentials } from './credential-scan.js';

/** One MCP server as inventory.json lists it (`homes[].agents[].mcp_servers[]`): never a secret value. */
export interface McpServerEntry {
  name: string;
  /** `user`, `project`, `managed` (a system-wide policy file), or '' when only a cache or a log names it. */
  scope: string;
  project_path: string;
  transport: string;
  command: string;
  args: string[];
  url: string;
  env_keys: string[];
  header_keys: string[];
  disabled: boolean;
  /** Archive path of the file that configures it (or of the cache or log that alone names it). */
  file: string;
  line: number | null;
  /** Cached tool list (names and annotations), or null when the agent keeps none. */
  tools: { name: string; annotations?: Record<string, unknown> }[] | null;
  tools_file: string;
  failures: { timestamp_utc: string; message: string; file: string; line: number | null }[];
  failures_total: number;
  /** How many of its values were taken for credentials (listed in credential_findings, redacted here). */
  secrets: number;
}

/** A credential taken from an MCP config (inventory.json `credential_findings[]`): key and preview, never the value. */
export interface McpCredentialFinding {
  file: string;
  line: number | null;
  kind: string;
  preview: string;
  /** Where in the server's config: `env:GITHUB_TOKEN`, `header:Authorization`, `arg:--token`, `url:?key`. */
  key: string;
  server: string;
}

const MAX_FAILURES = 100;
const MAX_TOOLS = 1000;
const REDACTED = '[REDACTED]';
/** A key whose value is a credential whatever it looks like. */
const SECRET_KEY = /(?:token|secret|passw|api[-_]?key|access[-_]?key|auth|credential|bearer|\bpat\b|cookie|private[-_]?key|client[-_]?secret)/i;
/** A long opaque value (a key without a known prefix): letters and digits mixed, no spaces. */
const OPAQUE = /^(?=.*[A-Za-z])(?=.*\d)[A-Za-z0-9_\-.=+/:]{20,}$/;

function preview(value: string): string {
  // Four characters say which kind of token (ghp_, sk-a) without giving a short value away.
  return value.length >= 12 ? `${value.slice(0, 4)}…` : '…';
}

function isCredential(where: string, value: string): boolean {
  const key = where.replace(/^[a-z]+:/, '');
  return SECRET_KEY.test(key) || findCredentials(value, 1).length > 0 || OPAQUE.test(value) || where === 'url:password';
}

/** Gathers the MCP reports of one agent in one home and turns them into entries and findings. */
export class McpCollector {
  private readonly entries = new Map<string, McpServerEntry>();
  // Tool caches and failure logs by server name, folded as they come: a log of a million
  // failures keeps the first MAX_FAILURES of each name and a count, not a million reports.
  private readonly attached = new Map<string, Attached>();
  // Secret values per server name, in memory only: a failure message from a log is scrubbed of them too.
  private readonly secretValues = new Map<string, Set<string>>();
  readonly findings: McpCredentialFinding[] = [];

  /** Take one report from a parser of `file` (an archive path). */
  add(report: McpServerReport, file: string): void {
    const name = typeof report.name === 'string' ? report.name : String(report.name ?? '');
    const configured = !!(report.command || report.url || report.transport || report.env_keys?.length || report.args?.length);
    if (!configured && (report.tools || report.failure)) {
      this.fold(name, report, file);
      return;
    }
    const scope = report.scope ?? '';
    const project = report.project_path ?? '';
    const key = `${file}\0${scope}\0${project}\0${name}`;
    const secrets = (report.secrets ?? []).filter((s) => typeof s?.value === 'string' && s.value !== '');
    const scrub = (t: string) => {
      let out = t;
      for (const s of secrets) out = out.split(s.value).join(REDACTED);
      const r = redactCredentials(out);
      return r.text;
    };
    const line = typeof report.line === 'number' ? report.line : null;
    const e: McpServerEntry = {
      name,
      scope,
      project_path: project,
      transport: report.transport ?? '',
      command: scrub(report.command ?? ''),
      args: (report.args ?? []).map((a) => scrub(String(a))),
      url: scrub(report.url ?? ''),
      env_keys: [...(report.env_keys ?? [])].map(String).sort(),
      header_keys: [...(report.header_keys ?? [])].map(String).sort(),
      disabled: report.disabled === true,
      file,
      line,
      tools: null,
      tools_file: '',
      failures: [],
      failures_total: 0,
      secrets: 0,
    };
    for (const s of secrets) {
      let known = this.secretValues.get(name);
      if (!known) {
        known = new Set();
        this.secretValues.set(name, known);
      }
      known.add(s.value);
      if (!isCredential(s.where, s.value)) continue;
      e.secrets++;
      const pattern = findCredentials(s.value, 1)[0];
      this.findings.push({ file, line, kind: pattern?.kind ?? `mcp_${s.where.split(':')[0]}_value`, preview: preview(s.value), key: s.where, server: name });
    }
    // Tokens the config holds where no key says so (an arg, a URL): found by pattern, redacted above.
    for (const t of [report.command ?? '', ...(report.args ?? []), report.url ?? '']) {
      for (const f of findCredentials(String(t), 1)) {
        if (secrets.some((s) => String(t).includes(s.value))) continue;
        e.secrets++;
        this.findings.push({ file, line, kind: f.kind, preview: f.preview, key: 'pattern', server: name });
      }
    }
    const prior = this.entries.get(key);
    if (prior) {
      // The same server reported twice from one file (two parsers): keep the fuller one.
      if (prior.args.length + prior.env_keys.length >= e.args.length + e.env_keys.length) return;
    }
    this.entries.set(key, e);
    this.attach(e, report, file);
  }

  private attach(e: McpServerEntry, report: McpServerReport, file: string): void {
    if (report.tools) {
      // Several caches may name one server (Cursor keeps one descriptor file per tool, and a CLI
      // cache beside them): the lists are merged by name, the first file that gave tools kept.
      const tools = e.tools ?? [];
      const seen = new Set(tools.map((t) => t.name));
      for (const t of report.tools) {
        const name = String(t?.name ?? '');
        if (seen.has(name) || tools.length >= MAX_TOOLS) continue;
        seen.add(name);
        tools.push({ name, ...(t?.annotations ? { annotations: t.annotations } : {}) });
      }
      e.tools = tools;
      if (!e.tools_file) e.tools_file = file;
    }
    if (report.failure) {
      e.failures_total++;
      let message = String(report.failure.message ?? '');
      for (const v of this.secretValues.get(e.name) ?? []) message = message.split(v).join(REDACTED);
      if (e.failures.length < MAX_FAILURES) e.failures.push({ timestamp_utc: String(report.failure.timestamp_utc ?? ''), message: redactCredentials(message).text, file, line: typeof report.line === 'number' ? report.line : null });
    }
  }

  private fold(name: string, report: McpServerReport, file: string): void {
    let a = this.attached.get(name);
    if (!a) {
      a = { file, line: typeof report.line === 'number' ? report.line : null, tools: [], toolNames: new Set(), toolsFile: '', failures: [], failuresTotal: 0 };
      this.attached.set(name, a);
    }
    if (report.tools) {
      if (!a.toolsFile) a.toolsFile = file;
      // Twice MAX_TOOLS: an entry holds at most MAX_TOOLS names of its own, so the first
      // MAX_TOOLS it lacks are among these, as if every cache had been merged in one by one.
      for (const t of report.tools) {
        const n = String(t?.name ?? '');
        if (a.toolNames.has(n) || a.tools.length >= 2 * MAX_TOOLS) continue;
        a.toolNames.add(n);
        a.tools.push(t);
      }
    }
    if (report.failure) {
      a.failuresTotal++;
      if (a.failures.length < MAX_FAILURES) a.failures.push({ report, file });
    }
  }

  /** Every server: configured ones, with the caches and failures of the same name attached. */
  finish(): McpServerEntry[] {
    // Entries by name, built once: looked up by scanning every entry for each cache or failure,
    // 32,000 server names took two minutes.
    const byName = new Map<string, McpServerEntry[]>();
    for (const e of this.entries.values()) {
      const same = byName.get(e.name);
      if (same) same.push(e);
      else byName.set(e.name, [e]);
    }
    for (const [name, a] of this.attached) {
      let same = byName.get(name);
      if (!same) {
        const e: McpServerEntry = { name, scope: '', project_path: '', transport: '', command: '', args: [], url: '', env_keys: [], header_keys: [], disabled: false, file: a.file, line: a.line, tools: null, tools_file: '', failures: [], failures_total: 0, secrets: 0 };
        this.entries.set(`${a.file}\0\0\0${name}`, e);
        same = [e];
      }
      for (const e of same) {
        if (a.toolsFile) this.attach(e, { name, scope: '', tools: a.tools }, a.toolsFile);
        // The failures past the kept ones are counted; the kept ones go through attach (redacted there).
        e.failures_total += a.failuresTotal - a.failures.length;
        for (const f of a.failures) this.attach(e, f.report, f.file);
      }
    }
    this.attached.clear();
    return [...this.entries.values()].sort((a, b) => cmp(a.name, b.name) || cmp(a.scope, b.scope) || cmp(a.project_path, b.project_path) || cmp(a.file, b.file));
  }
}

/** What the tool caches and failure logs that configure nothing said of one server name. */
interface Attached {
  /** The first report's file and line: where an entry for a server no config names points. */
  file: string;
  line: number | null;
  tools: NonNullable<McpServerReport['tools']>;
  toolNames: Set<string>;
  /** The first file that gave tools. */
  toolsFile: string;
  failures: { report: McpServerReport; file: string }[];
  failuresTotal: number;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
