import { asArray, asString, isObject } from '../../sdk/decode.js';
import { makeRow } from '../../sdk/row.js';
import { normalizeTimestamp, toUtc } from '../../sdk/timestamp.js';
import type { Artifact, ParseContext, Row } from '../../sdk/types.js';
import { copilotParser, readJsonObject } from './common.js';
import { COPILOT_PATTERNS } from './paths.js';

/** Tools listed per cache file; a real server offers tens (25 for playwright). */
const MAX_TOOLS = 1000;

/**
 * mcp-tools/<sha256>.json in the Copilot cache directory (AppData/Local/copilot on Windows, seen
 * with Copilot Desktop's bundled CLI 1.0.99-2; ~/.cache/copilot and ~/Library/Caches/copilot by the
 * seed's cache rule): the tool list of an MCP server that connected, {schemaVersion, serverName,
 * tools[{name, description, annotations{destructiveHint, openWorldHint, readOnlyHint, title},
 * inputSchema}], updatedAt}. Its tools (names and annotations) go to inventory.json
 * `mcp_servers[].tools` through `ctx.mcp`; one system row says the server connected and what it
 * offered, `MCP tools cached: <server>: <n> tools: <names>`, at updatedAt (else the file's mtime,
 * tagged time_file).
 */
export const copilotMcpToolsParser = copilotParser({
  name: 'mcp-tools',
  patterns: COPILOT_PATTERNS.mcpTools,
  secondary: false,
  toleranceSeconds: 0,
  parse: parseMcpTools,
});

async function* parseMcpTools(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const r = await readJsonObject(a, '{"serverName": ..., "tools": [...]}');
  if ('row' in r) {
    yield r.row;
    return;
  }
  const v = r.value;
  const server = asString(v.serverName) ?? '';
  const list = asArray(v.tools);
  if (server === '' && list === undefined) {
    ctx.warn('MCP tool cache without serverName or tools: no server to report');
    return;
  }
  const tools: { name: string; annotations?: Record<string, unknown> }[] = [];
  let unnamed = 0;
  for (const t of (list ?? []).slice(0, MAX_TOOLS)) {
    const name = isObject(t) ? asString(t.name) : undefined;
    if (name === undefined) {
      unnamed++;
      continue;
    }
    tools.push(isObject(t) && isObject(t.annotations) ? { name, annotations: t.annotations } : { name });
  }
  if (unnamed > 0) ctx.warn(`MCP tool cache: ${unnamed} tool entr${unnamed === 1 ? 'y has' : 'ies have'} no name and ${unnamed === 1 ? 'is' : 'are'} left out`);
  if ((list?.length ?? 0) > MAX_TOOLS) ctx.warn(`MCP tool cache lists ${list!.length} tools; the first ${MAX_TOOLS} are reported`);
  ctx.mcp({ name: server, scope: '', tools });
  const updated = normalizeTimestamp(v.updatedAt);
  if (!updated.ok && v.updatedAt !== undefined && v.updatedAt !== null) ctx.warn(`MCP tool cache updatedAt: ${updated.reason}`);
  const names = tools.map((t) => t.name).join(', ');
  const text = `MCP tools cached: ${server || '-'}: ${list?.length ?? 0} tools${names ? `: ${names}` : ''}`;
  yield makeRow('system', text, updated.ok ? { timestamp_utc: updated.value, tag: 'mcp_tools' } : { timestamp_utc: toUtc(a.mtime), tag: 'time_file' });
}
