import type { Node, ParseError } from 'jsonc-parser';
import { isObject } from '../../sdk/decode.js';
import { type McpBase, mcpServersFromConfig } from '../../sdk/mcp.js';
import { unreadableRow } from '../../sdk/row.js';
import type { Artifact, ParseContext, Row } from '../../sdk/types.js';
import { completePart, copilotParser, describeJson, holdsEntries, readText } from './common.js';
import { COPILOT_PATTERNS } from './paths.js';
import { jsoncLib } from '../../sdk/libs.js';
import { lineIndex } from '../../sdk/line-index.js';

// Where each file keeps its servers: the MCP files every spelling (`mcpServers`, VS Code's
// `servers`...), the repository settings files only `mcpServers` and VS Code's `mcp.servers`
// (their other keys are settings, not servers).
const SETTINGS = /(?:^|\/)settings(?:\.local)?\.json$/;
const SETTINGS_CONTAINERS = ['mcpServers', 'mcp'] as const;
const ALL_CONTAINERS = ['mcpServers', 'servers', 'mcp_servers', 'mcp', 'context_servers'] as const;

/**
 * The MCP servers the Copilot CLI is configured with (issue 150 of the seed; issue 11): the
 * user's `mcp-config.json` (and the pre-migration copy under .config/.copilot) and a project's
 * `.mcp.json`, `.github/mcp.json`, `.github/copilot/settings.json` and `settings.local.json`.
 * Each server goes to inventory.json `mcp_servers[]` through `ctx.mcp` (scope user or project,
 * the project root, the line of its key): names of env and header keys only; their values go to
 * the report's `secrets`, which the analyzer turns into redacted credential findings. No rows:
 * a config has no time, and nothing of a secret file is ever printed, not even in an error.
 */
export const copilotMcpConfigParser = copilotParser({
  name: 'mcp-config',
  patterns: COPILOT_PATTERNS.mcpConfig,
  secondary: false,
  toleranceSeconds: 0,
  // Every one of these files is flagged secret (env and header values); only key names leave it.
  readsSecretFile: true,
  parse: parseMcpConfig,
});

async function* parseMcpConfig(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const t = await readText(a);
  if ('row' in t) {
    yield t.row;
    return;
  }
  let read: ReturnType<typeof readConfig>;
  try {
    read = readConfig(t.text, ctx);
  } catch (e) {
    // The tree reader recurses: a megabyte of `[` runs it out of stack.
    if (!(e instanceof RangeError)) throw e;
    read = { error: 'expected JSON {"mcpServers": {...}}, found JSON nested too deep to read' };
  }
  if ('error' in read) {
    yield unreadableRow(read.error);
    return;
  }
  if (!isObject(read.value)) {
    yield unreadableRow(`expected a JSON object with "mcpServers", found ${describeJson(read.value)}`);
    return;
  }
  const base: McpBase = a.scope === 'project' ? { scope: 'project', project_path: a.projectRoot ?? '' } : { scope: 'user' };
  const containers = SETTINGS.test(a.rel) ? SETTINGS_CONTAINERS : ALL_CONTAINERS;
  const lineOf = read.root === undefined ? undefined : serverLines(read.root, t.text, containers);
  for (const server of mcpServersFromConfig(read.value, base, containers)) {
    const line = lineOf?.(server.name);
    ctx.mcp(line === undefined ? server : { ...server, line });
  }
}

/**
 * The config's value: JSON, else JSON with comments, else (a file cut mid-write) the servers
 * complete before the first error, with a warning. Messages name the error kind and line, never
 * the text around it (this is a secret file).
 */
function readConfig(text: string, ctx: ParseContext): { value: unknown; root: Node | undefined } | { error: string } {
  if (text.trim() === '') return { error: 'expected JSON {"mcpServers": {...}}, found an empty file' };
  const errors: ParseError[] = [];
  const root = jsoncLib().parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  try {
    // JSON.parse keeps a `__proto__` key as a key; the tree reader is for comments and cut files.
    return { value: JSON.parse(text), root };
  } catch {
    // Not plain JSON: comments, trailing commas, or a cut.
  }
  if (errors.length === 0) return { value: jsoncLib().parse(text, [], { allowTrailingComma: true }), root };
  const line = text.slice(0, errors[0].offset).split('\n').length;
  const part = completePart(text);
  const why = `invalid JSON (${jsoncLib().printParseErrorCode(errors[0].error)}) at line ${line}`;
  // A salvage that kept no server at all says nothing: the file is unreadable, as it stands.
  if (part === undefined || !ALL_CONTAINERS.some((c) => holdsEntries(part.value, c))) return { error: `expected JSON {"mcpServers": {...}}, found ${why}` };
  ctx.warn(`MCP config is ${why}: the servers complete before it were read`, line);
  return { value: part.value, root };
}

/**
 * The 1-based line of a server's key (or list element), looked up in each container the file may
 * use. Each container's keys are indexed once: looked up by path for each server, a config of
 * 20,000 servers took minutes (every lookup walked the keys, every line count the text before it).
 */
function serverLines(root: Node, text: string, containers: readonly string[]): (name: string) => number | undefined {
  const { findNodeAtLocation } = jsoncLib();
  const lineOf = lineIndex(text);
  // Per container, in lookup order: its object's keys (the first of a repeated key, as a path
  // lookup finds it), `mcp.servers`'s for `mcp`, and its list when it is one (`#n` names).
  const tables = containers.map((c) => {
    const keys = (path: (string | number)[]) => {
      const m = new Map<string, Node>();
      const node = findNodeAtLocation(root, path);
      if (node?.type === 'object') for (const p of node.children ?? []) if (p.children?.length === 2 && !m.has(p.children[0].value)) m.set(p.children[0].value, p);
      return m;
    };
    const list = findNodeAtLocation(root, [c]);
    return { keys: keys([c]), servers: c === 'mcp' ? keys([c, 'servers']) : undefined, list: list?.type === 'array' ? list.children ?? [] : [] };
  });
  return (name) => {
    const index = /^#\d+$/.test(name) ? Number(name.slice(1)) - 1 : -1;
    for (const t of tables) {
      const node = t.keys.get(name) ?? t.servers?.get(name) ?? (index >= 0 ? t.list[index] : undefined);
      if (node) return lineOf(node.offset);
    }
    return undefined;
  };
}
