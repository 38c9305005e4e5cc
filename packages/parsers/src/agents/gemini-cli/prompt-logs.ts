/**
 * The per-project prompt histories: logs.json (every submitted input, slash and shell-mode
 * commands included, logged before it is handled; logger.ts) and shell_history (shell-mode
 * commands, oldest first, undated; useShellHistory.ts). Both repeat what the chats hold, so both
 * are secondary; what no chat holds (slash commands, prompts of sessions retention deleted) stays.
 */
import { asString, isObject } from '../../sdk/decode.js';
import { readJsonArray } from '../../sdk/json-stream.js';
import { readLines } from '../../sdk/line-reader.js';
import { badLineRow, makeRow } from '../../sdk/row.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { Artifact, ParseContext, Parser, Row } from '../../sdk/types.js';
import type { FamilyPaths } from './paths.js';
import { resolveProject } from './project.js';
import { jsonText } from '../../sdk/compact-json.js';

/** How far a logs.json entry may be from the chat's user record: it is written on submit, the record when sent (after @-file reads). */
export const LOGS_TOLERANCE_SECONDS = 3600;

async function* parseLogs(a: Artifact, ctx: ParseContext, paths: FamilyPaths): AsyncGenerator<Row> {
  const project = await resolveProject(a, paths);
  const reported = new Set<string>();
  for await (const ev of readJsonArray(a.stream(), [])) {
    if (ev.kind === 'bad') {
      yield badLineRow(ev.reason, ev.preview, ev.index + 1, { project_path: project });
      continue;
    }
    if (ev.kind === 'end') {
      if (!ev.complete) yield makeRow('system', `parser: unparseable prompt log (${ev.reason ?? 'incomplete document'}); ${ev.items} entries read`, { timestamp_utc: a.mtime, project_path: project, tag: 'bad_line' });
      continue;
    }
    if (ev.kind !== 'item') continue;
    const line = ev.index + 1;
    const e = ev.value;
    if (!isObject(e)) {
      yield badLineRow('not a JSON object', jsonText(e), line, { project_path: project });
      continue;
    }
    const session = asString(e.sessionId) ?? '';
    const message = asString(e.message);
    if (message === undefined) {
      ctx.warn(`entry ${line}: no message`, line);
      continue;
    }
    if (session && project && !reported.has(session)) {
      reported.add(session);
      ctx.fact({ session_id: session, key: 'cwd', value: project, priority: 3 });
    }
    const type = asString(e.type) ?? 'user';
    if (type !== 'user') ctx.unknown(`prompt log entry type ${type}`, line);
    const fields = { timestamp_utc: toUtc(e.timestamp), session_id: session, project_path: project, source_line: line };
    yield type === 'user' ? makeRow('user', message, { ...fields, tag: 'history' }) : makeRow('system', `${type}: ${message}`, fields);
  }
}

/** Commands of a shell_history file: a line ending in an odd number of backslashes continues onto the next. */
export async function* shellCommands(a: Artifact): AsyncGenerator<{ text: string; line: number }> {
  let parts: string[] = [];
  let n = 0;
  for await (const l of readLines(a.stream())) {
    const trailing = /\\+$/.exec(l.text)?.[0].length ?? 0;
    if (trailing % 2 === 1) {
      parts.push(l.text.slice(0, -1));
      continue;
    }
    parts.push(l.text);
    const text = parts.join('\n');
    parts = [];
    if (text.trim() === '') continue;
    n += 1;
    yield { text, line: n };
  }
  if (parts.length > 0 && parts.join('\n').trim() !== '') yield { text: parts.join('\n'), line: n + 1 };
}

async function* parseShellHistory(a: Artifact, _ctx: ParseContext, paths: FamilyPaths): AsyncGenerator<Row> {
  const project = await resolveProject(a, paths);
  for await (const c of shellCommands(a)) yield makeRow('user', c.text, { project_path: project, source_line: c.line, tag: 'shell_history' });
}

/** logs.json, and the `logs.json.<reason>.<ms>.bak` copies the CLI sets aside when one is corrupt (secondary). */
export function promptLogParser(paths: FamilyPaths): Parser {
  return {
    agent: paths.profile.agent,
    name: 'prompt-log',
    patterns: [`${paths.profile.dir}/tmp/<id>/logs.json`],
    wants: (rel) => paths.logs.test(rel),
    secondary: () => true,
    secondaryToleranceSeconds: () => LOGS_TOLERANCE_SECONDS,
    recordsSync: false,
    copyRank: (rel) => paths.copyRank(rel),
    parse: (a, ctx) => parseLogs(a, ctx, paths),
  };
}

/** shell_history: shell-mode commands, undated (secondary: logs.json holds them with a time). */
export function shellHistoryParser(paths: FamilyPaths): Parser {
  return {
    agent: paths.profile.agent,
    name: 'shell-history',
    patterns: [`${paths.profile.dir}/tmp/<id>/shell_history`],
    wants: (rel) => paths.shellHistory.test(rel),
    secondary: () => true,
    secondaryToleranceSeconds: () => 0,
    recordsSync: false,
    copyRank: (rel) => paths.copyRank(rel),
    parse: (a, ctx) => parseShellHistory(a, ctx, paths),
  };
}
