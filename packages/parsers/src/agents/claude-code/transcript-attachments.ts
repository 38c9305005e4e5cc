import { compactJson } from '../../sdk/compact-json.js';
import { asArray, asBool, asObject, asString, isObject, type JsonObject } from '../../sdk/decode.js';
import { toUtc } from '../../sdk/timestamp.js';
import { blocksText } from './content-text.js';
import { promptSnapshot } from './transcript-requests.js';
import type { Draft, Outcome, TranscriptState } from './transcript-state.js';

type Handler = (st: TranscriptState, att: JsonObject, v: JsonObject, line: number) => Outcome;

// Attachments that carry nothing an investigator needs beyond the rows around them: context
// Claude Code re-injects for the model every turn (skills, dates, reminders), seen in real files or
// named by the spec. A type in neither this table nor the handlers is reported as unknown.
const SKIPPED: Record<string, string> = {
  skill_listing: 'skill listing',
  auto_mode: 'auto mode reminder',
  date: 'date reminder',
  model: 'model identity (the request gives the model row)',
  task_reminder: 'task reminder',
  todo_reminder: 'todo reminder',
  plan_mode: 'plan mode reminder',
  plan_mode_exit: 'plan mode reminder',
  critical_system_reminder: 'system reminder',
  invoked_skills: 'invoked skills reminder',
};

/** A row once per distinct text of a kind within the file (these attachments repeat after compaction). */
function once(st: TranscriptState, kind: string, draft: Draft): Outcome {
  if (st.lastMeta.get(kind) === draft.text) return `${kind} repeated`;
  st.lastMeta.set(kind, draft.text);
  return [draft];
}

function names(v: unknown): string[] {
  return (asArray(v) ?? []).map((x) => (isObject(x) ? asString(x.name) : asString(x))).filter((x): x is string => !!x);
}

function dirs(v: unknown): string[] {
  return (asArray(v) ?? []).map((x) => (isObject(x) ? asString(x.path) : asString(x))).filter((x): x is string => !!x);
}

const queuedCommand: Handler = (_st, att, v) => {
  const prompt = blocksText(att.prompt);
  const kind = asString(asObject(att.origin)?.kind);
  if (asBool(att.isMeta) === true || asBool(v.isMeta) === true || kind) return [{ turn: 'system', text: `queued ${kind ?? 'meta'}: ${prompt}` }];
  if (prompt.trimStart().startsWith('<task-notification>')) return [{ turn: 'system', text: `task notification: ${prompt}` }];
  return [{ turn: 'user', text: prompt }];
};

const hook: Handler = (st, att) => {
  const type = asString(att.type) ?? '';
  const id = asString(att.toolUseID) ?? '';
  const event = asString(att.hookEvent);
  const body = compactJson(Object.fromEntries(Object.entries(att).filter(([k]) => k !== 'type')));
  return [{ turn: 'system', text: `hook ${event ? `${event} ` : ''}${type}: ${body}`, tool_use_id: id, tool_name: id ? (st.toolNames.get(id) ?? '') : '' }];
};

const contextFile: Handler = (_st, att) => {
  const filePath = asObject(asObject(att.content)?.file)?.filePath;
  const file = asString(att.filename) ?? asString(att.path) ?? asString(filePath) ?? asString(att.displayPath) ?? '';
  return [{ turn: 'system', text: `context file: ${file}` }];
};

/**
 * `deferred_tools_delta`: tools offered on demand (MCP tools among them) came or went, and MCP
 * servers still pending, needing auth or failed. One row per distinct change; each failed server
 * once per file as an `mcp_failure` row and an inventory failure.
 */
const deferredTools: Handler = (st, att, v, line) => {
  const added = names(att.addedNames);
  const removed = names(att.removedNames);
  const readded = names(att.readdedNames);
  for (const n of [...added, ...readded]) st.mcpTool(n);
  const parts: string[] = [];
  if (added.length > 0) parts.push(added.map((n) => `+${n}`).join(', '));
  if (removed.length > 0) parts.push(`removed: ${removed.join(', ')}`);
  if (readded.length > 0) parts.push(`readded: ${readded.join(', ')}`);
  const pending = names(att.pendingMcpServers);
  const auth = names(att.needsAuthMcpServers);
  if (pending.length > 0) parts.push(`MCP pending: ${pending.join(', ')}`);
  if (auth.length > 0) parts.push(`MCP needs auth: ${auth.join(', ')}`);
  const ts = toUtc(v.timestamp);
  const rows: Draft[] = [];
  if (parts.length > 0) {
    const text = `tools offered (deferred): ${parts.join('; ')}`;
    if (st.lastMeta.get('deferred-tools') !== text) {
      st.lastMeta.set('deferred-tools', text);
      rows.push({ turn: 'system', text, tag: 'tools_offered' });
    }
  }
  for (const f of asArray(att.failedMcpServers) ?? []) {
    const name = isObject(f) ? (asString(f.name) ?? '') : (asString(f) ?? '');
    if (!name) continue;
    const code = isObject(f) ? asString(f.errorCode) : undefined;
    const error = isObject(f) ? (asString(f.error) ?? '') : '';
    const message = code && !error.startsWith(code) ? `${code}: ${error}` : error || code || 'failed';
    const key = `${name}\u0000${message}`;
    if (st.mcpFailures.has(key)) continue;
    st.mcpFailures.add(key);
    rows.push({ turn: 'system', text: `mcp server ${name} failed: ${message}`, tag: 'mcp_failure' });
    st.ctx.mcp({ name, scope: '', failure: { timestamp_utc: ts, message }, line });
  }
  if (rows.length > 0) return rows;
  return parts.length === 0 && !asArray(att.failedMcpServers)?.length ? 'deferred tools delta without a change' : 'deferred tools delta repeated';
};

/** `agent_listing_delta`: subagent types offered; a row only for types that are not built in. */
const agentListing: Handler = (st, att) => {
  const builtIn = new Set([...names(att.builtInTypes), ...names(att.builtInPluginTypes)]);
  const added = names(att.addedTypes).filter((t) => !builtIn.has(t));
  const removed = names(att.removedTypes).filter((t) => !builtIn.has(t));
  if (added.length === 0 && removed.length === 0) return 'agent listing (built-in types only)';
  const parts = [...added.map((t) => `+${t}`), ...removed.map((t) => `-${t}`)];
  return once(st, 'agent-types', { turn: 'system', text: `agent types offered: ${parts.join(', ')}`, tag: 'tools_offered' });
};

/** `environment`: the machine and directories the session ran in, as told to the model. */
const environment: Handler = (st, att) => {
  const s = asObject(att.snapshot);
  if (!s) return 'environment without a snapshot';
  const yes = (x: unknown) => (asBool(x) === undefined ? undefined : asBool(x) ? 'yes' : 'no');
  const pairs: [string, string | undefined][] = [
    ['cwd', asString(s.workingDirectory)],
    ['platform', asString(s.platform)],
    ['shell', asString(s.shell)],
    ['os', asString(s.osVersion)],
    ['git', yes(s.isGitRepo)],
    ['worktree', yes(s.isWorktree)],
    ['additional_dirs', dirs(s.additionalWorkingDirectories).join(', ') || undefined],
  ];
  const text = pairs
    .filter(([, val]) => val !== undefined && val !== '')
    .map(([k, val]) => `${k}=${val}`)
    .join(' ');
  if (!text) return 'environment without a known key';
  return once(st, 'environment', { turn: 'system', text: `environment: ${text}`, tag: 'environment' });
};

/** `session_context`: what Claude Code told the model about the workspace at start (git status, branch, recent commits). */
const sessionContext: Handler = (st, att) => {
  const c = asObject(att.context);
  if (!c || Object.keys(c).length === 0) return 'session context without content';
  const body = Object.entries(c)
    .map(([k, val]) => `${k}: ${typeof val === 'string' ? val : compactJson(val)}`)
    .join('\n');
  return once(st, 'session-context', { turn: 'system', text: `session context: ${body}`, tag: 'session_context' });
};

/** `remote_session_change`: a row when it links a remote (web) session; otherwise only commit attribution texts. */
const remoteSession: Handler = (st, att) => {
  const url = asString(att.url);
  if (!url) return 'remote session change without a url (commit attribution only)';
  return once(st, 'remote-session', { turn: 'system', text: `remote session: ${url}`, tag: 'remote_session' });
};

const HANDLERS: Record<string, Handler> = {
  queued_command: queuedCommand,
  file: contextFile,
  nested_memory: contextFile,
  deferred_tools_delta: deferredTools,
  agent_listing_delta: agentListing,
  environment,
  session_context: sessionContext,
  remote_session_change: remoteSession,
  prompt_snapshot: (st, att, v, line) => promptSnapshot(st, att, toUtc(v.timestamp), line),
};

/** Rows for an `attachment` line, a counted skip, or an unknown subtype reported to the context. */
export function attachmentLine(st: TranscriptState, v: JsonObject, line: number): Outcome {
  const att = asObject(v.attachment);
  if (!att) return 'attachment without body';
  const type = asString(att.type) ?? '';
  const handler = HANDLERS[type] ?? (type.startsWith('hook_') ? hook : undefined);
  if (handler) return handler(st, att, v, line);
  const skip = SKIPPED[type];
  if (skip) return skip;
  st.ctx.unknown(`attachment ${type || '(no type)'}`, line);
  return `unknown attachment ${type || '(no type)'}`;
}
