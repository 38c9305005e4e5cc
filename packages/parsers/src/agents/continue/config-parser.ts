/**
 * Continue's configs, flagged secret (apiKey fields, MCP env): `config.yaml` (models[], mcpServers[]),
 * the older `config.json` (models[], experimental.modelContextProtocolServers[{transport}]),
 * `.continuerc.json` (a workspace's overrides), and the Hub blocks under `mcpServers/`. Read for
 * model names and MCP servers only (env and header values go to the analyzer as secrets).
 */
import { asArray, asObject, asString, describeJson, type JsonObject } from '../../sdk/decode.js';
import { mcpServerFromEntry, mcpServersFromConfig } from '../../sdk/mcp.js';
import { makeRow, unreadableRow } from '../../sdk/row.js';
import { readSmall } from '../../sdk/small-file.js';
import { decodeText } from '../../sdk/text-encoding.js';
import type { Artifact, ParseContext, Row } from '../../sdk/types.js';
import { readJsonDoc } from '../cline/json-doc.js';
import { parseYamlGuarded } from '../../sdk/yaml-guard.js';

async function readConfig(a: Artifact): Promise<{ ok: true; value: unknown } | { ok: false; row: Row }> {
  if (/\.json$/i.test(a.rel)) return readJsonDoc(a, '', true);
  const r = await readSmall(a.stream());
  if (!r.ok) return { ok: false, row: unreadableRow(r.reason, { timestamp_utc: a.mtime }) };
  try {
    // maxAliasCount bounds a billion-laughs document; the text is never printed (it may hold keys).
    return { ok: true, value: parseYamlGuarded(decodeText(r.buffer), { maxAliasCount: 100, uniqueKeys: false }) as unknown };
  } catch (e) {
    const pos = (e as { linePos?: { line: number }[] }).linePos?.[0]?.line;
    return { ok: false, row: unreadableRow(`expected YAML, found text that cannot be parsed${pos ? ` (line ${pos})` : ''}`, { timestamp_utc: a.mtime }) };
  }
}

/** A config or MCP block → model setting rows and MCP server reports. */
export async function* parseConfig(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const doc = await readConfig(a);
  if (!doc.ok) return yield doc.row;
  const c = asObject(doc.value);
  // An empty YAML file (or one of comments) sets nothing; a list or a scalar is not a config.
  if (!c) return doc.value === null || doc.value === undefined ? undefined : yield unreadableRow(`expected a mapping of settings, found ${describeJson(doc.value)}`, { timestamp_utc: a.mtime });
  const project = a.scope === 'project' ? (a.projectRoot ?? '') : '';
  const base = { scope: project ? ('project' as const) : ('user' as const), ...(project ? { project_path: project } : {}) };
  for (const s of mcpServersFromConfig(c, base, ['mcpServers'])) ctx.mcp(s);
  // config.json: experimental.modelContextProtocolServers: [{transport: {type, command, args, env}}].
  for (const [i, e] of (asArray(asObject(c.experimental)?.modelContextProtocolServers) ?? []).entries()) {
    const o = asObject(e);
    if (o) ctx.mcp(mcpServerFromEntry(asString(o.name) ?? `#${i + 1}`, asObject(o.transport) ?? o, base));
  }
  const models: JsonObject[] = [...(asArray(c.models) ?? []), c.tabAutocompleteModel].map((m) => asObject(m)).filter((m): m is JsonObject => !!m);
  for (const m of models) {
    const name = asString(m.name) ?? asString(m.title) ?? '';
    const roles = (asArray(m.roles) ?? []).map((r) => asString(r)).filter((r) => r);
    const text = `setting model ${name} provider=${asString(m.provider) ?? '?'} model=${asString(m.model) ?? '?'}${roles.length ? ` roles=${roles.join(',')}` : ''}`;
    yield makeRow('system', text, { timestamp_utc: a.mtime, project_path: project, model: asString(m.model) ?? '', tag: 'model_setting' });
  }
}
