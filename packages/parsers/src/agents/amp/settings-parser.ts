import { compactJson, jsonText } from '../../sdk/compact-json.js';
import { describeJson, isObject, type JsonObject } from '../../sdk/decode.js';
import { readJsonDocument } from '../../sdk/json-document.js';
import { type McpBase, mcpServerFromEntry } from '../../sdk/mcp.js';
import { makeRow } from '../../sdk/row.js';
import type { Artifact, ParseContext, Row } from '../../sdk/types.js';

/**
 * Amp's settings files: user `~/.config/amp/settings.json(c)`, workspace `.amp/settings.json(c)`
 * (project scope) and the managed `managed-settings.json` an administrator installs, as the
 * collector names system files (the absolute path without its leading `/`; a Windows drive kept).
 */
export const SETTINGS = /^(?:\.config\/amp\/settings\.jsonc?|\.amp\/settings\.jsonc?|(?:(?:private\/)?etc|Library\/Application Support|[a-z]:\/ProgramData)\/ampcode\/managed-settings\.json)$/i;

const MANAGED_NAME = /(?:^|\/)managed-settings\.json$/i;

/** How each standing-permission key is read: a flag, a list of rule objects, or a list of names. */
type Kind = 'flag' | 'rules' | 'names';

// The keys that decide what Amp may run without asking (the ampcode.com manual: permissions,
// MCP permissions, disabled tools; `amp.commands.allowlist` in older builds). Flat dotted keys,
// as Amp writes them: a nested `{"amp": {...}}` is not Amp's shape and is not read.
const PERMISSION_KEYS: readonly { key: string; kind: Kind }[] = [
  { key: 'amp.dangerouslyAllowAll', kind: 'flag' },
  { key: 'amp.permissions', kind: 'rules' },
  { key: 'amp.mcpPermissions', kind: 'rules' },
  { key: 'amp.tools.disable', kind: 'names' },
  { key: 'amp.commands.allowlist', kind: 'names' },
];

const EXPECTED: Record<Kind, string> = { flag: 'true or false', rules: 'a rule object', names: 'a name' };

// A value under such a key is a credential whatever it looks like: never printed.
const SECRET_KEY = /token|secret|passw(?:or)?d|api[-_]?key|access[-_]?key|auth|credential|bearer|cookie|session[-_]?key|^pat$|^env$|^headers$/i;
const MAX_DEPTH = 32;

/** A string from a rule with the credentials a pattern may carry replaced: URL user info, `Bearer`/`Basic` values, secret-named query values. */
export function scrubText(s: string): string {
  return s
    .replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^/\s@'"]+@/gi, '$1<redacted>@')
    .replace(/\b(bearer|basic)(\s+)[^\s'"]+/gi, '$1$2<redacted>')
    .replace(/([?&][^=&\s'"]*(?:token|key|secret|passw|sig|auth)[^=&\s'"]*=)[^&\s'"]+/gi, '$1<redacted>');
}

/** A rule value with secret-named keys' values replaced and every string scrubbed, cut at {@link MAX_DEPTH} levels (rules are shallow; a deep one is damage). */
export function redactValue(v: unknown, depth = 0): unknown {
  if (typeof v === 'string') return scrubText(v);
  if (v === null || typeof v !== 'object') return v;
  if (depth >= MAX_DEPTH) return '…(nested too deep)';
  if (Array.isArray(v)) return v.map((x) => redactValue(x, depth + 1));
  const out: JsonObject = {};
  for (const [k, x] of Object.entries(v)) out[k] = SECRET_KEY.test(k) ? '<redacted>' : redactValue(x, depth + 1);
  return out;
}

/** The `permission setting:` texts of one settings object (`managed.` before each key of a managed file), and what did not have the shape its key wants. */
export function permissionLines(cfg: JsonObject, managed: boolean): { lines: string[]; problems: string[] } {
  const lines: string[] = [];
  const problems: string[] = [];
  const prefix = managed ? 'managed.' : '';
  for (const { key, kind } of PERMISSION_KEYS) {
    const v = cfg[key];
    if (v === undefined || v === null) continue;
    const label = `permission setting: ${prefix}${key.replace(/^amp\./, '')}=`;
    if (kind === 'flag') {
      // Only `true` is a standing grant; `false` is Amp's default and says nothing an investigator acts on.
      if (v === true) lines.push(`${label}true`);
      else if (v !== false) problems.push(`expected ${key} to be ${EXPECTED[kind]}, found ${describeJson(v)}`);
      continue;
    }
    if (!Array.isArray(v)) {
      problems.push(`expected ${key} to be a list, found ${describeJson(v)}`);
      continue;
    }
    for (const [i, item] of v.entries()) {
      const fits = kind === 'rules' ? isObject(item) : typeof item === 'string';
      if (!fits) problems.push(`expected ${key} entry ${i + 1} to be ${EXPECTED[kind]}, found ${describeJson(item)}`);
      else lines.push(`${label}${typeof item === 'string' ? scrubText(item) : compactJson(redactValue(item))}`);
    }
  }
  return { lines, problems };
}

/** Where a file's servers belong: a managed file (by scope or name), a workspace file (project scope), else the user's. */
function mcpBase(a: Artifact): McpBase {
  if (a.scope === 'system' || MANAGED_NAME.test(a.rel)) return { scope: 'managed' };
  if (a.scope === 'project') return a.projectRoot ? { scope: 'project', project_path: a.projectRoot } : { scope: 'project' };
  return { scope: 'user' };
}

/**
 * A settings file: one `permission_setting` row per standing grant (`amp.dangerouslyAllowAll`
 * when true, each rule of `amp.permissions` and `amp.mcpPermissions`, each name of
 * `amp.tools.disable` and `amp.commands.allowlist`), then each `amp.mcpServers` entry to the
 * inventory with one `mcp_setting` row; all at the file's mtime. The file is secret: env and
 * header values go only to the server reports' `secrets`; no row or warning quotes a value.
 */
export async function* parseAmpSettings(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const r = await readJsonDocument(a, { secret: true, object: 'a JSON object of settings' });
  if (!r.ok) {
    yield r.row;
    return;
  }
  const cfg = r.value as JsonObject;
  const base = mcpBase(a);
  const managed = base.scope === 'managed';
  const at = { timestamp_utc: a.mtime, project_path: base.project_path ?? '' };
  const { lines, problems } = permissionLines(cfg, managed);
  for (const text of lines) yield makeRow('system', text, { ...at, tag: 'permission_setting' });
  const servers = cfg['amp.mcpServers'];
  if (servers !== undefined && servers !== null && !isObject(servers)) problems.push(`expected amp.mcpServers to be an object of servers by name, found ${describeJson(servers)}`);
  for (const [name, entry] of Object.entries(isObject(servers) ? servers : {})) {
    // The SDK reads a non-object entry as an empty server; a string there may be a pasted token.
    if (!isObject(entry)) {
      problems.push(`expected amp.mcpServers entry ${jsonText(name)} to be an object, found ${describeJson(entry)}`);
      continue;
    }
    const server = mcpServerFromEntry(name, entry, base);
    ctx.mcp(server);
    yield makeRow('system', `mcp server configured: ${name}${managed ? ' (managed)' : ''}${server.disabled ? ' (disabled)' : ''}`, { ...at, tag: 'mcp_setting' });
  }
  for (const p of problems) ctx.warn(`${a.rel}: ${p}`);
}
