import { asBool, asString, type JsonObject } from '../../sdk/decode.js';
import { readJsonLines } from '../../sdk/line-reader.js';
import { badLineRow, makeRow } from '../../sdk/row.js';
import { readSmall } from '../../sdk/small-file.js';
import { decodeText } from '../../sdk/text-encoding.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { Artifact, ParseContext, Parser, Row } from '../../sdk/types.js';
import { agentIdFromPath, isSidechainPath, SUBAGENT_RE, sessionIdFromPath, TRANSCRIPT_RE, toolResultSiblingPath } from './paths.js';
import { recordOutcome, type SpillReader } from './transcript-records.js';
import { snapshotPromptRow } from './transcript-requests.js';
import { type Draft, TranscriptState } from './transcript-state.js';

/** Observers a test can attach to a transcript parse. */
export interface TranscriptHooks {
  /** Called once for every line that gives no row, with why (blank, repeat, turn duration...). */
  onSkip?(line: number, reason: string): void;
}

// Rows of metadata records before the first dated line wait for its time; past this many they
// go out undated so memory stays bounded on a file with no time at all.
const MAX_BUFFERED = 10_000;
const MAX_SPILL_BYTES = 32 * 1024 * 1024;

async function readAgentType(a: Artifact, agentId: string): Promise<string> {
  const meta = agentId ? a.sibling(`agent-${agentId}.meta.json`) : undefined;
  if (!meta) return '';
  const r = await readSmall(meta.stream(), 1024 * 1024);
  if (!r.ok) return '';
  try {
    return asString((JSON.parse(decodeText(r.buffer)) as JsonObject).agentType) ?? '';
  } catch {
    return '';
  }
}

function spillReader(a: Artifact, st: TranscriptState, ctx: ParseContext): SpillReader {
  return async (name) => {
    const rel = toolResultSiblingPath(a.rel, st.sessionId, name);
    const f = rel ? a.sibling(rel) : undefined;
    if (!f) return undefined;
    const r = await readSmall(f.stream(), MAX_SPILL_BYTES);
    if (r.ok) return decodeText(r.buffer);
    ctx.warn(`tool output ${name} not inlined: ${r.reason}`);
    return undefined;
  };
}

/**
 * Parse one Claude Code transcript (main, set-aside or subagent) into rows, in file order,
 * streaming. Never throws on bad data: a line that is not JSON is a bad-line row.
 */
export async function* parseTranscript(a: Artifact, ctx: ParseContext, hooks: TranscriptHooks = {}): AsyncGenerator<Row> {
  const sidechain = isSidechainPath(a.rel);
  const st = new TranscriptState(ctx, sessionIdFromPath(a.rel), sidechain, agentIdFromPath(a.rel));
  if (sidechain) st.agentType = await readAgentType(a, st.agentId);
  else if (st.sessionId) ctx.fact({ session_id: st.sessionId, key: 'has_log', value: 'yes', priority: 1 });
  const readSpill = spillReader(a, st, ctx);
  const skip = (line: number, reason: string) => hooks.onSkip?.(line, reason);
  let lastTs = '';
  let lineSession = '';
  let buffered: Row[] = [];

  const finish = (d: Draft, line: number, lineTs: string, v?: JsonObject): Row => {
    const forked = v !== undefined && v.forkedFrom !== undefined && v.forkedFrom !== null;
    const tag = d.tag ?? (forked ? 'fork_copy' : st.sidechain || asBool(v?.isSidechain) === true ? 'sidechain' : undefined);
    return makeRow(d.turn, d.text, {
      timestamp_utc: d.ts ?? lineTs,
      session_id: st.sessionId || lineSession,
      project_path: d.project ?? st.cwd,
      git_branch: st.branch,
      model: d.model ?? st.model,
      tool_name: d.tool_name ?? '',
      tool_use_id: d.tool_use_id ?? '',
      source_line: d.line ?? line,
      ...(tag ? { tag } : {}),
    });
  };

  for await (const l of readJsonLines(a.stream())) {
    if (l.blank) {
      skip(l.line, 'blank line');
      continue;
    }
    const out: Row[] = [];
    let lineTs = '';
    if (!l.value) {
      out.push(badLineRow(l.error ?? 'invalid JSON', l.text, l.line, { session_id: st.sessionId || lineSession, project_path: st.cwd, git_branch: st.branch, model: st.model }));
    } else {
      const v = l.value;
      if (l.error) ctx.warn(`line ${l.line}: ${l.error}`, l.line);
      lineTs = typeof v.timestamp === 'string' ? toUtc(v.timestamp) : '';
      if (lineTs) st.time = lineTs;
      observeEnvelope(st, v, lineTs);
      lineSession = asString(v.sessionId) || lineSession;
      const outcome = await recordOutcome(st, v, l.line, readSpill);
      if (typeof outcome === 'string') {
        if (outcome !== 'held') skip(l.line, outcome);
      } else {
        for (const d of outcome) {
          if (d.turn === 'user') {
            const held = st.delivered(d.text);
            if (held !== undefined) skip(held, 'queued prompt delivered as a user line');
          }
          out.push(finish(d, l.line, lineTs, v));
        }
      }
    }
    if (lineTs) {
      if (buffered.length > 0) {
        for (const r of buffered) yield { ...r, timestamp_utc: r.timestamp_utc || lineTs };
        buffered = [];
      }
      lastTs = lineTs;
    }
    for (const r of out) {
      const row = r.timestamp_utc ? r : { ...r, timestamp_utc: lastTs };
      // Once rows wait for a time, later ones queue behind them so file order holds.
      if (buffered.length > 0 || !row.timestamp_utc) buffered.push(row);
      else yield row;
    }
    if (buffered.length > MAX_BUFFERED) {
      yield* buffered;
      buffered = [];
    }
  }
  yield* buffered;
  for (const p of st.pending) {
    yield finish({ turn: 'user', text: p.text, ts: p.ts, line: p.line, tag: 'queued' }, p.line, p.ts);
  }
  const prompt = snapshotPromptRow(st);
  if (prompt) yield finish(prompt, prompt.line ?? 0, prompt.ts || lastTs);
  reportMcpTools(st);
}

// The MCP tools a file offered or called, per server, once at its end (the inventory's tool list).
function reportMcpTools(st: TranscriptState): void {
  for (const [name, tools] of st.mcpTools) {
    st.ctx.mcp({ name, scope: '', tools: [...tools].sort().map((t) => ({ name: t })) });
  }
}

// The envelope's cwd, branch and entrypoint: the latest wins, reported as facts on change.
// cwd and branch carry the line's time: a session that moves has every directory listed, and rows
// of other files (history, MCP logs) take the one in force at their time.
function observeEnvelope(st: TranscriptState, v: JsonObject, at: string): void {
  const sid = st.sessionId || asString(v.sessionId) || '';
  const priority = st.sidechain ? 4 : 1;
  const cwd = asString(v.cwd);
  if (cwd) {
    st.cwd = cwd;
    st.fact('cwd', cwd, priority, sid, at);
  }
  const branch = asString(v.gitBranch);
  if (branch !== undefined && (cwd || branch)) {
    st.branch = branch;
    st.fact('branch', branch, priority, sid, at);
  }
  const client = asString(v.entrypoint);
  if (client) {
    st.client = client;
    st.fact('client', client, priority, sid);
  }
}

/** The transcript parser: main, set-aside and subagent transcripts (primary). */
export const transcriptParser: Parser = {
  agent: 'claude-code',
  name: 'transcript',
  patterns: ['<cfg>/projects/<slug>/<session>.jsonl', '<cfg>/projects/<slug>/<session>/subagents/**/agent-<id>.jsonl'],
  wants: (rel) => TRANSCRIPT_RE.test(rel) || SUBAGENT_RE.test(rel),
  secondary: () => false,
  secondaryToleranceSeconds: () => 0,
  recordsSync: false,
  parse: (a, ctx) => parseTranscript(a, ctx),
};
