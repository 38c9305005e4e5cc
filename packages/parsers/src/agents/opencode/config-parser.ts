import { compactJson } from '../../sdk/compact-json.js';
import { asString, isObject, type JsonObject } from '../../sdk/decode.js';
import { readJsonDocument } from '../../sdk/json-document.js';
import { mcpServersFromConfig } from '../../sdk/mcp.js';
import { makeRow } from '../../sdk/row.js';
import type { Artifact, ParseContext, Row } from '../../sdk/types.js';
import { pushAll } from '../../sdk/push-all.js';

type Line = [text: string, tag: string];
const obj = (v: unknown): JsonObject => (isObject(v) ? v : {});

/** A URL without its user part and query (a key can hide in either): where requests went, not how they were signed. */
export function safeUrl(u: string): string {
  try {
    const url = new URL(u);
    return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    return '(not a URL)';
  }
}

/** `permission` as OpenCode writes it: one action for everything, or per tool (an action or a pattern map). */
function permissionLines(prefix: string, p: unknown): Line[] {
  if (typeof p === 'string') return [[`permission setting: ${prefix}*=${p}`, 'permission_setting']];
  return Object.entries(obj(p)).map(([k, v]): Line => [`permission setting: ${prefix}${k}=${typeof v === 'string' ? v : compactJson(v)}`, 'permission_setting']);
}

/**
 * The settings rows of an OpenCode config (opencode.json(c), config.json; JSON with comments):
 * permission rules (global and per agent), tool switches, models, the share mode, providers
 * (id and base URL; never an API key) and MCP servers. Nothing else of the file is printed.
 */
export function configLines(c: JsonObject): Line[] {
  const out: Line[] = [...permissionLines('', c.permission)];
  for (const [name, agent] of Object.entries(obj(c.agent ?? c.mode))) {
    const a = obj(agent);
    pushAll(out, permissionLines(`agent ${name} `, a.permission));
    if (typeof a.model === 'string') out.push([`model setting: agent ${name} ${a.model}`, 'model_setting']);
  }
  for (const [tool, on] of Object.entries(obj(c.tools))) out.push([`permission setting: tools.${tool}=${compactJson(on)}`, 'permission_setting']);
  for (const key of ['model', 'small_model']) if (typeof c[key] === 'string') out.push([`model setting: ${key}=${c[key]}`, 'model_setting']);
  if (typeof c.share === 'string') out.push([`share setting: ${c.share}`, 'sync_setting']);
  for (const [id, p] of Object.entries(obj(c.provider))) {
    const base = asString(obj(obj(p).options).baseURL);
    out.push([`provider configured: ${id}${base ? ` baseURL=${safeUrl(base)}` : ''}`, 'provider_setting']);
  }
  return out;
}

/** A config file's rows (at its mtime) and MCP servers; the file may hold credentials, so errors never quote it. */
export async function* parseOpenCodeConfig(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
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
  for (const [text, tag] of configLines(r.value)) yield makeRow('system', text, { ...at, tag });
  const scope = a.scope === 'project' ? 'project' : 'user';
  for (const server of mcpServersFromConfig(r.value, { scope, ...(project_path ? { project_path } : {}) }, ['mcp'])) {
    ctx.mcp(server);
    yield makeRow('system', `mcp server configured: ${server.name}`, { ...at, tag: 'mcp_setting' });
  }
}

/** `.local/state/<app>/model.json`: each list of `{providerID, modelID}` (recent, favorite) as one row at the file's mtime. */
export async function* parseModelState(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const r = await readJsonDocument(a, { object: 'a JSON object of model lists' });
  if (!r.ok) {
    yield r.row;
    return;
  }
  for (const [key, list] of Object.entries(obj(r.value))) {
    if (!Array.isArray(list)) {
      ctx.unknown(`model.json key ${key}`);
      continue;
    }
    const models = list.map((m) => [asString(obj(m).providerID), asString(obj(m).modelID)].filter(Boolean).join('/')).filter(Boolean);
    yield makeRow('system', `${key} models: ${models.join(', ')}`, { timestamp_utc: a.mtime, tag: 'model_setting' });
  }
}
