import { compactJson } from '../../sdk/compact-json.js';
import { asArray, asString, isObject, type JsonObject } from '../../sdk/decode.js';
import { readJsonDocument } from '../../sdk/json-document.js';
import { mcpServersFromConfig } from '../../sdk/mcp.js';
import { makeRow } from '../../sdk/row.js';
import type { Artifact, ParseContext, Row } from '../../sdk/types.js';

const obj = (v: unknown): JsonObject => (isObject(v) ? v : {});
const str = (v: unknown): string => asString(v) ?? '';
const list = (v: unknown): string => (asArray(v) ?? []).map((x) => str(x) || compactJson(x)).join(', ');

async function readObject(a: Artifact): Promise<{ ok: true; value: JsonObject } | { ok: false; row: Row }> {
  const r = await readJsonDocument(a, { secret: true });
  if (!r.ok) return r;
  if (!isObject(r.value)) return { ok: false, row: makeRow('system', 'parser: unreadable file (expected a JSON object, found another JSON value)', { timestamp_utc: a.mtime, tag: 'unreadable' }) };
  return { ok: true, value: r.value };
}

function base(a: Artifact): { scope: 'user' | 'project'; project_path?: string } {
  return a.scope === 'project' ? { scope: 'project', ...(a.projectRoot ? { project_path: a.projectRoot } : {}) } : { scope: 'user' };
}

/** mcp.json (`~/.aws/amazonq/`, `~/.kiro/settings/`, a project's `.amazonq/` or `.kiro/settings/`): its servers, names only in rows. */
export async function* parseQMcp(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const r = await readObject(a);
  if (!r.ok) {
    yield r.row;
    return;
  }
  const b = base(a);
  for (const server of mcpServersFromConfig(r.value, b, ['mcpServers'])) {
    ctx.mcp(server);
    yield makeRow('system', `mcp server configured: ${server.name}${server.disabled ? ' (disabled)' : ''}`, { timestamp_utc: a.mtime, project_path: b.project_path ?? '', tag: 'mcp_setting' });
  }
}

/**
 * An agent config (`cli-agents/<name>.json`, Kiro `agents/<name>.json`): the tools it may use
 * without asking (`allowedTools`), per-tool settings (`toolsSettings`: allowed commands and
 * paths, auto-allowed read-only commands), its model and MCP servers. Permission rows at the
 * file's mtime; env values of its servers stay in the inventory's secrets.
 */
export async function* parseQAgent(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const r = await readObject(a);
  if (!r.ok) {
    yield r.row;
    return;
  }
  const c = r.value;
  const b = base(a);
  const name = str(c.name) || a.rel.split('/').pop()!.replace(/\.json$/, '');
  const f = { timestamp_utc: a.mtime, project_path: b.project_path ?? '' };
  if (asArray(c.tools)) yield makeRow('system', `agent ${name}: tools=${list(c.tools)}`, { ...f, tag: 'permission_setting' });
  if (asArray(c.allowedTools)) yield makeRow('system', `permission setting: agent ${name} allowedTools=${list(c.allowedTools)}`, { ...f, tag: 'permission_setting' });
  for (const [tool, s] of Object.entries(obj(c.toolsSettings))) yield makeRow('system', `permission setting: agent ${name} ${tool}=${compactJson(s)}`, { ...f, tag: 'permission_setting' });
  if (str(c.model)) yield makeRow('system', `model setting: agent ${name} ${str(c.model)}`, { ...f, tag: 'model_setting' });
  for (const server of mcpServersFromConfig(c, b, ['mcpServers'])) {
    ctx.mcp(server);
    yield makeRow('system', `mcp server configured: ${server.name} (agent ${name})`, { ...f, tag: 'mcp_setting' });
  }
}

/** settings.json in the data dir: the keys that choose a model or an agent, or grant trust. */
const SETTING = /model|agent|trust|allow|approv|telemetry/i;

/** `amazon-q/settings.json` (flat dotted keys such as `chat.defaultModel`): the keys {@link SETTING} names, one row each. */
export async function* parseQSettings(a: Artifact): AsyncGenerator<Row> {
  const r = await readObject(a);
  if (!r.ok) {
    yield r.row;
    return;
  }
  for (const [k, v] of Object.entries(r.value)) {
    if (!SETTING.test(k) || (typeof v !== 'string' && typeof v !== 'boolean' && typeof v !== 'number')) continue;
    yield makeRow('system', `setting: ${k}=${String(v)}`, { timestamp_utc: a.mtime, tag: /model/i.test(k) ? 'model_setting' : 'permission_setting' });
  }
}
