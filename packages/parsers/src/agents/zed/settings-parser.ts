import { asString, describeJson, isObject, type JsonObject } from '../../sdk/decode.js';
import { readJsonDocument } from '../../sdk/json-document.js';
import { mcpServerFromEntry } from '../../sdk/mcp.js';
import { pushAll } from '../../sdk/push-all.js';
import { makeRow } from '../../sdk/row.js';
import type { Artifact, ParseContext, Row } from '../../sdk/types.js';
import { safeUrl } from '../opencode/config-parser.js';

type Line = [text: string, tag: string];
const obj = (v: unknown): JsonObject => (isObject(v) ? v : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
// Only scalars are printed: a setting of an unexpected shape could hold anything, a token included.
const str = (v: unknown): string => asString(v) ?? '';

// The agent's LanguageModelSelection settings ({provider, model}), crates/settings_content/src/agent.rs.
const MODEL_KEYS = ['default_model', 'inline_assistant_model', 'commit_message_model', 'thread_summary_model'];
// A tool's rule lists (ToolRulesContent): regexes of inputs allowed, denied or always confirmed.
const RULE_LISTS = ['always_allow', 'always_deny', 'always_confirm'];
// Where a language_models provider block names its endpoint (language_model.rs: Bedrock says endpoint_url).
const ENDPOINT_KEYS = ['api_url', 'endpoint_url'];

/** `tool_permissions` (Zed 0.224+): the global default, then per tool its default and each rule's pattern. */
function toolPermissionLines(tp: JsonObject): Line[] {
  const out: Line[] = [];
  const line = (k: string, v: string): Line => [`permission setting: tool_permissions.${k}=${v}`, 'permission_setting'];
  if (str(tp.default)) out.push(line('default', str(tp.default)));
  for (const [tool, rules] of Object.entries(obj(tp.tools))) {
    const r = obj(rules);
    // The first tool_permissions builds spelled the per-tool default `default_mode`; a migration renamed it `default`.
    const mode = str(r.default) || str(r.default_mode);
    if (mode) out.push(line(`${tool}.default`, mode));
    for (const kind of RULE_LISTS) {
      for (const rule of list(r[kind])) {
        const pattern = asString(rule) ?? str(obj(rule).pattern);
        if (pattern) out.push(line(`${tool}.${kind}`, pattern));
      }
    }
  }
  return out;
}

/** A profile as `<id> name=<name> tools=<on,...> off=<off,...>` (AgentProfileContent: which tools the agent may call under it). */
function profileLine(id: string, p: JsonObject): Line {
  const tools = Object.entries(obj(p.tools));
  const on = tools.filter(([, v]) => v === true).map(([k]) => k);
  const off = tools.filter(([, v]) => v === false).map(([k]) => k);
  const parts = [`profile setting: profiles.${id}`, str(p.name) && `name=${str(p.name)}`, on.length > 0 && `tools=${on.join(',')}`, off.length > 0 && `off=${off.join(',')}`, p.enable_all_context_servers === true && 'all_context_servers'];
  return [parts.filter(Boolean).join(' '), 'setting'];
}

/**
 * The settings rows of a Zed settings.json an investigator needs: the agent's models, whether it
 * ran tools with no prompt (`always_allow_tool_actions`, `tool_permissions`), its profiles, the
 * permission modes of external agents it drives (`agent_servers.<name>.default_mode`), and the
 * language model endpoints (without credentials). Never an env, header, API key or extension setting.
 */
export function zedSettingsLines(c: JsonObject): Line[] {
  const out: Line[] = [];
  // Builds before the Agent Panel kept these under "assistant"; Zed migrates them to "agent".
  const agent = isObject(c.agent) ? c.agent : obj(c.assistant);
  for (const key of MODEL_KEYS) {
    const m = obj(agent[key]);
    if (str(m.provider) || str(m.model)) out.push([`model setting: ${key}=${str(m.provider)}/${str(m.model)}`, 'model_setting']);
  }
  // Only `true` is a standing grant; false is Zed's default.
  if (agent.always_allow_tool_actions === true) out.push(['permission setting: always_allow_tool_actions=true', 'permission_setting']);
  pushAll(out, toolPermissionLines(obj(agent.tool_permissions)));
  if (str(agent.default_profile)) out.push([`profile setting: default_profile=${str(agent.default_profile)}`, 'setting']);
  for (const [id, p] of Object.entries(obj(agent.profiles))) out.push(profileLine(id, obj(p)));
  for (const [name, s] of Object.entries(obj(c.agent_servers))) {
    const mode = str(obj(s).default_mode);
    if (mode) out.push([`permission setting: agent_servers.${name}.default_mode=${mode}`, 'permission_setting']);
  }
  const models = obj(c.language_models);
  // openai_compatible is a map of named providers, each with its own api_url.
  const providers = [...Object.entries(models).filter(([k]) => k !== 'openai_compatible'), ...Object.entries(obj(models.openai_compatible)).map(([k, v]): [string, unknown] => [`openai_compatible.${k}`, v])];
  for (const [id, p] of providers) {
    for (const key of ENDPOINT_KEYS) {
      const url = str(obj(p)[key]);
      if (url) out.push([`provider setting: language_models.${id}.${key}=${safeUrl(url)}`, 'provider_setting']);
    }
  }
  return out;
}

/**
 * A Zed settings.json, user (`~/.config/zed`, Flatpak, `%APPDATA%\Zed`) or project
 * (`.zed/settings.json`): its settings rows and one `mcp_setting` row per context server at the
 * file's mtime, each server to the inventory. The file is JSON with comments and may hold tokens
 * (server env and headers): errors never quote it.
 */
export async function* parseZedSettings(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const r = await readJsonDocument(a, { secret: true, object: 'a JSON object of Zed settings' });
  if (!r.ok) {
    yield r.row;
    return;
  }
  const c = r.value as JsonObject;
  const project_path = a.scope === 'project' ? (a.projectRoot ?? '') : '';
  const at = { timestamp_utc: a.mtime, project_path };
  for (const [text, tag] of zedSettingsLines(c)) yield makeRow('system', text, { ...at, tag });
  const servers = c.context_servers;
  if (servers === undefined || servers === null) return;
  if (!isObject(servers)) {
    yield makeRow('system', `parser: unreadable context_servers (expected an object of servers by name, found ${describeJson(servers)})`, { ...at, tag: 'bad_line' });
    return;
  }
  const base = a.scope === 'project' ? { scope: 'project' as const, project_path } : { scope: 'user' as const };
  for (const [name, entry] of Object.entries(servers)) {
    // The SDK would read a non-object entry as an empty server; a string there may be a pasted
    // token, so it is named by its kind only.
    if (!isObject(entry)) {
      ctx.unknown(`context server entry that is not an object (${name}: ${describeJson(entry)})`);
      continue;
    }
    const server = mcpServerFromEntry(name, entry, base);
    ctx.mcp(server);
    yield makeRow('system', `mcp server configured: ${name}${server.disabled ? ' (disabled)' : ''}`, { ...at, tag: 'mcp_setting' });
  }
}
