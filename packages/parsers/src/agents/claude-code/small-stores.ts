import { posix } from 'node:path';
import { compactJson } from '../../sdk/compact-json.js';
import { asArray, asString, isObject } from '../../sdk/decode.js';
import { makeRow } from '../../sdk/row.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { Artifact, ParseContext, Parser, Row } from '../../sdk/types.js';
import { readJsonFile, readJsonObject } from './json-file.js';
import { PROCESS_RE, SESSIONS_INDEX_RE, TODOS_RE } from './paths.js';

/** How far a todo file's mtime may be from the TodoWrite call it repeats. */
export const TODOS_TOLERANCE_SECONDS = 3600;

async function* parseTodos(a: Artifact): AsyncGenerator<Row> {
  const r = await readJsonFile(a);
  if (!r.ok) {
    yield r.row;
    return;
  }
  const items = asArray(r.value);
  if (!items || items.length === 0) return;
  const m = /^(.+?)-agent-(.+)\.json$/i.exec(posix.basename(a.rel));
  // The file is what the last TodoWrite call set, so its text is that call's input.
  yield makeRow('tool_use', compactJson({ todos: items }), { timestamp_utc: a.mtime, session_id: m ? m[1] : '', tool_name: 'TodoWrite', tag: 'todo_state' });
}

async function* parseProcess(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const r = await readJsonObject(a);
  if (!r.ok) {
    yield r.row;
    return;
  }
  const v = r.value;
  const session = asString(v.sessionId) ?? '';
  const cwd = asString(v.cwd) ?? '';
  const client = asString(v.entrypoint) ?? '';
  if (session && cwd) ctx.fact({ session_id: session, key: 'cwd', value: cwd, priority: 3 });
  if (session && client) ctx.fact({ session_id: session, key: 'client', value: client, priority: 3 });
  const pid = asString(v.pid) ?? posix.basename(a.rel, '.json');
  const parts = [`pid=${pid}`];
  for (const k of ['kind', 'status', 'entrypoint']) {
    const val = asString(v[k]);
    if (val) parts.push(`${k}=${val}`);
  }
  yield makeRow('system', `session process: ${parts.join(' ')}`, { timestamp_utc: toUtc(v.startedAt), session_id: session, project_path: cwd, tag: 'session_process' });
}

async function* parseSessionsIndex(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const r = await readJsonObject(a);
  if (!r.ok) {
    yield r.row;
    return;
  }
  for (const e of asArray(r.value.entries) ?? []) {
    if (!isObject(e)) continue;
    const session = asString(e.sessionId);
    if (!session) continue;
    const path = asString(e.projectPath);
    const branch = asString(e.gitBranch);
    if (path) ctx.fact({ session_id: session, key: 'cwd', value: path, priority: 3 });
    if (branch) ctx.fact({ session_id: session, key: 'branch', value: branch, priority: 3 });
  }
}

const base = { agent: 'claude-code', recordsSync: false } as const;

/** Legacy `todos/<session>-agent-<agent>.json`: the last TodoWrite state (secondary). */
export const todosParser: Parser = {
  ...base,
  name: 'todos',
  patterns: ['<cfg>/todos/<session>-agent-<agent>.json'],
  wants: (rel) => TODOS_RE.test(rel),
  secondary: () => true,
  secondaryToleranceSeconds: () => TODOS_TOLERANCE_SECONDS,
  parse: (a) => parseTodos(a),
};

/** `sessions/<pid>.json`: the processes running when the collection was made. */
export const processParser: Parser = {
  ...base,
  name: 'process-registry',
  patterns: ['<cfg>/sessions/<pid>.json'],
  wants: (rel) => PROCESS_RE.test(rel),
  secondary: () => false,
  secondaryToleranceSeconds: () => 0,
  parse: parseProcess,
};

/** `projects/<slug>/sessions-index.json`: no rows, only each session's project path and branch. */
export const sessionsIndexParser: Parser = {
  ...base,
  name: 'sessions-index',
  patterns: ['<cfg>/projects/<slug>/sessions-index.json'],
  wants: (rel) => SESSIONS_INDEX_RE.test(rel),
  secondary: () => false,
  secondaryToleranceSeconds: () => 0,
  parse: parseSessionsIndex,
};
