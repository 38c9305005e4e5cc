import { asObject, asString } from '../../sdk/decode.js';
import { makeRow, recovered } from '../../sdk/row.js';
import { type SqliteDatabase, tableNames } from '../../sdk/sqlite.js';
import { deletedRows, readArtifactSqliteBytes, type SqliteBytes, carvedAt } from '../../sdk/sqlite-deleted.js';
import { normalizeTimestamp } from '../../sdk/timestamp.js';
import type { Artifact, ParseContext, Parser, Row } from '../../sdk/types.js';
import { STATE_DB_RE } from './paths.js';
import { openStore, type Rec, tableRows, text } from './sqlite-store.js';

/** The database mirrors the rollout asynchronously; its first message and name are within the hour. */
export const STATE_TOLERANCE_SECONDS = 3600;

/** Seconds or milliseconds (migration 0025 moved to milliseconds): read by magnitude. */
export function epoch(...vals: unknown[]): string {
  for (const v of vals) {
    if (v === null || v === undefined || v === '' || v === 0) continue;
    const r = normalizeTimestamp(typeof v === 'bigint' ? Number(v) : v);
    if (r.ok) return r.value;
  }
  return '';
}

/** The sandbox column: JSON `{type, ...}` in every build read; its type, or the text as is. */
function sandboxType(v: string): string {
  try {
    const o = asObject(JSON.parse(v));
    return asString(o?.type) ?? v;
  } catch {
    return v || '-';
  }
}

const THREAD_COLUMNS = ['id', 'created_at', 'created_at_ms', 'updated_at', 'updated_at_ms', 'source', 'model_provider', 'cwd', 'cli_version', 'title', 'name', 'sandbox_policy', 'approval_mode', 'tokens_used', 'first_user_message', 'archived', 'archived_at', 'git_branch', 'model', 'originator', 'agent_nickname', 'agent_role', 'parent_thread_id'];

function threadRows(r: Rec, rowid: number, ctx: ParseContext): Row[] {
  const id = text(r.id).toLowerCase();
  const cwd = text(r.cwd);
  const branch = text(r.git_branch);
  const created = epoch(r.created_at_ms, r.created_at);
  const updated = epoch(r.updated_at_ms, r.updated_at) || created;
  if (id && cwd) ctx.fact({ session_id: id, key: 'cwd', value: cwd, priority: 3 });
  if (id && branch) ctx.fact({ session_id: id, key: 'branch', value: branch, priority: 3 });
  if (id && text(r.originator)) ctx.fact({ session_id: id, key: 'client', value: text(r.originator), priority: 3 });
  const base = { session_id: id, project_path: cwd, git_branch: branch, model: text(r.model), source_line: rowid };
  const parts = [`title=${text(r.title) || '-'}`, `source=${text(r.source) || '-'}`, `provider=${text(r.model_provider) || '-'}`, `cli=${text(r.cli_version) || '-'}`, `approval=${text(r.approval_mode) || '-'}`, `sandbox=${sandboxType(text(r.sandbox_policy))}`, `tokens=${text(r.tokens_used) || '-'}`, `archived=${text(r.archived) || '0'}`];
  if (text(r.archived) === '1' && r.archived_at != null) parts.push(`archived_at=${epoch(r.archived_at)}`);
  if (text(r.agent_nickname) || text(r.agent_role)) parts.push(`agent=${text(r.agent_nickname) || '-'}/${text(r.agent_role) || '-'}`);
  if (text(r.parent_thread_id)) parts.push(`parent=${text(r.parent_thread_id)}`);
  const rows = [makeRow('system', `session metadata: ${parts.join(' ')}`, { ...base, timestamp_utc: created, tag: 'session_metadata' })];
  const first = text(r.first_user_message);
  if (first) rows.push(makeRow('user', first, { ...base, timestamp_utc: created, tag: 'history' }));
  const name = text(r.name) || text(r.title);
  if (name) {
    if (id) ctx.fact({ session_id: id, key: 'name', value: name, priority: 3 });
    rows.push(makeRow('system', `session name: ${name}`, { ...base, timestamp_utc: updated, tag: 'session_name' }));
  }
  return rows;
}

const SECURITY_COLUMNS = ['created_at', 'kind', 'thread_id', 'turn_id', 'call_id', 'tool_name', 'resource', 'sandbox_backend', 'reason', 'path', 'host', 'port', 'protocol', 'method', 'network_mode', 'decision', 'source', 'review_id', 'reviewer', 'review_decision'];

/** security_events (migration 0038): sandbox denials and automatic approval reviews, as permission decisions. */
function securityRows(r: Rec, rowid: number): Row[] {
  const kind = text(r.kind);
  const target = text(r.path) || (text(r.host) ? `${text(r.host)}${r.port != null ? `:${text(r.port)}` : ''}` : '-');
  const decision = text(r.review_decision) || text(r.decision) || (kind === 'sandbox_violation' ? 'denied' : '-');
  const detail = kind === 'auto_review_decision' ? `reviewer=${text(r.reviewer) || '-'} tool=${text(r.tool_name) || '-'}` : `tool=${text(r.tool_name) || '-'} resource=${text(r.resource) || '-'} target=${target}`;
  const more = [text(r.method) ? `method=${text(r.method)}` : '', text(r.network_mode) ? `network=${text(r.network_mode)}` : '', text(r.sandbox_backend) ? `backend=${text(r.sandbox_backend)}` : ''].filter(Boolean);
  return [
    makeRow('system', `permission decision: ${decision} source=${kind || 'security_event'} ${[detail, ...more].join(' ')} reason=${text(r.reason) || '-'}`, {
      timestamp_utc: epoch(r.created_at),
      session_id: text(r.thread_id).toLowerCase(),
      tool_name: text(r.tool_name),
      tool_use_id: text(r.call_id),
      source_line: rowid,
      tag: 'permission_decision',
    }),
  ];
}


/** A carved threads record's id, when it has a thread's shape (a uuid, its rollout's path, its cwd). */
function threadKey(r: Rec): string | null {
  return typeof r.id === 'string' && /^[0-9a-f]{8}-[0-9a-f-]{27}$/i.test(r.id) && typeof r.rollout_path === 'string' && typeof r.cwd === 'string' ? r.id.toLowerCase() : null;
}

/** Threads the table no longer holds (deleted with their rollout, or before it): a row saying where each was found, then the rows a live one gives, tagged recovered. */
function* deletedThreads(bytes: SqliteBytes, db: SqliteDatabase, ctx: ParseContext, rel: string): Generator<Row> {
  const found = deletedRows(bytes, db, 'threads', { key: threadKey, minColumns: 10, newer: (x, y) => Number(x.updated_at ?? 0) > Number(y.updated_at ?? 0) });
  for (const n of found.notes) ctx.warn(`${rel}: ${n}`);
  for (const { row, record } of found.rows) {
    const rows = threadRows(row, record.rowid, ctx).map(recovered);
    const id = text(row.id).toLowerCase();
    yield makeRow('system', `deleted thread recovered: ${id} (no longer in the table; ${carvedAt(record)})`, { session_id: id, project_path: text(row.cwd), git_branch: text(row.git_branch), model: text(row.model), timestamp_utc: rows[0]?.timestamp_utc ?? '', source_line: record.rowid, tag: 'recovered' });
    yield* rows;
  }
}

async function* parseState(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  // The bytes before SQLite opens the copy: deleted threads are carved from them.
  const bytes = await readArtifactSqliteBytes(a, ctx);
  const o = await openStore(a);
  if (!o.ok) {
    yield o.row;
    return;
  }
  try {
    const tables = tableNames(o.db);
    if (tables.size === 0) ctx.warn(`${a.rel} has no tables: its -wal was not collected or holds no committed schema`);
    if (tables.has('threads')) yield* tableRows(o.db, 'threads', THREAD_COLUMNS, (r, n) => threadRows(r, n, ctx));
    if (tables.has('security_events')) yield* tableRows(o.db, 'security_events', SECURITY_COLUMNS, securityRows);
    if (bytes && tables.has('threads')) yield* deletedThreads(bytes, o.db, ctx, a.rel);
  } finally {
    o.db.close();
  }
}

/** `state_<n>.sqlite`: thread metadata (a thread whose rollout is gone survives here; one deleted from the table is carved back) and security events (secondary). */
export const stateDbParser: Parser = {
  agent: 'codex-cli',
  name: 'state-db',
  patterns: ['<codex>/state_<n>.sqlite', '<codex>/state.sqlite'],
  wants: (rel) => STATE_DB_RE.test(rel),
  secondary: () => true,
  secondaryToleranceSeconds: () => STATE_TOLERANCE_SECONDS,
  recordsSync: false,
  parse: (a, ctx) => parseState(a, ctx),
};

