import { compactJson } from '../../sdk/compact-json.js';
import { asString, isObject, type JsonObject } from '../../sdk/decode.js';
import { makeRow } from '../../sdk/row.js';
import { type SqlRecord, sqlJson, sqlText, sqlTime } from '../../sdk/sqlite-rows.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { ParseContext, Row } from '../../sdk/types.js';

/** A session as the `session` table or a legacy `storage/session/<project>/<id>.json` gives it. */
export interface SessionInfo {
  id: string;
  projectId: string;
  parentId: string;
  directory: string;
  title: string;
  version: string;
  agent: string;
  /** `model.id` (the DB's JSON column; legacy files have none). */
  model: string;
  created: string;
  updated: string;
  archived: string;
  /** The session's permission ruleset (`[{permission, pattern, action}]`), or undefined. */
  permission: unknown;
  revert: unknown;
  shareUrl: string;
}

const obj = (v: unknown): JsonObject => (isObject(v) ? v : {});
const str = (v: unknown): string => asString(v) ?? '';

/** A legacy session file (`parentID`, `directory`, `time{created, updated, archived}`, `share.url`). */
export function sessionFromJson(o: JsonObject, fallbackId = ''): SessionInfo {
  const time = obj(o.time);
  return {
    id: str(o.id) || fallbackId,
    projectId: str(o.projectID),
    parentId: str(o.parentID),
    directory: str(o.directory),
    title: str(o.title),
    version: str(o.version),
    agent: str(o.agent),
    model: str(obj(o.model).id),
    created: toUtc(time.created),
    updated: toUtc(time.updated),
    archived: toUtc(time.archived),
    permission: o.permission,
    revert: o.revert,
    shareUrl: str(obj(o.share).url),
  };
}

/** A row of the `session` table (its `model` column is JSON with an `id`). */
export function sessionFromRow(r: SqlRecord): SessionInfo {
  return {
    id: sqlText(r.id),
    projectId: sqlText(r.project_id),
    parentId: sqlText(r.parent_id),
    directory: sqlText(r.directory),
    title: sqlText(r.title),
    version: sqlText(r.version),
    agent: sqlText(r.agent),
    model: sqlText(obj(sqlJson(r.model)).id),
    created: sqlTime(r.time_created),
    updated: sqlTime(r.time_updated),
    archived: sqlTime(r.time_archived),
    permission: sqlJson(r.permission),
    revert: sqlJson(r.revert),
    shareUrl: sqlText(r.share_url),
  };
}

/** Whether a value is worth a row: not absent, not an empty list or object. */
function present(v: unknown): boolean {
  if (v === undefined || v === null || v === '') return false;
  if (Array.isArray(v)) return v.length > 0;
  return !isObject(v) || Object.keys(v).length > 0;
}

/**
 * The rows of a session record: its start (title, version, agent, parent), its name, its standing
 * permission ruleset, a revert mark, a share link and an archive time; the cwd and name facts.
 */
export function sessionRows(s: SessionInfo, sourceLine: number | null, ctx: ParseContext): Row[] {
  const f = { session_id: s.id, project_path: s.directory, timestamp_utc: s.created, source_line: sourceLine };
  if (s.directory) ctx.fact({ session_id: s.id, key: 'cwd', value: s.directory, priority: 3, ...(s.created ? { at: s.created } : {}) });
  if (s.title) ctx.fact({ session_id: s.id, key: 'name', value: s.title, priority: 2 });
  const parts = [`title=${s.title}`, `version=${s.version}`];
  if (s.parentId) parts.push(`parent=${s.parentId}`);
  // The agent and model are database columns a legacy file lacks: rows of their own, so the
  // start row of a session both stores hold is the same row in both (and drops as a copy).
  const rows = [makeRow('system', `session start: ${parts.join(' ')}`, { ...f, tag: 'session_start' })];
  if (s.agent || s.model) rows.push(makeRow('system', `session agent: ${s.agent || '-'} model=${s.model || '-'}`, { ...f, model: s.model, tag: 'session_metadata' }));
  if (s.title) rows.push(makeRow('system', `session name: ${s.title}`, { ...f, tag: 'session_name' }));
  if (present(s.permission)) rows.push(makeRow('system', `permission setting: ${compactJson(s.permission)}`, { ...f, tag: 'permission_setting' }));
  if (present(s.revert)) rows.push(makeRow('system', `session reverted: ${compactJson(s.revert)}`, { ...f, timestamp_utc: s.updated || s.created, tag: 'session_metadata' }));
  if (s.shareUrl) rows.push(makeRow('system', `session shared: ${s.shareUrl}`, { ...f, timestamp_utc: s.updated || s.created, tag: 'session_metadata' }));
  if (s.archived) rows.push(makeRow('system', 'session archived', { ...f, timestamp_utc: s.archived, tag: 'session_metadata' }));
  return rows;
}
