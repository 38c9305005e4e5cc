import { join } from 'node:path';
import Database from 'better-sqlite3';
import { stagedPath, writeFileStaged } from '../atomic.js';
import { csp, esc, Raw, table } from './html.js';
import { REPORT_CSS, REPORT_SCRIPT } from './report-assets.js';
import { MAX_CONVERSATIONS, MAX_TABLE, MAX_TEXT, MAX_TURNS, ReportData, type ReportRow, type ReportSession } from './report-data.js';
import type { ReportTally } from './report-tally.js';
import type { RowSink, SinkEnd } from './sink.js';

type Agent = Record<string, unknown> & { agent: string; secret_files?: { path: string; size: number | null; sha256: string }[]; credential_findings?: Record<string, unknown>[]; mcp_servers?: Record<string, unknown>[]; parse_warnings?: { file: string; line: number | null; parser: string; message: string }[]; parse_warnings_total?: number; not_parsed?: { file: string; reason: string }[] };
type Home = { host: string; user?: string; home?: string; agents: Agent[] };
type Inv = { analyzer?: { version?: string }; collections?: Record<string, unknown>[]; homes?: Home[]; system?: Home[]; totals?: Record<string, unknown> };

/**
 * report.html, built at the end of the run from timeline.sqlite (so the SqliteSink must end
 * first), with the counts that sink kept as it inserted the rows when it is given them.
 */
export class HtmlReportSink implements RowSink {
  constructor(
    private readonly out: string,
    private readonly tally?: ReportTally,
  ) {}

  /** Nothing per row: the report reads the database once it is complete. */
  row(): void {}

  /** Write report.html. */
  async end(info: SinkEnd): Promise<void> {
    // This run's database, not yet in place (atomic.ts: outputs are put in place together).
    const db = new Database(stagedPath(join(this.out, 'timeline.sqlite')), { readonly: true, fileMustExist: true });
    try {
      await writeFileStaged(join(this.out, 'report.html'), buildReport(new ReportData(db, this.tally), info.inventory as Inv));
    } finally {
      db.close();
    }
  }

  /** Nothing to remove: the file is written whole at the end. */
  async abort(): Promise<void> {}
}

const SECTIONS = [
  ['collected', 'Collected'],
  ['agents', 'Agents'],
  ['activity', 'Activity'],
  ['sessions', 'Sessions'],
  ['permissions', 'Permissions'],
  ['mcp', 'MCP servers'],
  ['secrets', 'Secrets'],
  ['findings', 'Findings'],
  ['warnings', 'Parse warnings'],
  ['conversations', 'Conversations'],
] as const;

/** The whole page (every value from the evidence goes through esc()). */
export function buildReport(data: ReportData, inv: Inv): string {
  const all = [...(inv.homes ?? []), ...(inv.system ?? [])];
  const agents = all.flatMap((h) => h.agents.map((a) => ({ h, a })));
  const sessions = data.sessions();
  const parts: string[] = [];
  const section = (id: string, title: string, body: string) => parts.push(`<section id="${id}"><h2>${esc(title)}</h2>\n${body}\n</section>`);

  const t = inv.totals ?? {};
  section('collected', 'Collected', `${table(['input', 'host', 'os', 'collected from', 'to', 'collector', 'complete', 'integrity'], (inv.collections ?? []).map((c) => {
    const os = c.os as { platform?: string; release?: string } | null;
    const i = c.integrity as { ok?: boolean; checked?: number; mismatched?: unknown[]; missing?: unknown[]; extra?: unknown[] } | undefined;
    const integ = i?.ok ? new Raw(`<span class="ok">ok (${esc(i.checked)} files)</span>`) : new Raw(`<span class="bad">FAILED: ${esc(i?.mismatched?.length ?? 0)} mismatched, ${esc(i?.missing?.length ?? 0)} missing, ${esc(i?.extra?.length ?? 0)} extra</span>`);
    return [c.input, c.host, os ? `${os.platform ?? ''} ${os.release ?? ''}` : '', c.started_utc, c.ended_utc, c.tool_version, c.complete ? 'yes' : 'no', integ];
  }))}
${table(['hosts', 'homes', 'artifacts', 'bytes', 'rows', 'duplicates dropped', 'sessions', 'secret files', 'credential findings', 'parse warnings', 'undated rows'], [[t.hosts, t.homes, t.artifacts, t.bytes, t.rows, t.duplicates, t.sessions, t.secret_files, t.credential_findings, t.parse_warnings, data.undated()]])}
<p class="note">Homes: ${esc(all.filter((h) => h.home).map((h) => `${h.host}:${h.home}`).join(', ') || 'none')}</p>`);

  const models = data.models();
  section('agents', 'Agents', `${table(['host', 'user', 'agent', 'artifacts', 'rows', 'sessions', 'projects', 'models'], agents.map(({ h, a }) => [h.host, h.user ?? '', a.agent, a.artifacts, a.rows, a.sessions, (a.projects as string[] | undefined)?.length ?? 0, models.filter((m) => m.agent === a.agent).map((m) => `${m.model} (${m.n})`).join(', ')]))}`);

  section('activity', 'Activity', activityChart(data.activity()));

  section('sessions', 'Sessions', `<p class="note">${esc(sessions.total)} sessions${sessions.total > sessions.list.length ? `; the ${sessions.list.length} most recent are listed, all are in sessions.jsonl and timeline.sqlite` : ''}.</p>
${table(['agent', 'project', 'session', 'name', 'first activity', 'last activity', 'rows', 'models', 'permission decisions', 'host', 'user'], sessions.list.map((s) => [s.agent, s.project_path, new Raw(`<a href="#${anchor(s)}">${esc(s.session_id)}</a>`), s.name, s.first_timestamp, s.last_timestamp, s.rows, list(s.models), counts(s.permission_decisions), s.host, s.user]))}`);

  const perms = data.permissions();
  const unattended = data.unattended();
  section('permissions', 'Permissions', `<h3>Unattended periods</h3><p class="note">Inferred: from a permission mode that lets the agent act without asking (bypass, yolo, allow-all, auto-approve...) to the next mode change or the end of the session.</p>
${table(['agent', 'session', 'mode', 'from', 'to', 'source'], unattended.map((u) => [u.agent, u.session_id, u.mode, u.from, u.to, `${u.source_file}:${u.source_line ?? ''}`]))}
<h3>Decisions, requests, modes and settings</h3><p class="note">${esc(perms.total)} rows${perms.total > perms.list.length ? `; the first ${perms.list.length} shown (all in timeline.sqlite: tag LIKE 'permission_%')` : ''}.</p>
${table(['time', 'agent', 'session', 'kind', 'tool', 'text', 'source'], perms.list.map((r) => [r.timestamp_utc, r.agent, r.session_id, r.tag, r.tool_name, r.text, `${r.source_file}:${r.source_line ?? ''}`]))}`);

  section('mcp', 'MCP servers', table(['host', 'user', 'agent', 'name', 'scope', 'transport', 'command / url', 'env keys', 'file', 'secrets taken'], agents.flatMap(({ h, a }) => (a.mcp_servers ?? []).slice(0, MAX_TABLE).map((m) => [h.host, h.user ?? '', a.agent, m.name, m.scope, m.transport, m.command || m.url, list(m.env_keys), m.file, m.secrets]))));

  section('secrets', 'Secrets', `<p class="note">Listed by path and hash; values are never shown.</p><h3>Secret files</h3>
${table(['host', 'user', 'agent', 'path', 'size', 'sha256'], agents.flatMap(({ h, a }) => (a.secret_files ?? []).map((f) => [h.host, h.user ?? '', a.agent, f.path, f.size, f.sha256])).slice(0, MAX_TABLE))}
<h3>Credential findings</h3>
${table(['host', 'user', 'agent', 'file', 'line', 'kind', 'where', 'preview (redacted)'], agents.flatMap(({ h, a }) => (a.credential_findings ?? []).map((f) => [h.host, h.user ?? '', a.agent, f.file, f.line, f.kind, f.key ?? '', f.preview])).slice(0, MAX_TABLE))}`);

  const findings = data.findings();
  section('findings', 'Findings', findings.total ? `<p class="note">${esc(findings.total)} findings from findings.jsonl${findings.total > findings.list.length ? `; the first ${findings.list.length} shown` : ''}.</p>${findingsTable(findings.list)}` : '<p class="none">No findings.jsonl in this output.</p>');

  const warnings = agents.flatMap(({ h, a }) => (a.parse_warnings ?? []).map((w) => [h.host, h.user ?? '', a.agent, w.parser, `${w.file}:${w.line ?? ''}`, w.message]));
  const notParsed = agents.flatMap(({ h, a }) => (a.not_parsed ?? []).map((n) => [h.host, h.user ?? '', a.agent, n.file, n.reason]));
  section('warnings', 'Parse warnings', `${table(['host', 'user', 'agent', 'parser', 'where', 'message'], warnings.slice(0, MAX_TABLE))}
<h3>Collected but not parsed</h3>${table(['host', 'user', 'agent', 'file', 'reason'], notParsed.slice(0, MAX_TABLE))}`);

  const shown = sessions.list.slice(0, MAX_CONVERSATIONS);
  const convs = shown.map((s) => conversation(s, data.conversation(s)));
  section('conversations', 'Conversations', `<p class="note">The ${shown.length} most recent of ${esc(sessions.total)} sessions, the first ${MAX_TURNS} entries of each; every row is in timeline.jsonl and timeline.sqlite (<code>aitrail serve</code> browses them).</p>
<p><label>Filter: <input id="filter" type="search" placeholder="text in a prompt, reply or tool call"></label> <span id="filter-count"></span></p>
${convs.join('\n')}`);

  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${esc(csp(REPORT_SCRIPT))}">
<meta name="referrer" content="no-referrer">
<title>aitrail report</title><style>${REPORT_CSS}</style></head>
<body><header><h1>aitrail report</h1><div>analyzer ${esc(inv.analyzer?.version ?? '')}</div></header>
<nav>${SECTIONS.map(([id, title]) => `<a href="#${id}">${esc(title)}</a>`).join('')}</nav>
<main>
${parts.join('\n')}
</main>
<script>${REPORT_SCRIPT}</script>
</body></html>
`;
}

function anchor(s: ReportSession): string {
  // An id made of hex only: a session id from the evidence never lands in an attribute unescaped.
  return `s-${Buffer.from(`${s.host}\0${s.user}\0${s.agent}\0${s.session_id}`).toString('hex').slice(0, 120)}`;
}

function list(json: unknown): string {
  if (Array.isArray(json)) return json.join(', ');
  try {
    const v = JSON.parse(String(json ?? '[]')) as unknown;
    return Array.isArray(v) ? v.join(', ') : String(v);
  } catch {
    return String(json ?? '');
  }
}

function counts(json: string): string {
  try {
    return Object.entries(JSON.parse(json) as Record<string, number>).map(([k, n]) => `${k}: ${n}`).join(', ');
  } catch {
    return json;
  }
}

function conversation(s: ReportSession, c: { rows: ReportRow[]; total: number }): string {
  const turns = c.rows.map((r) => {
    const more = r.text_length > MAX_TEXT ? r.text_length - MAX_TEXT : 0;
    const label = [r.turn_type, r.tool_name, r.tag].filter(Boolean).join(' · ');
    return `<div class="turn t-${esc(r.turn_type.replace(/[^a-z_]/g, ''))}"><div class="meta">${esc(r.timestamp_utc ?? 'undated')} · ${esc(label)}${r.model ? ` · ${esc(r.model)}` : ''} · ${esc(r.source_file)}:${esc(r.source_line ?? '')}</div><pre>${esc(r.text)}</pre>${more > 0 ? `<div class="note">… ${esc(more)} more characters in timeline.jsonl (row ${esc(r.id)})</div>` : ''}</div>`;
  });
  const left = c.total - c.rows.length;
  return `<div class="conv" id="${anchor(s)}"><h3>${esc(s.agent)} · ${esc(s.session_id)}${s.name ? ` · ${esc(s.name)}` : ''}</h3><div class="note">${esc(s.project_path)} · ${esc(s.first_timestamp)} → ${esc(s.last_timestamp)} · ${esc(s.host)}/${esc(s.user)}</div>
${turns.join('\n')}${left > 0 ? `\n<p class="note">${esc(left)} more entries left out: timeline.sqlite, <code>SELECT * FROM timeline WHERE session_id = '…' ORDER BY id</code>, or <code>aitrail serve</code>.</p>` : ''}</div>`;
}

function findingsTable(list: Record<string, unknown>[]): string {
  const keys = [...new Set(list.flatMap((f) => Object.keys(f)))].slice(0, 12);
  return table(keys, list.map((f) => keys.map((k) => (typeof f[k] === 'object' && f[k] !== null ? JSON.stringify(f[k]) : f[k]))));
}

/** Rows per day (per month past 400 days) as an inline SVG bar chart. */
function activityChart(points: { day: string; agent: string; n: number }[]): string {
  if (!points.length) return '<p class="none">No dated rows.</p>';
  const byMonth = points.length && daysBetween(points[0].day, points[points.length - 1].day) > 400;
  const buckets = new Map<string, number>();
  for (const p of points) {
    const k = byMonth ? p.day.slice(0, 7) : p.day;
    buckets.set(k, (buckets.get(k) ?? 0) + p.n);
  }
  const keys = [...buckets.keys()].sort();
  const max = Math.max(...buckets.values());
  const w = Math.max(4, Math.min(40, Math.floor(900 / keys.length)));
  const bars = keys.map((k, i) => {
    const h = Math.max(1, Math.round((buckets.get(k)! / max) * 150));
    return `<rect x="${i * w}" y="${160 - h}" width="${w - 1}" height="${h}" fill="#2f6fd6"><title>${esc(k)}: ${esc(buckets.get(k))} rows</title></rect>`;
  });
  const agents = [...new Set(points.map((p) => p.agent))];
  const perAgent = agents.map((a) => [a, points.filter((p) => p.agent === a).reduce((s, p) => s + p.n, 0), points.find((p) => p.agent === a)!.day, points.filter((p) => p.agent === a).at(-1)!.day]);
  return `<p class="note">Rows per ${byMonth ? 'month' : 'day'} (UTC), ${esc(keys[0])} to ${esc(keys[keys.length - 1])}; busiest: ${esc(max)} rows.</p>
<svg role="img" aria-label="rows over time" width="${Math.max(80, keys.length * w)}" height="175" viewBox="0 0 ${Math.max(80, keys.length * w)} 175">${bars.join('')}<text x="0" y="172">${esc(keys[0])}</text>${keys.length > 4 ? `<text x="${keys.length * w}" y="172" text-anchor="end">${esc(keys[keys.length - 1])}</text>` : ''}</svg>
${table(['agent', 'dated rows', 'first day', 'last day'], perAgent)}`;
}

function daysBetween(a: string, b: string): number {
  return (Date.parse(b) - Date.parse(a)) / 86_400_000;
}
