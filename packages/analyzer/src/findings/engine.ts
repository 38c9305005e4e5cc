import { closeSync, createReadStream, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { AtomicFile } from '../atomic.js';
import type { TimelineRow } from '../row.js';
import { type CorrelationState, correlationState } from './correlate.js';
import { credentialKinds } from './detection.js';
import { excerpt, findingRow } from './excerpt.js';
import { mcpFields } from './mcp.js';
import { type DetectionRule, type Fields, type Finding, type Rule, RowCache, type RowSink, type SinkEnd } from './types.js';

/** Characters of findings kept in memory before they go to the spool file. */
const SPOOL = 1 << 18;

/**
 * Runs the rules over every kept timeline row (a {@link RowSink} of the outputs writer) and,
 * at the end, over the inventory's MCP servers; writes OUT/findings.jsonl atomically. Findings
 * are spooled to a file in the analysis's private temp folder as they are found, so memory
 * stays bounded whatever their number; the file is in the order they were found.
 */
export class FindingsEngine implements RowSink {
  /** Findings per rule id (every rule listed, 0 included). */
  readonly counts = new Map<string, number>();
  private readonly timeline: DetectionRule[];
  private readonly mcp: DetectionRule[];
  private readonly referenced = new Set<string>();
  private readonly states: CorrelationState[] = [];
  private buf = '';
  private fd: number | undefined;
  private readonly spool: string;

  constructor(rules: readonly Rule[], tmp: string) {
    this.spool = join(tmp, 'findings.spool.jsonl');
    const detections = rules.filter((r): r is DetectionRule => r.kind === 'detection');
    this.timeline = detections.filter((r) => r.category === 'timeline');
    this.mcp = detections.filter((r) => r.category === 'mcp_server');
    const byName = new Map(detections.map((r) => [r.name, r]));
    for (const r of rules) {
      if (r.kind === 'correlation' || r.generate) this.counts.set(r.id, 0);
      if (r.kind !== 'correlation') continue;
      for (const n of r.rules) this.referenced.add(n);
      this.states.push(correlationState(r, (n) => byName.get(n)?.needles ?? [], (f) => this.emit(f)));
    }
  }

  /** One kept row, in output order. */
  row(r: TimelineRow): void {
    const cache = new RowCache(r as unknown as Fields);
    let matched: Set<string> | null = null;
    for (const rule of this.timeline) {
      if (!rule.match(cache.f, cache)) continue;
      if (rule.generate) this.emit(single(rule, r, cache));
      if (!this.referenced.has(rule.name)) continue;
      matched ??= new Set();
      matched.add(rule.name);
    }
    for (const s of this.states) s.row(r, matched);
  }

  /** Close open periods, run the MCP rules, and write findings.jsonl into the output folder. */
  async end(ctx: SinkEnd): Promise<void> {
    for (const s of this.states) s.finish();
    for (const home of ctx.homes) {
      for (const a of home.agents) {
        for (const server of a.mcp_servers ?? []) {
          const f = mcpFields(home.host, home.user ?? '', a.agent, server);
          const cache = new RowCache(f);
          for (const rule of this.mcp) if (rule.match(f, cache)) this.emit(mcpFinding(rule, f));
        }
      }
    }
    this.flush();
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    const out = new AtomicFile(join(ctx.out, 'findings.jsonl'));
    try {
      if (this.written) for await (const chunk of createReadStream(this.spool, { encoding: 'utf8' })) await out.write(chunk as string);
      await out.close();
    } catch (e) {
      await out.abort();
      throw e;
    }
  }

  private written = false;

  private emit(f: Finding): void {
    this.counts.set(f.rule_id, (this.counts.get(f.rule_id) ?? 0) + 1);
    this.buf += JSON.stringify(f) + '\n';
    if (this.buf.length > SPOOL) this.flush();
  }

  private flush(): void {
    if (this.buf === '') return;
    this.fd ??= openSync(this.spool, 'w', 0o600);
    writeSync(this.fd, this.buf);
    this.written = true;
    this.buf = '';
  }
}

function single(rule: DetectionRule, r: TimelineRow, cache: RowCache): Finding {
  const fr = findingRow(r, rule.needles);
  let reason = `${r.turn_type}${r.tool_name ? ` ${r.tool_name}` : ''}${r.tag ? ` [${r.tag}]` : ''} row matched on ${rule.fields.join(', ')}`;
  const kinds = rule.fields.includes('text') ? cache.credentials('text', credentialKinds) : [];
  if (kinds.length > 0) reason += `; credential kinds: ${[...new Set(kinds)].join(', ')} (values redacted)`;
  return { rule_id: rule.id, title: rule.title, severity: rule.level, host: r.host, user: r.user, agent: r.agent, session_id: r.session_id, project_path: r.project_path, time: r.timestamp_utc, end_time: r.timestamp_utc, reason, rows: [fr] };
}

function mcpFinding(rule: DetectionRule, f: Fields): Finding {
  const s = (k: string) => (f[k] === null || f[k] === undefined ? '' : String(f[k]));
  const what = [Number(f.secrets) > 0 ? `${s('secrets')} credential value(s) in its config (keys: ${[s('env_keys'), s('header_keys')].filter(Boolean).join(', ').replace(/\n/g, ', ') || 'args or url'})` : '', s('destructive_tools') ? `cached tools marked destructive: ${s('destructive_tools').replace(/\n/g, ', ')}` : ''].filter(Boolean);
  const line = typeof f.line === 'number' ? f.line : null;
  const text = `mcp server ${s('name')}: ${[s('command'), s('args').replace(/\n/g, ' '), s('url')].filter(Boolean).join(' ')}`;
  return {
    rule_id: rule.id,
    title: rule.title,
    severity: rule.level,
    host: s('host'),
    user: s('user'),
    agent: s('agent'),
    session_id: '',
    project_path: s('project_path'),
    time: '',
    end_time: '',
    reason: `MCP server ${s('name')}${what.length ? `: ${what.join('; ')}` : ` matched on ${rule.fields.join(', ')}`}`,
    rows: [{ source_file: s('file'), source_line: line, timestamp_utc: '', turn_type: '', tool_name: '', tag: 'mcp_server', excerpt: excerpt(text) }],
  };
}
