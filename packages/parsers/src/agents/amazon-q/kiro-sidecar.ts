import { posix } from 'node:path';
import { compactJson } from '../../sdk/compact-json.js';
import { asArray, asNumber, asString, isObject, type JsonObject } from '../../sdk/decode.js';
import { readJsonDocument } from '../../sdk/json-document.js';
import { makeRow } from '../../sdk/row.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { Artifact, ParseContext, Row } from '../../sdk/types.js';

const obj = (v: unknown): JsonObject => (isObject(v) ? v : {});
const str = (v: unknown): string => asString(v) ?? '';

/**
 * A Kiro CLI session sidecar `<uuid>.json` (real, 2.6.0): the session (title, cwd, why it was
 * created, the parent of a /rewind fork, the agent, the model), one row per user turn (how it
 * ended, tokens, credits, tool uses, at its end time) and the session's standing permissions
 * (trusted and denied tools, allowed commands and paths). The cwd, name and client facts.
 */
export async function* parseKiroSidecar(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const r = await readJsonDocument(a);
  if (!r.ok) {
    yield r.row;
    return;
  }
  const s = obj(r.value);
  const id = str(s.session_id) || posix.basename(a.rel).replace(/\.json$/, '');
  const state = obj(s.session_state);
  const model = str(obj(obj(state.rts_model_state).model_info).model_id);
  const cwd = str(s.cwd);
  const created = toUtc(s.created_at);
  const f = { session_id: id, project_path: cwd, model };
  if (cwd) ctx.fact({ session_id: id, key: 'cwd', value: cwd, priority: 1 });
  if (str(s.title)) ctx.fact({ session_id: id, key: 'name', value: str(s.title), priority: 2 });
  ctx.fact({ session_id: id, key: 'client', value: 'kiro-cli', priority: 1 });
  const extra = [['created_reason', s.session_created_reason], ['parent', s.parent_session_id], ['agent', state.agent_name]].filter(([, v]) => str(v)).map(([k, v]) => `${k}=${str(v)}`);
  yield makeRow('system', `session: ${str(s.title)} cwd=${cwd}${extra.length ? ` ${extra.join(' ')}` : ''}`, { ...f, timestamp_utc: created, tag: 'session_start' });
  if (str(s.title)) yield makeRow('system', `session name: ${str(s.title)}`, { ...f, timestamp_utc: created, tag: 'session_name' });
  const turns = asArray(obj(state.conversation_metadata).user_turn_metadatas) ?? [];
  for (const [i, t] of turns.entries()) {
    const turn = obj(t);
    const credits = (asArray(turn.metering_usage) ?? []).reduce<number>((n, u) => n + (asNumber(obj(u).value) ?? 0), 0);
    const text = `turn end ${str(turn.end_reason) || '?'}: tokens in/out ${asNumber(turn.input_token_count) ?? 0}/${asNumber(turn.output_token_count) ?? 0} credits=${Number(credits.toFixed(6))} requests=${asNumber(turn.total_request_count) ?? 0} tool uses=${asNumber(turn.builtin_tool_uses) ?? 0}`;
    yield makeRow('system', text, { ...f, timestamp_utc: toUtc(turn.end_timestamp), source_line: i + 1, tag: 'turn_end' });
  }
  const perms = obj(state.permissions);
  const lists: [string, unknown][] = [
    ['trusted_tools', perms.trusted_tools],
    ['denied_tools', perms.denied_tools],
    ['allowed_commands', perms.allowed_commands],
    ...Object.entries(obj(perms.filesystem)),
  ];
  for (const [k, v] of lists) {
    const list = asArray(v);
    if (list && list.length > 0) yield makeRow('system', `permission setting: ${k}=${list.map((x) => str(x) || compactJson(x)).join(', ')}`, { ...f, timestamp_utc: toUtc(s.updated_at) || created, tag: 'permission_setting' });
  }
}
