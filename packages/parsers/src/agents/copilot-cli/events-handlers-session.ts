import { asBool, pick } from '../../sdk/decode.js';
import type { Handler } from './events-state.js';
import { dataJson, jsonText, obj, text } from './events-values.js';
import { modelChangeSuffix, shutdownText } from './events-text.js';

// Session-level records of the Parser plan table: start, resume, context, prompts, models, modes,
// notices and shutdown. Tags beyond the SDK's RowTag list: session_resume, agent_mode (agent mode
// rows), session_info, compaction, notice (abort/error/warning and the `<type>: <text>` rows).

/** session.start: the first row; fills cwd and branch from context. */
export const sessionStart: Handler = (c) => {
  const { data } = c.ev;
  c.st.setContext(obj(data.context), c.ev.timestamp);
  // The model of the rows before the first model change (issue 11); never the `<old>` of a change row.
  const selected = text(data.selectedModel);
  if (selected !== undefined) c.st.model = selected;
  const sid = text(data.sessionId);
  if (sid !== undefined && c.st.sessionId !== '' && sid !== c.st.sessionId) c.warn(`session.start sessionId ${sid} is not the directory name ${c.st.sessionId}`);
  const cwd = text(pick(data, 'context.cwd')) ?? '-';
  c.emit('system', `session start: copilot ${text(data.copilotVersion) ?? '-'} producer=${text(data.producer) ?? '-'} cwd=${cwd}`, { tag: 'session_start' });
};

/** session.resume: a row, and the context (cwd, branch) when the line has one. */
export const sessionResume: Handler = (c) => {
  const context = pick(c.ev.data, 'context');
  if (context !== undefined && context !== null) c.st.setContext(obj(context), c.ev.timestamp);
  const selected = text(c.ev.data.selectedModel);
  if (selected !== undefined) c.st.model = selected;
  c.emit('system', 'session resumed', { tag: 'session_resume' });
};

/** session.context_changed: no row; the data is the context itself (seed 001), or holds one. */
export const contextChanged: Handler = (c) => {
  const { data } = c.ev;
  const nested = pick(data, 'context');
  c.st.setContext(nested !== undefined && nested !== null ? obj(nested) : data, c.ev.timestamp);
  c.skip('session.context_changed: no row (updates project_path and git_branch)');
};

/** system.message: the system prompt (or a developer message), never shortened. */
export const systemMessage: Handler = (c) => {
  const { data } = c.ev;
  const label = text(data.role) === 'developer' ? 'developer message' : 'system prompt';
  c.emit('system', `${label}: ${text(data.content) ?? ''}`);
};

/**
 * user.message: a user row for what a person typed (no agentId, source absent or `user`, not an
 * autopilot continuation); otherwise a system row labelled by where the text came from.
 */
export const userMessage: Handler = (c) => {
  const { data, envelope } = c.ev;
  const content = text(data.content) ?? '';
  const agentId = text(envelope.agentId) ?? text(data.agentId);
  const source = text(data.source);
  const continuation = asBool(data.isAutopilotContinuation) === true;
  if (agentId === undefined && (source === undefined || source === 'user') && !continuation) {
    c.emit('user', content);
    return;
  }
  const label = continuation ? 'auto-continuation' : agentId !== undefined ? 'subagent task' : (source ?? '-');
  c.emit('system', `${label}: ${content}`);
};

/** session.model_change: `model: X` the first time, `model: old -> new` after (kept when equal). */
export const modelChange: Handler = (c) => {
  const { data } = c.ev;
  const next = text(data.newModel);
  // The tracked model, else the line's own previousModel (a log cut by a rewind may lack the first).
  const old = c.st.changedModel !== '' ? c.st.changedModel : text(data.previousModel);
  if (next !== undefined) {
    c.st.model = next;
    c.st.changedModel = next;
  }
  const head = old === undefined ? `model: ${next ?? '-'}` : `model: ${old} -> ${next ?? '-'}`;
  c.emit('system', head + modelChangeSuffix(data), { tag: 'model' });
};

/** session.auto_mode_resolved: `model: <old> -> <chosenModel> (auto, <routingMethod>)`. */
export const autoModeResolved: Handler = (c) => {
  const { data } = c.ev;
  const chosen = text(data.chosenModel);
  const old = c.st.changedModel || c.st.model || '-';
  if (chosen !== undefined) {
    c.st.model = chosen;
    c.st.changedModel = chosen;
  }
  c.emit('system', `model: ${old} -> ${chosen ?? '-'} (auto, ${text(data.routingMethod) ?? '-'})`, { tag: 'model' });
};

/** session.info: `session.info <infoType>: <message>` with url and tip when present. */
export const sessionInfo: Handler = (c) => {
  const { data } = c.ev;
  let out = `session.info ${text(data.infoType) ?? '-'}: ${text(data.message) ?? ''}`;
  const url = text(data.url);
  const tip = text(data.tip);
  if (url !== undefined) out += ` url=${url}`;
  if (tip !== undefined) out += ` tip=${tip}`;
  c.emit('system', out, { tag: 'session_info' });
};

/** model.message: a utility model's answer; its model on the row, never the session's. */
export const modelMessage: Handler = (c) => {
  const { data } = c.ev;
  const model = text(pick(data, 'modelCall.model'));
  c.emit('system', `utility model ${model ?? '-'}: ${text(pick(data, 'message.content')) ?? ''}`, { model: model ?? '', tag: 'utility_model' });
};

/**
 * session.permissions_changed. The mode form (previousMode, mode): `permission mode: <old> -> <new>`.
 * The allow-all form (Copilot Desktop and seed 001: previousAllowAllPermissions, allowAllPermissions,
 * and the optional *AllowAllPermissionMode keys): `permission mode: allow-all <before> -> <after>`,
 * each side the *Mode value as written, else `on`/`off` from the boolean, else `-`. The tracked
 * mode follows the CLI's own reading of the record (cli-main.js 1.0.102: mode, else
 * allowAllPermissionMode, mapped manual/off to off, assisted/auto to auto, allow-all/on to on, else
 * the boolean), in the permissionMode words: on is allow-all, off is manual, auto is assisted.
 */
export const permissionsChanged: Handler = (c) => {
  const { data } = c.ev;
  if ('mode' in data || 'previousMode' in data) {
    const mode = text(data.mode);
    if (mode !== undefined) c.st.permissionMode = mode;
    c.emit('system', `permission mode: ${text(data.previousMode) ?? '-'} -> ${mode ?? '-'}`, { tag: 'permission_mode' });
    return;
  }
  const side = (modeKey: string, flagKey: string) => text(data[modeKey]) ?? onOff(data[flagKey]) ?? '-';
  const before = side('previousAllowAllPermissionMode', 'previousAllowAllPermissions');
  const after = side('allowAllPermissionMode', 'allowAllPermissions');
  const state = allowAllState(text(data.allowAllPermissionMode)) ?? onOff(data.allowAllPermissions);
  // A record that says neither on nor off leaves the tracked mode unknown rather than guessing.
  c.st.permissionMode = state === undefined ? undefined : MODE_OF_STATE[state];
  c.emit('system', `permission mode: allow-all ${before} -> ${after}`, { tag: 'permission_mode' });
};

const MODE_OF_STATE: Readonly<Record<'on' | 'off' | 'auto', string>> = { on: 'allow-all', off: 'manual', auto: 'assisted' };

/** A boolean (or the stringified "true"/"false") as on/off; anything else undefined. */
function onOff(v: unknown): 'on' | 'off' | undefined {
  const b = asBool(v);
  return b === undefined ? undefined : b ? 'on' : 'off';
}

/** The CLI's reading of an allow-all mode word (cli-main.js 1.0.102, kCr). */
function allowAllState(v: string | undefined): 'on' | 'off' | 'auto' | undefined {
  if (v === 'manual' || v === 'off') return 'off';
  if (v === 'assisted' || v === 'auto') return 'auto';
  if (v === 'allow-all' || v === 'on') return 'on';
  return undefined;
}

/** session.mode_changed: `agent mode: <previousMode> -> <newMode>`. */
export const modeChanged: Handler = (c) => {
  const { data } = c.ev;
  const next = text(data.newMode);
  if (next !== undefined) c.st.agentMode = next;
  c.emit('system', `agent mode: ${text(data.previousMode) ?? '-'} -> ${next ?? '-'}`, { tag: 'agent_mode' });
};

/** session.compaction_complete: the summary (compact JSON of data when it has none). */
export const compactionComplete: Handler = (c) => {
  const { data } = c.ev;
  c.emit('system', `compaction summary: ${text(data.summaryContent) ?? dataJson(data)}`, { tag: 'compaction' });
};

/** abort, session.error, session.warning: `<type>: <reason or message>`. */
export const notice: Handler = (c) => {
  const { data, type } = c.ev;
  c.emit('system', `${type}: ${jsonText(data.reason) ?? jsonText(data.message) ?? dataJson(data)}`, { tag: 'notice' });
};

// The main text field of each `<type>: <text>` record; the first present wins.
const MAIN_FIELDS: Readonly<Record<string, readonly string[]>> = {
  'session.task_complete': ['summary'],
  'system.notification': ['content'],
  'session.schedule_created': ['prompt'],
  'skill.invoked': ['name'],
  'session.handoff': ['summary', 'message', 'content'],
  'subagent.failed': ['error', 'agentName'],
};
const SUBAGENT_FIELDS = ['agentName', 'agentDisplayName'];

/** session.task_complete, system.notification, schedule, skill, subagent.*, handoff: `<type>: <main text>`. */
export const mainText: Handler = (c) => {
  const { data, type } = c.ev;
  const fields = MAIN_FIELDS[type] ?? SUBAGENT_FIELDS;
  let main: string | undefined;
  for (const f of fields) main ??= jsonText(data[f]);
  const id = text(data.toolCallId);
  c.emit('system', `${type}: ${main ?? dataJson(data)}`, { tool_use_id: id, tool_name: c.st.toolName(id), tag: 'notice' });
};

/** session.shutdown: the session end row. */
export const sessionShutdown: Handler = (c) => {
  c.emit('system', shutdownText(c.ev.data), { tag: 'session_end' });
};
