import { asArray, asObject, asString, isObject } from '../../sdk/decode.js';
import { mcpServersFromConfig } from '../../sdk/mcp.js';
import { unreadableRow } from '../../sdk/row.js';
import type { Artifact, McpServerReport, ParseContext, Row } from '../../sdk/types.js';
import { readJson } from './settings.js';
import { projectOfSlugFolder } from './transcripts.js';

/**
 * `~/.cursor/mcp.json` (user) and a project's `.cursor/mcp.json`: every server to the inventory,
 * no row. Env and header values go only to the report's secrets (redacted findings); an
 * unreadable file is one row that never quotes it.
 */
export async function* parseMcpConfig(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const r = await readJson(a, true);
  if (!r.ok) {
    yield r.row;
    return;
  }
  if (!isObject(r.value)) {
    yield unreadableRow('expected a JSON object with mcpServers');
    return;
  }
  const base = a.scope === 'project' ? { scope: 'project' as const, ...(a.projectRoot ? { project_path: a.projectRoot } : {}) } : { scope: 'user' as const };
  for (const s of mcpServersFromConfig(r.value, base, ['mcpServers'])) ctx.mcp(s);
}

function tools(list: unknown): NonNullable<McpServerReport['tools']> {
  return (asArray(list) ?? []).flatMap((t) => {
    const name = asString(asObject(t)?.name);
    return name ? [{ name }] : [];
  });
}

/** `projects/<slug>/mcp-cache.json`: the tool list the CLI cached per server, for the inventory. */
export async function* parseMcpCache(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const r = await readJson(a, false);
  if (!r.ok) {
    yield r.row;
    return;
  }
  const project = await projectOfSlugFolder(a, 0);
  for (const [name, v] of Object.entries(asObject(r.value) ?? {})) {
    ctx.mcp({ name, scope: '', ...(project ? { project_path: project } : {}), tools: tools(asObject(v)?.tools) });
  }
}

/**
 * `projects/<slug>/mcps/<server id>/tools/<tool>.json` and `SERVER_METADATA.json`: the IDE's tool
 * descriptors per server (one file per tool), named by the metadata's `serverName`.
 */
export async function* parseMcpDescriptor(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const parts = a.rel.split('/');
  const isTool = parts[parts.length - 2]?.toLowerCase() === 'tools';
  if (!isTool) return;
  const r = await readJson(a, false);
  if (!r.ok) {
    yield r.row;
    return;
  }
  const name = asString(asObject(r.value)?.name);
  if (!name) return;
  let server = parts[parts.length - 3] ?? '';
  const meta = a.sibling('../SERVER_METADATA.json');
  if (meta) {
    const m = await readJson(meta, false);
    if (m.ok) server = asString(asObject(m.value)?.serverName) ?? server;
  }
  const project = await projectOfSlugFolder(a, 3);
  ctx.mcp({ name: server, scope: '', ...(project ? { project_path: project } : {}), tools: [{ name }] });
}
