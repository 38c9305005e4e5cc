import { asArray, asObject, asString, isObject, type JsonObject } from '../../sdk/decode.js';
import { readJsonArray } from '../../sdk/json-stream.js';
import { makeRow } from '../../sdk/row.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { Artifact, ParseContext, Parser, Row } from '../../sdk/types.js';
import { callText, contentTexts, outputText } from './content.js';
import { LEGACY_JSON_RE, sessionIdFromPath } from './paths.js';
import { sessionMeta } from './rollout-context.js';
import { type Outcome, responseItem } from './rollout-items.js';
import { type Draft, RolloutState } from './rollout-state.js';

/** Tags the analyzer acts on: kept instead of `time_session`. */
const KEEP_TAGS = new Set(['session_start', 'permission_mode', 'bad_line']);

/**
 * One item of a TypeScript CLI session: a Responses API item (`type`), or, with a chat
 * completions provider (real, August 2025), a chat message {role, content, tool_calls,
 * reasoning, tool_call_id}.
 */
function tsItem(st: RolloutState, item: JsonObject): Outcome {
  if (typeof item.type === 'string') return responseItem(st, item, '');
  const role = asString(item.role) ?? '';
  if (role === 'tool') {
    const id = asString(item.tool_call_id) ?? '';
    return [{ turn: 'tool_result', text: outputText(item.content), tool_name: st.toolOf(id), tool_use_id: id }];
  }
  if (role !== 'assistant') return responseItem(st, { ...item, type: 'message' }, '');
  const out: Draft[] = [];
  const reasoning = asString(item.reasoning);
  if (reasoning && st.ctx.options.includeThinking) out.push({ turn: 'thinking', text: reasoning });
  const text = contentTexts(item.content)
    .map((t) => t.text)
    .join('\n');
  // The CLI wrote its own notices as assistant messages; a mode switch is a policy change.
  const mode = /^Switched approval mode to (\S+)\s*$/.exec(text);
  if (mode) out.push({ turn: 'system', text: `approval policy: ${mode[1]} (TypeScript CLI notice)`, tag: 'permission_mode' });
  else if (text) out.push({ turn: 'assistant', text });
  for (const c of asArray(item.tool_calls) ?? []) {
    const f = asObject(asObject(c)?.function) ?? {};
    const name = asString(f.name) ?? '';
    const id = asString(asObject(c)?.id) ?? '';
    st.remember(id, name);
    out.push({ turn: 'tool_use', text: callText(name, f.arguments), tool_name: name, tool_use_id: id });
  }
  return out.length > 0 ? out : 'empty assistant message';
}

async function* parseLegacyJson(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const st = new RolloutState(ctx, sessionIdFromPath(a.rel));
  let sessionTs = '';
  const finish = (d: Draft, index: number | null): Row => {
    const keep = d.tag !== undefined && KEEP_TAGS.has(d.tag);
    const tag = sessionTs && !keep ? 'time_session' : d.tag;
    return makeRow(d.turn, d.text, { timestamp_utc: d.ts || sessionTs, session_id: st.sessionId, project_path: st.cwd, model: st.model, tool_name: d.tool_name ?? '', tool_use_id: d.tool_use_id ?? '', source_line: index, ...(tag ? { tag } : {}) });
  };
  for await (const ev of readJsonArray(a.stream(), ['items'])) {
    if (ev.kind === 'field' && ev.path.length === 1 && ev.path[0] === 'session' && isObject(ev.value)) {
      sessionTs = toUtc(ev.value.timestamp);
      const meta = sessionMeta(st, ev.value, sessionTs);
      if (typeof meta !== 'string') for (const d of meta) yield finish(d, null);
    } else if (ev.kind === 'item') {
      if (!isObject(ev.value)) {
        ctx.warn(`item ${ev.index + 1}: expected an object, found ${typeof ev.value}`, ev.index + 1);
        continue;
      }
      const out = tsItem(st, ev.value);
      if (typeof out !== 'string') for (const d of out) yield finish(d, ev.index + 1);
    } else if (ev.kind === 'bad') {
      yield makeRow('system', `parser: unparseable item ${ev.index + 1} (${ev.reason}): ${ev.preview}`, { timestamp_utc: sessionTs, session_id: st.sessionId, source_line: ev.index + 1, tag: 'bad_line' });
    } else if (ev.kind === 'end' && (!ev.complete || !ev.found)) {
      const why = !ev.found ? 'expected a TypeScript CLI session {session, items[]}, found no items array' : `the document is cut after ${ev.items} items (${ev.reason ?? 'not closed'})`;
      yield makeRow('system', `parser: unreadable file (${why})`, { timestamp_utc: sessionTs || a.mtime, session_id: st.sessionId, tag: 'unreadable' });
    }
  }
}

/** The TypeScript CLI's JSON sessions (April to August 2025): `sessions/rollout-<date>-<uuid>.json`, `sessions/<uuid>.json`. */
export const legacySessionParser: Parser = {
  agent: 'codex-cli',
  name: 'legacy-session',
  patterns: ['<codex>/sessions/rollout-YYYY-MM-DD-<uuid>.json', '<codex>/sessions/<uuid>.json'],
  wants: (rel) => LEGACY_JSON_RE.test(rel),
  // Each debounced save of the first builds got a fresh id, so the copies are sessions of their
  // own that no other source holds: primary.
  secondary: () => false,
  secondaryToleranceSeconds: () => 0,
  recordsSync: false,
  parse: (a, ctx) => parseLegacyJson(a, ctx),
};
