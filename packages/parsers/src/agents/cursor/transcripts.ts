import { asArray, asObject, asString } from '../../sdk/decode.js';
import { readJsonArray } from '../../sdk/json-stream.js';
import { readJsonLines } from '../../sdk/line-reader.js';
import { badLineRow, makeRow } from '../../sdk/row.js';
import { readSmall } from '../../sdk/small-file.js';
import { decodeText } from '../../sdk/text-encoding.js';
import type { Artifact, ParseContext, Row } from '../../sdk/types.js';
import { messageRows } from './messages.js';
import { slugOf, transcriptFormat, transcriptIds } from './paths.js';
import { parseTxtTranscript } from './transcript-txt.js';
import { toolResultText } from './text.js';
import { toolUseRow } from './tool-keys.js';
import { jsonText } from '../../sdk/compact-json.js';

/**
 * The project of a transcript's `projects/<slug>/` folder, from the folder's `.workspace-trusted`
 * (`workspacePath`), kept only when its slug is the folder's name; '' otherwise (a slug alone is
 * lossy, and numeric and `empty-window` folders name no path).
 */
export async function projectOfSlugFolder(a: Artifact, depth: number): Promise<string> {
  const trusted = a.sibling(`${'../'.repeat(depth)}.workspace-trusted`);
  if (!trusted) return '';
  const r = await readSmall(trusted.stream(), 1024 * 1024);
  if (!r.ok) return '';
  let path = '';
  try {
    path = asString(asObject(JSON.parse(decodeText(r.buffer)))?.workspacePath) ?? '';
  } catch {
    return '';
  }
  const folder = a.rel.split('/').find((_, i, parts) => parts[i - 1]?.toLowerCase() === 'projects') ?? '';
  return path && slugOf(path).toLowerCase() === folder.toLowerCase() ? path : '';
}

async function* jsonlRows(a: Artifact, fields: Partial<Row>, ctx: ParseContext): AsyncGenerator<Row> {
  for await (const l of readJsonLines(a.stream())) {
    if (l.blank) continue;
    if (l.error && !l.value) {
      yield badLineRow(l.error, l.text, l.line, { session_id: fields.session_id });
      continue;
    }
    const o = l.value!;
    const f = { ...fields, source_line: l.line };
    if (typeof o.type === 'string' && o.role === undefined) {
      // Control lines (`{"type": "turn_ended", "status": "success"}`) mark turns; no row.
      if (o.type !== 'turn_ended') ctx.unknown(`transcript line ${o.type}`, l.line);
      continue;
    }
    const role = asString(o.role) ?? '';
    const content = asObject(o.message)?.content ?? o.content;
    yield* messageRows(role, content, { fields: f, ctx, kindPrefix: 'transcript', line: l.line });
  }
}

// The .json form (one peer): an array of {role, text, toolCalls, toolResult}.
async function* jsonRows(a: Artifact, fields: Partial<Row>, ctx: ParseContext): AsyncGenerator<Row> {
  for await (const ev of readJsonArray(a.stream(), [])) {
    if (ev.kind === 'bad') yield badLineRow(ev.reason, ev.preview, ev.index + 1, { session_id: fields.session_id });
    if (ev.kind === 'end' && !ev.complete) yield badLineRow(ev.reason ?? 'cut document', '', null, { session_id: fields.session_id });
    if (ev.kind !== 'item') continue;
    const o = asObject(ev.value);
    const f = { ...fields, source_line: ev.index + 1 };
    if (!o) {
      yield badLineRow('not a JSON object', jsonText(ev.value).slice(0, 4096), ev.index + 1, { session_id: fields.session_id });
      continue;
    }
    const role = asString(o.role) ?? '';
    const text = asString(o.text) ?? '';
    if (text) yield* messageRows(role, text, { fields: f, ctx, kindPrefix: 'transcript', line: ev.index + 1 });
    for (const c of asArray(o.toolCalls) ?? []) {
      const call = asObject(c);
      const name = asString(call?.name) ?? asString(call?.toolName) ?? '';
      yield toolUseRow(name, call?.args ?? call?.input ?? call?.arguments, { ...f, tool_use_id: asString(call?.id) ?? asString(call?.toolCallId) ?? '' });
    }
    if (o.toolResult !== undefined && o.toolResult !== null) yield makeRow('tool_result', toolResultText('', o.toolResult), f);
    if (!text && !o.toolCalls && o.toolResult === undefined) ctx.unknown(`transcript element ${role || '(no role)'}`, ev.index + 1);
  }
}

/**
 * An agent transcript under `projects/<slug>/agent-transcripts/` in any of its forms (`.txt`,
 * IDE nested and CLI flat `.jsonl`, `.json`): a secondary copy of the conversation the database or
 * the CLI store holds, under the same id. Undated (a user line's `<timestamp>` aside).
 */
export async function* parseTranscript(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const { session, parent } = transcriptIds(a.rel);
  const format = transcriptFormat(a.rel);
  const depth = a.rel.split('/').length - a.rel.split('/').findIndex((p) => p.toLowerCase() === 'agent-transcripts') - 1;
  const project = await projectOfSlugFolder(a, depth);
  if (project) ctx.fact({ session_id: session, key: 'cwd', value: project, priority: 6 });
  const fields: Partial<Row> = { session_id: session, project_path: project };
  if (parent) yield makeRow('system', `subagent of ${parent}`, { ...fields, tag: 'subagent' });
  if (format === 'txt') yield* parseTxtTranscript(a, fields, ctx);
  else if (format === 'json') yield* jsonRows(a, fields, ctx);
  else yield* jsonlRows(a, fields, ctx);
}
