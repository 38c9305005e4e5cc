import { asArray, asNumber, asObject, asString, isObject, type JsonObject } from '../../sdk/decode.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { Draft, Outcome, TranscriptState } from './transcript-state.js';

// The request records of 2.1.3xx builds (seen in 2.1.332): `api-request-shape` (the system prompt
// and tool definitions, once per distinct shape), `api-request` (one per API call: params, and
// the messages as hashes), `api-request-blob` (a message body by hash), `cost-state` (the
// process's running spend). docs/agents/claude-code.md says which rows they give and why.

/** Texts of a list of system blocks (`{type: text, text}`) or plain strings, joined as one prompt; a string as it is (the API allows both). */
export function systemPromptText(blocks: unknown): string {
  if (typeof blocks === 'string') return blocks;
  const parts: string[] = [];
  for (const b of asArray(blocks) ?? []) {
    const t = typeof b === 'string' ? b : isObject(b) ? asString(b.text) : undefined;
    if (t !== undefined && t !== '') parts.push(t);
  }
  return parts.join('\n\n');
}

function toolNames(tools: unknown): string[] {
  const out: string[] = [];
  for (const t of asArray(tools) ?? []) {
    const name = isObject(t) ? asString(t.name) : undefined;
    if (name) out.push(name);
  }
  return out;
}

/** The tool list as a row text: names in the order offered. */
function toolsText(names: string[]): string {
  return `tools offered: ${names.join(', ')}`;
}

/** `api-request-shape`: a `system prompt:` row and a `tools offered:` row, each when it changed. */
export function requestShape(st: TranscriptState, v: JsonObject): Outcome {
  const shape = asObject(v.shape);
  if (!shape) return 'api-request-shape without a shape';
  const ts = toUtc(v.timestamp);
  const at = ts ? { ts } : {};
  const rows: Draft[] = [];
  const prompt = systemPromptText(shape.system);
  if (prompt !== '') {
    st.systemPromptFromShape = true;
    if (st.lastMeta.get('system-prompt') !== prompt) {
      st.lastMeta.set('system-prompt', prompt);
      rows.push({ turn: 'system', text: `system prompt: ${prompt}`, tag: 'system_prompt', ...at });
    }
  }
  const names = toolNames(shape.tools);
  for (const n of names) st.mcpTool(n);
  if (names.length > 0) {
    const text = toolsText(names);
    if (st.lastMeta.get('tools') !== text) {
      st.lastMeta.set('tools', text);
      rows.push({ turn: 'system', text, tag: 'tools_offered', ...at });
    }
  }
  if (rows.length > 0) return rows;
  return prompt === '' && names.length === 0 ? 'api-request-shape with neither system prompt nor tools' : 'api-request-shape repeated';
}

/**
 * `prompt_snapshot` attachment: the system prompt (and tools) the next request will carry, written
 * beside the request shape. No row of its own; the first is kept for a file that has no shape.
 */
export function promptSnapshot(st: TranscriptState, att: JsonObject, ts: string, line: number): Outcome {
  for (const n of toolNames(att.tools)) st.mcpTool(n);
  if (!st.snapshotPrompt) {
    const body = systemPromptText(att.systemPrompt);
    const prefix = asString(att.cliPrefix);
    const text = prefix && body ? `${prefix}\n\n${body}` : body;
    if (text) st.snapshotPrompt = { text, ts, line };
  }
  return 'prompt snapshot (the request shape gives the system prompt)';
}

/** The system prompt row a file without a request shape still owes, from its first prompt snapshot. */
export function snapshotPromptRow(st: TranscriptState): Draft | undefined {
  const s = st.snapshotPrompt;
  if (st.systemPromptFromShape || !s) return undefined;
  return { turn: 'system', text: `system prompt: ${s.text}`, tag: 'system_prompt', ts: s.ts, line: s.line };
}

/** `api-request`: `model: X` for the first requested model and `model: old -> new` on a change. */
export function apiRequest(st: TranscriptState, v: JsonObject): Outcome {
  const params = asObject(v.params);
  const model = asString(params?.model) ?? '';
  if (!model) return 'api-request without a model';
  if (model === st.requestedModel) return 'api-request (requested model unchanged)';
  const old = st.requestedModel;
  st.requestedModel = model;
  const source = asString(v.querySource);
  const effort = asString(asObject(params?.output_config)?.effort);
  const detail = [source ? `source=${source}` : '', effort ? `effort=${effort}` : ''].filter(Boolean).join(' ');
  const text = `model: ${old ? `${old} -> ` : ''}${model} (requested${detail ? `, ${detail}` : ''})`;
  const ts = toUtc(v.timestamp);
  return [{ turn: 'system', text, tag: 'model', model, ...(ts ? { ts } : {}) }];
}

function usd(n: number): string {
  // Costs are fractions of a cent per request: six decimals as Claude Code stores them.
  return `$${Number(n.toFixed(6))}`;
}

function modelUsageText(usage: JsonObject | undefined): string[] {
  const out: string[] = [];
  for (const [model, raw] of Object.entries(usage ?? {})) {
    if (!isObject(raw)) continue;
    const parts = [model];
    const cost = asNumber(raw.costUSD);
    if (cost !== undefined) parts.push(usd(cost));
    for (const [key, label] of [
      ['inputTokens', 'in'],
      ['outputTokens', 'out'],
      ['cacheReadInputTokens', 'cache_read'],
      ['cacheCreationInputTokens', 'cache_write'],
      ['webSearchRequests', 'web_searches'],
    ] as const) {
      const n = asNumber(raw[key]);
      if (n !== undefined && (n !== 0 || key === 'inputTokens' || key === 'outputTokens')) parts.push(`${label}=${n}`);
    }
    out.push(parts.join(' '));
  }
  return out;
}

/** `cost-state`: the process's running spend, a `cost:` row each time it changed (once per turn). */
export function costState(st: TranscriptState, v: JsonObject): Outcome {
  const total = asNumber(v.totalCostUSD);
  const models = modelUsageText(asObject(v.modelUsage));
  if (total === undefined && models.length === 0) return 'cost-state without a cost';
  const parts = [`cost: ${total !== undefined ? usd(total) : '-'} total`];
  if (models.length > 0) parts.push(models.join(', '));
  const api = asNumber(v.totalAPIDuration);
  const tools = asNumber(v.totalToolDuration);
  const added = asNumber(v.totalLinesAdded);
  const removed = asNumber(v.totalLinesRemoved);
  const times = [api !== undefined ? `api ${api} ms` : '', tools !== undefined ? `tools ${tools} ms` : ''].filter(Boolean);
  if (times.length > 0) parts.push(times.join(', '));
  if (added !== undefined || removed !== undefined) parts.push(`lines +${added ?? 0} -${removed ?? 0}`);
  if (v.hasUnknownModelCost === true) parts.push('unknown model cost');
  const text = parts.join('; ');
  if (st.lastMeta.get('cost-state') === text) return 'cost-state repeated';
  st.lastMeta.set('cost-state', text);
  return [{ turn: 'system', text, tag: 'cost' }];
}
