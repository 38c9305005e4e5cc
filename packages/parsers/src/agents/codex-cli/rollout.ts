import { posix } from 'node:path';
import { asObject, asString, isObject, type JsonObject } from '../../sdk/decode.js';
import { readJsonLines } from '../../sdk/line-reader.js';
import { badLineRow, makeRow } from '../../sdk/row.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { Artifact, ParseContext, Parser, Row } from '../../sdk/types.js';
import { zstdDecompress } from '../../sdk/zstd.js';
import { isCompressed, ROLLOUT_RE, sessionIdFromPath } from './paths.js';
import { compacted, sessionMeta, turnContext, worldState } from './rollout-context.js';
import { eventMsg } from './rollout-events.js';
import { type Outcome, responseItem } from './rollout-items.js';
import { type Draft, RolloutState } from './rollout-state.js';
import { jsonText } from '../../sdk/compact-json.js';

/** Observers a test can attach to a rollout parse. */
export interface RolloutHooks {
  /** Called once for every line that gives no row, with why. */
  onSkip?(line: number, reason: string): void;
}

/** Tags the analyzer acts on: a row of an undated layout keeps these rather than `time_session`. */
const KEEP_TAGS = new Set(['bad_line', 'session_start', 'session_name', 'permission_mode', 'permission_setting', 'permission_request', 'permission_decision', 'model', 'user_shell']);

/** Texts waiting for their twin before they are given up on (a file with no turn boundaries). */
const MAX_WAITING = 10_000;

/** Record kinds of the envelope layout with no row, on purpose. */
const SKIPPED_KINDS: Record<string, string> = {
  token_usage_record: 'token usage record',
};

function envelope(st: RolloutState, v: JsonObject, line: number, ts: string): Outcome {
  const type = asString(v.type) ?? '';
  const p = asObject(v.payload) ?? {};
  switch (type) {
    case 'session_meta':
      return sessionMeta(st, p, ts);
    case 'turn_context':
      return turnContext(st, p, ts);
    case 'response_item':
      return responseItem(st, p, ts);
    case 'event_msg':
      return eventMsg(st, p, line, ts);
    case 'compacted':
      return compacted(p);
    case 'world_state':
      return worldState(st, p, ts);
    case 'inter_agent_communication':
      return [{ turn: 'system', text: `inter-agent message: ${jsonText(p)}`, tag: 'inter_agent' }];
    default:
      if (SKIPPED_KINDS[type]) return SKIPPED_KINDS[type];
      st.ctx.unknown(`rollout:${type || '(no type)'}`, line);
      return `unknown record kind ${type}`;
  }
}

/** A line of the first Rust layout: a bare SessionMeta first, then bare response items and state markers. */
function bare(st: RolloutState, v: JsonObject, at: string): Outcome {
  if (asString(v.record_type) === 'state') return 'state marker (first Rust layout)';
  if (!st.metaSeen && v.type === undefined && v.role === undefined && typeof v.id === 'string' && v.timestamp !== undefined) {
    const out = sessionMeta(st, v, at);
    if (typeof out === 'string') return out;
    // These builds formatted the local wall time with a literal Z (rollout.rs @89a151f5:
    // now_local() and "...[subsecond digits:3]Z"): a time of unknown offset, named, never used as UTC.
    const local = typeof v.timestamp === 'string' ? v.timestamp.replace(/Z$/, '') : '';
    return out.map((d) => ({ ...d, ts: undefined, text: d.tag === 'session_start' && local ? `${d.text} started=${local} (local time, offset not recorded)` : d.text }));
  }
  return responseItem(st, v, at);
}

/** The byte stream of a rollout: decompressed for `.jsonl.zst`. */
function rolloutBytes(a: Artifact, failure: { reason?: string }): AsyncIterable<Buffer> {
  if (!isCompressed(a.rel)) return a.stream();
  return (async function* () {
    try {
      yield* zstdDecompress(a.stream());
    } catch (e) {
      failure.reason = (e as Error).message;
    }
  })();
}

/**
 * Parse one rollout (any layout: the `{timestamp, type, payload}` envelope with or without
 * ordinals, the first Rust layout's bare records; plain or zstd) into rows, in file order,
 * streaming. Never throws on bad data: a line that is not JSON is a bad-line row, a .zst that
 * fails to decompress one row saying so after the rows decoded before the fault.
 */
export async function* parseRollout(a: Artifact, ctx: ParseContext, hooks: RolloutHooks = {}): AsyncGenerator<Row> {
  const st = new RolloutState(ctx, sessionIdFromPath(a.rel));
  // The compression worker deletes the plain file after writing the .zst; when both are there
  // (a run cut short, a copy), Codex reads the plain one, and so does this parser.
  const plain = isCompressed(a.rel) ? posix.basename(a.rel).replace(/\.zst$/i, '') : '';
  if (plain && a.sibling(plain)) {
    ctx.warn(`${posix.basename(a.rel)} not read: ${plain} beside it holds the same thread and is read instead`);
    return;
  }
  const failure: { reason?: string } = {};
  let layout: 'envelope' | 'bare' | undefined;
  let lastTs = '';

  const finish = (d: Draft, line: number, lineTs: string): Row => {
    let tag = d.tag;
    let ts = d.ts ?? (lineTs || (layout === 'envelope' ? lastTs : ''));
    // The first Rust layout has no UTC time at all (its one time is local): its rows carry the
    // file's mtime and say so (DESIGN, sessions without timestamps).
    if (!ts && layout === 'bare') {
      ts = a.mtime;
      if (ts && (tag === undefined || !KEEP_TAGS.has(tag))) tag = 'time_file';
    }
    if (st.replay && tag === undefined) tag = 'fork_replay';
    return makeRow(d.turn, d.text, {
      timestamp_utc: ts,
      session_id: st.sessionId,
      project_path: st.cwd,
      git_branch: st.branch,
      model: d.model ?? st.model,
      tool_name: d.tool_name ?? '',
      tool_use_id: d.tool_use_id ?? '',
      source_line: line,
      ...(tag ? { tag } : {}),
    });
  };
  const flushTwins = function* (): Generator<Row> {
    for (const { kind, row } of st.flushCopies()) {
      if (kind === 'thinking' && !ctx.options.includeThinking) continue;
      if (!row.draft.text) continue;
      yield finish(row.draft, row.line, row.ts);
    }
  };

  for await (const l of readJsonLines(rolloutBytes(a, failure))) {
    if (l.blank) {
      hooks.onSkip?.(l.line, 'blank line');
      continue;
    }
    if (!l.value) {
      yield badLineRow(l.error ?? 'invalid JSON', l.text, l.line, { timestamp_utc: lastTs || (layout === 'bare' ? a.mtime : ''), session_id: st.sessionId, project_path: st.cwd, git_branch: st.branch, model: st.model });
      continue;
    }
    const v = l.value;
    if (l.error) ctx.warn(`line ${l.line}: ${l.error}`, l.line);
    layout ??= isObject(v.payload) && typeof v.type === 'string' ? 'envelope' : 'bare';
    const ts = layout === 'envelope' ? toUtc(v.timestamp) : '';
    let outcome: Outcome;
    if (layout === 'envelope' && isObject(v.payload)) {
      const type = asString(v.type);
      const inner = asString(asObject(v.payload)?.type);
      // A turn's end (or the next one's start): event copies that never met their item become rows.
      if (type === 'event_msg' && (inner === 'task_started' || inner === 'turn_started' || inner === 'task_complete' || inner === 'turn_complete' || inner === 'turn_aborted')) yield* flushTwins();
      outcome = envelope(st, v, l.line, ts);
    } else {
      outcome = bare(st, v, ts);
    }
    if (ts) lastTs = ts;
    if (typeof outcome === 'string') hooks.onSkip?.(l.line, outcome);
    else for (const d of outcome) yield finish(d, l.line, ts);
    // Twins sit within a few lines of each other: past this many waiting, memory stays bounded.
    if (st.waiting > MAX_WAITING) yield* flushTwins();
  }
  yield* flushTwins();
  if (failure.reason) {
    yield makeRow('system', `parser: unreadable file (${failure.reason})`, { timestamp_utc: lastTs, session_id: st.sessionId, project_path: st.cwd, git_branch: st.branch, tag: 'unreadable' });
  }
}

/** The rollout parser: live and archived rollouts, plain and zstd, every JSONL layout (primary). */
export const rolloutParser: Parser = {
  agent: 'codex-cli',
  name: 'rollout',
  patterns: ['<codex>/sessions/YYYY/MM/DD/rollout-*.jsonl[.zst]', '<codex>/archived_sessions/rollout-*.jsonl[.zst]'],
  wants: (rel) => ROLLOUT_RE.test(rel),
  secondary: () => false,
  secondaryToleranceSeconds: () => 0,
  recordsSync: false,
  parse: (a, ctx) => parseRollout(a, ctx),
};
