import { compactJson } from '../../sdk/compact-json.js';
import { asNumber, asString, isObject, type JsonObject } from '../../sdk/decode.js';
import { makeRow } from '../../sdk/row.js';
import type { Row } from '../../sdk/types.js';
import { base, ms, type SessionCtx, type Where } from './session-context.js';
import { argsText, mdText, type RoundBook, type RoundCall, thinkingText } from './tools.js';
import { uriRepr, uriToPath } from './uri.js';

/** What the part rows of one request need from it. */
export interface RequestView {
  parts: unknown[];
  book: RoundBook;
  where: Where;
  /** Epoch ms of the request, and of its completion (modelState.completedAt), when known. */
  sent?: number;
  completed?: number;
  model: string;
}

// Parts VS Code renders that carry nothing a row needs (spec, "other parts": no row).
const SILENT = new Set(['undoStop', 'progressMessage', 'progressTask', 'progressTaskSerialized', 'mcpServersStarting', 'prepareToolInvocation', 'pullRequest', 'extensions', 'command', 'treeData', 'references', 'followups', 'codeCitation', 'clearToPreviousToolInvocation', 'disabledClaudeHooks', 'multiDiffData', 'textEdit', 'notebookEdit', 'usedContext']);
const RUN = new Set(['markdownContent', 'markdownVuln', 'inlineReference', 'codeblockUri']);
const EDITS = new Set(['textEditGroup', 'notebookEditGroup', 'workspaceEdit', 'externalEdit']);
const ASKS = new Set(['confirmation', 'elicitationSerialized', 'elicitation', 'questionCarousel', 'planReview']);
const DECISIONS: Record<number, string> = { 0: 'denied', 1: 'not-needed', 5: 'skipped' };

/** The rows of a request's response parts, in display order (spec, Parser plan). */
export function* partRows(s: SessionCtx, v: RequestView): Generator<Row> {
  const sentTs = ms(v.sent);
  let run: { text: string[]; first: number } | null = null;
  let roundCursor = 0;
  let lastTool: { name: string; at: string } | null = null;
  const row = (turn: Row['turn_type'], text: string, j: number, f: Partial<Row> = {}) => makeRow(turn, text, base(s, { model: v.model, source_line: v.where.part(j), ...f }));

  const flush = (): Row | undefined => {
    if (!run) return undefined;
    const text = run.text.join('').trim();
    const first = run.first;
    run = null;
    if (text === '') return undefined;
    // The round whose response holds the run says when the model wrote it.
    let at = '';
    for (let r = roundCursor; r < v.book.responses.length; r++) {
      if (v.book.responses[r] !== '' && v.book.responses[r].includes(text)) {
        roundCursor = r;
        at = ms(v.book.times[r]);
        break;
      }
    }
    return row('assistant', text, first, { timestamp_utc: at || ms(v.completed) || sentTs });
  };

  for (let j = 0; j < v.parts.length; j++) {
    const p = v.parts[j];
    const kind = isObject(p) ? asString(p.kind) : undefined;
    if (kind === undefined || RUN.has(kind)) {
      const text = isObject(p) ? runText(p, kind) : typeof p === 'string' ? p : '';
      run ??= { text: [], first: j };
      run.text.push(text);
      continue;
    }
    const r = flush();
    if (r) yield r;
    const part = p as JsonObject;
    if (kind === 'thinking') {
      const text = thinkingText(part.value) ?? '';
      if (!s.includeThinking || text.trim() === '') continue;
      const round = v.book.thinking.findIndex((t) => t !== '' && t === text);
      yield row('thinking', text, j, { timestamp_utc: ms(v.book.times[round]) || sentTs });
    } else if (kind === 'toolInvocationSerialized' || kind === 'toolInvocation') {
      const toolId = asString(part.toolId) ?? '';
      // A request with no round calls of its own (a "Continue" request) shows calls the previous request's rounds hold.
      const carried = v.book.calls.length === 0 ? (s.held?.pair(toolId) as { call: RoundCall; view: RequestView } | undefined) : undefined;
      const call = carried?.call ?? v.book.pair(toolId);
      const rows = toolRows(s, v, part, call, j, carried?.view.book ?? v.book);
      lastTool = { name: call?.name || asString(part.toolId) || '', at: rows[0]?.timestamp_utc ?? sentTs };
      yield* rows;
    } else if (EDITS.has(kind)) {
      for (const uri of editUris(part)) yield row('system', `file changed: ${uri} tool=${lastTool?.name || '-'}`, j, { timestamp_utc: lastTool?.at || sentTs, tag: 'file_changed' });
    } else if (ASKS.has(kind)) {
      const answer = answerOf(part);
      const text = [`${kind}:`, mdText(part.title), mdText(part.message), answer ? `answer=${answer}` : ''].filter(Boolean).join(' ');
      yield row('system', text, j, { timestamp_utc: sentTs, tag: kind });
    } else if (kind === 'hook') {
      const f = [`hook ${asString(part.hookType) ?? '?'}:`, part.stopReason ? `stop=${asString(part.stopReason)}` : '', asString(part.systemMessage) ?? ''];
      yield row('system', f.filter(Boolean).join(' '), j, { timestamp_utc: sentTs, tag: 'hook' });
    } else if (kind === 'autoModeResolution') {
      yield row('system', autoModel(part), j, { timestamp_utc: sentTs, tag: 'model' });
    } else if (kind === 'warning') {
      yield row('system', `warning: ${mdText(part.content)}`, j, { timestamp_utc: sentTs, tag: 'warning' });
    } else if (!SILENT.has(kind)) s.ctx.unknown(`response part ${kind}`, v.where.part(j) ?? undefined);
  }
  const r = flush();
  if (r) yield r;
  // Calls of the rounds no part shows (tools that render nothing): the previous request's now, this
  // request's once the next one has shown its parts.
  yield* flushHeld(s);
  s.held = {
    pair: (toolId) => {
      const call = v.book.pair(toolId);
      return call ? { call, view: v } : undefined;
    },
    flush: function* () {
      for (const call of v.book.calls) if (!call.paired) yield* roundOnlyRows(s, v, call);
    },
  };
}

/** The held request's round calls no part showed, as rows from the rounds alone. */
export function* flushHeld(s: SessionCtx): Generator<Row> {
  const h = s.held;
  s.held = undefined;
  if (h) yield* h.flush();
}

function runText(p: JsonObject, kind: string | undefined): string {
  if (kind === undefined) return mdText(p);
  if (kind === 'markdownContent' || kind === 'markdownVuln') return mdText(p.content);
  if (kind === 'inlineReference') {
    const ref = p.inlineReference;
    if (isObject(ref) && isObject(ref.uri)) return uriRepr(ref.uri);
    if (isObject(ref) && typeof ref.name === 'string' && !('scheme' in ref)) return `\`${ref.name}\``;
    return asString(p.name) ?? uriRepr(ref);
  }
  return '';
}

/** tool_use, permission decision, tool_result and terminal rows of one tool part. */
function toolRows(s: SessionCtx, v: RequestView, part: JsonObject, call: RoundCall | undefined, j: number, book: RoundBook): Row[] {
  const toolId = asString(part.toolId) ?? '';
  const data = isObject(part.toolSpecificData) ? part.toolSpecificData : {};
  const id = call?.id || asString(part.toolCallId) || '';
  const at = ms(call ? book.times[call.round] : undefined) || ms(v.sent);
  const f = (extra: Partial<Row>) => base(s, { model: v.model, tool_name: toolId, tool_use_id: id, source_line: v.where.part(j), ...extra });
  let text = terminalCommand(data) ?? (call ? argsText(call.args) : undefined) ?? inputText(part, data) ?? mdText(part.invocationMessage);
  if (data.kind === 'subagent') text += ` agent=${asString(data.agentName) ?? ''} model=${asString(data.modelName) ?? ''}`;
  const rows = [makeRow('tool_use', text, f({ timestamp_utc: at }))];
  if (data.kind === 'subagent') rows.push(makeRow('system', `subagent: ${asString(data.agentName) ?? ''}: ${asString(data.prompt) ?? ''}`, f({ timestamp_utc: at, tag: 'subagent' })));
  const decision = decisionText(part.isConfirmed);
  if (decision) rows.push(makeRow('system', `permission decision: ${decision}`, f({ timestamp_utc: at, tag: 'permission_decision' })));
  const state = isObject(data.terminalCommandState) ? data.terminalCommandState : undefined;
  const start = asNumber(state?.timestamp);
  const end = start !== undefined ? start + (asNumber(state?.duration) ?? 0) : undefined;
  const output = isObject(data.terminalCommandOutput) ? asString(data.terminalCommandOutput.text) : undefined;
  const details = isObject(part.resultDetails) ? part.resultDetails : {};
  let result = (call ? book.resultText(call) : undefined) ?? output ?? outputText(details) ?? (mdText(part.pastTenseMessage) || undefined);
  if (result !== undefined && details.isError === true) result += ' [error]';
  const resultAt = ms(end) || ms(call ? book.nextTime(call.round) : undefined) || at;
  if (result !== undefined) rows.push(makeRow('tool_result', result, f({ timestamp_utc: resultAt })));
  if (state) {
    const cwd = data.cwd === undefined ? '' : uriToPath(data.cwd);
    const t = [`terminal exit: ${asString(state.exitCode) ?? '?'}`, state.duration !== undefined ? `duration=${asString(state.duration)}ms` : '', cwd ? `cwd=${cwd}` : ''];
    rows.push(makeRow('system', t.filter(Boolean).join(' '), f({ timestamp_utc: resultAt, tag: 'terminal_exit' })));
  }
  return rows;
}

function roundOnlyRows(s: SessionCtx, v: RequestView, call: RoundCall): Row[] {
  const at = ms(v.book.times[call.round]) || ms(v.sent);
  const f = (extra: Partial<Row>) => base(s, { model: v.model, tool_name: call.name, tool_use_id: call.id, source_line: v.where.field('result'), ...extra });
  let text = argsText(call.args);
  if (call.name === 'run_in_terminal') {
    try {
      const a = JSON.parse(call.args);
      if (isObject(a) && typeof a.command === 'string') text = a.command;
    } catch {
      // not JSON: the arguments as written
    }
  }
  const rows = [makeRow('tool_use', text, f({ timestamp_utc: at }))];
  const result = v.book.resultText(call);
  if (result !== undefined) rows.push(makeRow('tool_result', result, f({ timestamp_utc: ms(v.book.nextTime(call.round)) || at })));
  return rows;
}

function terminalCommand(data: JsonObject): string | undefined {
  if (data.kind !== 'terminal') return undefined;
  const c = data.commandLine;
  if (isObject(c)) return asString(c.userEdited) ?? asString(c.toolEdited) ?? asString(c.original);
  return asString(data.command);
}

function inputText(part: JsonObject, data: JsonObject): string | undefined {
  const d = part.resultDetails;
  if (isObject(d) && d.input !== undefined) return typeof d.input === 'string' ? argsText(d.input) : compactJson(d.input);
  if (data.kind === 'input' && data.rawInput !== undefined) return compactJson(data.rawInput);
  return undefined;
}

function outputText(d: JsonObject): string | undefined {
  if (!Array.isArray(d.output)) return undefined;
  const texts = d.output.filter((o): o is JsonObject => isObject(o) && o.isText === true && typeof o.value === 'string').map((o) => o.value as string);
  return texts.length > 0 ? texts.join('\n') : undefined;
}

/** ToolConfirmKind (chatService.ts): 0 Denied, 1 ConfirmationNotNeeded, 2 Setting, 3 LmServicePerTool, 4 UserAction, 5 Skipped; a boolean before 1.104. */
export function decisionText(c: unknown): string | undefined {
  if (c === true) return 'approved';
  if (c === false) return 'denied';
  if (!isObject(c) || typeof c.type !== 'number') return undefined;
  if (c.type === 2) return `auto-approved source=setting${c.id !== undefined ? ` id=${asString(c.id) ?? compactJson(c.id)}` : ''}`;
  if (c.type === 3) return `auto-approved source=tool${c.scope !== undefined ? ` scope=${asString(c.scope) ?? compactJson(c.scope)}` : ''}`;
  if (c.type === 4) return `approved source=user${c.selectedButton !== undefined ? ` button=${asString(c.selectedButton) ?? compactJson(c.selectedButton)}` : ''}`;
  return DECISIONS[c.type] ?? `type=${c.type}`;
}

function editUris(part: JsonObject): string[] {
  const one = (u: unknown) => (u === undefined ? '' : uriToPath(u));
  if (part.kind === 'workspaceEdit' && Array.isArray(part.edits)) {
    return part.edits.flatMap((e) => (isObject(e) ? [one(e.newResource) || one(e.oldResource)] : [])).filter(Boolean);
  }
  if (Array.isArray(part.uris)) return part.uris.map(one).filter(Boolean);
  const u = one(part.uri);
  return u ? [u] : [];
}

function answerOf(p: JsonObject): string {
  if (typeof p.state === 'string') return p.state;
  if (p.answers !== undefined) return compactJson(p.answers);
  if (p.isUsed === true) return 'used';
  if (p.isUsed === false) return 'none';
  return '';
}

function autoModel(p: JsonObject): string {
  const src = isObject(p.source) ? p.source : p;
  const resolved = asString(src.resolvedModel) ?? (isObject(p.resolved) ? asString(p.resolved.id) : undefined) ?? '?';
  const label = [asString(src.predictedLabel), asString(src.confidence)].filter(Boolean).join(' ');
  return `model: auto -> ${resolved}${label ? ` (${label})` : ''}`;
}

