/**
 * The rows of one sessions.db record, live or carved back from the file's bytes: both go through
 * here, so a recovered session or message reads exactly like a live one. A record of any schema
 * version: a column it lacks (written before an ALTER, or not selected) reads as empty.
 */
import { isObject, type JsonObject } from '../../sdk/decode.js';
import { makeRow } from '../../sdk/row.js';
import { type SqlRecord, sqlJson, sqlText, sqlTime } from '../../sdk/sqlite-rows.js';
import type { ParseContext, Row } from '../../sdk/types.js';
import { messageRows } from './content.js';
import { type GooseSession, sessionRows } from './session.js';

/** The session a `sessions` record holds (`name`, else the pre-v4 `description`, as goose reads it). */
export function sessionOf(r: SqlRecord): GooseSession {
  return {
    id: sqlText(r.id),
    name: sqlText(r.name) || sqlText(r.description),
    userSetName: Number(r.user_set_name ?? 0) === 1,
    type: sqlText(r.session_type),
    workingDir: sqlText(r.working_dir),
    created: sqlTime(r.created_at),
    scheduleId: sqlText(r.schedule_id),
    recipe: sqlJson(r.recipe_json),
    extensionData: sqlJson(r.extension_data),
  };
}

/** The rows of a `sessions` record, `line` its rowid. */
export function sessionRecordRows(r: SqlRecord, line: number, ctx: ParseContext): Row[] {
  return sessionRows(sessionOf(r), line, ctx);
}

/**
 * The rows of a `messages` record, `line` its rowid: its time is `created_timestamp`
 * (Message.created, seconds or milliseconds by magnitude), else the insert `timestamp`. A content
 * column that is not a JSON array is one `bad_line` row.
 */
export function messageRecordRows(r: SqlRecord, line: number, projectPath: string, tools: Map<string, string>, ctx: ParseContext): Row[] {
  const sid = sqlText(r.session_id);
  const content = sqlJson(r.content_json);
  if (!Array.isArray(content)) {
    return [makeRow('system', `parser: unreadable message (expected a JSON array of content, found ${sqlText(r.content_json).slice(0, 80) || 'nothing'})`, { session_id: sid, source_line: line, tag: 'bad_line' })];
  }
  const meta = sqlJson(r.metadata_json);
  return messageRows({ sessionId: sid, role: sqlText(r.role), created: sqlTime(r.created_timestamp) || sqlTime(r.timestamp), content, metadata: isObject(meta) ? (meta as JsonObject) : {}, line, projectPath }, tools, ctx);
}
