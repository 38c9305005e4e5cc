// The analyzer (and its parsers and SQLite) is imported when a command runs, not when the CLI
// loads: oclif's explicit command map loads every command module, for `collect` too.
import type { AnalyzeResult } from '@aitrail/analyzer';
import { type Catalog, CatalogError, loadCatalogs } from '@aitrail/collector';
import { resolve } from 'node:path';
import { Args, type Command, Command as OclifCommand, Flags } from '@oclif/core';
import { analyzeInChild, ChildUsageError, HeapCapError, heapCapMb, rowMemoryBytes } from '../analysis-host.js';
import { type LoadedPlugin, loadPlugins, PluginError } from '../plugins.js';
import { createProgress } from '../progress.js';
import { terminalText } from '../terminal-text.js';

/** Flags shared by `analyze` and `scan`. */
export const analyzeFlags = {
  out: Flags.string({ description: 'output directory', default: './aitrail-out' }),
  'include-thinking': Flags.boolean({ description: 'emit thinking rows (the model reasoning text)' }),
  plugin: Flags.string({ description: 'a plugin package name or path (repeatable; also AITRAIL_PLUGINS)', multiple: true }),
  dedup: Flags.boolean({ description: 'drop the copies secondary stores keep of primary rows (--no-dedup keeps everything)', default: true, allowNo: true }),
  strict: Flags.boolean({ description: 'stop with no output when any member fails the integrity check' }),
  json: Flags.boolean({ description: 'print the summary as JSON on stdout' }),
  jobs: Flags.integer({ description: 'parse on this many threads (default: the number of cores, fewer for a small input); the outputs are byte for byte the same whatever the number', min: 1 }),
  reports: Flags.boolean({ description: 'also write timeline.sqlite, report.html and timeline.timesketch.jsonl (--no-reports skips them)', default: true, allowNo: true }),
  rules: Flags.string({ description: 'a folder of your own Sigma-style rules (.yml) beside the built-in ones (repeatable; see `aitrail rules`)', multiple: true }),
  findings: Flags.boolean({ description: 'write findings.jsonl from the rules (--no-findings skips them)', default: true, allowNo: true }),
};

/** Load plugins or stop with a usage error (exit 2). */
export async function loadPluginsOrFail(cmd: Command, specs: string[] | undefined): Promise<LoadedPlugin[]> {
  try {
    return await loadPlugins(specs);
  } catch (e) {
    if (e instanceof PluginError) cmd.error(terminalText(e.message), { exit: 2 });
    throw e;
  }
}

/** The built-in catalogs plus the plugins' own; a bad plugin catalog is a usage error. */
export function catalogsWithPlugins(cmd: Command, plugins: LoadedPlugin[], files: string[] = []): Catalog[] {
  try {
    return loadCatalogs({ files, texts: plugins.filter((p) => p.plugin.catalog).map((p) => ({ source: `plugin ${p.spec}`, text: p.plugin.catalog! })) });
  } catch (e) {
    if (e instanceof CatalogError) cmd.error(terminalText(e.message), { exit: 2 });
    throw e;
  }
}

/** Run the analysis with progress on stderr and the summary on stdout. */
export async function runAnalysis(cmd: Command, inputs: string[], flags: { out: string; 'include-thinking': boolean; dedup: boolean; strict: boolean; json: boolean; jobs?: number; reports: boolean; rules?: string[]; findings: boolean }, plugins: LoadedPlugin[], catalogs: Catalog[]): Promise<AnalyzeResult> {
  let heapMb: number;
  let rowBytes: number | undefined;
  try {
    heapMb = heapCapMb();
    rowBytes = rowMemoryBytes();
  } catch (e) {
    cmd.error(terminalText((e as Error).message), { exit: 2 });
  }
  const { formatSummary, globRoot } = await import('@aitrail/analyzer/host');
  const roots = new Map<string, string[]>();
  const sessionFiles = new Map<string, { home: string[]; project: string[] }>();
  for (const c of catalogs) {
    roots.set(c.agent, [...new Set(c.collect.map(globRoot).filter(Boolean))]);
    sessionFiles.set(c.agent, { home: c.session_files, project: c.project.session_files });
  }
  const progress = createProgress({ label: 'analyze' });
  let phase = '';
  let res: AnalyzeResult;
  const ac = new AbortController();
  let exitOnSignal = 130;
  const onSignal = (sig: NodeJS.Signals) => {
    exitOnSignal = sig === 'SIGTERM' ? 143 : 130;
    ac.abort(new Error(`by ${sig}`));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    // In a child process with a capped heap (AITRAIL_MAX_HEAP_MB): see analysis-host.ts.
    res = await analyzeInChild(
      { inputs, out: flags.out, includeThinking: flags['include-thinking'], dedup: flags.dedup, strict: flags.strict, reports: flags.reports, catalogRoots: roots, sessionFiles, rules: (flags.rules ?? []).map((d) => resolve(d)), findings: flags.findings, jobs: flags.jobs ?? 'auto', ...(rowBytes === undefined ? {} : { runLimits: { memoryBytes: rowBytes } }) },
      plugins,
      {
        phase: (name, total) => {
          phase = name;
          progress.update({ phase, done: 0, total });
        },
        tick: (done) => progress.update({ phase, done }),
        rows: (count) => progress.update({ phase, rows: count }),
        warn: (m) => progress.log(`warning: ${m}`),
      },
      ac.signal,
      heapMb,
    );
  } catch (e) {
    progress.stop();
    if (ac.signal.aborted) cmd.error(terminalText((e as Error).message), { exit: exitOnSignal });
    if (e instanceof ChildUsageError) cmd.error(terminalText(e.message), { exit: 2 });
    if (e instanceof HeapCapError) cmd.error(terminalText(`analyze ${e.message}`), { exit: 1 });
    cmd.error(terminalText(`analyze failed: ${(e as Error).message}; outputs already in ${flags.out} were left as they were`), { exit: 1 });
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  progress.stop();
  if (!res.integrityOk) {
    const n = res.failedMembers;
    process.stderr.write(
      n > 0
        ? `warning: ${n} ${n === 1 ? 'member' : 'members'} failed the integrity check and ${n === 1 ? 'was' : 'were'} not parsed; see inventory.json collections[].integrity\n`
        : "warning: the integrity check failed (an archive that does not match its .sha256 sidecar, a manifest not read whole, or a problem of the archive warned of above), though every member matched its manifest and was parsed; see inventory.json collections[]\n",
    );
  }
  if (flags.json) process.stdout.write(`${JSON.stringify({ out: res.out, integrity_ok: res.integrityOk, rows: res.rows, duplicates: res.duplicates, sessions: res.sessions, parse_warnings: res.warnings, findings: res.findings, summary: res.summary, collected_no_rows: res.unparsed }, null, 2)}\n`);
  // The summary names hosts and files from the evidence (warnings go through progress.log, escaped there).
  else {
    process.stdout.write(`${terminalText(formatSummary(res.summary, res.out, { rows: res.rows, duplicates: res.duplicates, warnings: res.warnings, integrityOk: res.integrityOk, reports: flags.reports, unparsed: res.unparsed }))}\n`);
    if (flags.findings) process.stdout.write(`${terminalText(findingsLine(res.findings))}\n`);
  }
  return res;
}

/** One summary line: findings by rule, most first (rule ids only: a finding's text stays in findings.jsonl). */
export function findingsLine(counts: Record<string, number>): string {
  const hit = Object.entries(counts)
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const total = hit.reduce((n, [, c]) => n + c, 0);
  return total === 0 ? 'Findings: none (findings.jsonl)' : `Findings: ${total} (findings.jsonl): ${hit.map(([id, n]) => `${id} ${n}`).join(', ')}`;
}

/** `aitrail analyze INPUT...`: collections into one timeline, sessions list and inventory. */
export class AnalyzeCommand extends OclifCommand {
  static override description = 'Analyze one or more collections (.zip or unpacked folder) offline into timeline.csv/jsonl, sessions.jsonl, inventory.json, duplicates.jsonl and findings.jsonl (see `aitrail rules`).';
  static override examples = ['<%= config.bin %> analyze collection.zip', '<%= config.bin %> analyze host1.zip host2.zip --out case-42', '<%= config.bin %> analyze collection.zip --plugin aitrail-plugin-example --json'];
  static override strict = false;
  static override args = { input: Args.string({ description: 'collection archives (.zip) or unpacked collection folders', required: true }) };
  static override flags = analyzeFlags;

  override async run(): Promise<void> {
    const { flags, argv } = await this.parse(AnalyzeCommand);
    const plugins = await loadPluginsOrFail(this, flags.plugin);
    const catalogs = catalogsWithPlugins(this, plugins);
    await runAnalysis(this, argv as string[], flags, plugins, catalogs);
  }
}
