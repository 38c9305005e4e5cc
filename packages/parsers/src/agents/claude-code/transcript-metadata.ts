import { asBool, asNumber, asObject, asString, isObject, type JsonObject } from '../../sdk/decode.js';
import { toUtc } from '../../sdk/timestamp.js';
import { apiRequest, costState, requestShape } from './transcript-requests.js';
import type { Outcome, TranscriptState } from './transcript-state.js';

type Handler = (st: TranscriptState, v: JsonObject) => Outcome;

// Metadata records repeat by design (rewritten after every turn): each kind gives a row the
// first time and when its value changes, never on a repeat.
function changed(st: TranscriptState, kind: string, value: string): boolean {
  if (st.lastMeta.get(kind) === value) return false;
  st.lastMeta.set(kind, value);
  return true;
}

function simple(kind: string, key: string, label: string): Handler {
  return (st, v) => {
    const value = asString(v[key]);
    if (value === undefined || value === '') return `${kind} without ${key}`;
    if (!changed(st, kind, value)) return `${kind} repeated`;
    return [{ turn: 'system', text: `${label}: ${value}` }];
  };
}

const permissionMode: Handler = (st, v) => {
  const mode = asString(v.permissionMode) ?? '';
  if (!mode) return 'permission-mode without a mode';
  if (mode === st.permissionMode) return 'permission mode repeated';
  const text = st.permissionMode ? `permission mode: ${st.permissionMode} -> ${mode}` : `permission mode: ${mode}`;
  st.permissionMode = mode;
  return [{ turn: 'system', text, tag: 'permission_mode' }];
};

function title(custom: boolean): Handler {
  return (st, v) => {
    const name = asString(custom ? v.customTitle : v.aiTitle) ?? '';
    if (!name) return 'title record without a title';
    // A name the user gave (/rename) wins over the AI titles written after it.
    if (!custom && st.customTitleSet) return 'ai-title after a custom title';
    if (custom) st.customTitleSet = true;
    if (!st.sidechain) st.fact('name', name, custom ? 1 : 2);
    if (name === st.sessionName) return 'session name repeated';
    st.sessionName = name;
    return [{ turn: 'system', text: `session name: ${name}`, tag: 'session_name' }];
  };
}

const summary: Handler = (st, v) => {
  const text = asString(v.summary) ?? '';
  if (!text) return 'summary without text';
  // A summary often heads a later file and names an earlier session's leaf: it names this
  // session only when its leaf is a line of this file.
  const leaf = asString(v.leafUuid);
  if (leaf && st.seenUuids.has(leaf) && !st.sidechain) st.fact('name', text, 3);
  if (st.summaries.has(text)) return 'summary repeated';
  st.summaries.add(text);
  return [{ turn: 'system', text: `summary: ${text}`, tag: 'summary' }];
};

const snapshot: Handler = (st, v) => {
  const snap = asObject(v.snapshot);
  const backups = asObject(snap?.trackedFileBackups);
  if (!backups || Object.keys(backups).length === 0) return 'file-history-snapshot with no tracked file';
  const entries = Object.keys(backups)
    .sort()
    .map((path) => {
      const b = isObject(backups[path]) ? backups[path] : {};
      const name = asString(b.backupFileName);
      return `${path}=${name ?? `new@v${asNumber(b.version) ?? ''}`}`;
    });
  const text = `file snapshot: ${entries.join('; ')}`;
  if (!changed(st, 'file-history-snapshot', text)) return 'file snapshot repeated';
  const ts = toUtc(snap?.timestamp);
  return [{ turn: 'system', text, tag: 'file_snapshot', ...(ts ? { ts } : {}) }];
};

const lastPrompt: Handler = (st, v) => {
  if (asBool(v.rewound) !== true) return 'last-prompt';
  const text = `rewind: cut at ${asString(v.cutUuid) ?? ''}`;
  if (!changed(st, 'rewind', text)) return 'rewind repeated';
  return [{ turn: 'system', text, tag: 'rewind' }];
};

const worktree: Handler = (st, v) => {
  const w = asObject(v.worktreeSession);
  const path = asString(w?.worktreePath);
  if (!path) return 'worktree-state without a worktree';
  const branch = asString(w?.worktreeBranch);
  const text = `worktree: ${path}${branch ? ` branch=${branch}` : ''}`;
  if (!changed(st, 'worktree-state', text)) return 'worktree-state repeated';
  // As for Copilot's scratch rows, project_path is the scratch directory itself, so the
  // inventory lists it under scratch_directories rather than as the session's project.
  return [{ turn: 'system', text, tag: 'scratch_directory', project: path }];
};

const relocated: Handler = (st, v) => {
  const cwd = asString(v.relocatedCwd) ?? '';
  if (!cwd) return 'relocated without a cwd';
  st.cwd = cwd;
  st.fact('cwd', cwd, st.sidechain ? 4 : 1, undefined, st.time);
  if (!changed(st, 'relocated', cwd)) return 'relocated repeated';
  return [{ turn: 'system', text: `cwd relocated: ${cwd}` }];
};

const continuedIn: Handler = (st, v) => {
  const next = asString(v.continuedInSessionId);
  if (!next) return 'continued-in without a session';
  if (!changed(st, 'continued-in', next)) return 'continued-in repeated';
  const ts = toUtc(v.timestamp);
  return [{ turn: 'system', text: `continued in session ${next}`, ...(ts ? { ts } : {}) }];
};

const endedByModel: Handler = (st, v) => {
  if (!changed(st, 'ended-by-model', toUtc(v.timestamp) || 'yes')) return 'ended-by-model repeated';
  const ts = toUtc(v.timestamp);
  return [{ turn: 'system', text: 'session ended by the model', ...(ts ? { ts } : {}) }];
};

/** Handlers for the metadata (non-chain) record types, by `type`; the caller counts the others. */
export const metadataHandlers: Record<string, Handler> = {
  'permission-mode': permissionMode,
  'ai-title': title(false),
  'custom-title': title(true),
  summary,
  'file-history-snapshot': snapshot,
  'last-prompt': lastPrompt,
  'worktree-state': worktree,
  'pr-link': simple('pr-link', 'prUrl', 'pull request'),
  relocated,
  tag: simple('tag', 'tag', 'tag'),
  'agent-name': simple('agent-name', 'agentName', 'agent name'),
  mode: simple('mode', 'mode', 'mode'),
  'api-request-shape': requestShape,
  'api-request': apiRequest,
  'cost-state': costState,
  'continued-in': continuedIn,
  'ended-by-model': endedByModel,
};

/**
 * Record kinds skipped on purpose, with why: request plumbing and bookkeeping that Claude Code's
 * own loader keeps for resumes (the 2.1.332 loader's list, spec "Metadata records"). Not unknown;
 * a kind in neither table is reported through `ctx.unknown`.
 */
export const skippedKinds: Record<string, string> = {
  'api-request-blob': 'request message blob (the conversation as sent; counted, not repeated)',
  'api-request-resumed': 'request bookkeeping',
  'atis-latch': 'request latch (plumbing)',
  'attribution-snapshot': 'bookkeeping record',
  'content-replacement': 'bookkeeping record',
  'tools-used': 'bookkeeping record (the tool rows name every tool used)',
  'isolation-latch': 'bookkeeping record',
  'session-owner': 'bookkeeping record',
  'dev-mods': 'bookkeeping record',
  'memory-mode': 'bookkeeping record',
  'agent-color': 'bookkeeping record',
  'agent-setting': 'bookkeeping record',
  'history-suppression': 'bookkeeping record',
  'hybrid-organization': 'bookkeeping record',
  'repl-mode': 'bookkeeping record',
  'observer-ref': 'bookkeeping record',
  'resume-head-vouch': 'bookkeeping record',
  'fork-context-ref': 'bookkeeping record',
  'bridge-session': 'bookkeeping record',
  'frame-link': 'bookkeeping record',
  'derived-from': 'bookkeeping record',
  'file-history-delta': 'file history bookkeeping (the snapshots give the rows)',
  'data-flow-records': 'bookkeeping record',
  'data-flow-incomplete': 'bookkeeping record',
  'artifact-comment-monitor': 'bookkeeping record',
  'artifact-autoreact-ledger': 'bookkeeping record',
};
