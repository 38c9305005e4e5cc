import { compactJson } from '../../sdk/compact-json.js';
import { asArray, asObject, asString, isObject, type JsonObject } from '../../sdk/decode.js';
import { mcpServersFromConfig } from '../../sdk/mcp.js';
import { makeRow, unreadableRow } from '../../sdk/row.js';
import { readSmall } from '../../sdk/small-file.js';
import { decodeText } from '../../sdk/text-encoding.js';
import type { Artifact, McpServerReport, ParseContext, Parser, Row } from '../../sdk/types.js';
import { CONFIG_RE, HOOKS_RE, SYSTEM_CONFIG_RE } from './paths.js';
import { tomlLib } from '../../sdk/libs.js';
import { pushAll } from '../../sdk/push-all.js';

type Line = [text: string, tag: string, project?: string];

/** Keys that set the standing approval and sandbox policy, at the top level and in each profile. */
const POLICY_KEYS = ['approval_policy', 'sandbox_mode', 'approvals_reviewer', 'sandbox_workspace_write.network_access', 'sandbox_workspace_write.writable_roots', 'allowed_approval_policies', 'allowed_sandbox_modes'];

function at(o: JsonObject, path: string): unknown {
  let v: unknown = o;
  for (const k of path.split('.')) v = isObject(v) ? v[k] : undefined;
  return v;
}

const value = (v: unknown): string => (typeof v === 'string' ? v : compactJson(v));

function policyLines(prefix: string, o: JsonObject): Line[] {
  return POLICY_KEYS.flatMap((k): Line[] => (at(o, k) === undefined ? [] : [[`permission setting: ${prefix}${k}=${value(at(o, k))}`, 'permission_setting']]));
}

const SECRET_NAME = /token|secret|passw(?:or)?d|api[-_]?key|auth|credential|bearer|cookie/i;

/**
 * The notify program's argv with credential-looking values replaced: the value after a
 * secret-named flag, the value of `NAME=value` or `--name=value` with a secret-looking name, and
 * `Authorization:`/`Bearer` header values. The program and the other arguments are evidence.
 */
export function redactArgs(argv: unknown[]): unknown[] {
  return argv.map((a, i) => {
    if (typeof a !== 'string') return a;
    const prev = typeof argv[i - 1] === 'string' ? (argv[i - 1] as string) : '';
    if (/^-{1,2}\S+$/.test(prev) && SECRET_NAME.test(prev) && !a.startsWith('-')) return '<redacted>';
    const kv = /^(-{0,2}[^=\s]+)=(.+)$/.exec(a);
    if (kv && SECRET_NAME.test(kv[1])) return `${kv[1]}=<redacted>`;
    const header = /^((?:authorization|proxy-authorization|x-api-key)\s*:\s*)(.+)$/i.exec(a);
    if (header) return `${header[1]}<redacted>`;
    return /^bearer\s+\S+/i.test(a) ? 'Bearer <redacted>' : a;
  });
}

/** A provider's endpoint without user info or query (either can carry a key). */
function safeUrl(u: string): string {
  try {
    const x = new URL(u);
    return `${x.protocol}//${x.host}${x.pathname}`;
  } catch {
    return '(not a URL)';
  }
}

/** The rows a parsed config.toml gives, in the file's order of concerns: trust, policy, providers, notify, retention. */
export function configLines(cfg: JsonObject): Line[] {
  const out: Line[] = [];
  for (const [path, entry] of Object.entries(asObject(cfg.projects) ?? {})) {
    const trust = asObject(entry)?.trust_level;
    // The text keeps the key as written; the project is the path without Windows' verbatim prefix
    // (`\\?\C:\x`, Codex's canonical form on Windows), the form a cwd is recorded in.
    if (trust !== undefined) out.push([`permission setting: projects.${path}.trust_level=${value(trust)}`, 'permission_setting', path.replace(/^\\\\\?\\(?=[A-Za-z]:)/, '')]);
  }
  pushAll(out, policyLines('', cfg));
  for (const [name, p] of Object.entries(asObject(cfg.profiles) ?? {})) if (isObject(p)) pushAll(out, policyLines(`profiles.${name}.`, p));
  const provider = asString(cfg.model_provider);
  if (provider) out.push([`provider setting: model_provider=${provider}`, 'provider_setting']);
  for (const [id, p] of Object.entries(asObject(cfg.model_providers) ?? {})) {
    const o = asObject(p) ?? {};
    const url = asString(o.base_url);
    const parts = [url ? `base_url=${safeUrl(url)}` : '', asString(o.env_key) ? `env_key=${asString(o.env_key)}` : '', asString(o.wire_api) ? `wire_api=${asString(o.wire_api)}` : ''].filter(Boolean);
    out.push([`provider setting: model_providers.${id} ${parts.join(' ')}`.trimEnd(), 'provider_setting']);
  }
  const notify = asArray(cfg.notify);
  if (notify && notify.length > 0) out.push([`hook setting: notify command=${compactJson(redactArgs(notify))}`, 'hook_setting']);
  const persistence = asString(at(cfg, 'history.persistence'));
  if (persistence) out.push([`retention setting: history.persistence=${persistence}`, 'retention_setting']);
  return out;
}

/**
 * The MCP servers of a config: `mcp_servers.<name>` as the SDK reads every agent's, plus Codex's
 * own keys: `env_http_headers` (header names, valued by environment variables) and an inline
 * `bearer_token` (older builds accepted it: a credential, kept out of every output).
 */
export function codexMcpServers(cfg: JsonObject, base: { scope: 'user' | 'project' | 'managed'; project_path?: string }): McpServerReport[] {
  const entries = asObject(cfg.mcp_servers) ?? {};
  return mcpServersFromConfig(cfg, base, ['mcp_servers']).map((r) => {
    const e = asObject(entries[r.name]) ?? {};
    const headerKeys = new Set([...(r.header_keys ?? []), ...Object.keys(asObject(e.env_http_headers) ?? {})]);
    const bearer = asString(e.bearer_token) ?? asString(e.experimental_bearer_token);
    if (bearer) headerKeys.add('Authorization');
    const out: McpServerReport = { ...r };
    if (headerKeys.size > 0) out.header_keys = [...headerKeys].sort();
    if (bearer) out.secrets = [...(r.secrets ?? []), { where: 'bearer_token', value: bearer }];
    if (!r.transport && asString(e.url)) out.transport = 'http';
    return out;
  });
}

/** A config file parsed, or the unreadable row; a TOML error says where, never what (the file may hold tokens). */
async function readToml(a: Artifact): Promise<{ ok: true; value: JsonObject } | { ok: false; row: Row }> {
  const r = await readSmall(a.stream(), 16 * 1024 * 1024);
  if (!r.ok) return { ok: false, row: unreadableRow(r.reason, { timestamp_utc: a.mtime }) };
  try {
    return { ok: true, value: tomlLib().parse(decodeText(r.buffer)) as JsonObject };
  } catch (e) {
    const where = e instanceof tomlLib().TomlError ? ` at line ${e.line}, column ${e.column}` : '';
    return { ok: false, row: unreadableRow(`expected TOML, found a syntax error${where}; the message is not printed: the file may hold credentials. Fix or inspect the file by hand`, { timestamp_utc: a.mtime }) };
  }
}

async function* parseConfig(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const r = await readToml(a);
  if (!r.ok) {
    yield r.row;
    return;
  }
  const project = a.scope === 'project' ? (a.projectRoot ?? '') : '';
  const managed = a.scope === 'system';
  for (const s of codexMcpServers(r.value, project ? { scope: 'project', project_path: project } : { scope: managed ? 'managed' : 'user' })) ctx.mcp(s);
  for (const [text, tag, path] of configLines(r.value)) {
    // An administrator's file (/etc/codex) says so: its settings bind every user of the machine.
    const t = managed ? text.replace(/^(\w+ setting: )/, '$1managed.') : text;
    yield makeRow('system', t, { timestamp_utc: a.mtime, project_path: path ?? project, tag });
  }
}

async function* parseHooks(a: Artifact): AsyncGenerator<Row> {
  const r = await readSmall(a.stream(), 16 * 1024 * 1024);
  let v: unknown;
  try {
    v = r.ok ? JSON.parse(decodeText(r.buffer)) : undefined;
  } catch {
    v = undefined;
  }
  if (!isObject(v)) {
    yield unreadableRow(r.ok ? 'expected a JSON object {hooks: {...}}, found invalid JSON or another value' : r.reason, { timestamp_utc: a.mtime });
    return;
  }
  for (const [event, groups] of Object.entries(asObject(v.hooks) ?? {})) {
    for (const g of asArray(groups) ?? []) {
      const matcher = asString(asObject(g)?.matcher) || '-';
      for (const h of asArray(asObject(g)?.hooks) ?? []) {
        const command = asString(asObject(h)?.command);
        const what = command !== undefined ? `command=${command}` : `type=${asString(asObject(h)?.type) ?? '-'}`;
        yield makeRow('system', `hook setting: ${event} matcher=${matcher} ${what}`, { timestamp_utc: a.mtime, tag: 'hook_setting' });
      }
    }
  }
}

/** config.toml (and its backups, and a project's .codex/config.toml) and hooks.json: standing settings and MCP servers. */
export const configParser: Parser = {
  agent: 'codex-cli',
  name: 'config',
  patterns: ['<codex>/config.toml', '<codex>/config.toml.backup*', '<project>/.codex/config.toml', '/etc/codex/config.toml', '/etc/codex/requirements.toml', '<codex>/hooks.json'],
  wants: (rel) => CONFIG_RE.test(rel) || SYSTEM_CONFIG_RE.test(rel) || HOOKS_RE.test(rel),
  secondary: () => false,
  secondaryToleranceSeconds: () => 0,
  recordsSync: false,
  // Flagged for MCP env values, headers and provider keys: this parser prints key names,
  // trust levels and policies only; values go to the MCP report's secrets.
  readsSecretFile: (rel) => CONFIG_RE.test(rel) || SYSTEM_CONFIG_RE.test(rel),
  parse: (a, ctx) => (HOOKS_RE.test(a.rel) ? parseHooks(a) : parseConfig(a, ctx)),
};
