import type { Fields } from './types.js';

/** True for an MCP tool annotation that says the tool may destroy data (`destructiveHint`, as a boolean or its text). */
function destructive(a: unknown): boolean {
  const v = (a as Record<string, unknown> | undefined)?.destructiveHint;
  return v === true || v === 'true';
}

/** An inventory.json `mcp_servers[]` entry as the flat fields an `mcp_server` rule tests (lists joined by newlines). */
export function mcpFields(host: string, user: string, agent: string, entry: object): Fields {
  const e = entry as Readonly<Record<string, unknown>>;
  const list = (v: unknown) => (Array.isArray(v) ? v.map(String).join('\n') : '');
  const tools = Array.isArray(e.tools) ? (e.tools as { name?: unknown; annotations?: unknown }[]) : [];
  const s = (v: unknown) => (typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v));
  return {
    host,
    user,
    agent,
    name: s(e.name),
    scope: s(e.scope),
    project_path: s(e.project_path),
    transport: s(e.transport),
    command: s(e.command),
    args: list(e.args),
    url: s(e.url),
    env_keys: list(e.env_keys),
    header_keys: list(e.header_keys),
    disabled: e.disabled === true ? 'true' : 'false',
    file: s(e.file),
    line: typeof e.line === 'number' ? e.line : null,
    secrets: typeof e.secrets === 'number' ? e.secrets : 0,
    tools: tools.map((t) => s(t.name)).join('\n'),
    destructive_tools: tools
      .filter((t) => destructive(t.annotations))
      .map((t) => s(t.name))
      .join('\n'),
    failures_total: typeof e.failures_total === 'number' ? e.failures_total : 0,
  };
}
