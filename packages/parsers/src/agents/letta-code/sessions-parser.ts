/**
 * `.letta/sessions.jsonl` (letta-ai/letta-code src/agent/sessionHistory.ts): a line appended when
 * a session starts (usage all zero) and one when it ends (its totals, `exit_reason`), for both
 * backends. With the default api backend the conversation itself is on the Letta server, so these
 * lines, with the chunk logs, are often all a machine holds of a session.
 */
import { asNumber, asString, isObject, type JsonObject } from '../../sdk/decode.js';
import { readJsonLines } from '../../sdk/line-reader.js';
import { badLineRow, makeRow } from '../../sdk/row.js';
import type { Artifact, ParseContext, Row } from '../../sdk/types.js';
import { lettaTime } from './transcript-parser.js';

const str = (v: unknown): string => asString(v) ?? '';
const obj = (v: unknown): JsonObject => (isObject(v) ? v : {});
const num = (v: unknown): number => asNumber(v) ?? 0;

function costText(c: JsonObject): string {
  const type = str(c.type);
  if (c.usd_byok !== undefined) return `${type || 'byok'} $${num(c.usd_byok)}`;
  if (c.credits_used !== undefined) return `${type || 'hosted'} ${num(c.credits_used)} credits`;
  return type || '-';
}

/** One row per line: the session's start, or its end with its totals. */
export async function* parseLettaSessions(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  for await (const l of readJsonLines(a.stream())) {
    if (l.blank) continue;
    const o = l.value;
    if (!o) {
      yield badLineRow(l.error ?? 'not a JSON object', l.text, l.line);
      continue;
    }
    const session = str(o.session_id);
    const project = str(o.project);
    const model = str(o.model);
    const u = obj(o.usage);
    const d = obj(o.duration);
    if (project && session) ctx.fact({ session_id: session, key: 'cwd', value: project, priority: 2 });
    const ended = str(o.exit_reason) !== '' || num(u.total_tokens) > 0 || num(d.wall_ms) > 0;
    const who = [`agent=${str(o.agent_id) || '-'}`, `model=${model || '-'}`, `provider=${str(o.provider) || '-'}`];
    const text = ended
      ? `session summary: ${who.join(' ')} messages=${num(o.message_count)} tools=${num(o.tool_call_count)} tokens=${num(u.prompt_tokens)}/${num(u.completion_tokens)} steps=${num(u.steps)} wall=${Math.round(num(d.wall_ms) / 1000)}s cost=${costText(obj(o.cost))} exit=${str(o.exit_reason) || '-'}`
      : `session started: ${who.join(' ')}`;
    const time = lettaTime(o.timestamp);
    yield makeRow('system', text, { session_id: session, project_path: project, model, source_line: l.line, ...(time ? { timestamp_utc: time } : { timestamp_utc: a.mtime, tag: 'time_file' }), ...(time ? { tag: ended ? 'session_end' : 'session_start' } : {}) });
  }
}
