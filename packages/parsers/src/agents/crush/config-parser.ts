import { compactJson } from '../../sdk/compact-json.js';
import { asString, isObject, type JsonObject } from '../../sdk/decode.js';
import { readJsonDocument } from '../../sdk/json-document.js';
import { mcpServersFromConfig } from '../../sdk/mcp.js';
import { makeRow } from '../../sdk/row.js';
import type { Artifact, ParseContext, Row } from '../../sdk/types.js';
import { safeUrl } from '../opencode/config-parser.js';

type Line = [text: string, tag: string];
const obj = (v: unknown): JsonObject => (isObject(v) ? v : {});

/**
 * The settings rows of a crush.json (internal/config/config.go): the tools allowed without a
 * prompt (`permissions.allowed_tools`), disabled tools, the selected and recent models, providers
 * (id and base URL; never `api_key` or `oauth`). YOLO mode (`--yolo`) is a flag, never stored.
 */
export function crushConfigLines(c: JsonObject): Line[] {
  const out: Line[] = [];
  for (const t of Array.isArray(obj(c.permissions).allowed_tools) ? (obj(c.permissions).allowed_tools as unknown[]) : []) out.push([`permission setting: allowed_tools=${asString(t) ?? compactJson(t)}`, 'permission_setting']);
  for (const t of Array.isArray(obj(c.options).disabled_tools) ? (obj(c.options).disabled_tools as unknown[]) : []) out.push([`permission setting: disabled_tools=${asString(t) ?? compactJson(t)}`, 'permission_setting']);
  for (const [kind, m] of Object.entries(obj(c.models))) out.push([`model setting: ${kind}=${asString(obj(m).provider) ?? ''}/${asString(obj(m).model) ?? ''}`, 'model_setting']);
  for (const [kind, list] of Object.entries(obj(c.recent_models))) {
    const names = (Array.isArray(list) ? list : []).map((m) => `${asString(obj(m).provider) ?? ''}/${asString(obj(m).model) ?? ''}`);
    if (names.length) out.push([`recent models: ${kind}=${names.join(', ')}`, 'model_setting']);
  }
  for (const [id, p] of Object.entries(obj(c.providers))) {
    const base = asString(obj(p).base_url);
    out.push([`provider configured: ${id}${base ? ` base_url=${safeUrl(base)}` : ''}`, 'provider_setting']);
  }
  const dataDir = asString(obj(c.options).data_directory);
  if (dataDir) out.push([`data directory setting: ${dataDir}`, 'setting']);
  return out;
}

/** A crush.json (global, data home, or project): rows at the file's mtime and its MCP servers; never quoted in errors (it may hold keys). */
export async function* parseCrushConfig(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const r = await readJsonDocument(a, { secret: true });
  if (!r.ok) {
    yield r.row;
    return;
  }
  if (!isObject(r.value)) {
    yield makeRow('system', 'parser: unreadable file (expected a JSON object of settings, found another JSON value)', { timestamp_utc: a.mtime, tag: 'unreadable' });
    return;
  }
  const project_path = a.scope === 'project' ? (a.projectRoot ?? '') : '';
  const at = { timestamp_utc: a.mtime, project_path };
  for (const [text, tag] of crushConfigLines(r.value)) yield makeRow('system', text, { ...at, tag });
  for (const server of mcpServersFromConfig(r.value, { scope: a.scope === 'project' ? 'project' : 'user', ...(project_path ? { project_path } : {}) }, ['mcp'])) {
    ctx.mcp(server);
    yield makeRow('system', `mcp server configured: ${server.name}`, { ...at, tag: 'mcp_setting' });
  }
}

/** projects.json `{projects: [{path, data_dir, last_accessed}]}`: every project Crush ran in, deleted ones included. */
export async function* parseCrushProjects(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const r = await readJsonDocument(a);
  if (!r.ok) {
    yield r.row;
    return;
  }
  const list = obj(r.value).projects;
  if (!Array.isArray(list)) {
    yield makeRow('system', 'parser: unreadable file (expected {"projects": [...]}, found another shape)', { timestamp_utc: a.mtime, tag: 'unreadable' });
    return;
  }
  for (const [i, p] of list.entries()) {
    if (!isObject(p)) {
      ctx.unknown('project entry that is not an object', i + 1);
      continue;
    }
    const path = asString(p.path) ?? '';
    yield makeRow('system', `project seen: ${path} data_dir=${asString(p.data_dir) ?? ''}`, { project_path: path, timestamp_utc: toIso(p.last_accessed), source_line: i + 1, tag: 'project' });
  }
}

function toIso(v: unknown): string {
  const s = asString(v);
  if (!s) return '';
  const t = Date.parse(s);
  return Number.isFinite(t) ? new Date(t).toISOString() : '';
}
