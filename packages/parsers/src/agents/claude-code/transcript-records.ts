import { compactJson } from '../../sdk/compact-json.js';
import { asArray, asBool, asObject, asString, isObject, type JsonObject } from '../../sdk/decode.js';
import { toUtc } from '../../sdk/timestamp.js';
import { blocksText } from './content-text.js';
import { attachmentLine } from './transcript-attachments.js';
import { metadataHandlers, skippedKinds } from './transcript-metadata.js';
import type { Draft, Outcome, TranscriptState } from './transcript-state.js';
import { classifyUserText, commandFromEnvelope, permissionDecision } from './user-content.js';
import { pushAll } from '../../sdk/push-all.js';

/** Reads the spilled output a tool_result points at (`tool-results/<name>`), if it was collected. */
export type SpillReader = (name: string) => Promise<string | undefined>;

// Keys of the line envelope, left out where the spec prints "the record minus the envelope".
const ENVELOPE = new Set([
  'parentUuid', 'logicalParentUuid', 'isSidechain', 'type', 'subtype', 'uuid', 'timestamp', 'userType', 'entrypoint', 'cwd',
  'sessionId', 'version', 'gitBranch', 'slug', 'promptId', 'permissionMode', 'isMeta', 'agentId', 'teamName', 'agentName',
  'forkedFrom', 'sessionKind', 'requestId', 'level',
]);

function withoutKeys(o: JsonObject, drop: Set<string>): JsonObject {
  return Object.fromEntries(Object.entries(o).filter(([k]) => !drop.has(k)));
}

/** A user text (string content, or text/image blocks joined) as rows, per the parser plan. */
function userTextRows(st: TranscriptState, v: JsonObject, text: string): Draft[] {
  if (asBool(v.isCompactSummary) === true) return [{ turn: 'system', text: `compaction summary: ${text}`, tag: 'compaction_summary' }];
  if (asBool(v.isMeta) === true) return [{ turn: 'system', text: `meta: ${text}` }];
  const c = classifyUserText(text);
  if (st.sidechain && c.turn === 'user') {
    const agent = asString(v.agentId) || st.agentId;
    if (v.parentUuid === null || v.parentUuid === undefined) {
      const type = st.agentType ? ` (${st.agentType})` : '';
      return [{ turn: 'system', text: `subagent ${agent}${type} task: ${text}` }];
    }
    return [{ turn: 'system', text: `subagent ${agent} message: ${text}` }];
  }
  return [{ turn: c.turn, text: c.text }];
}

async function toolResultRows(st: TranscriptState, v: JsonObject, b: JsonObject, readSpill: SpillReader): Promise<Draft[]> {
  const id = asString(b.tool_use_id) ?? '';
  const name = st.toolNames.get(id) ?? '';
  let text = blocksText(b.content);
  const saved = /Full output saved to: ([^\n]+)/.exec(text);
  if (saved) {
    const path = asString(asObject(v.toolUseResult)?.persistedOutputPath) ?? saved[1].trim();
    const base = path.split(/[\\/]/).pop() ?? '';
    const spilled = base ? await readSpill(base) : undefined;
    if (spilled !== undefined) text = `${text}\n${spilled}`;
  }
  const rows: Draft[] = [{ turn: 'tool_result', text: asBool(b.is_error) === true ? `[error] ${text}` : text, tool_name: name, tool_use_id: id }];
  // 2.1.3xx records how the call was allowed or refused; older builds leave only the result's text.
  const decision = structuredDecision(v.permissionDecision) ?? permissionDecision(text);
  if (decision) rows.push({ turn: 'system', text: decision, tool_name: name, tool_use_id: id, tag: 'permission_decision' });
  return rows;
}

/** `permission decision: <decision> source=<source> reason=<reasonType> rule=<ruleSource>` from a `permissionDecision` object. */
function structuredDecision(d: unknown): string | undefined {
  const o = asObject(d);
  const decision = asString(o?.decision);
  if (!o || !decision) return undefined;
  const detail = [
    ['source', o.source],
    ['reason', o.reasonType],
    ['rule', o.ruleSource],
  ]
    .map(([k, val]) => [k, asString(val)])
    .filter(([, val]) => val)
    .map(([k, val]) => `${k}=${val}`);
  return `permission decision: ${[decision, ...detail].join(' ')}`;
}

const USER_BLOCKS = new Set(['tool_result', 'text', 'image']);

async function userLine(st: TranscriptState, v: JsonObject, line: number, readSpill: SpillReader): Promise<Outcome> {
  const content = asObject(v.message)?.content;
  if (typeof content === 'string') return userTextRows(st, v, content);
  const blocks = asArray(content);
  if (!blocks) return 'user line without content';
  const rows: Draft[] = [];
  const texts: string[] = [];
  for (const b of blocks) {
    if (!isObject(b)) continue;
    if (b.type === 'tool_result') pushAll(rows, (await toolResultRows(st, v, b, readSpill)));
    else if (b.type === 'text' || b.type === 'image') texts.push(blocksText([b]));
    if (!USER_BLOCKS.has(asString(b.type) ?? '')) st.ctx.unknown(`user block ${asString(b.type) || '(no type)'}`, line);
  }
  if (texts.length > 0) pushAll(rows, userTextRows(st, v, texts.join('\n')));
  return rows.length > 0 ? rows : 'user line without text or tool result';
}

function blockKey(b: JsonObject): string {
  const type = asString(b.type) ?? '';
  if (type === 'tool_use' || type === 'server_tool_use') return `${type}\u0000${asString(b.id) ?? compactJson(b)}`;
  if (type === 'text') return `text\u0000${asString(b.text) ?? ''}`;
  if (type === 'thinking') return `thinking\u0000${asString(b.thinking) ?? ''}\u0000${asString(b.signature) ?? ''}`;
  return `${type}\u0000${compactJson(b)}`;
}

function assistantLine(st: TranscriptState, v: JsonObject, line: number): Outcome {
  const msg = asObject(v.message);
  if (!msg) return 'assistant line without message';
  const model = asString(msg.model) ?? '';
  const blocks = (asArray(msg.content) ?? []).filter(isObject);
  if (model === '<synthetic>') {
    // Claude Code's own message (an API error, "No response requested."): not a model's reply.
    const text = blocksText(blocks);
    return [{ turn: 'system', text: asBool(v.isApiErrorMessage) === true ? `api error: ${text}` : `synthetic: ${text}`, model }];
  }
  if (model) st.model = model;
  const messageId = asString(msg.id) ?? '';
  const rows: Draft[] = [];
  let repeats = 0;
  let hiddenThinking = 0;
  for (const b of blocks) {
    if (!st.firstBlock(messageId, blockKey(b))) {
      repeats += 1;
      continue;
    }
    const type = asString(b.type) ?? '';
    if (type === 'text') rows.push({ turn: 'assistant', text: asString(b.text) ?? '' });
    else if (type === 'thinking' || type === 'redacted_thinking') {
      if (!st.ctx.options.includeThinking) hiddenThinking += 1;
      else if (type === 'redacted_thinking') rows.push({ turn: 'thinking', text: '[redacted thinking]' });
      else rows.push({ turn: 'thinking', text: asString(b.thinking) || '[thinking not stored]' });
    } else if (type === 'tool_use' || type === 'server_tool_use') {
      const id = asString(b.id) ?? '';
      const name = asString(b.name) ?? '';
      if (id) st.toolNames.set(id, name);
      st.mcpTool(name);
      const input = asObject(b.input);
      const command = input ? input.command : undefined;
      rows.push({ turn: 'tool_use', text: typeof command === 'string' ? command : compactJson(b.input ?? {}), tool_name: name, tool_use_id: id });
    } else if (type.endsWith('_tool_result')) {
      const id = asString(b.tool_use_id) ?? '';
      rows.push({ turn: 'tool_result', text: compactJson(b.content ?? null), tool_name: st.toolNames.get(id) ?? '', tool_use_id: id });
    } else st.ctx.unknown(`assistant block ${type || '(no type)'}`, line);
  }
  if (rows.length > 0) return rows;
  if (repeats > 0) return 'repeated content block of the same response';
  if (hiddenThinking > 0) return 'thinking block (include_thinking off)';
  return 'assistant line without a block that gives a row';
}

function keysPresent(pairs: [string, unknown][]): string {
  return pairs
    .map(([k, val]) => [k, asString(val)] as const)
    .filter(([, val]) => val !== undefined && val !== '')
    .map(([k, val]) => `${k}=${val}`)
    .join(' ');
}

function systemLine(v: JsonObject): Outcome {
  const subtype = asString(v.subtype) ?? '';
  const content = asString(v.content);
  switch (subtype) {
    case 'turn_duration':
      return 'turn duration';
    case 'compact_boundary': {
      const m = asObject(v.compactMetadata) ?? {};
      const detail = keysPresent([['trigger', m.trigger], ['pre', m.preTokens], ['post', m.postTokens]]);
      return [{ turn: 'system', text: detail ? `compaction: ${detail}` : 'compaction:', tag: 'compaction' }];
    }
    case 'api_error': {
      const e = v.error;
      const msg = asString(asObject(e)?.message) ?? asString(e) ?? compactJson(e ?? null);
      const a = asString(v.retryAttempt);
      const n = asString(v.maxRetries);
      const retry = a !== undefined || n !== undefined ? ` retry=${a ?? ''}${n !== undefined ? `/${n}` : ''}` : '';
      return [{ turn: 'system', text: `api error: ${msg}${retry}` }];
    }
    case 'scheduled_task_fire': {
      const cron = asString(v.cron);
      return [{ turn: 'system', text: `scheduled task ${asString(v.taskId) ?? ''}${cron ? ` (${cron})` : ''}: ${asString(v.prompt) ?? content ?? ''}` }];
    }
    case 'local_command':
      if (content !== undefined && (commandFromEnvelope(content) !== undefined || content.trimStart().startsWith('<local-command-std'))) {
        const c = classifyUserText(content);
        return [{ turn: c.turn, text: c.text }];
      }
  }
  const body = content ?? compactJson(withoutKeys(v, ENVELOPE));
  const level = asString(v.level);
  return [{ turn: 'system', text: `${subtype || 'system'}: ${body}${level && level !== 'info' ? ` level=${level}` : ''}` }];
}

function queueLine(st: TranscriptState, v: JsonObject, line: number): Outcome {
  const op = asString(v.operation) ?? '';
  const content = typeof v.content === 'string' ? v.content : undefined;
  if ((op === 'enqueue' || op === 'remove') && content !== undefined) {
    return st.hold(content, toUtc(v.timestamp), line, op === 'remove') ? 'held' : 'queue remove of a prompt already held';
  }
  return `queue-operation ${op}`;
}

const CHAIN = new Set(['user', 'assistant', 'system', 'attachment', 'progress']);

/** Rows for one parsed transcript line, or why it gives none. */
export async function recordOutcome(st: TranscriptState, v: JsonObject, line: number, readSpill: SpillReader): Promise<Outcome> {
  const type = asString(v.type) ?? '';
  const uuid = asString(v.uuid);
  if (CHAIN.has(type) && uuid) {
    if (st.seenUuids.has(uuid)) return 'repeated uuid';
    st.seenUuids.add(uuid);
  }
  switch (type) {
    case 'user':
      return userLine(st, v, line, readSpill);
    case 'assistant':
      return assistantLine(st, v, line);
    case 'system':
      return systemLine(v);
    case 'attachment':
      return attachmentLine(st, v, line);
    case 'queue-operation':
      return queueLine(st, v, line);
    case 'progress':
      return 'progress record';
  }
  const meta = metadataHandlers[type];
  if (meta) return meta(st, v);
  const skip = skippedKinds[type];
  if (skip) return skip;
  st.ctx.unknown(type || '(no type)', line);
  return `unknown record type ${type || '(none)'}`;
}
