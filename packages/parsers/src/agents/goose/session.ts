import { compactJson } from '../../sdk/compact-json.js';
import { asArray, asString, isObject, type JsonObject } from '../../sdk/decode.js';
import { makeRow } from '../../sdk/row.js';
import type { ParseContext, Row } from '../../sdk/types.js';

/** A session record (sessions row or legacy metadata line). */
export interface GooseSession {
  id: string;
  name: string;
  userSetName: boolean;
  type: string;
  workingDir: string;
  created: string;
  scheduleId: string;
  recipe: unknown;
  extensionData: unknown;
}

const obj = (v: unknown): JsonObject => (isObject(v) ? v : {});

/** Extensions a session had enabled (`extension_data["enabled_extensions.v0"].extensions[].name`), when recorded. */
function enabledExtensions(data: unknown): string[] {
  for (const [k, v] of Object.entries(obj(data))) {
    if (!k.startsWith('enabled_extensions')) continue;
    return (asArray(obj(v).extensions) ?? []).map((e) => asString(obj(e).name) ?? '').filter(Boolean);
  }
  return [];
}

/**
 * The rows of a session: its start (`session start: <name> type=<session_type>` with the schedule
 * and recipe title when set), its name (generated unless the user set it), its enabled extensions;
 * the cwd and name facts.
 */
export function sessionRows(s: GooseSession, line: number | null, ctx: ParseContext): Row[] {
  const f = { session_id: s.id, project_path: s.workingDir, timestamp_utc: s.created, source_line: line };
  if (s.workingDir) ctx.fact({ session_id: s.id, key: 'cwd', value: s.workingDir, priority: 3 });
  if (s.name) ctx.fact({ session_id: s.id, key: 'name', value: s.name, priority: 2 });
  const extra = [s.type ? `type=${s.type}` : '', s.scheduleId ? `schedule=${s.scheduleId}` : '', isObject(s.recipe) ? `recipe=${asString(s.recipe.title) ?? compactJson(s.recipe).slice(0, 200)}` : ''].filter(Boolean);
  const rows = [makeRow('system', `session start: ${s.name}${extra.length ? ` ${extra.join(' ')}` : ''}`.trimEnd(), { ...f, tag: 'session_start' })];
  if (s.name) rows.push(makeRow('system', `session name: ${s.name}${s.userSetName ? ' (set by the user)' : ''}`, { ...f, tag: 'session_name' }));
  const ext = enabledExtensions(s.extensionData);
  if (ext.length) rows.push(makeRow('system', `extensions enabled: ${ext.join(', ')}`, { ...f, tag: 'session_metadata' }));
  return rows;
}
