/**
 * `.letta/logs/chunk-logs/<agentId>/<sessionId>.jsonl` (letta-ai/letta-code src/cli/helpers/
 * chunkLog.ts): the last 100 stream chunks of a session (the file is rewritten whole, five kept
 * per agent), each a Letta API chunk with its text fields cut to 200 characters plus
 * `...[truncated, was Nb]`. A streamed reply arrives in many chunks of one message id: runs of
 * one id and type are joined into one row. The session id is the file's name, the one
 * sessions.jsonl gives.
 */
import { compactJson } from '../../sdk/compact-json.js';
import { asArray, asString, isObject, type JsonObject } from '../../sdk/decode.js';
import { readJsonLines } from '../../sdk/line-reader.js';
import { badLineRow, makeRow } from '../../sdk/row.js';
import type { Artifact, ParseContext, Row } from '../../sdk/types.js';
import { contentText } from './message-rows.js';
import { lettaTime } from './transcript-parser.js';

const str = (v: unknown): string => asString(v) ?? '';
const obj = (v: unknown): JsonObject => (isObject(v) ? v : {});
const text = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : contentText(v));

/** Chunk types with no row, on purpose: keep-alives and token counts. */
const SKIPPED = new Set(['ping', 'usage_statistics', 'hidden_reasoning_message']);

interface Run {
  key: string;
  turn: Row['turn_type'];
  text: string;
  fields: Partial<Row>;
}

function toolCalls(o: JsonObject): JsonObject[] {
  const list = asArray(o.tool_calls)?.map(obj) ?? [];
  return list.length > 0 ? list : isObject(o.tool_call) ? [o.tool_call] : [];
}

/** The chunks of one session, runs of one message joined. */
export async function* parseLettaChunkLog(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const session = (a.rel.split('/').pop() ?? '').replace(/\.jsonl$/, '');
  let run: Run | undefined;
  const flush = function* (): Generator<Row> {
    if (run) yield makeRow(run.turn, run.text, run.fields);
    run = undefined;
  };
  for await (const l of readJsonLines(a.stream())) {
    if (l.blank) continue;
    const o = l.value;
    if (!o) {
      yield* flush();
      yield badLineRow(l.error ?? 'not a JSON object', l.text, l.line, { session_id: session });
      continue;
    }
    const type = str(o.message_type);
    const time = lettaTime(o.date);
    const f: Partial<Row> = { session_id: session, source_line: l.line, ...(time ? { timestamp_utc: time } : { timestamp_utc: a.mtime, tag: 'time_file' }) };
    const add = (turn: Row['turn_type'], piece: string, extra: Partial<Row> = {}) => {
      const key = `${type}\0${str(o.id)}\0${extra.tool_use_id ?? ''}`;
      if (run && run.key === key && str(o.id) !== '') {
        run.text += piece;
        if (extra.tool_name && !run.fields.tool_name) run.fields.tool_name = extra.tool_name;
        return [];
      }
      const out = [...flush()];
      run = { key, turn, text: piece, fields: { ...f, ...extra } };
      return out;
    };
    if (SKIPPED.has(type)) continue;
    if (type === 'user_message') yield* add('user', text(o.content));
    else if (type === 'assistant_message') yield* add('assistant', text(o.content));
    else if (type === 'reasoning_message') {
      if (ctx.options.includeThinking) yield* add('thinking', text(o.reasoning));
    } else if (type === 'tool_call_message' || type === 'approval_request_message') {
      for (const c of toolCalls(o)) yield* add('tool_use', text(c.arguments), { tool_name: str(c.name), tool_use_id: str(c.tool_call_id) });
    } else if (type === 'tool_return_message') {
      yield* flush();
      const body = text(o.tool_return);
      yield makeRow('tool_result', str(o.status) === 'error' ? `[error] ${body}` : body, { ...f, tool_use_id: str(o.tool_call_id) });
    } else if (type === 'stop_reason') {
      yield* flush();
      yield makeRow('system', `stop: ${str(o.stop_reason)}`, f);
    } else if (type === 'error_message') {
      yield* flush();
      yield makeRow('system', `error: ${str(o.message) || text(o.detail) || compactJson(o)}`, f);
    } else {
      yield* flush();
      ctx.unknown(`chunk ${type || '(no message_type)'}`, l.line);
      yield makeRow('system', `chunk: ${compactJson(o)}`, f);
    }
  }
  yield* flush();
}
