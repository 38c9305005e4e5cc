import { describe, expect, it } from 'vitest';
import { both, texts } from './test-helpers/events-both.js';
import { event as ev, SID } from './test-helpers/events-run.js';

// One focused test per session-level row kind of the seed's Parser plan table, each run in both
// encodings (native and seed 001's stringified). Expected texts are the table's forms.

const START = ev('session.start', { sessionId: SID, version: 1, producer: 'copilot-agent', copilotVersion: '1.0.98', context: { cwd: '/a', branch: 'main' } });

describe('session rows', () => {
  it('session.start outside git: no branch, cwd from context', async () => {
    const run = await both([ev('session.start', { sessionId: SID, copilotVersion: '1.0.60', producer: 'copilot-agent', context: { cwd: '/home/u/x' } })]);
    expect(run.rows[0]).toMatchObject({ text: 'session start: copilot 1.0.60 producer=copilot-agent cwd=/home/u/x', project_path: '/home/u/x', git_branch: '', session_id: SID, tag: 'session_start' });
  });

  it('session.start whose sessionId is not the directory name warns', async () => {
    const run = await both([ev('session.start', { sessionId: 'other', context: { cwd: '/a' } })]);
    expect(run.warnings.map((w) => w.line)).toEqual([1]);
    expect(run.rows[0].session_id).toBe(SID);
  });

  it('session.resume: a row, and cwd and branch from its context for the rows after', async () => {
    const run = await both([START, ev('session.resume', { resumeTime: 'x', eventCount: 2632, context: { cwd: '/b', branch: 'dev' } }), ev('user.message', { content: 'hi' })]);
    expect(run.rows[1]).toMatchObject({ text: 'session resumed', project_path: '/b', git_branch: 'dev', tag: 'session_resume' });
    expect(run.rows[2]).toMatchObject({ project_path: '/b', git_branch: 'dev' });
    expect(run.facts.filter((f) => f.key === 'cwd').map((f) => [f.value, f.priority])).toEqual([
      ['/a', 1],
      ['/b', 1],
    ]);
  });

  it('session.context_changed: no row, a counted skip, project_path and branch change (context as data, seed 001)', async () => {
    const run = await both([START, ev('session.context_changed', { cwd: '/c', gitRoot: '/c', branch: 'dev-may-3' }), ev('user.message', { content: 'go' })]);
    expect(run.rows.map((r) => r.source_line)).toEqual([1, 3]);
    expect(run.skips.map((s) => s.line)).toEqual([2]);
    expect(run.rows[1]).toMatchObject({ project_path: '/c', git_branch: 'dev-may-3' });
    expect(run.facts.filter((f) => f.key === 'branch').map((f) => f.value)).toEqual(['main', 'dev-may-3']);
  });

  it('session.context_changed with a nested context, to a directory outside git', async () => {
    const run = await both([START, ev('session.context_changed', { context: { cwd: '/d' } }), ev('user.message', { content: 'go' })]);
    expect(run.rows[1]).toMatchObject({ project_path: '/d', git_branch: '' });
  });

  it('system.message: system prompt, and developer message for role developer', async () => {
    const run = await both([ev('system.message', { role: 'system', content: 'You are X.' }), ev('system.message', { role: 'developer', content: 'Be brief.' })]);
    expect(texts(run)).toEqual(['system prompt: You are X.', 'developer message: Be brief.']);
    expect(run.rows.map((r) => r.turn_type)).toEqual(['system', 'system']);
  });

  it('session.shutdown with an error reason and no files', async () => {
    const run = await both([ev('session.shutdown', { shutdownType: 'error', errorReason: 'quota', codeChanges: { filesModified: [], linesAdded: 0 } })]);
    expect(run.rows[0]).toMatchObject({ text: 'session end: error quota files modified: -', tag: 'session_end' });
  });

  it('session.shutdown lists several files comma-separated', async () => {
    const run = await both([ev('session.shutdown', { shutdownType: 'routine', codeChanges: { filesModified: ['/a/x.ts', '/a/y.ts'] } })]);
    expect(texts(run)).toEqual(['session end: routine files modified: /a/x.ts, /a/y.ts']);
  });
});

describe('user.message', () => {
  it('typed input (source absent, null or user) is a user row', async () => {
    const run = await both([ev('user.message', { content: 'a' }), ev('user.message', { content: 'b', source: null, isAutopilotContinuation: false }), ev('user.message', { content: 'c', source: 'user' })]);
    expect(run.rows.map((r) => [r.turn_type, r.text])).toEqual([
      ['user', 'a'],
      ['user', 'b'],
      ['user', 'c'],
    ]);
  });

  it('from a subagent (envelope agentId): system, subagent task:', async () => {
    const run = await both([ev('user.message', { content: 'explore src' }, { agentId: 'explore-1' })]);
    expect(run.rows[0]).toMatchObject({ turn_type: 'system', text: 'subagent task: explore src' });
  });

  it('from a skill (source skill-x): system, labelled by the source', async () => {
    const run = await both([ev('user.message', { content: 'run the skill', source: 'skill-x' })]);
    expect(run.rows[0]).toMatchObject({ turn_type: 'system', text: 'skill-x: run the skill' });
  });

  it('an autopilot continuation, even as the string "true": system, auto-continuation:', async () => {
    const run = await both([ev('user.message', { content: 'continue', isAutopilotContinuation: 'true', source: 'autopilot-1' })]);
    expect(run.rows[0]).toMatchObject({ turn_type: 'system', text: 'auto-continuation: continue' });
  });
});

describe('model rows', () => {
  it('session.model_change: first, a change, an equal one kept; null and empty keys skipped', async () => {
    const run = await both([
      ev('session.model_change', { newModel: 'm1', source: 'startup', reasoningEffort: '' }),
      ev('session.model_change', { previousModel: 'm1', newModel: 'm2', cause: 'rate_limit_auto_switch', reasoningEffort: 'high', contextTier: null }),
      ev('session.model_change', { newModel: 'm2', source: 'model_command', cause: null }),
      ev('user.message', { content: 'x' }),
    ]);
    expect(texts(run).slice(0, 3)).toEqual(['model: m1 source=startup', 'model: m1 -> m2 cause=rate_limit_auto_switch effort=high', 'model: m2 -> m2 source=model_command']);
    expect(run.rows.map((r) => r.model)).toEqual(['m1', 'm2', 'm2', 'm2']);
    expect(run.rows.slice(0, 3).every((r) => r.tag === 'model')).toBe(true);
  });

  it('session.auto_mode_resolved: model: old -> chosen (auto, routing)', async () => {
    const run = await both([ev('session.model_change', { newModel: 'auto' }), ev('session.auto_mode_resolved', { chosenModel: 'gpt-x', routingMethod: 'classifier' }), ev('user.message', { content: 'q' })]);
    expect(texts(run).slice(1)).toEqual(['model: auto -> gpt-x (auto, classifier)', 'q']);
    expect(run.rows[2].model).toBe('gpt-x');
  });

  it('session.info with url and tip, model the tracked one', async () => {
    const run = await both([ev('session.model_change', { newModel: 'm' }), ev('session.info', { infoType: 'tip', message: 'Try /model', url: 'https://x.test', tip: 't1' })]);
    expect(run.rows[1]).toMatchObject({ text: 'session.info tip: Try /model url=https://x.test tip=t1', model: 'm', tool_name: '', tool_use_id: '' });
  });

  it('model.message: a utility model row that never changes the session model; other model.* skipped', async () => {
    const run = await both([
      ev('session.model_change', { newModel: 'main-m' }),
      ev('model.turn_started', { kind: 'turn_started', model: 'u' }),
      ev('model.message', { callId: 'c', message: { role: 'assistant', content: 'Name' }, modelCall: { model: 'util-m' } }),
      ev('model.model_call_success', { callId: 'c' }),
      ev('user.message', { content: 'q' }),
    ]);
    expect(run.rows.map((r) => [r.text, r.model])).toEqual([
      ['model: main-m', 'main-m'],
      ['utility model util-m: Name', 'util-m'],
      ['q', 'main-m'],
    ]);
    expect(run.rows[1].tag).toBe('utility_model');
    expect(run.skips.map((s) => s.line)).toEqual([2, 4]);
  });
});

describe('mode rows', () => {
  it('session.permissions_changed, mode form', async () => {
    const run = await both([ev('session.permissions_changed', { previousMode: 'manual', mode: 'allow-all' })]);
    expect(run.rows[0]).toMatchObject({ text: 'permission mode: manual -> allow-all', tag: 'permission_mode' });
  });

  const pr = (mode: string) => ev('permission.requested', { permissionMode: mode, agentMode: 'interactive', permissionRequest: { kind: 'read', path: '/x' } });

  it('session.permissions_changed, Copilot Desktop form: the mode words as written; the tracked mode as the CLI reads them', async () => {
    const run = await both([
      pr('manual'),
      ev('session.permissions_changed', { previousAllowAllPermissions: false, allowAllPermissions: true, previousAllowAllPermissionMode: 'off', allowAllPermissionMode: 'on' }),
      pr('allow-all'),
      ev('session.permissions_changed', { previousAllowAllPermissions: true, allowAllPermissions: false, previousAllowAllPermissionMode: 'on', allowAllPermissionMode: 'auto' }),
      pr('manual'),
    ]);
    expect(texts(run)).toEqual([
      'permission request: read /x',
      'permission mode: manual agent=interactive',
      'permission mode: allow-all off -> on',
      // allow-all is what the tracked mode already says: no change row.
      'permission request: read /x',
      'permission mode: allow-all on -> auto',
      'permission request: read /x',
      // auto is assisted; the request says manual.
      'permission mode: assisted -> manual',
    ]);
  });

  it('session.permissions_changed, seed 001 form with only the booleans: on, then off, and the mode in between is allow-all', async () => {
    const run = await both([
      pr('manual'),
      ev('session.permissions_changed', { previousAllowAllPermissions: false, allowAllPermissions: true }),
      pr('manual'),
      ev('session.permissions_changed', { previousAllowAllPermissions: true, allowAllPermissions: false }),
      pr('manual'),
    ]);
    expect(texts(run)).toEqual([
      'permission request: read /x',
      'permission mode: manual agent=interactive',
      'permission mode: allow-all off -> on',
      'permission request: read /x',
      // The request made while allow-all was on says manual: the change shows.
      'permission mode: allow-all -> manual',
      'permission mode: allow-all on -> off',
      // Off is manual: no change row after it.
      'permission request: read /x',
    ]);
    expect(run.rows.filter((r) => r.tag === 'permission_mode').map((r) => r.source_line)).toEqual([1, 2, 3, 4]);
  });

  it('session.permissions_changed with a mode word the CLI does not know falls back to the boolean; with neither, the tracked mode is unknown', async () => {
    const run = await both([
      ev('session.permissions_changed', { allowAllPermissions: true, allowAllPermissionMode: 'session' }),
      pr('allow-all'),
      ev('session.permissions_changed', {}),
      pr('allow-all'),
    ]);
    expect(texts(run)).toEqual([
      'permission mode: allow-all - -> session',
      'permission request: read /x',
      'permission mode: allow-all agent=interactive',
      'permission mode: allow-all - -> -',
      'permission request: read /x',
      'permission mode: - -> allow-all',
    ]);
  });

  it('session.mode_changed: agent mode: a -> b', async () => {
    const run = await both([ev('session.mode_changed', { previousMode: 'interactive', newMode: 'plan' })]);
    expect(run.rows[0]).toMatchObject({ text: 'agent mode: interactive -> plan', tag: 'agent_mode' });
  });
});
