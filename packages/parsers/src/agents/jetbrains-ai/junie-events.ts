/**
 * A Junie session, `~/.junie/sessions/<id>/events.jsonl` (real sessions and peer parsers; see
 * blocks.ts): `{kind, timestampMs, ...}` lines; the agent's work inside `SessionA2uxEvent`
 * envelopes (`event.agentEvent`). A first pass finds each block's first line and time and its
 * last line; the second gives its rows from the last state, dated when it started.
 */
import { compactJson } from '../../sdk/compact-json.js';
import { asArray, asNumber, asString, isObject, type JsonObject } from '../../sdk/decode.js';
import { readJsonLines } from '../../sdk/line-reader.js';
import { badLineRow, makeRow } from '../../sdk/row.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { Artifact, ParseContext, Row } from '../../sdk/types.js';
import { blockKey, blockRows, shortKind } from './blocks.js';

const str = (v: unknown): string => asString(v) ?? '';
const obj = (v: unknown): JsonObject => (isObject(v) ? v : {});

/** Kinds with no row, on purpose: UI state, hints, token meters, and the environment (its values are the user's secrets). */
const QUIET = new Set(['UserMessagesCommittedToHistory', 'UserMessagesDroppedFromHistory', 'UserMessagesFailedInHistory', 'ContextWindowReportEvent', 'AgentCurrentStatusUpdatedEvent', 'TipSuggestionCreatedEvent', 'NextPromptSuggestionEvent', 'EnvironmentVariablesUpdatedEvent', 'AgentStateUpdatedEvent', 'SendToAgentEvent', 'SkillsStatusEvent', 'AuthorizationAvailabilityEvent', 'AvailablePullRequestsEvent', 'AgentStartedEvent']);

interface Span {
  first: number;
  last: number;
  time: string;
}

/** A user's answer that decides a tool approval ("Always allow (…)", "Deny"). */
const DECISION = /^(?:always allow|allow|approve|deny|reject|skip)\b/i;

/** The session's rows: prompts, the blocks in their last state, titles, model, task ends. */
export async function* parseJunieEvents(a: Artifact, ctx: ParseContext): AsyncGenerator<Row> {
  const session = a.rel.split('/').at(-2) ?? '';
  const spans = new Map<string, Span>();
  for await (const l of readJsonLines(a.stream())) {
    const e = obj(obj(l.value?.event).agentEvent);
    const key = l.value && shortKind(l.value.kind) === 'SessionA2uxEvent' ? blockKey(e) : '';
    if (!key) continue;
    const s = spans.get(key);
    if (s) s.last = l.line;
    else spans.set(key, { first: l.line, last: l.line, time: toUtc(l.value?.timestampMs) });
  }
  let cwd = '';
  let model = '';
  const time = (v: unknown) => {
    const t = toUtc(v);
    return t ? { timestamp_utc: t } : { timestamp_utc: a.mtime, tag: 'time_file' };
  };
  for await (const l of readJsonLines(a.stream())) {
    if (l.blank) continue;
    const o = l.value;
    if (!o) {
      yield badLineRow(l.error ?? 'not a JSON object', l.text, l.line, { session_id: session, project_path: cwd });
      continue;
    }
    const f = (extra: Partial<Row> = {}): Partial<Row> => ({ session_id: session, project_path: cwd, source_line: l.line, ...time(o.timestampMs), ...extra });
    const setModel = function* (m: string, at: Partial<Row>): Generator<Row> {
      if (!m || m === model) return;
      yield makeRow('system', model ? `model: ${model} -> ${m}` : `model: ${m}`, { ...at, model: m, tag: 'model' });
      model = m;
    };
    const kind = shortKind(o.kind);
    if (kind === 'SessionA2uxEvent') {
      const e = obj(obj(o.event).agentEvent);
      const inner = shortKind(e.kind);
      const key = blockKey(e);
      if (key) {
        const s = spans.get(key);
        if (s && s.last !== l.line) continue;
        // A block's row is dated when it started; its last state (often the rebroadcast at the task's end) gives the text.
        const at = s?.time ? { timestamp_utc: s.time } : time(o.timestampMs);
        yield* blockRows(e, { session_id: session, project_path: cwd, source_line: s?.first ?? l.line, ...at, model }, ctx);
      } else if (inner === 'CurrentDirectoryUpdatedEvent') {
        if (str(e.currentDirectory)) {
          cwd = str(e.currentDirectory);
          ctx.fact({ session_id: session, key: 'cwd', value: cwd, priority: 1, ...(toUtc(o.timestampMs) ? { at: toUtc(o.timestampMs) } : {}) });
        }
      } else if (inner === 'AgentTaskNameUpdatedEvent') {
        ctx.fact({ session_id: session, key: 'name', value: str(e.name), priority: 1 });
        yield makeRow('system', `session name: ${str(e.name)}`, f({ tag: 'session_name' }));
      } else if (inner === 'LlmResponseMetadataEvent') {
        for (const u of asArray(e.modelUsage) ?? []) yield* setModel(str(obj(u).model), f());
      } else if (inner === 'SubagentSpawnedEvent') {
        yield makeRow('system', `sub-agent spawned: ${str(e.name)}: ${str(e.task)}`, f());
      } else if (inner === 'AgentPatchCreatedEvent' || inner === 'SuggestPlanEvent' || inner === 'AgentPlanUpdatedEvent') {
        yield makeRow('system', `${inner.replace(/Event$/, '')}: ${compactJson(inner === 'AgentPatchCreatedEvent' ? e.patch : (e.sections ?? e.items ?? null))}`, f());
      } else if (inner === 'AgentFailureEvent') {
        yield makeRow('system', `agent failure: ${str(e.message)} ${str(e.errorCode)}`.trimEnd(), f());
      } else if (!QUIET.has(inner)) {
        ctx.unknown(`agent event ${inner || '(no kind)'}`, l.line);
        yield makeRow('system', `agent event: ${compactJson(e)}`, f());
      }
      const done = obj(o.completion);
      if (asNumber(done.endedAtMs) !== undefined) {
        const secs = ((asNumber(done.endedAtMs) ?? 0) - (asNumber(done.startedAtMs) ?? 0)) / 1000;
        yield makeRow('system', `task completed in ${secs.toFixed(1)} s${asNumber(done.taskCostUsd) !== undefined ? `, cost $${asNumber(done.taskCostUsd)}` : ''}`, f(time(done.endedAtMs)));
      }
    } else if (kind === 'UserPromptEvent') {
      for (const at of asArray(o.customAttachments) ?? []) if (str(obj(at).kind) === 'ModelForLaunchAttachment') yield* setModel(str(obj(at).modelId), f());
      for (const at of asArray(o.extraAttachments) ?? []) {
        for (const s of asArray(obj(at).mcpServers) ?? []) {
          const m = obj(s);
          const env = (asArray(m.env) ?? []).map(obj);
          ctx.mcp({ name: str(m.name), scope: '', transport: 'stdio', command: str(m.command), args: (asArray(m.args) ?? []).map(str), env_keys: env.map((x) => str(x.key)), secrets: env.filter((x) => str(x.value)).map((x) => ({ where: `env ${str(x.key)}`, value: str(x.value) })), line: l.line });
        }
      }
      const typed = str(o.presentablePrompt) || str(o.prompt);
      yield makeRow('user', typed, f());
      if (str(o.prompt) && str(o.prompt) !== typed) yield makeRow('system', `context: ${str(o.prompt)}`, f({ tag: 'context' }));
    } else if (kind === 'UserResponseEvent') {
      yield makeRow('user', str(o.prompt), f());
      if (DECISION.test(str(o.prompt))) yield makeRow('system', `permission decision: ${str(o.prompt)}`, f({ tag: 'permission_decision' }));
    } else if (kind === 'UserAsyncResponseEvent') {
      for (const q of asArray(o.entries) ?? []) yield makeRow('user', `${str(obj(q).question)}\n> ${str(obj(q).answer)}`, f());
    } else if (kind === 'TaskStartedEvent') {
      yield makeRow('system', `task started: ${str(o.taskId)}`, f());
    } else if (kind === 'TaskState') {
      yield makeRow('system', `task ${str(o.state).toLowerCase()}`, f());
    } else if (kind === 'SessionTitleSetEvent') {
      ctx.fact({ session_id: session, key: 'name', value: str(o.name), priority: 1 });
      yield makeRow('system', `session name: ${str(o.name)}`, f({ tag: 'session_name' }));
    } else if (kind === 'SystemMessageEvent') {
      yield makeRow('system', `${str(o.text)}${str(o.details) ? `\n${str(o.details)}` : ''}`, f());
    } else if (kind === 'AgentTaskFailedEvent' || kind === 'CancelAgentEvent' || kind === 'TaskContinueStopped') {
      yield makeRow('system', kind === 'AgentTaskFailedEvent' ? 'task failed' : kind === 'CancelAgentEvent' ? 'task cancelled by the user' : 'task stopped', f());
    } else if (!QUIET.has(kind)) {
      ctx.unknown(`event ${kind || '(no kind)'}`, l.line);
      yield makeRow('system', `event: ${compactJson(o)}`, f());
    }
  }
}
