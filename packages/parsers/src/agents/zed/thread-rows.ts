/**
 * The rows of one Zed thread document (zed crates/agent/src/db.rs `DbThread`, version 0.3.0, and
 * the agent-1 documents of legacy_thread.rs, which may share the same database). Messages carry no
 * time: every row takes the thread's `created_at` (tag `time_session` unless the row has a tag of
 * its own), source_line is the message's 1-based place in the thread.
 */
import { compactJson } from '../../sdk/compact-json.js';
import { asArray, asNumber, asString, isObject, type JsonObject } from '../../sdk/decode.js';
import { makeRow } from '../../sdk/row.js';
import { type SqlRecord, sqlText, sqlTime } from '../../sdk/sqlite-rows.js';
import type { ParseContext, Row } from '../../sdk/types.js';
import { mentionTarget, toolInput, toolResultText, toolUseText, variant } from './content.js';
import { legacyMessageRows } from './legacy-rows.js';

/** What the `threads` row says beside its document. */
export interface ThreadMeta {
  id: string;
  summary: string;
  /** `created_at` (the first save), else `updated_at`, in UTC. */
  created: string;
  updated: string;
  parent: string;
  /** `folder_paths`: the worktree roots, sorted. */
  folders: string[];
  /** The row's rowid. */
  line: number;
}

/** A `threads` row's fields beside its document (`line`: its rowid). */
export function threadMeta(r: SqlRecord, line: number): ThreadMeta {
  const folders = sqlText(r.folder_paths)
    .split('\n')
    .filter((p) => p !== '');
  const updated = sqlTime(r.updated_at);
  return { id: sqlText(r.id), summary: sqlText(r.summary), created: sqlTime(r.created_at) || updated, updated, parent: sqlText(r.parent_id), folders, line };
}

/** Builds the rows of one thread: its fields on every row, its time and tag rule. */
export type RowMaker = (turn: Row['turn_type'], text: string, index: number | null, extra?: Partial<Row>) => Row;

const str = (v: unknown): string => asString(v) ?? '';
const obj = (v: unknown): JsonObject => (isObject(v) ? v : {});

function joinParts(parts: string[]): string {
  let out = '';
  for (const p of parts) {
    if (p === '') continue;
    out += out === '' || /\s$/.test(out) || /^\s/.test(p) ? p : ` ${p}`;
  }
  return out;
}

function userRows(m: JsonObject, index: number, row: RowMaker): Row[] {
  const parts: string[] = [];
  const context: Row[] = [];
  for (const c of asArray(m.content) ?? []) {
    const vr = variant(c);
    if (vr?.key === 'Text') parts.push(str(vr.value));
    else if (vr?.key === 'Mention') {
      const o = obj(vr.value);
      const target = mentionTarget(o.uri);
      parts.push(`[@${target}]`);
      if (str(o.content) !== '') context.push(row('system', `context: ${target}\n${str(o.content)}`, index, { tag: 'context' }));
    } else if (vr?.key === 'Image') parts.push('[image]');
    else parts.push(typeof c === 'string' ? c : compactJson(c));
  }
  return [row('user', joinParts(parts), index), ...context];
}

function agentRows(m: JsonObject, index: number, row: RowMaker, ctx: ParseContext): Row[] {
  const rows: Row[] = [];
  for (const c of asArray(m.content) ?? []) {
    const vr = variant(c);
    const v = obj(vr?.value);
    if (vr?.key === 'Text') rows.push(row('assistant', str(vr.value), index));
    else if (vr?.key === 'Thinking') {
      if (ctx.options.includeThinking) rows.push(row('thinking', str(v.text), index));
    } else if (vr?.key === 'RedactedThinking') continue;
    else if (vr?.key === 'ToolUse') rows.push(row('tool_use', toolUseText(str(v.name), toolInput(v)), index, { tool_name: str(v.name), tool_use_id: str(v.id) }));
    else {
      ctx.unknown(`agent content ${vr?.key ?? typeof c}`, index);
      rows.push(row('system', `agent content: ${compactJson(c)}`, index));
    }
  }
  // An IndexMap: the results in the order they came.
  for (const r of Object.values(obj(m.tool_results))) {
    const o = obj(r);
    rows.push(row('tool_result', toolResultText(o), index, { tool_name: str(o.tool_name), tool_use_id: str(o.tool_use_id), model: '' }));
  }
  return rows;
}

function compactionText(v: unknown): string {
  const vr = variant(v);
  if (vr?.key === 'Summary') return `context compacted: ${str(vr.value)}`;
  if (vr?.key === 'ProviderNative') return `context compacted (by the provider ${str(obj(vr.value).provider)})`;
  return `context compacted: ${compactJson(v)}`;
}

function messageRows(m: unknown, index: number, row: RowMaker, ctx: ParseContext, toolNames: Map<string, string>): Row[] {
  if (isObject(m) && typeof m.role === 'string') return legacyMessageRows(m, index, row, ctx, toolNames);
  const vr = variant(m);
  if (vr?.key === 'User') return userRows(obj(vr.value), index, row);
  if (vr?.key === 'Agent') return agentRows(obj(vr.value), index, row, ctx);
  if (vr?.key === 'Resume') return [row('system', 'resumed', index)];
  if (vr?.key === 'Compaction') return [row('system', compactionText(vr.value), index, { tag: 'compaction' })];
  ctx.unknown(`message ${vr?.key ?? (Array.isArray(m) ? 'array' : typeof m)}`, index);
  return [row('system', `message: ${compactJson(m)}`, index)];
}

function modelOf(m: unknown): string {
  const o = obj(m);
  return [str(o.provider), str(o.model)].filter(Boolean).join('/');
}

/** Every row of one thread: its start, name and model, each message's rows, its summary. */
export function* threadRows(doc: JsonObject, meta: ThreadMeta, ctx: ParseContext): Generator<Row> {
  const snap = obj(asArray(obj(doc.initial_project_snapshot).worktree_snapshots)?.[0]);
  const project = meta.folders[0] ?? str(snap.worktree_path);
  const branch = str(obj(snap.git_state).current_branch);
  const model = modelOf(doc.model);
  const title = str(doc.title) || str(doc.summary) || meta.summary;
  const parent = meta.parent || str(obj(doc.subagent_context).parent_thread_id);
  if (project) ctx.fact({ session_id: meta.id, key: 'cwd', value: project, priority: 1 });
  if (branch) ctx.fact({ session_id: meta.id, key: 'branch', value: branch, priority: 1 });
  if (title) ctx.fact({ session_id: meta.id, key: 'name', value: title, priority: 1 });
  const base = { session_id: meta.id, project_path: project, git_branch: branch, model, timestamp_utc: meta.created };
  const row: RowMaker = (turn, text, index, extra = {}) => makeRow(turn, text, { ...base, source_line: index, ...(meta.created && !extra.tag ? { tag: 'time_session' } : {}), ...extra });
  const usage = obj(doc.cumulative_token_usage);
  const facts = [
    `profile=${str(doc.profile) || '-'}`,
    `model=${model || '-'}`,
    `folders=${meta.folders.join(';') || project || '-'}`,
    `tokens=${asNumber(usage.input_tokens) ?? 0}/${asNumber(usage.output_tokens) ?? 0}`,
    `version=${str(doc.version) || 'none'}`,
    ...(doc.imported === true ? ['imported'] : []),
    ...(parent ? [`parent=${parent}`] : []),
  ];
  yield row('system', `thread: ${title} ${facts.join(' ')}`, null, { tag: 'session_start' });
  if (title) yield row('system', `session name: ${title}`, null, { tag: 'session_name' });
  if (model) yield row('system', `model: ${model}`, null, { tag: 'model' });
  const messages = asArray(doc.messages);
  if (!messages) {
    yield row('system', `parser: thread ${meta.id} has no messages list (found ${compactJson(doc.messages ?? null).slice(0, 80)})`, null, { tag: 'bad_line' });
  }
  const toolNames = new Map<string, string>();
  for (const [i, m] of (messages ?? []).entries()) yield* messageRows(m, i + 1, row, ctx, toolNames);
  const summary = str(doc.detailed_summary) || str(obj(obj(doc.detailed_summary_state).Generated).text);
  if (summary) yield row('system', `summary: ${summary}`, null, { timestamp_utc: meta.updated || meta.created, tag: 'summary' });
}
