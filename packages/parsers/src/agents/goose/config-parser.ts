import { compactJson } from '../../sdk/compact-json.js';
import { asArray, asString, describeJson, isObject, type JsonObject } from '../../sdk/decode.js';
import { mcpServersFromConfig } from '../../sdk/mcp.js';
import { makeRow, unreadableRow } from '../../sdk/row.js';
import { readSmall } from '../../sdk/small-file.js';
import { decodeText } from '../../sdk/text-encoding.js';
import type { Artifact, ParseContext, Row } from '../../sdk/types.js';
import { parseYamlGuarded } from '../../sdk/yaml-guard.js';

const obj = (v: unknown): JsonObject => (isObject(v) ? v : {});

/** A small YAML file as a value, or the unreadable row (never quoting the file: config.yaml may hold secrets). */
async function readYaml(a: Artifact): Promise<{ ok: true; value: unknown } | { ok: false; row: Row }> {
  const r = await readSmall(a.stream(), 16 * 1024 * 1024);
  if (!r.ok) return { ok: false, row: unreadableRow(r.reason, { timestamp_utc: a.mtime }) };
  try {
    // maxAliasCount bounds alias expansion (a billion-laughs file), uniqueKeys false: a hand edit may repeat a key.
    const value = parseYamlGuarded(decodeText(r.buffer), { maxAliasCount: 100, uniqueKeys: false });
    // An empty file (or one of comments) is an empty mapping; a list or a scalar is not a config.
    if (value !== null && value !== undefined && !isObject(value)) return { ok: false, row: unreadableRow(`expected a YAML mapping of settings, found ${describeJson(value)}`, { timestamp_utc: a.mtime }) };
    return { ok: true, value };
  } catch (e) {
    const pos = (e as { linePos?: { line: number }[] }).linePos?.[0]?.line;
    return { ok: false, row: unreadableRow(`expected YAML, found text that cannot be parsed${pos ? ` at line ${pos}` : ''}`, { timestamp_utc: a.mtime }) };
  }
}

/** The standing policy keys of config.yaml, in row order, with the tag each gives. */
const KEYS: [key: string, tag: string][] = [
  ['GOOSE_MODE', 'permission_mode'],
  ['GOOSE_PROVIDER', 'model_setting'],
  ['GOOSE_MODEL', 'model_setting'],
  ['GOOSE_PLANNER_PROVIDER', 'model_setting'],
  ['GOOSE_PLANNER_MODEL', 'model_setting'],
];

/**
 * config.yaml: the approval mode (GOOSE_MODE auto | approve | smart_approve | chat), provider and
 * model, and every extension to the MCP inventory (builtin ones with transport `builtin`). The
 * file may hold extension env values and provider keys: only these keys and names are printed.
 */
export async function* parseGooseConfig(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const r = await readYaml(a);
  if (!r.ok) {
    yield r.row;
    return;
  }
  const c = obj(r.value);
  const at = { timestamp_utc: a.mtime };
  for (const [key, tag] of KEYS) {
    const v = asString(c[key]);
    if (v !== undefined) yield makeRow('system', tag === 'permission_mode' ? `permission mode: ${key}=${v}` : `model setting: ${key}=${v}`, { ...at, tag });
  }
  for (const server of mcpServersFromConfig(c, { scope: 'user' }, ['extensions'])) {
    ctx.mcp(server);
    yield makeRow('system', `mcp server configured: ${server.name}${server.disabled ? ' (disabled)' : ''}`, { ...at, tag: 'mcp_setting' });
  }
}

/** permission.yaml `{<scope>: {always_allow, ask_before, never_allow}}` (scopes `user`, `smart_approve`): one row per tool. */
export async function* parseGoosePermissions(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const r = await readYaml(a);
  if (!r.ok) {
    yield r.row;
    return;
  }
  for (const [scope, levels] of Object.entries(obj(r.value))) {
    for (const [level, tools] of Object.entries(obj(levels))) {
      const list = asArray(tools);
      if (!list) {
        ctx.unknown(`permission level ${level}`);
        continue;
      }
      for (const t of list) yield makeRow('system', `permission setting: ${scope} ${asString(t) ?? compactJson(t)}=${level}`, { timestamp_utc: a.mtime, tag: 'permission_setting' });
    }
  }
}
