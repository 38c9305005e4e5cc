import { asString, isObject, type JsonObject } from './decode.js';
import type { McpServerReport } from './types.js';
import { jsonText, plainText } from './compact-json.js';
import { pushAll } from './push-all.js';

/** Where a config's servers belong: the fields every report of it shares. */
export interface McpBase {
  scope: McpServerReport['scope'];
  project_path?: string;
  line?: number;
}

// Every agent spells the same server a little differently; one table of aliases reads them all
// (Claude Code, Copilot, Cursor, Gemini, Qwen, Cline, Windsurf, Amazon Q: `mcpServers`; VS Code:
// `servers`; Codex TOML: `mcp_servers`; OpenCode and Crush: `mcp`; Zed: `context_servers`;
// Goose: `extensions`).
const CONTAINERS = ['mcpServers', 'servers', 'mcp_servers', 'mcp', 'context_servers', 'extensions'];
const COMMAND = ['command', 'cmd', 'path'];
const ARGS = ['args', 'arguments'];
const ENV = ['env', 'environment', 'envs'];
const URL_KEYS = ['url', 'httpUrl', 'serverUrl', 'uri', 'endpoint'];
const HEADERS = ['headers', 'http_headers', 'requestInit.headers'];
const TRANSPORT = ['type', 'transport', 'transportType'];

/** A value that names where a secret comes from (`${env:X}`, `${input:x}`, `$VAR`, `{env:X}`) is not itself one. */
const REFERENCE = /^\s*(?:\$\{[^}]+\}|\{(?:env|file):[^}]+\}|\$[A-Z_][A-Z0-9_]*|%[A-Z_][A-Z0-9_]*%)\s*$/i;
/** Argument or query names whose value is a credential. */
const SECRET_NAME = /(?:token|secret|passw(?:or)?d|api[-_]?key|access[-_]?key|auth|credential|bearer|\bpat\b|cookie|session[-_]?key)/i;

// Config files are plain JSON, YAML or TOML: a string is never decoded as a nested object here.
function obj(v: unknown): JsonObject | undefined {
  return isObject(v) ? v : undefined;
}

function list(v: unknown): unknown[] | undefined {
  return Array.isArray(v) ? v : undefined;
}

function first(o: JsonObject, keys: readonly string[]): unknown {
  for (const k of keys) {
    if (k.includes('.')) {
      const [a, b] = k.split('.');
      const inner = obj(o[a]);
      if (inner && inner[b] !== undefined) return inner[b];
    } else if (o[k] !== undefined && o[k] !== null) return o[k];
  }
  return undefined;
}

function strings(v: unknown): string[] {
  return (list(v) ?? []).map((x) => (typeof x === 'string' ? x : x === null || x === undefined ? '' : typeof x === 'object' ? jsonText(x) : String(x)));
}

/** Secret-looking parts of an argument list: the value after `--token`, the part after `--api-key=`. */
function argSecrets(args: string[]): { where: string; value: string }[] {
  const out: { where: string; value: string }[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const eq = /^(-{1,2}[^=\s]+)=(.+)$/.exec(a);
    if (eq && SECRET_NAME.test(eq[1]) && !REFERENCE.test(eq[2])) out.push({ where: `arg:${eq[1]}`, value: eq[2] });
    else if (/^-{1,2}\S+$/.test(a) && SECRET_NAME.test(a) && i + 1 < args.length && !args[i + 1].startsWith('-') && !REFERENCE.test(args[i + 1])) {
      out.push({ where: `arg:${a}`, value: args[i + 1] });
    }
  }
  return out;
}

/** A percent-decoded URL part, or the part as it is when its escapes are malformed (`%E0%A4%A`: decodeURIComponent throws). */
function decodeOr(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Credentials inside a URL: a password in its user part, secret-named query values. */
function urlSecrets(url: string): { where: string; value: string }[] {
  const out: { where: string; value: string }[] = [];
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return out;
  }
  if (u.password) out.push({ where: 'url:password', value: decodeOr(u.password) });
  for (const [k, v] of u.searchParams) if (SECRET_NAME.test(k) && v && !REFERENCE.test(v)) out.push({ where: `url:?${k}`, value: v });
  return out;
}

/**
 * Credentials in an extension server's `settings` (Zed: `{"source": "extension", "settings":
 * {"database_url": "postgres://user:pass@host/db"}}`): a secret-named key's value, and the
 * password or secret-named query values of a URL. Nested objects are looked into a few levels deep.
 */
function settingSecrets(settings: JsonObject | undefined, prefix = 'setting:', depth = 0): { where: string; value: string }[] {
  const out: { where: string; value: string }[] = [];
  if (!settings || depth > 4) return out;
  for (const [k, v] of Object.entries(settings)) {
    if (typeof v === 'string') {
      if (v && SECRET_NAME.test(k) && !REFERENCE.test(v)) out.push({ where: `${prefix}${k}`, value: v });
      else for (const u of urlSecrets(v)) out.push({ where: `${prefix}${k}:${u.where}`, value: u.value });
    } else if (obj(v)) pushAll(out, settingSecrets(obj(v), `${prefix}${k}.`, depth + 1));
  }
  return out;
}

/**
 * One server from its config entry, whatever the agent's spelling: names of env and header keys
 * are kept, their values go to `secrets` (never printed; the analyzer makes them credential
 * findings and redacts them). `command` given as an array (OpenCode) is split into command and args.
 */
export function mcpServerFromEntry(name: string, entry: unknown, base: McpBase): McpServerReport {
  const o = obj(entry) ?? {};
  let commandValue = first(o, COMMAND);
  // Zed nests the command: {command: {path, args, env}}.
  const nested = obj(commandValue);
  const src = nested ?? o;
  if (nested) commandValue = first(nested, COMMAND);
  let command = asString(commandValue) ?? '';
  let args = strings(first(src, ARGS));
  const cmdList = list(commandValue);
  if (cmdList) {
    const parts = strings(cmdList);
    command = parts[0] ?? '';
    args = [...parts.slice(1), ...args];
  }
  const env = obj(first(src, ENV)) ?? {};
  const headers = obj(first(o, HEADERS)) ?? {};
  const url = asString(first(o, URL_KEYS)) ?? '';
  let transport = asString(first(o, TRANSPORT)) ?? '';
  if (transport === 'local') transport = 'stdio';
  if (transport === 'remote') transport = url.startsWith('ws') ? 'ws' : 'http';
  if (!transport) transport = command ? 'stdio' : url ? (/\/sse\b/.test(url) ? 'sse' : 'http') : '';
  const disabled = o.disabled === true || o.enabled === false || o.disabled === 'true' || o.enabled === 'false';
  const secrets: { where: string; value: string }[] = [];
  for (const [k, v] of Object.entries(env)) {
    const value = typeof v === 'string' ? v : v === null || v === undefined ? '' : plainText(v);
    if (value && !REFERENCE.test(value)) secrets.push({ where: `env:${k}`, value });
  }
  for (const [k, v] of Object.entries(headers)) {
    const value = typeof v === 'string' ? v : v === null || v === undefined ? '' : plainText(v);
    if (value && !REFERENCE.test(value)) secrets.push({ where: `header:${k}`, value });
  }
  pushAll(secrets, argSecrets(args));
  pushAll(secrets, urlSecrets(url));
  pushAll(secrets, settingSecrets(obj(o.settings)));
  const r: McpServerReport = { name, scope: base.scope, transport };
  if (base.project_path) r.project_path = base.project_path;
  if (command) r.command = command;
  if (args.length > 0) r.args = args;
  if (url) r.url = url;
  const envKeys = Object.keys(env).sort();
  const headerKeys = Object.keys(headers).sort();
  if (envKeys.length > 0) r.env_keys = envKeys;
  if (headerKeys.length > 0) r.header_keys = headerKeys;
  if (disabled) r.disabled = true;
  if (secrets.length > 0) r.secrets = secrets;
  if (base.line !== undefined) r.line = base.line;
  return r;
}

/**
 * Every server of a parsed config object: the first container key it has (`mcpServers`,
 * `servers`, `mcp_servers`, `mcp`, `context_servers`, `extensions`, or `mcp.servers` as VS Code's
 * settings nest it), as a map of name → entry or a list of entries with a `name`.
 * `containers` narrows the keys looked at (a Goose config's `extensions` are MCP servers; a
 * VS Code settings file's are not).
 */
export function mcpServersFromConfig(config: unknown, base: McpBase, containers: readonly string[] = CONTAINERS): McpServerReport[] {
  const o = obj(config);
  if (!o) return [];
  for (const key of containers) {
    let c = o[key];
    const inner = obj(c);
    // VS Code settings: {"mcp": {"servers": {...}}}.
    if (inner && key === 'mcp' && obj(inner.servers)) c = inner.servers;
    const entries = list(c);
    if (entries) {
      return entries.flatMap((e, i) => {
        const eo = obj(e);
        const name = eo ? asString(eo.name) ?? '' : '';
        return eo ? [mcpServerFromEntry(name || `#${i + 1}`, eo, base)] : [];
      });
    }
    const map = obj(c);
    if (map) return Object.entries(map).map(([name, e]) => mcpServerFromEntry(name, e, base));
  }
  return [];
}
