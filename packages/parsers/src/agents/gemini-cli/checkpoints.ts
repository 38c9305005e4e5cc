/**
 * Saved conversations: `checkpoint-<tag>.json` (`/chat save`: `{history: Content[], authType}`,
 * or a bare Content[] in the oldest builds; logger.ts) and restore points `checkpoints/*.json`
 * (`{history, clientHistory: Content[], commitHash, toolCall, messageId}`; checkpointUtils.ts).
 * Their history repeats the chats, undated: secondary rows that join the chat's rows.
 */
import { posix } from 'node:path';
import { compactJson } from '../../sdk/compact-json.js';
import { asObject, asString, isObject, type JsonObject } from '../../sdk/decode.js';
import { readJsonArray } from '../../sdk/json-stream.js';
import { makeRow } from '../../sdk/row.js';
import type { Artifact, ParseContext, Parser, Row } from '../../sdk/types.js';
import type { FamilyPaths } from './paths.js';
import { callsOf, callText, partsOf, responsesOf, responseText, thoughtTexts, visibleText } from './parts.js';
import { resolveProject } from './project.js';

// Before <session_context> (v0.4x) the environment context opened the history with this sentence.
const CONTEXT_OPENINGS = ['<session_context>', 'This is the Gemini CLI. We are setting up the context'];

/** The undated rows of one Content ({role, parts}) of a saved history. */
export function contentRows(c: unknown, line: number, includeThinking: boolean, fields: Partial<Row>): Row[] {
  const o = asObject(c);
  if (!o) return [makeRow('system', `parser: history entry ${line} is not a Content object`, { ...fields, source_line: line, tag: 'bad_line' })];
  const parts = partsOf(o.parts);
  const at = { ...fields, source_line: line };
  const out: Row[] = [];
  const text = visibleText(parts);
  if (asString(o.role) === 'model') {
    if (includeThinking) for (const t of thoughtTexts(parts)) out.push(makeRow('thinking', t, at));
    if (text) out.push(makeRow('assistant', text, at));
    for (const call of callsOf(parts)) out.push(makeRow('tool_use', callText(call.args), { ...at, tool_name: call.name, tool_use_id: call.id }));
    return out;
  }
  for (const r of responsesOf(parts)) out.push(makeRow('tool_result', responseText(r.response), { ...at, tool_name: r.name, tool_use_id: r.id }));
  if (text) out.push(CONTEXT_OPENINGS.some((p) => text.trimStart().startsWith(p)) ? makeRow('system', `session context: ${text}`, at) : makeRow('user', text, at));
  return out;
}

async function* historyRows(a: Artifact, path: string[], ctx: ParseContext, fields: Partial<Row>, counter: { n: number; fields: JsonObject; found: boolean; end?: string }): AsyncGenerator<Row> {
  for await (const ev of readJsonArray(a.stream(), path)) {
    if (ev.kind === 'item') {
      counter.n++;
      yield* contentRows(ev.value, ev.index + 1, ctx.options.includeThinking, fields);
    } else if (ev.kind === 'bad') {
      yield makeRow('system', `parser: unparseable history entry ${ev.index + 1} (${ev.reason}): ${ev.preview}`, { ...fields, source_line: ev.index + 1, tag: 'bad_line' });
    } else if (ev.kind === 'field' && ev.path.length === 1) counter.fields[ev.path[0]] = ev.value;
    else if (ev.kind === 'end') {
      counter.found = ev.found;
      if (!ev.complete) counter.end = ev.reason ?? 'incomplete document';
    }
  }
}

function decodeTag(rel: string): string {
  const raw = posix.basename(rel).replace(/^checkpoint-/i, '').replace(/\.json$/i, '');
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

async function* parseChatCheckpoint(a: Artifact, ctx: ParseContext, paths: FamilyPaths): AsyncGenerator<Row> {
  const fields = { project_path: await resolveProject(a, paths) };
  const counter: { n: number; fields: JsonObject; found: boolean; end?: string } = { n: 0, fields: {}, found: false };
  yield* historyRows(a, ['history'], ctx, fields, counter);
  // The oldest builds saved the bare Content[] array.
  if (!counter.found) yield* historyRows(a, [], ctx, fields, counter);
  if (counter.end) yield makeRow('system', `parser: unparseable checkpoint (${counter.end}); ${counter.n} messages read`, { ...fields, timestamp_utc: a.mtime, tag: 'bad_line' });
  const auth = asString(counter.fields.authType) ?? '-';
  yield makeRow('system', `chat checkpoint saved: ${decodeTag(a.rel)} (${counter.n} messages, authType=${auth})`, { ...fields, timestamp_utc: a.mtime, tag: 'time_file' });
}

/** The UTC time a restore checkpoint's name starts with (`2025-06-22T10-00-00_000Z-...`), or ''. */
export function restoreTime(rel: string): string {
  const m = /^(\d{4}-\d\d-\d\dT\d\d)-(\d\d)-(\d\d)(?:_(\d{3}))?Z/.exec(posix.basename(rel));
  return m ? `${m[1]}:${m[2]}:${m[3]}.${m[4] ?? '000'}Z` : '';
}

async function* parseRestoreCheckpoint(a: Artifact, ctx: ParseContext, paths: FamilyPaths): AsyncGenerator<Row> {
  const fields = { project_path: await resolveProject(a, paths) };
  const counter: { n: number; fields: JsonObject; found: boolean; end?: string } = { n: 0, fields: {}, found: false };
  yield* historyRows(a, ['clientHistory'], ctx, fields, counter);
  if (counter.end) yield makeRow('system', `parser: unparseable restore checkpoint (${counter.end}); ${counter.n} messages read`, { ...fields, timestamp_utc: a.mtime, tag: 'bad_line' });
  const call = asObject(counter.fields.toolCall) ?? {};
  const args = asObject(call.args);
  const target = asString(args?.file_path) ?? (args ? compactJson(args) : '-');
  const f = counter.fields;
  const ts = restoreTime(a.rel);
  yield makeRow('system', `restore checkpoint: ${asString(call.name) ?? '-'} ${target} commit=${asString(f.commitHash) ?? '-'} prompt=${asString(f.messageId) ?? '-'}`, {
    ...fields,
    timestamp_utc: ts || a.mtime,
    tool_name: asString(call.name) ?? '',
    tag: ts ? 'checkpoint' : 'time_file',
  });
  if (!isObject(counter.fields.toolCall) && counter.n === 0) ctx.warn('restore checkpoint with neither toolCall nor clientHistory');
}

/** `checkpoint-<tag>.json` and `checkpoints/*.json` (secondary: their history repeats the chats). */
export function checkpointParser(paths: FamilyPaths): Parser {
  return {
    agent: paths.profile.agent,
    name: 'checkpoints',
    patterns: [`${paths.profile.dir}/tmp/<id>/checkpoint-<tag>.json`, `${paths.profile.dir}/tmp/<id>/checkpoints/<time>-<file>-<tool>.json`],
    wants: (rel) => paths.chatCheckpoint.test(rel) || paths.restoreCheckpoint.test(rel),
    secondary: () => true,
    secondaryToleranceSeconds: () => 0,
    recordsSync: false,
    copyRank: (rel) => paths.copyRank(rel),
    parse: (a, ctx) => (paths.restoreCheckpoint.test(a.rel) ? parseRestoreCheckpoint(a, ctx, paths) : parseChatCheckpoint(a, ctx, paths)),
  };
}
