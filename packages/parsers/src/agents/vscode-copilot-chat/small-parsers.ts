import { asString, isObject } from '../../sdk/decode.js';
import { mcpServersFromConfig } from '../../sdk/mcp.js';
import { makeRow } from '../../sdk/row.js';
import { compactJson } from '../../sdk/compact-json.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { Artifact, ParseContext, Row } from '../../sdk/types.js';
import { readJsonObject, vscodeParser } from './common.js';
import { PROJECT_PATTERNS, USER_PATTERNS } from './paths.js';

/**
 * globalStorage/github.copilot-chat/cloudSessions.json, {<local session id>: {cloudSessionId,
 * cloudTaskId}} (microsoft/vscode extensions/copilot/src/extension/chronicle/node/
 * cloudSessionIdStore.ts @a112459a): one `session synced: remote session <id> task <id>` row per
 * entry, tag sync, at the file's mtime. An entry can name a cloud session made on another machine
 * (mergeFromCloud), so it proves the account saw the session, not that it ran here.
 */
export const vscodeCloudParser = vscodeParser({
  name: 'cloud-sessions',
  user: USER_PATTERNS.cloud,
  secondary: () => false,
  toleranceSeconds: () => 0,
  parse: async function* (a: Artifact): AsyncGenerator<Row> {
    const r = await readJsonObject(a, '{"<session id>": {"cloudSessionId": ..., "cloudTaskId": ...}}');
    if ('row' in r) {
      yield r.row;
      return;
    }
    let i = 0;
    for (const [sid, v] of Object.entries(r.value)) {
      i++;
      const o = isObject(v) ? v : {};
      const text = `session synced: remote session ${asString(o.cloudSessionId) ?? '?'} task ${asString(o.cloudTaskId) ?? '?'}`;
      yield makeRow('system', text, { session_id: sid, timestamp_utc: toUtc(a.mtime), source_line: i, tag: 'sync' });
    }
  },
});

// Settings that let tools run without asking (spec, Permission rows): per entry, or the value whole.
const GRANTS = ['chat.tools.autoApprove', 'chat.tools.terminal.autoApprove', 'chat.agent.terminal.allowList', 'chat.agent.terminal.denyList', 'chat.tools.global.autoApprove', 'chat.tools.edits.autoApprove', 'chat.tools.urls.autoApprove'];

/**
 * User settings.json (JSON with comments; flagged: it can hold a proxy password or MCP tokens):
 * one `permission setting: <key>.<entry>=<compact JSON>` row per auto-approve entry at the file's
 * mtime, and the MCP servers of its older `mcp.servers` key (names of env and header keys only).
 * Nothing else of the file is read or printed.
 */
export const vscodeSettingsParser = vscodeParser({
  name: 'settings',
  user: USER_PATTERNS.settings,
  secondary: () => false,
  toleranceSeconds: () => 0,
  readsSecretFile: true,
  parse: async function* (a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
    const r = await readJsonObject(a, 'settings (an object)');
    if ('row' in r) {
      yield r.row;
      return;
    }
    const at = toUtc(a.mtime);
    for (const key of GRANTS) {
      const v = r.value[key];
      if (v === undefined) continue;
      const entries: [string, unknown][] = isObject(v) ? Object.entries(v).map(([k, x]) => [`${key}.${k}`, x]) : Array.isArray(v) ? v.map((x) => [key, x]) : [[key, v]];
      for (const [name, x] of entries) yield makeRow('system', `permission setting: ${name}=${compactJson(x)}`, { timestamp_utc: at, tag: 'permission_setting' });
    }
    for (const s of mcpServersFromConfig(r.value, { scope: 'user' }, ['mcp'])) ctx.mcp(s);
  },
});

/**
 * mcp.json: the user's (User/ and each profile) and a project's .vscode/mcp.json, `servers`
 * {<name>: {type, command, args, env, url, headers}} (flagged: env and headers can hold tokens).
 * No rows: each server goes to inventory.json `mcp_servers[]` with the names of its env and header
 * keys; their values become redacted credential findings, never output.
 */
export const vscodeMcpParser = vscodeParser({
  name: 'mcp-config',
  user: USER_PATTERNS.mcp,
  project: PROJECT_PATTERNS.mcp,
  secondary: () => false,
  toleranceSeconds: () => 0,
  readsSecretFile: true,
  parse: async function* (a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
    const r = await readJsonObject(a, 'MCP configuration {"servers": {...}}');
    if ('row' in r) {
      yield r.row;
      return;
    }
    const project = a.scope === 'project' ? { scope: 'project' as const, project_path: a.projectRoot ?? '' } : { scope: 'user' as const };
    for (const s of mcpServersFromConfig(r.value, project, ['servers', 'mcp', 'mcpServers'])) ctx.mcp(s);
  },
});
