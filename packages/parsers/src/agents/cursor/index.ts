import type { AgentPlugin, Artifact, ParseContext, Parser, Row } from '../../sdk/types.js';
import { parseAiTracking } from './ai-tracking.js';
import { parseCliStore } from './cli-store.js';
import { parseGlobalDb } from './global-db.js';
import { parseMcpCache, parseMcpConfig, parseMcpDescriptor } from './mcp.js';
import { type CursorFile, cursorFileOf } from './paths.js';
import { parseCliConfig, parseHooks, parseMcpApprovals, parsePermissions, parseWorkspaceTrusted } from './settings.js';
import { parsePromptHistory, parseTerminal } from './small-files.js';
import { parseTranscript } from './transcripts.js';
import { parseWorkspaceDb, parseWorkspaceJson } from './workspace-db.js';

/** How far in time a secondary row may be from the primary row it repeats, per file kind (docs/agents/cursor.md). */
export const TOLERANCE_SECONDS: Partial<Record<CursorFile, number>> = {
  'global-db-backup': 60,
  'workspace-db': 3600,
  'workspace-db-backup': 3600,
  transcript: 3600,
  'prompt-history': 0,
  'ai-tracking': 3600,
};

interface Spec {
  name: string;
  kinds: readonly CursorFile[];
  patterns: readonly string[];
  /** Flagged files this parser reads for their non-credential fields only. */
  secret?: readonly CursorFile[];
  parse(a: Artifact, ctx: ParseContext): AsyncIterable<Row>;
}

const CU = '<Cursor data folder>/User';
const SPECS: readonly Spec[] = [
  { name: 'state-db', kinds: ['global-db', 'global-db-backup'], patterns: [`${CU}/globalStorage/state.vscdb`, `${CU}/globalStorage/state.vscdb.backup`], secret: ['global-db', 'global-db-backup'], parse: parseGlobalDb },
  { name: 'workspace-db', kinds: ['workspace-db', 'workspace-db-backup'], patterns: [`${CU}/workspaceStorage/<id>/state.vscdb`, `${CU}/workspaceStorage/<id>/state.vscdb.backup`], secret: ['workspace-db', 'workspace-db-backup'], parse: parseWorkspaceDb },
  { name: 'workspace-json', kinds: ['workspace-json'], patterns: [`${CU}/workspaceStorage/<id>/workspace.json`], parse: (a) => parseWorkspaceJson(a) },
  { name: 'cli-store', kinds: ['cli-store'], patterns: ['.cursor/chats/<md5 of cwd>/<agent id>/store.db', '.config/cursor/chats/...'], parse: parseCliStore },
  { name: 'transcripts', kinds: ['transcript'], patterns: ['.cursor/projects/<slug>/agent-transcripts/<id>.{txt,jsonl,json}', '.../agent-transcripts/<id>/<id>.jsonl', '.../agent-transcripts/<id>/subagents/<id>.jsonl'], parse: parseTranscript },
  { name: 'prompt-history', kinds: ['prompt-history'], patterns: ['.cursor/prompt_history.json', '.config/cursor/prompt_history.json'], parse: (a) => parsePromptHistory(a) },
  { name: 'ai-tracking', kinds: ['ai-tracking'], patterns: ['.cursor/ai-tracking/ai-code-tracking.db'], parse: parseAiTracking },
  { name: 'cli-config', kinds: ['cli-config'], patterns: ['.cursor/cli-config.json', '.config/cursor/cli-config.json'], secret: ['cli-config'], parse: (a) => parseCliConfig(a) },
  { name: 'permissions', kinds: ['permissions'], patterns: ['.cursor/permissions.json'], parse: (a) => parsePermissions(a) },
  { name: 'mcp-config', kinds: ['mcp-config'], patterns: ['.cursor/mcp.json (user and project)'], secret: ['mcp-config'], parse: parseMcpConfig },
  { name: 'mcp-approvals', kinds: ['mcp-approvals'], patterns: ['.cursor/projects/<slug>/mcp-approvals.json'], parse: (a) => parseMcpApprovals(a) },
  { name: 'workspace-trusted', kinds: ['workspace-trusted'], patterns: ['.cursor/projects/<slug>/.workspace-trusted'], parse: (a) => parseWorkspaceTrusted(a) },
  { name: 'mcp-cache', kinds: ['mcp-cache', 'mcp-descriptor'], patterns: ['.cursor/projects/<slug>/mcp-cache.json', '.cursor/projects/<slug>/mcps/<server>/tools/<tool>.json'], parse: (a, ctx) => (cursorFileOf(a.rel) === 'mcp-cache' ? parseMcpCache(a, ctx) : parseMcpDescriptor(a, ctx)) },
  { name: 'hooks', kinds: ['hooks'], patterns: ['.cursor/hooks.json (user and project)', '/etc/cursor/hooks.json', '/Library/Application Support/Cursor/hooks.json', 'C:/ProgramData/Cursor/hooks.json'], parse: (a) => parseHooks(a) },
  { name: 'terminals', kinds: ['terminal'], patterns: ['.cursor/projects/<slug>/terminals/<n>.txt'], parse: (a) => parseTerminal(a) },
];

function toParser(s: Spec): Parser {
  const kind = (rel: string) => cursorFileOf(rel);
  return {
    agent: 'cursor',
    name: s.name,
    patterns: s.patterns,
    wants: (rel) => {
      const k = kind(rel);
      return k !== undefined && s.kinds.includes(k);
    },
    secondary: (rel) => TOLERANCE_SECONDS[kind(rel) as CursorFile] !== undefined,
    secondaryToleranceSeconds: (rel) => TOLERANCE_SECONDS[kind(rel) as CursorFile] ?? 0,
    recordsSync: false,
    readsSecretFile: (rel) => {
      const k = kind(rel);
      return k !== undefined && (s.secret ?? []).includes(k);
    },
    parse: s.parse,
  };
}

/** Every Cursor parser, one per file kind family. */
export const cursorParsers: readonly Parser[] = SPECS.map(toParser);

/** Cursor: the IDE's state databases, agent transcripts, the cursor-agent CLI's stores, AI-code tracking, permissions, MCP and hooks. */
export const cursorPlugin: AgentPlugin = { agent: 'cursor', parsers: [...cursorParsers] };
