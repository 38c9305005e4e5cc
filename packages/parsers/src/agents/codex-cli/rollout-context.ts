import { compactJson } from '../../sdk/compact-json.js';
import { asArray, asBool, asObject, asString, pick, type JsonObject } from '../../sdk/decode.js';
import { toUtc } from '../../sdk/timestamp.js';
import type { Draft, RolloutState } from './rollout-state.js';
import { uuidV7Ms } from './rollout-state.js';
import { pushAll } from '../../sdk/push-all.js';

const dash = (v: string | undefined): string => (v === undefined || v === '' ? '-' : v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : v === undefined || v === null ? undefined : compactJson(v));

/**
 * The first session_meta of a file: the thread's identity (id, cwd, branch, client) and the
 * `session start:` and `system prompt:` rows. A later one is a parent's line copied by a fork or
 * a resume and changes nothing (Codex itself uses the first).
 */
export function sessionMeta(st: RolloutState, p: JsonObject, at: string): Draft[] | string {
  if (st.metaSeen) return 'a later session_meta (copied history)';
  st.metaSeen = true;
  const id = asString(p.id) ?? asString(p.session_id) ?? '';
  if (id) st.sessionId = id.toLowerCase();
  const git = asObject(p.git);
  const branch = asString(git?.branch) ?? '';
  const cwd = asString(p.cwd) ?? '';
  const created = toUtc(p.timestamp);
  if (cwd) {
    st.cwd = cwd;
    st.fact('cwd', cwd, at || undefined);
  }
  if (branch) {
    st.branch = branch;
    st.fact('branch', branch, at || undefined);
  }
  const originator = asString(p.originator);
  if (originator) st.fact('client', originator);
  st.fact('has_log', 'yes');
  const forked = asString(p.forked_from_id);
  if (forked) {
    st.replay = true;
    const ms = uuidV7Ms(st.sessionId);
    st.forkStartMs = Number.isNaN(ms) ? Date.parse(created) || 0 : ms;
  }
  let text = `session start: codex ${dash(asString(p.cli_version))} originator=${dash(originator)} source=${dash(str(p.source))} cwd=${dash(cwd)}`;
  if (forked) text += ` forked from ${forked}`;
  const nick = asString(p.agent_nickname);
  const role = asString(p.agent_role);
  if (nick || role) text += ` agent=${dash(nick)}/${dash(role)}`;
  const out: Draft[] = [{ turn: 'system', text, tag: 'session_start', ts: at || created }];
  const prompt = asString(asObject(p.base_instructions)?.text) ?? asString(p.base_instructions) ?? asString(p.instructions);
  if (prompt) out.push({ turn: 'system', text: `system prompt: ${prompt}`, tag: 'system_prompt', ts: at || created });
  return out;
}

function sandboxOf(sp: unknown): { type: string; network: string; roots: string } {
  if (typeof sp === 'string') return { type: sp, network: '-', roots: '-' };
  const o = asObject(sp) ?? {};
  const network = asBool(o.network_access);
  const roots = asArray(o.writable_roots);
  return { type: dash(asString(o.type) ?? asString(o.mode)), network: network === undefined ? '-' : String(network), roots: roots ? compactJson(roots) : '-' };
}

/**
 * turn_context: the model and the standing approval and sandbox policy of the turn. A row the
 * first time and on a change (full-auto and never-ask turns are what an investigator looks for);
 * a cwd change gives a `cwd:` row and a cwd fact as of the line.
 */
export function turnContext(st: RolloutState, p: JsonObject, at: string): Draft[] | string {
  st.turnContextSeen = true;
  if (st.replay) {
    // A turn minted at or after the fork's creation is the fork's own; a turn id that tells no
    // time (older builds) cannot be placed, so the copy is not claimed past it.
    const ms = uuidV7Ms(asString(p.turn_id) ?? '');
    if (Number.isNaN(ms) || ms >= st.forkStartMs) st.replay = false;
  }
  const out: Draft[] = [...st.changeCwd(asString(p.cwd) ?? '', at)];
  const model = asString(p.model) ?? '';
  const effort = asString(p.effort) ?? asString(pick(p, 'collaboration_mode.settings.reasoning_effort')) ?? '-';
  const summary = str(p.summary) ?? '-';
  if (model && (model !== st.model || effort !== st.effort)) {
    const head = st.model ? `model: ${st.model} -> ${model}` : `model: ${model}`;
    out.push({ turn: 'system', text: `${head} effort=${effort} summary=${summary}`, tag: 'model', model });
    st.model = model;
    st.effort = effort;
    st.summary = summary;
  }
  const approval = str(p.approval_policy) ?? '';
  const sb = sandboxOf(p.sandbox_policy);
  if ((approval || p.sandbox_policy !== undefined) && (approval !== st.approval || sb.type !== st.sandbox)) {
    out.push(policyRow(st, approval, sb));
  }
  return out.length > 0 ? out : 'turn_context with nothing changed';
}

function policyRow(st: RolloutState, approval: string, sb: { type: string; network: string; roots: string }): Draft {
  const head = st.approval || st.sandbox ? `approval policy: ${dash(st.approval)} -> ${dash(approval)}` : `approval policy: ${dash(approval)}`;
  st.approval = approval;
  st.sandbox = sb.type;
  return { turn: 'system', text: `${head} sandbox=${sb.type} network=${sb.network} writable_roots=${sb.roots}`, tag: 'permission_mode' };
}

/**
 * The injected `<environment_context>` of the first Rust layout (and the 2025 envelope builds
 * before turn_context held it): cwd, approval policy, sandbox mode and network, as XML-ish tags
 * or `Name: value` lines. Gives the cwd and, when no turn_context was seen, the policy rows.
 */
export function envContextPolicy(st: RolloutState, text: string, at: string): Draft[] {
  const get = (tag: string, label: string): string | undefined =>
    new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(text)?.[1]?.trim() ?? new RegExp(`^\\s*${label}:\\s*(.+)$`, 'mi').exec(text)?.[1]?.trim();
  const out: Draft[] = [];
  const cwd = get('cwd', 'Current working directory');
  if (cwd && !st.turnContextSeen) pushAll(out, st.changeCwd(cwd, at));
  const approval = get('approval_policy', 'Approval policy');
  const sandbox = get('sandbox_mode', 'Sandbox mode');
  if (!st.turnContextSeen && (approval || sandbox) && (dash(approval) !== dash(st.approval) || dash(sandbox) !== dash(st.sandbox))) {
    const network = get('network_access', 'Network access');
    out.push(policyRow(st, approval ?? '', { type: dash(sandbox), network: network === undefined ? '-' : String(network === 'enabled' || network === 'true'), roots: '-' }));
  }
  return out;
}

/** world_state (0.147+): no row; its cwd fills a session that has none; approved command prefixes when they change. */
export function worldState(st: RolloutState, p: JsonObject, at: string): Draft[] | string {
  const state = asObject(p.state) ?? {};
  const cwd = asString(pick(state, 'environments.environments.local.cwd')) ?? asString(pick(state, 'agents_md.directory'));
  const out: Draft[] = [];
  if (cwd && !st.cwd) pushAll(out, st.changeCwd(cwd, at));
  const prefixes = asArray(pick(state, 'permissions.approved_command_prefixes'));
  if (prefixes && prefixes.length > 0) {
    const json = compactJson(prefixes);
    if (json !== st.approvedPrefixes) {
      st.approvedPrefixes = json;
      out.push({ turn: 'system', text: `permission setting: approved_command_prefixes=${json}`, tag: 'permission_setting' });
    }
  }
  return out.length > 0 ? out : 'world_state (snapshot of the turn context)';
}

/** compacted: the summary Codex replaced the history with (the replacement items are copies or opaque). */
export function compacted(p: JsonObject): Draft[] {
  const n = (asArray(p.replacement_history) ?? []).length;
  const message = asString(p.message);
  return [{ turn: 'system', text: `context compacted: summary=${message ? message : '-'} replacement history ${n} items`, tag: 'compaction' }];
}
