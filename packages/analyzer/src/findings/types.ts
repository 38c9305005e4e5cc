import type { TimelineRow } from '../row.js';
import { pathsOutside } from './paths.js';

/** Sigma levels, lowest first. */
export const LEVELS = ['informational', 'low', 'medium', 'high', 'critical'] as const;

/** A Sigma level (the finding's severity). */
export type Level = (typeof LEVELS)[number];

/** A record a detection looks at: a timeline row, or an inventory entry (an MCP server) as flat fields. */
export type Fields = Readonly<Record<string, string | number | null | undefined>>;

/** A compiled detection: true when the record matches. */
export type Predicate = (f: Fields, cache: RowCache) => boolean;

/** Per-record memo shared by every rule, so a long text is lower-cased once, not once per rule. */
export class RowCache {
  private lower: Map<string, string> | undefined;
  private creds: Map<string, string[]> | undefined;
  private outside: string | undefined;
  constructor(readonly f: Fields) {}
  /** The field as a string (numbers as decimal, null as ''). */
  str(field: string): string {
    if (field === 'paths_outside_project') {
      this.outside ??= pathsOutside(String(this.f.text ?? ''), String(this.f.project_path ?? ''));
      return this.outside;
    }
    const v = this.f[field];
    return v === null || v === undefined ? '' : String(v);
  }
  /** The field lower-cased, computed once per record. */
  lowered(field: string): string {
    this.lower ??= new Map();
    let v = this.lower.get(field);
    if (v === undefined) {
      v = this.str(field).toLowerCase();
      this.lower.set(field, v);
    }
    return v;
  }
  /** Credential kinds found in the field by the inventory's scanner, computed once per record. */
  credentials(field: string, scan: (text: string) => string[]): string[] {
    this.creds ??= new Map();
    let v = this.creds.get(field);
    if (v === undefined) {
      v = scan(this.str(field));
      this.creds.set(field, v);
    }
    return v;
  }
}

/** Where a rule came from: its file and the line of its first key. */
export interface RuleSource {
  file: string;
  line: number;
}

/** A rule over single records (a Sigma detection). */
export interface DetectionRule {
  kind: 'detection';
  id: string;
  /** Sigma `name`: how a correlation refers to it (defaults to the id). */
  name: string;
  title: string;
  description: string;
  level: Level;
  /** `timeline` (rows) or `mcp_server` (inventory entries): the Sigma logsource category. */
  category: 'timeline' | 'mcp_server';
  /** Sigma `generate`: false for a rule only a correlation uses (it then makes no findings of its own). */
  generate: boolean;
  match: Predicate;
  /** Fields named in its selections, for the reason and the excerpt. */
  fields: string[];
  /** Lower-cased literals its selections look for in the text: where the excerpt is taken. */
  needles: string[];
  source: RuleSource;
}

/** A correlation over rows of one group (by default one session), in time order. */
export interface CorrelationRule {
  kind: 'correlation';
  id: string;
  name: string;
  title: string;
  description: string;
  level: Level;
  /** `temporal_ordered` (Sigma); `aitrail_period` and `aitrail_denied_retry` (aitrail's own). */
  type: 'temporal_ordered' | 'aitrail_period' | 'aitrail_denied_retry';
  /** Names of the detection rules it uses, in order. */
  rules: string[];
  groupBy: string[];
  /** Milliseconds; 0 = no limit. */
  timespan: number;
  /** Sigma `generate`: true keeps the findings of the rules it uses as well. */
  generate: boolean;
  source: RuleSource;
}

/** Any rule. */
export type Rule = DetectionRule | CorrelationRule;

/** One row a finding points at. */
export interface FindingRow {
  source_file: string;
  source_line: number | null;
  timestamp_utc: string;
  turn_type: string;
  tool_name: string;
  tag: string;
  /** A short, redacted piece of the row's text around what matched. */
  excerpt: string;
}

/** One line of findings.jsonl. */
export interface Finding {
  rule_id: string;
  title: string;
  severity: Level;
  host: string;
  user: string;
  agent: string;
  session_id: string;
  project_path: string;
  /** Time of the first matched row ('' when undated). */
  time: string;
  /** Time of the last matched row, for periods and sequences. */
  end_time: string;
  reason: string;
  rows: FindingRow[];
}

/** Something told every kept timeline row in output order, then the end of the run. */
export interface RowSink {
  row(r: TimelineRow): void;
  /** After the last row; `inventory` is inventory.json's homes and system entries. */
  end(ctx: SinkEnd): Promise<void>;
}

/** What a sink gets at the end of the run. */
export interface SinkEnd {
  out: string;
  homes: readonly { host: string; user?: string; agents: readonly { agent: string; mcp_servers?: readonly object[] }[] }[];
}
