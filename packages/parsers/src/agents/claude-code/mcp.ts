import { asString, isObject, type JsonObject } from '../../sdk/decode.js';
import { readJsonArray } from '../../sdk/json-stream.js';
import { utf8Stream } from '../../sdk/text-encoding.js';
import { readJsonLines } from '../../sdk/line-reader.js';
import { mcpServersFromConfig } from '../../sdk/mcp.js';
import { badLineRow, makeRow } from '../../sdk/row.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { Artifact, ParseContext, Parser, Row } from '../../sdk/types.js';
import { readJsonObject } from './json-file.js';
import { MANAGED_MCP_RE, MCP_LOG_RE, PROJECT_MCP_RE } from './paths.js';
import { jsonText } from '../../sdk/compact-json.js';

/**
 * A project's `.mcp.json` or a managed `managed-mcp.json`: every server to the inventory, no row
 * (the file says what is configured, not when anything ran). Values of `env` and `headers` go only
 * to the report's `secrets`; an unreadable file is one row that never quotes it.
 */
async function* parseMcpConfig(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const r = await readJsonObject(a, true);
  if (!r.ok) {
    yield r.row;
    return;
  }
  const managed = MANAGED_MCP_RE.test(a.rel) || a.scope === 'system';
  const base = managed ? { scope: 'managed' as const } : { scope: 'project' as const, ...(a.projectRoot ? { project_path: a.projectRoot } : {}) };
  for (const server of mcpServersFromConfig(r.value, base, ['mcpServers'])) ctx.mcp(server);
}

/** `.mcp.json` (project) and `managed-mcp.json` (system): MCP servers for the inventory. */
export const mcpConfigParser: Parser = {
  agent: 'claude-code',
  name: 'mcp-config',
  patterns: ['.mcp.json (project)', '<managed dir>/managed-mcp.json'],
  wants: (rel) => PROJECT_MCP_RE.test(rel) || MANAGED_MCP_RE.test(rel),
  secondary: () => false,
  secondaryToleranceSeconds: () => 0,
  recordsSync: false,
  // Flagged for env and header values: this parser hands them to the inventory as secrets only.
  readsSecretFile: (rel) => PROJECT_MCP_RE.test(rel) || MANAGED_MCP_RE.test(rel),
  parse: parseMcpConfig,
};

/** The server a log directory names (`mcp-logs-<server>`); Claude Code replaces unsafe characters in it. */
export function serverOfLog(rel: string): string {
  return MCP_LOG_RE.exec(rel)?.[1] ?? '';
}

// "Successfully connected (transport: stdio) in 3180ms": the server process ran at that time.
const CONNECTED = /^Successfully connected\b/;

function logRow(server: string, o: JsonObject, line: number, ctx: ParseContext): Row | undefined {
  const ts = toUtc(o.timestamp);
  const fields = { timestamp_utc: ts, session_id: asString(o.sessionId) ?? '', project_path: asString(o.cwd) ?? '', source_line: line };
  const error = o.error;
  if (error !== undefined && error !== null) {
    const message = typeof error === 'string' ? error : jsonText(error);
    ctx.mcp({ name: server, scope: '', failure: { timestamp_utc: ts, message }, line });
    return makeRow('system', `mcp server ${server} failed: ${message}`, { ...fields, tag: 'mcp_failure' });
  }
  const debug = asString(o.debug);
  if (debug !== undefined) return CONNECTED.test(debug) ? makeRow('system', `mcp server ${server} connected: ${debug}`, { ...fields, tag: 'mcp_connected' }) : undefined;
  ctx.unknown(`mcp log entry ${Object.keys(o).sort().join(',') || '(empty)'}`, line);
  return undefined;
}

// Older builds wrote one JSON array per file (`<time>.txt`); current ones one JSON object per line.
async function startsWithArray(a: Artifact): Promise<boolean> {
  for await (const chunk of utf8Stream(a.stream())) {
    const t = Buffer.from(chunk).toString('latin1').replace(/^\u00ef\u00bb\u00bf/, '').trimStart();
    if (t !== '') return t.startsWith('[');
  }
  return false;
}

/**
 * `mcp-logs-<server>/<time>.jsonl`: a `mcp_failure` row (and an inventory failure) per `error`
 * entry, a row when a server connected; the other debug entries (connection steps, and in some
 * builds the whole JSON-RPC traffic) are counted, not rows. Streamed: these logs reach gigabytes.
 */
async function* parseMcpLog(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const server = serverOfLog(a.rel);
  if (await startsWithArray(a)) {
    for await (const ev of readJsonArray(a.stream(), [])) {
      if (ev.kind === 'item') {
        if (!isObject(ev.value)) ctx.unknown('mcp log entry (not an object)', ev.index + 1);
        else {
          const row = logRow(server, ev.value, ev.index + 1, ctx);
          if (row) yield row;
        }
      } else if (ev.kind === 'bad') yield badLineRow(ev.reason, ev.preview, ev.index + 1);
      else if (ev.kind === 'end' && !ev.complete) ctx.warn(`MCP log cut or broken after ${ev.items} entries: ${ev.reason ?? 'not a complete JSON array'}`);
    }
    return;
  }
  // A bad line takes the time, session and cwd of the entry before it.
  let last: Partial<Row> = {};
  for await (const l of readJsonLines(a.stream())) {
    if (l.blank) continue;
    if (!l.value) {
      yield badLineRow(l.error ?? 'invalid JSON', l.text, l.line, last);
      continue;
    }
    last = { timestamp_utc: toUtc(l.value.timestamp), session_id: asString(l.value.sessionId) ?? '', project_path: asString(l.value.cwd) ?? '' };
    const row = logRow(server, l.value, l.line, ctx);
    if (row) yield row;
  }
}

/** MCP server logs under `claude-cli-nodejs`: failures and connections. */
export const mcpLogParser: Parser = {
  agent: 'claude-code',
  name: 'mcp-logs',
  patterns: ['<cache>/claude-cli-nodejs/<slug>/mcp-logs-<server>/<time>.jsonl'],
  wants: (rel) => MCP_LOG_RE.test(rel),
  secondary: () => false,
  secondaryToleranceSeconds: () => 0,
  recordsSync: false,
  parse: parseMcpLog,
};
