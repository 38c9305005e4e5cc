import { posix } from 'node:path';
import { compactJson } from '../../sdk/compact-json.js';
import { asArray, asString, isObject, type JsonObject } from '../../sdk/decode.js';
import { readJsonDocument } from '../../sdk/json-document.js';
import { readJsonLines } from '../../sdk/line-reader.js';
import { badLineRow, makeRow } from '../../sdk/row.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { Artifact, ParseContext, Row } from '../../sdk/types.js';
import { jsonResult, toolText } from './conversation.js';

const obj = (v: unknown): JsonObject => (isObject(v) ? v : {});
const str = (v: unknown): string => asString(v) ?? '';

/** What the sidecar `<uuid>.json` adds to the transcript's rows: the model, and the time of each turn's reply. */
interface Sidecar {
  model: string;
  replyTimes: Map<string, string>;
}

async function readSidecar(a: Artifact): Promise<Sidecar> {
  const out: Sidecar = { model: '', replyTimes: new Map() };
  const sib = a.sibling(posix.basename(a.rel).replace(/\.jsonl$/, '.json'));
  if (!sib) return out;
  const r = await readJsonDocument(sib);
  if (!r.ok) return out;
  const state = obj(obj(r.value).session_state);
  out.model = str(obj(obj(state.rts_model_state).model_info).model_id);
  for (const t of asArray(obj(state.conversation_metadata).user_turn_metadatas) ?? []) {
    const turn = obj(t);
    const ok = obj(obj(turn.result).Ok);
    const ids = (asArray(turn.message_ids) ?? []).map(str);
    const at = toUtc(obj(ok.meta).timestamp) || toUtc(turn.end_timestamp);
    // message_ids = [prompt id, reply id]: the reply's time is the result's.
    if (ids.length > 1 && at) out.replyTimes.set(ids[ids.length - 1], at);
  }
  return out;
}

/** Text items of a record's content joined; other kinds (images) named. */
function textOf(content: unknown[]): string {
  return content
    .map((c) => {
      const o = obj(c);
      if (o.kind === 'text') return str(o.data);
      if (o.kind === 'toolUse' || o.kind === 'toolResult') return '';
      return `[${str(o.kind) || 'content'}]`;
    })
    .filter(Boolean)
    .join('\n');
}

/** A tool result's content items: JSON results (shell: stdout, stderr, exit status) and text. */
function resultOf(content: unknown): string {
  return (asArray(content) ?? []).map((c) => (obj(c).kind === 'json' ? jsonResult(obj(c).data) : obj(c).kind === 'text' ? str(obj(c).data) : compactJson(c))).join('\n');
}

/**
 * A Kiro CLI v2 transcript `~/.kiro/sessions/cli/<uuid>.jsonl` (seen in real 2.5-2.6 recordings):
 * `{version, kind: Prompt | AssistantMessage | ToolResults, data: {message_id, content, meta}}`.
 * Only prompts carry a time (`meta.timestamp`, epoch seconds); a reply takes its turn's reply time
 * from the sidecar when it names it, else its prompt's time (tag `time_turn`). Streamed pieces of
 * one message (consecutive records sharing a message_id) are joined. A `/rewind` fork begins by
 * repeating the kept turns (same message ids): those records give one row saying so, not copies.
 */
export async function* parseKiroSession(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const session = posix.basename(a.rel).replace(/\.jsonl$/, '');
  const side = await readSidecar(a);
  const seen = new Set<string>();
  let promptTs = '';
  let repeats = 0;
  const tools = new Map<string, string>();
  let run: { id: string; texts: string[]; tools: Row[]; line: number } | undefined;
  const base = (line: number) => ({ session_id: session, source_line: line });
  const flush = function* (): Generator<Row> {
    if (!run) return;
    const own = side.replyTimes.get(run.id);
    const time = own ? { timestamp_utc: own } : { timestamp_utc: promptTs, tag: 'time_turn' };
    const text = run.texts.filter(Boolean).join('');
    if (text) yield makeRow('assistant', text, { ...base(run.line), ...time, model: side.model });
    for (const t of run.tools) yield { ...t, ...time };
    run = undefined;
  };
  for await (const l of readJsonLines(a.stream())) {
    if (l.blank) continue;
    const o = l.value;
    if (!isObject(o)) {
      yield* flush();
      yield badLineRow(l.error ?? 'not a JSON object', l.text, l.line, { session_id: session });
      continue;
    }
    const kind = str(o.kind);
    const d = obj(o.data);
    const id = str(d.message_id);
    const content = asArray(d.content) ?? [];
    if (run && (kind !== 'AssistantMessage' || id !== run.id)) yield* flush();
    if (id && seen.has(id) && !(kind === 'AssistantMessage' && run?.id === id)) {
      if (repeats++ === 0) yield makeRow('system', `rewind fork: the records from line ${l.line} repeat turns kept from the parent session`, { ...base(l.line), timestamp_utc: promptTs, tag: 'session_metadata' });
      continue;
    }
    if (id) seen.add(id);
    if (kind === 'Prompt') {
      promptTs = toUtc(obj(d.meta).timestamp) || promptTs;
      yield makeRow('user', textOf(content), { ...base(l.line), timestamp_utc: promptTs });
    } else if (kind === 'AssistantMessage') {
      run ??= { id, texts: [], tools: [], line: l.line };
      run.texts.push(textOf(content));
      for (const c of content) {
        const u = obj(obj(c).data);
        if (obj(c).kind !== 'toolUse') continue;
        const name = str(u.name);
        tools.set(str(u.toolUseId), name);
        run.tools.push(makeRow('tool_use', toolText(name, u.input), { ...base(l.line), model: side.model, tool_name: name, tool_use_id: str(u.toolUseId) }));
      }
    } else if (kind === 'ToolResults') {
      for (const c of content) {
        const r = obj(obj(c).data);
        if (obj(c).kind !== 'toolResult') continue;
        const text = resultOf(r.content);
        const ok = str(r.status) === '' || str(r.status).toLowerCase() === 'success';
        yield makeRow('tool_result', ok ? text : `[error] ${text}`, { ...base(l.line), timestamp_utc: promptTs, tag: 'time_turn', tool_name: tools.get(str(r.toolUseId)) ?? '', tool_use_id: str(r.toolUseId) });
      }
    } else ctx.unknown(`record ${kind || '(no kind)'}`, l.line);
  }
  yield* flush();
  if (repeats > 0) ctx.warn(`${a.rel}: ${repeats} records repeat turns of the parent session (a /rewind fork); one row says so`);
}
