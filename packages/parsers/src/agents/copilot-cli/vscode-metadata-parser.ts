import { asArray, asString, type JsonObject } from '../../sdk/decode.js';
import { makeRow } from '../../sdk/row.js';
import { normalizeTimestamp, toUtc } from '../../sdk/timestamp.js';
import type { Artifact, ParseContext, Row } from '../../sdk/types.js';
import { copilotParser, readJsonObject } from './common.js';
import { COPILOT_PATTERNS, sessionIdFromRel } from './paths.js';

/**
 * session-state/<id>/vscode.metadata.json, written by VS Code's Copilot Chat extension for a
 * Copilot CLI session it runs or opens (microsoft/vscode, chatSessionMetadataStoreImpl.ts and
 * common/chatSessionMetadataStore.ts `ChatSessionMetadataFile`): {origin ('vscode' when VS Code
 * created the session), kind, parentSessionId, customTitle, firstUserMessage, created and
 * modified (epoch ms), workspaceFolder{folderPath, timestamp}, repositoryProperties{repositoryPath,
 * branchName, ...}, worktreeProperties{version, repositoryPath, worktreePath, branchName,
 * baseBranchName, baseCommit, ...}, additionalWorkspaces[{workspaceFolder?, worktreeProperties?}]}.
 * Not seen on a real install (seed, Scratch directories).
 *
 * Rows (at `created`, else `modified`; else the file's mtime, tagged time_file):
 * `VS Code session: origin=<origin or -> project=<repository or folder or ->` with ` kind=`,
 * ` parent=`, ` title=` for the keys present, project_path the project (the worktree's
 * repository, else the workspace folder, else repositoryProperties' repository); then, for a
 * worktree, `scratch directory: <worktreePath> (VS Code worktree of <repository> on <branch>)`
 * with project_path the worktree, tag scratch_directory: the agent's scratch directory, not the
 * user's project (the session's log says its cwd is the worktree). An additional workspace gives
 * `VS Code additional workspace: <folder or repository>` (and a session-less scratch row for its
 * worktree). `origin: vscode` is the session's client (`vscode`), over the CLI's client_name.
 * firstUserMessage repeats the log's first prompt and gives no row.
 */
export const copilotVscodeMetadataParser = copilotParser({
  name: 'vscode-metadata',
  patterns: COPILOT_PATTERNS.vscodeMetadata,
  secondary: false,
  toleranceSeconds: 0,
  parse: parseVscodeMetadata,
});

async function* parseVscodeMetadata(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const r = await readJsonObject(a, '{"origin": ..., "workspaceFolder" | "worktreeProperties": {...}}');
  if ('row' in r) {
    yield r.row;
    return;
  }
  const m = r.value;
  const session_id = sessionIdFromRel(a.rel);
  // `{}` is what VS Code writes for a session it only looked at (one public note calls it "usually {}").
  if (Object.keys(m).length === 0) return;
  const when = timeOf(m, ctx);
  const time = when === '' ? { timestamp_utc: toUtc(a.mtime), tag: 'time_file' as const } : { timestamp_utc: when, tag: 'vscode_session' as const };
  const origin = asString(m.origin);
  if (origin === 'vscode') ctx.fact({ session_id, key: 'client', value: 'vscode', priority: 1 });
  const wt = obj(m.worktreeProperties);
  const project = path(wt, 'repositoryPath') || path(obj(m.workspaceFolder), 'folderPath') || path(obj(m.repositoryProperties), 'repositoryPath');
  let text = `VS Code session: origin=${origin ?? '-'} project=${project || '-'}`;
  for (const [key, label] of [
    ['kind', 'kind'],
    ['parentSessionId', 'parent'],
    ['customTitle', 'title'],
  ] as const) {
    const v = asString(m[key]);
    if (v) text += ` ${label}=${v}`;
  }
  yield makeRow('system', text, { session_id, project_path: project, ...time });
  const worktree = path(wt, 'worktreePath');
  if (worktree) yield makeRow('system', scratchText(wt), { session_id, project_path: worktree, timestamp_utc: when, tag: 'scratch_directory' });
  for (const item of asArray(m.additionalWorkspaces) ?? []) {
    const ws = obj(item);
    const awt = obj(ws.worktreeProperties);
    const where = path(awt, 'repositoryPath') || path(obj(ws.workspaceFolder), 'folderPath');
    if (where) yield makeRow('system', `VS Code additional workspace: ${where}`, { session_id, project_path: where, ...time });
    // One scratch directory per session record: another worktree is listed without the session.
    const extra = path(awt, 'worktreePath');
    if (extra) yield makeRow('system', scratchText(awt), { project_path: extra, timestamp_utc: when, tag: 'scratch_directory' });
  }
}

function scratchText(wt: JsonObject): string {
  const repo = path(wt, 'repositoryPath') || '-';
  const branch = path(wt, 'branchName');
  return `scratch directory: ${path(wt, 'worktreePath')} (VS Code worktree of ${repo}${branch ? ` on ${branch}` : ''})`;
}

/** `created`, else `modified`, as UTC ('' when neither reads as a time, with a warning for a bad one). */
function timeOf(m: JsonObject, ctx: ParseContext): string {
  for (const k of ['created', 'modified']) {
    if (m[k] === undefined || m[k] === null) continue;
    const t = normalizeTimestamp(m[k]);
    if (t.ok) return t.value;
    ctx.warn(`vscode.metadata.json ${k}: ${t.reason}`);
  }
  return '';
}

function obj(v: unknown): JsonObject {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as JsonObject) : {};
}

function path(o: JsonObject, key: string): string {
  return asString(o[key]) ?? '';
}
