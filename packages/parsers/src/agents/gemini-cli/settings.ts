/**
 * settings.json (user, project and system; JSON with comments): the standing grants and defaults
 * the profile lists (approval mode, allowed and excluded tools, auth type, retention, model), and
 * the MCP servers (`ctx.mcp`, names of env and header keys only). The file may hold credentials
 * (mcpServers env and headers, API keys); nothing else of it is printed.
 */
import { compactJson } from '../../sdk/compact-json.js';
import { isObject, pick } from '../../sdk/decode.js';
import { mcpServersFromConfig } from '../../sdk/mcp.js';
import { makeRow } from '../../sdk/row.js';
import type { Artifact, ParseContext, Parser, Row } from '../../sdk/types.js';
import { readJsonDoc } from './json-file.js';
import type { FamilyPaths } from './paths.js';
import type { SettingKey } from './profile.js';
import { pushAll } from '../../sdk/push-all.js';

type Line = [text: string, tag: string];

function scalar(v: unknown): string | undefined {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;
}

/** The rows one settings key gives: one per list entry, one for a scalar, none for anything else. */
function keyLines(k: SettingKey, v: unknown): Line[] {
  if (v === undefined || v === null) return [];
  if (k.kind === 'retention') return isObject(v) || scalar(v) !== undefined ? [[`retention setting: ${k.path}=${compactJson(v)}`, 'retention_setting']] : [];
  const values = Array.isArray(v) ? v.map(scalar).filter((s): s is string => s !== undefined) : [scalar(v)].filter((s): s is string => s !== undefined);
  return values.map((s): Line => {
    if (k.kind === 'auth') return [`auth: selectedType=${s}`, 'auth'];
    if (k.kind === 'model') return [`model setting: ${s}`, 'model_setting'];
    // The approval mode is the standing permission mode (default, auto_edit, plan; yolo only from the command line).
    return [`permission setting: ${k.path}=${s}`, k.kind === 'mode' ? 'permission_mode' : 'permission_setting'];
  });
}

/** The rows of a parsed settings object, in the profile's key order, then the MCP servers. */
export function settingsLines(keys: readonly SettingKey[], s: Record<string, unknown>): Line[] {
  const out: Line[] = [];
  for (const k of keys) pushAll(out, keyLines(k, pick(s, k.path)));
  return out;
}

async function* parseSettings(a: Artifact, ctx: ParseContext, paths: FamilyPaths): AsyncGenerator<Row> {
  const r = await readJsonDoc(a, true);
  if (!r.ok) {
    yield r.row;
    return;
  }
  if (!isObject(r.value)) {
    yield makeRow('system', 'parser: unreadable file (expected a JSON object of settings, found another JSON value)', { timestamp_utc: a.mtime, tag: 'unreadable' });
    return;
  }
  const project_path = a.scope === 'project' ? (a.projectRoot ?? '') : '';
  const at = { timestamp_utc: a.mtime, project_path };
  for (const [text, tag] of settingsLines(paths.profile.settings, r.value)) yield makeRow('system', text, { ...at, tag });
  const scope = a.scope === 'home' ? 'user' : a.scope === 'project' ? 'project' : '';
  for (const server of mcpServersFromConfig(r.value, { scope, ...(project_path ? { project_path } : {}) }, ['mcpServers'])) {
    ctx.mcp(server);
    yield makeRow('system', `mcp server configured: ${server.name}`, { ...at, tag: 'mcp_setting' });
  }
}

/** settings.json at home, in a project's state directory and in the system directories. */
export function settingsParser(paths: FamilyPaths): Parser {
  const d = paths.profile.dir;
  return {
    agent: paths.profile.agent,
    name: 'settings',
    patterns: [`${d}/settings.json (home and project)`, ...paths.profile.systemDirs.map((s) => `${/^[A-Za-z]:/.test(s) ? '' : '/'}${s}/settings.json, system-defaults.json`)],
    wants: (rel) => paths.settings.test(rel),
    secondary: () => false,
    secondaryToleranceSeconds: () => 0,
    recordsSync: false,
    // Flagged for MCP env/headers and API keys: this parser prints the listed keys and server names only.
    readsSecretFile: (rel) => paths.settings.test(rel),
    parse: (a, ctx) => parseSettings(a, ctx, paths),
  };
}
