import { asArray, asBool, asObject, asString, isObject } from '../../sdk/decode.js';
import { mcpServersFromConfig } from '../../sdk/mcp.js';
import { makeRow } from '../../sdk/row.js';
import type { Artifact, ParseContext, Parser, Row } from '../../sdk/types.js';
import { readJsonObject } from './json-file.js';
import { GLOBAL_STATE_RE } from './paths.js';

/**
 * `.claude*.json`: the signed-in account, per project the trust decision, standing tool grants,
 * MCP approvals, last session and the legacy prompt history; the MCP servers of the user
 * (`mcpServers`) and of each project (`projects.<path>.mcpServers`, Claude Code's "local" scope)
 * go to the inventory. Never reads `primaryApiKey` or `customApiKeyResponses`; MCP `env` and
 * `headers` values go only to the report's `secrets`, which the analyzer redacts.
 */
async function* parseGlobalState(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const r = await readJsonObject(a, true);
  if (!r.ok) {
    yield r.row;
    return;
  }
  const ts = a.mtime;
  const account = asObject(r.value.oauthAccount);
  if (account) {
    const who = asString(account.emailAddress) || asString(account.accountUuid) || '-';
    yield makeRow('system', `account: ${who} org=${asString(account.organizationName) || '-'}`, { timestamp_utc: ts, tag: 'signed_in' });
  }
  for (const server of mcpServersFromConfig(r.value, { scope: 'user' }, ['mcpServers'])) ctx.mcp(server);
  const projects = asObject(r.value.projects) ?? {};
  for (const [path, raw] of Object.entries(projects)) {
    if (!isObject(raw)) continue;
    for (const server of mcpServersFromConfig(raw, { scope: 'user', project_path: path }, ['mcpServers'])) ctx.mcp(server);
    const last = asString(raw.lastSessionId);
    if (last) ctx.fact({ session_id: last, key: 'cwd', value: path, priority: 5 });
    const trust = asBool(raw.hasTrustDialogAccepted);
    if (trust !== undefined) {
      yield makeRow('system', `project trust: ${trust ? 'accepted' : 'not accepted'}`, { timestamp_utc: ts, project_path: path, tag: 'project_trust' });
    }
    for (const key of ['allowedTools', 'enabledMcpjsonServers', 'disabledMcpjsonServers']) {
      for (const item of asArray(raw[key]) ?? []) {
        const t = asString(item);
        if (t) yield makeRow('system', `permission setting: projects.${key}=${t}`, { timestamp_utc: ts, project_path: path, tag: 'permission_setting' });
      }
    }
    // Legacy history (builds up to about 1.0.110): newest first, no time, no session.
    const history = asArray(raw.history) ?? [];
    for (let i = 0; i < history.length; i++) {
      const h = history[i];
      const display = isObject(h) ? asString(h.display) : asString(h);
      if (display !== undefined) yield makeRow('user', display, { project_path: path, source_line: i + 1, tag: 'history' });
    }
  }
}

/**
 * The global state parser. Marked secondary with a 0 s tolerance: its legacy history rows are
 * undated (so they join any copy of their text, as the spec wants), while its dated rows sit at
 * the file's mtime and can only join a row of identical text at that very millisecond.
 */
export const globalStateParser: Parser = {
  agent: 'claude-code',
  name: 'global-state',
  patterns: ['.claude*.json', '<cfg>/.claude*.json'],
  wants: (rel) => GLOBAL_STATE_RE.test(rel),
  secondary: () => true,
  secondaryToleranceSeconds: () => 0,
  recordsSync: false,
  // The catalog flags these files (API key, MCP env and headers); this parser reads only the keys above.
  readsSecretFile: (rel) => GLOBAL_STATE_RE.test(rel),
  parse: parseGlobalState,
};
