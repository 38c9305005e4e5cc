import { FindingsEngine } from '../findings/engine.js';
import type { Rule } from '../findings/types.js';
import { HtmlReportSink } from './report.js';
import type { RowSink } from './sink.js';
import { SqliteSink } from './sqlite-writer.js';
import { TimesketchSink } from './timesketch.js';

/** One row sink, as plain data a sink thread can be given (report/sink-thread.ts). */
export type SinkSpec = { kind: 'findings'; ruleDirs: string[]; tmp: string } | { kind: 'sqlite' | 'timesketch' | 'html'; out: string };

/**
 * The sinks of a run, in groups a thread each. Within a group they end in order; the groups end
 * one after the other: findings.jsonl (first group) is read by timeline.sqlite (second), and
 * report.html is read from the finished timeline.sqlite. The groups balance the per-row work:
 * the rules and the Timesketch lines in one, the SQLite inserts and FTS5 build in the other.
 */
export function sinkGroups(o: { out: string; tmp: string; findings: boolean; ruleDirs: string[]; reports: boolean }): SinkSpec[][] {
  const first: SinkSpec[] = [...(o.findings ? [{ kind: 'findings' as const, ruleDirs: o.ruleDirs, tmp: o.tmp }] : []), ...(o.reports ? [{ kind: 'timesketch' as const, out: o.out }] : [])];
  const second: SinkSpec[] = o.reports ? [{ kind: 'sqlite', out: o.out }, { kind: 'html', out: o.out }] : [];
  return [first, second].filter((g) => g.length > 0);
}

/**
 * What a group's thread is fed: the SQLite sink (with report.html, which reads no rows) takes the
 * rows as their timeline.csv records (csv-feed.ts); any other group the timeline.jsonl lines.
 */
export function feedKind(specs: readonly SinkSpec[]): 'csv' | 'jsonl' {
  return specs.every((s) => s.kind === 'sqlite' || s.kind === 'html') ? 'csv' : 'jsonl';
}

/** The sinks of `specs` in order, and the findings engine among them; `rules` are the findings rules, loaded. */
export function buildSinks(specs: readonly SinkSpec[], rules: readonly Rule[]): { sinks: RowSink[]; findings?: FindingsEngine } {
  let findings: FindingsEngine | undefined;
  // report.html takes the counts the SQLite sink of its group kept (report-tally.ts).
  let sqlite: SqliteSink | undefined;
  const sinks = specs.map((s): RowSink => {
    switch (s.kind) {
      case 'findings':
        findings = new FindingsEngine(rules, s.tmp);
        return findingsSink(findings);
      case 'sqlite':
        sqlite = new SqliteSink(s.out);
        return sqlite;
      case 'timesketch':
        return new TimesketchSink(s.out);
      default:
        return new HtmlReportSink(s.out, sqlite?.tally);
    }
  });
  return { sinks, findings };
}

/** The findings engine as a row sink: at the end it takes inventory.json's homes and system entries (their MCP servers). */
function findingsSink(f: FindingsEngine): RowSink {
  return {
    row: (r) => f.row(r),
    end: ({ out, inventory }) => {
      const inv = inventory as { homes?: Parameters<FindingsEngine['end']>[0]['homes']; system?: Parameters<FindingsEngine['end']>[0]['homes'] };
      return f.end({ out, homes: [...(inv.homes ?? []), ...(inv.system ?? [])] });
    },
    // Findings are spooled in the analysis's temp folder (removed with it); findings.jsonl is written atomically in end().
    abort: async () => {},
  };
}
