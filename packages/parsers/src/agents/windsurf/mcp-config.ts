import { asArray, describeJson, isObject, type JsonObject } from '../../sdk/decode.js';
import { readJsonDocument } from '../../sdk/json-document.js';
import { mcpServerFromEntry } from '../../sdk/mcp.js';
import { makeRow, unreadableRow } from '../../sdk/row.js';
import type { Artifact, ParseContext, Row } from '../../sdk/types.js';

/** Where Windsurf (and Windsurf Next) keep their MCP servers: global only, the docs name no project file. */
export const MCP_CONFIG = /^\.codeium\/windsurf(?:-next)?\/mcp_config\.json$/;

/** The tool names a server entry's `disabledTools` lists (names only: they are never credentials). */
function disabledTools(entry: JsonObject): string[] {
  return (asArray(entry.disabledTools) ?? []).filter((t): t is string => typeof t === 'string' && t !== '');
}

/**
 * `mcp_config.json` `{mcpServers: {<name>: {command, args, env} | {serverUrl, headers}, disabled?,
 * disabledTools?}}`: every server to the inventory (user scope) and one `mcp_setting` row each at
 * the file's mtime. The spec's plan has one row naming them all; one row per server is what every
 * other agent's MCP config gives, so the timeline reads alike across agents. Env and header values
 * go only to the report's secrets (redacted findings), never to a row; a broken file is one
 * unreadable row that never quotes it.
 */
export async function* parseMcpConfig(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const r = await readJsonDocument(a, { secret: true, object: 'a JSON object with mcpServers' });
  if (!r.ok) {
    yield r.row;
    return;
  }
  const servers = (r.value as JsonObject).mcpServers;
  // No `mcpServers` is a config with no server yet; anything but an object of servers by name is damage.
  if (servers === undefined || servers === null) return;
  if (!isObject(servers)) {
    yield unreadableRow(`expected mcpServers to be an object of servers by name, found ${describeJson(servers)}`, { timestamp_utc: a.mtime });
    return;
  }
  for (const [name, entry] of Object.entries(servers)) {
    // The SDK reads a non-object entry as an empty server; a string there may be a pasted token,
    // so it is left out and named by its kind only, never its value.
    if (!isObject(entry)) {
      ctx.unknown(`mcp server entry that is not an object (${name}: ${describeJson(entry)})`);
      continue;
    }
    const server = mcpServerFromEntry(name, entry, { scope: 'user' });
    ctx.mcp(server);
    const off = disabledTools(entry);
    const text = `mcp server configured: ${name}${server.disabled ? ' (disabled)' : ''}${off.length > 0 ? ` (disabled tools: ${off.join(', ')})` : ''}`;
    yield makeRow('system', text, { timestamp_utc: a.mtime, tag: 'mcp_setting' });
  }
}
