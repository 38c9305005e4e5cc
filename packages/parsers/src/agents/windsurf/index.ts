/**
 * Windsurf (Cascade): its conversations are encrypted at rest (`cascade/<uuid>.pb`, three peers
 * agree: no readable strings), so its timeline is an inventory: one row per encrypted store, by
 * its name, size and time, never its bytes; and the Markdown Cascade and the user leave in the
 * clear: a conversation's plan (`brain/<uuid>/plan.md`), the global rules and workflows; and its
 * MCP servers (`mcp_config.json`, names only in rows).
 */
import { readSmall } from '../../sdk/small-file.js';
import { makeRow, unreadableRow } from '../../sdk/row.js';
import { decodeText } from '../../sdk/text-encoding.js';
import { editorOf } from '../../sdk/editors.js';
import { pathParser } from '../../sdk/path-parser.js';
import { MCP_CONFIG, parseMcpConfig } from './mcp-config.js';
import type { AgentPlugin, Artifact, Parser, Row } from '../../sdk/types.js';
import { parseAichat } from './aichat.js';

const HOME = String.raw`\.codeium/windsurf(?:-next)?`;
const PATHS = {
  encrypted: new RegExp(`^${HOME}/(cascade|implicit|memories|chat_state)/([^/]+)\\.pb$`),
  plan: new RegExp(`^${HOME}/brain/([^/]+)/plan\\.md$`),
  rules: new RegExp(`^${HOME}/(?:memories/global_rules\\.md|global_workflows/[^/]+\\.md)$`),
};

const at = (a: Artifact): Partial<Row> => (a.mtime ? { timestamp_utc: a.mtime, tag: 'time_file' } : {});

/** One row for an encrypted store: what it is, its size and time (the file's mtime). */
async function* parseEncrypted(a: Artifact): AsyncGenerator<Row> {
  const [, store, name] = PATHS.encrypted.exec(a.rel) ?? [];
  const what = store === 'cascade' ? `cascade conversation ${name}` : `windsurf ${store.replace('_', ' ')} ${name}`;
  yield makeRow('system', `${what}: encrypted, ${a.size} bytes (its content cannot be read)`, { session_id: store === 'cascade' ? name : '', source_line: null, ...at(a) });
}

async function text(a: Artifact): Promise<{ ok: true; text: string } | { ok: false; row: Row }> {
  try {
    const r = await readSmall(a.stream(), 16 * 1024 * 1024);
    return r.ok ? { ok: true, text: decodeText(r.buffer) } : { ok: false, row: unreadableRow(r.reason, at(a)) };
  } catch (e) {
    return { ok: false, row: unreadableRow(`could not read the file: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, at(a)) };
  }
}

/** A conversation's plan, in its session (the folder's uuid is the conversation's). */
async function* parsePlan(a: Artifact): AsyncGenerator<Row> {
  const r = await text(a);
  if (!r.ok) return yield r.row;
  yield makeRow('assistant', `plan:\n${r.text}`, { session_id: PATHS.plan.exec(a.rel)?.[1] ?? '', source_line: null, ...at(a) });
}

/** The global rules or a workflow: instructions every conversation is given. */
async function* parseRules(a: Artifact): AsyncGenerator<Row> {
  const r = await text(a);
  if (!r.ok) return yield r.row;
  yield makeRow('system', `${a.rel.includes('/global_workflows/') ? 'workflow' : 'global rules'} (${a.rel.split('/').pop()}):\n${r.text}`, { source_line: null, ...at(a), tag: 'rules' });
}

/** A workspace's `state.vscdb` in Windsurf's (or Windsurf Next's) editor folder, on any OS or remote server. */
const isWorkspaceDb = (rel: string): boolean => {
  const e = editorOf(rel);
  return (e?.id === 'windsurf' || e?.id === 'windsurf-next') && /^workspaceStorage\/[^/]+\/state\.vscdb$/.test(e.rest ?? '');
};

/** The older chat pane of a workspace's state.vscdb (its path is the editor table's, so not one expression). */
const aichatParser: Parser = {
  agent: 'windsurf',
  name: 'aichat',
  patterns: ['<Windsurf user folder>/workspaceStorage/<id>/state.vscdb (ItemTable chat pane keys)'],
  wants: isWorkspaceDb,
  secondary: () => false,
  secondaryToleranceSeconds: () => 0,
  recordsSync: false,
  parse: parseAichat,
};

/** Windsurf: its encrypted conversation stores as an inventory, its plans, rules, workflows and older chat pane, and its MCP servers. */
export const windsurfPlugin: AgentPlugin = {
  agent: 'windsurf',
  parsers: [
    pathParser('windsurf', 'encrypted-stores', ['~/.codeium/windsurf/{cascade,implicit,memories,chat_state}/*.pb'], PATHS.encrypted, parseEncrypted),
    pathParser('windsurf', 'plans', ['~/.codeium/windsurf/brain/<uuid>/plan.md'], PATHS.plan, parsePlan),
    pathParser('windsurf', 'rules', ['~/.codeium/windsurf/memories/global_rules.md', '~/.codeium/windsurf/global_workflows/*.md'], PATHS.rules, parseRules),
    // A secret file (env and header values in the clear): only server names and key names are read out.
    pathParser('windsurf', 'mcp-config', ['~/.codeium/windsurf/mcp_config.json', '~/.codeium/windsurf-next/mcp_config.json'], MCP_CONFIG, parseMcpConfig, { secret: true }),
    aichatParser,
  ],
};
