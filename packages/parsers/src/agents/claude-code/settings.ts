import { asArray, asObject, asString, isObject, type JsonObject } from '../../sdk/decode.js';
import { makeRow } from '../../sdk/row.js';
import type { Artifact, Parser, Row } from '../../sdk/types.js';
import { readJsonObject } from './json-file.js';
import { MANAGED_SETTINGS_RE, SETTINGS_RE, settingsScopeLabel } from './paths.js';

type Line = [text: string, tag: string];

function permissionLines(scope: string, permissions: JsonObject | undefined): Line[] {
  if (!permissions) return [];
  const out: Line[] = [];
  for (const kind of ['allow', 'deny', 'ask', 'additionalDirectories']) {
    for (const rule of asArray(permissions[kind]) ?? []) {
      const r = asString(rule);
      if (r) out.push([`permission setting: ${scope}.permissions.${kind}=${r}`, 'permission_setting']);
    }
    if (kind === 'ask') {
      const mode = asString(permissions.defaultMode);
      if (mode) out.push([`permission setting: ${scope}.permissions.defaultMode=${mode}`, 'permission_setting']);
    }
  }
  return out;
}

function hookLines(scope: string, hooks: JsonObject | undefined): Line[] {
  const out: Line[] = [];
  for (const [event, groups] of Object.entries(hooks ?? {})) {
    for (const g of asArray(groups) ?? []) {
      if (!isObject(g)) continue;
      const matcher = asString(g.matcher) || '-';
      for (const h of asArray(g.hooks) ?? []) {
        if (!isObject(h)) continue;
        const command = asString(h.command);
        const what = command !== undefined ? `command=${command}` : `type=${asString(h.type) ?? '-'}`;
        out.push([`hook setting: ${scope}.${event} matcher=${matcher} ${what}`, 'hook_setting']);
      }
    }
  }
  return out;
}

// A policy entry names a server by name, command or URL; only the name, the program and the URL
// without its query are printed (arguments and query strings can carry tokens).
function mcpPolicyEntry(e: unknown): string | undefined {
  if (!isObject(e)) return asString(e);
  const name = asString(e.serverName);
  if (name) return name;
  const cmd = asArray(e.serverCommand);
  if (cmd && cmd.length > 0) return `command=${asString(cmd[0]) ?? ''}`;
  const url = asString(e.serverUrl);
  return url ? `url=${url.split('?')[0]}` : undefined;
}

/** MCP approvals and policies: which project servers are enabled, which servers are allowed or denied. */
function mcpLines(scope: string, s: JsonObject): Line[] {
  const out: Line[] = [];
  const all = asString(s.enableAllProjectMcpServers);
  if (all !== undefined) out.push([`permission setting: ${scope}.enableAllProjectMcpServers=${all}`, 'permission_setting']);
  for (const key of ['enabledMcpjsonServers', 'disabledMcpjsonServers', 'allowedMcpServers', 'deniedMcpServers']) {
    for (const e of asArray(s[key]) ?? []) {
      const what = mcpPolicyEntry(e);
      if (what) out.push([`permission setting: ${scope}.${key}=${what}`, 'permission_setting']);
    }
  }
  return out;
}

/** The rows a settings object gives, in the spec's order (MCP approvals after hooks); `env` names only, never values. */
export function settingsLines(scope: string, s: JsonObject): Line[] {
  const out = [...permissionLines(scope, asObject(s.permissions)), ...hookLines(scope, asObject(s.hooks)), ...mcpLines(scope, s)];
  for (const key of ['cleanupPeriodDays', 'desktopSessionCleanupPeriodDays']) {
    const n = asString(s[key]);
    if (n !== undefined && n !== '') out.push([`retention setting: ${scope}.${key}=${n}`, 'retention_setting']);
  }
  for (const name of Object.keys(asObject(s.env) ?? {})) out.push([`env setting: ${scope}.${name}`, 'env_setting']);
  return out;
}

async function* parseSettings(a: Artifact): AsyncGenerator<Row> {
  const r = await readJsonObject(a, true);
  if (!r.ok) {
    yield r.row;
    return;
  }
  // The project root is not part of an Artifact, so project-scope rows leave project_path empty.
  for (const [text, tag] of settingsLines(settingsScopeLabel(a.scope), r.value)) {
    yield makeRow('system', text, { timestamp_utc: a.mtime, tag });
  }
}

/** User, project and managed settings: standing permission rules, hooks, retention, env names. */
export const settingsParser: Parser = {
  agent: 'claude-code',
  name: 'settings',
  patterns: ['<cfg>/settings.json', '<cfg>/settings.local.json', '.claude/settings*.json (project)', '<managed dir>/managed-settings.json', '<managed dir>/managed-settings.d/*.json'],
  wants: (rel) => SETTINGS_RE.test(rel) || MANAGED_SETTINGS_RE.test(rel),
  secondary: () => false,
  secondaryToleranceSeconds: () => 0,
  recordsSync: false,
  // Flagged for `env` values and credential helpers: this parser prints env names, never values.
  readsSecretFile: (rel) => SETTINGS_RE.test(rel) || MANAGED_SETTINGS_RE.test(rel),
  parse: (a) => parseSettings(a),
};
