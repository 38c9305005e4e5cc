/**
 * `tasks/<id>/ui_messages.json`: the task as the user saw it, one JSON array written whole, every
 * element timed (`ts`, epoch ms). Streamed with readJsonArray; the API history beside it is
 * indexed first (join.ts) so tool rows it holds with ids are left to it.
 */
import { asObject, asString, isObject, type JsonObject } from '../../sdk/decode.js';
import { readJsonArray } from '../../sdk/json-stream.js';
import { makeRow, unreadableRow } from '../../sdk/row.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { Artifact, ParseContext, Row } from '../../sdk/types.js';
import { cwdIn, decisionIn } from './content.js';
import { API_NAMES, type ApiIndex, historyIndex, indexApi, siblingOf, toolTarget } from './join.js';
import { type Draft, TaskState } from './task-state.js';
import { uiKind } from './ui-kinds.js';
import { apiRequestText, condenseText, noticeDraft, questionText, uiOutputTool, uiTool, userText } from './ui-rows.js';
import { pushAll } from '../../sdk/push-all.js';

const DEFERRED = 'deferred';
const RESULT_HEADS = /\[([A-Za-z_][\w.-]*)(?: for [^\n]*?)?\] Result:[ \t]*\r?\n?/g;

/** Tool outputs streamed in chunks (`command_output` asks share one ts) become one result row. */
interface PendingOutput {
  tool: string;
  parts: string[];
  line: number;
  ts: unknown;
}

class UiRun {
  sawRequest = false;
  ranks = new Map<number, number>();
  globalRank = 0;
  lastToolCovered = false;
  pending: PendingOutput | undefined;
  /** Why the current message gave no row (for tests' accounting). */
  skip = '';

  constructor(
    readonly st: TaskState,
    readonly api: ApiIndex | undefined,
  ) {}

  /** Whether the API history holds this UI tool row (see join.ts). */
  covered(j: number | undefined): boolean {
    if (!this.api) return false;
    if (j === undefined) return this.globalRank++ < this.api.totalActions;
    const k = toolTarget(this.api.roles, j);
    if (k === undefined) return false;
    const rank = this.ranks.get(k) ?? 0;
    this.ranks.set(k, rank + 1);
    return rank < (this.api.actions[k] ?? 0);
  }

  flush(): Row[] {
    const p = this.pending;
    this.pending = undefined;
    return p ? [this.st.row({ turn: 'tool_result', text: p.parts.join(''), tool_name: p.tool, ts: p.ts }, p.line)] : [];
  }
}

/** Observers a test can attach to a parse. */
export interface ParseHooks {
  /** Called once for every record that gives no row, with why. */
  onSkip?(line: number, reason: string): void;
}

/** Parse a task's UI log into rows. */
export async function* parseUiMessages(a: Artifact, ctx: ParseContext, taskId: string, hooks: ParseHooks = {}): AsyncGenerator<Row> {
  const apiFile = siblingOf(a, API_NAMES);
  const run = new UiRun(new TaskState(ctx, taskId), apiFile ? await indexApi(apiFile) : undefined);
  for await (const ev of readJsonArray(a.stream(), [])) {
    if (ev.kind === 'item') {
      const line = ev.index + 1;
      if (!isObject(ev.value)) {
        yield* run.flush();
        yield run.st.row({ turn: 'system', text: `parser: unparseable ui message ${line} (not a JSON object)`, tag: 'bad_line' }, line);
        continue;
      }
      run.skip = '';
      const out = messageDrafts(run, ev.value, line);
      if (out.length === 0 && run.skip !== DEFERRED) hooks.onSkip?.(line, run.skip || 'no row');
      for (const d of out) yield 'turn' in d ? run.st.row(d, line) : d.row;
    } else if (ev.kind === 'bad') {
      yield* run.flush();
      yield run.st.row({ turn: 'system', text: `parser: unparseable ui message ${ev.index + 1} (${ev.reason}): ${ev.preview}`, tag: 'bad_line' }, ev.index + 1);
    } else if (ev.kind === 'end') {
      yield* run.flush();
      if (!ev.found) yield unreadableRow(`expected a JSON array of UI messages, found ${ev.reason ?? 'another JSON value'}`, { session_id: taskId, timestamp_utc: a.mtime });
      else if (!ev.complete) yield makeRow('system', `parser: unparseable ui_messages.json (${ev.reason ?? 'incomplete document'}); ${ev.items} messages read`, { session_id: taskId, timestamp_utc: run.st.lastTs, tag: 'bad_line' });
    }
  }
}

type Out = Draft | { row: Row };

function messageDrafts(run: UiRun, v: JsonObject, line: number): Out[] {
  const st = run.st;
  const type = asString(v.type) ?? '';
  const kind = asString(type === 'ask' ? v.ask : v.say) ?? '';
  const ui = uiKind(type, kind);
  const ts = v.ts;
  const text = asString(v.text) ?? '';
  if (ui === 'tool_output') {
    if (run.lastToolCovered) {
      run.skip = 'output of a tool call the API history holds';
      return [];
    }
    const tool = uiOutputTool(kind);
    if (run.pending && run.pending.tool === tool) {
      run.pending.parts.push(text);
      run.skip = 'a chunk of the output row above';
      return [];
    }
    const out: Out[] = run.flush().map((row) => ({ row }));
    run.pending = { tool, parts: [text], line, ts };
    // Its row comes when the output ends (flush), with this message's line.
    run.skip = DEFERRED;
    return out;
  }
  const out: Out[] = [...run.flush().map((row) => ({ row })), ...st.modelInfo(v.modelInfo, ts)];
  if (ui === undefined) {
    st.ctx.unknown(`${type || '(no type)'} ${kind || '(no kind)'}`, line);
    out.push({ turn: 'system', text: `${type || 'message'} ${kind || '(no kind)'}${text ? `: ${text}` : ''}`, ts, tag: 'unknown' });
    return out;
  }
  switch (ui) {
    case 'user':
      if (userText(v)) out.push({ turn: 'user', text: userText(v), ts });
      break;
    case 'text':
      // Cline 3.x writes the typed task as the first `say text` (before any request); later ones are replies.
      if (!run.sawRequest) {
        if (userText(v)) out.push({ turn: 'user', text: userText(v), ts });
      } else if (text) out.push({ turn: 'assistant', text, ts });
      break;
    case 'thinking':
      if (text && st.ctx.options.includeThinking) out.push({ turn: 'thinking', text, ts });
      break;
    case 'completion':
      if (text) out.push({ turn: 'assistant', text, ts, tag: 'completion' });
      break;
    case 'question':
      out.push({ turn: 'assistant', text: questionText(text), ts, tag: 'question' });
      break;
    case 'api_request':
      pushAll(out, apiRequest(run, text, ts));
      break;
    case 'tool': {
      const t = uiTool(kind, text);
      const covered = run.covered(historyIndex(v));
      run.lastToolCovered = covered;
      if (type === 'ask') out.push({ turn: 'system', text: `approval requested: ${t.name} ${t.text}`, tool_name: t.name, ts, tag: 'permission_request' });
      if (!covered) out.push({ turn: 'tool_use', text: t.text, tool_name: t.name, ts });
      break;
    }
    case 'denied':
      out.push({ turn: 'system', text: `denied: ${text}`, tool_name: 'execute_command', ts, tag: 'permission_decision' });
      break;
    case 'user_edit': {
      const o = asObject(text);
      out.push({ turn: 'system', text: `user edited the proposed change${o ? `: ${asString(o.path) ?? ''}\n${asString(o.diff) ?? ''}` : `: ${text}`}`.trimEnd(), ts, tag: 'user_edit' });
      break;
    }
    case 'checkpoint':
      out.push({ turn: 'system', text: `checkpoint ${asString(v.lastCheckpointHash) ?? asString(asObject(v.checkpoint)?.hash) ?? text}`.trimEnd(), ts, tag: 'checkpoint' });
      break;
    case 'progress':
      out.push({ turn: 'system', text: `task progress:\n${text}`, ts, tag: 'task_progress' });
      break;
    case 'condense':
      out.push({ turn: 'system', text: condenseText(v), ts, tag: 'compaction' });
      break;
    case 'subtask_result':
      out.push({ turn: 'tool_result', text, tool_name: 'new_task', ts });
      break;
    case 'resume':
      out.push({ turn: 'system', text: `task reopened (${kind})`, ts, tag: 'session_resume' });
      break;
    case 'error':
      out.push(noticeDraft(kind, text, ts, 'error'));
      break;
    case 'notice':
      out.push(noticeDraft(kind, text, ts));
      break;
    default:
      run.skip = `marker ${kind}`;
      break;
  }
  if (out.length === 0 && !run.skip) run.skip = ui === 'tool' ? 'tool call the API history holds' : ui === 'thinking' && text ? 'reasoning (without --include-thinking)' : `empty ${type} ${kind}`;
  return out;
}

/** `api_req_started`: the usage row, the working directory its request names, and the decisions its tool results state. */
function apiRequest(run: UiRun, text: string, ts: unknown): Draft[] {
  const st = run.st;
  run.sawRequest = true;
  const info = asObject(text);
  const request = asString(info?.request) ?? '';
  const cwd = cwdIn(request);
  const at = toUtc(ts);
  if (cwd) st.ctx.fact({ session_id: st.sessionId, key: 'cwd', value: cwd, priority: 1, ...(at ? { at } : {}) });
  const out: Draft[] = [{ turn: 'system', text: apiRequestText(info), ts, tag: 'api_request' }];
  for (const m of request.matchAll(RESULT_HEADS)) {
    const d = decisionIn(request.slice((m.index ?? 0) + m[0].length));
    if (d) out.push({ turn: 'system', text: `${d.decision}: ${m[1]}${d.feedback ? `\nfeedback: ${d.feedback}` : ''}`, tool_name: m[1], ts, tag: 'permission_decision' });
  }
  return out;
}
