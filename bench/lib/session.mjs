// One session's events.jsonl, simulated interaction by interaction so that pairs stay paired
// and ordered; the per-event probabilities below reproduce seed 001's counts in expectation
// (104 sessions, 2,249 prompts, 14,708 turns, 29,907 tool calls, 128,356 events).
import * as S from './event-shapes.mjs';
import { textFrom } from './prng.mjs';

const P = {
  systemPerPrompt: (1480 - 104) / 2249, // one system prompt at start, then re-injected
  turnsPerPromptExtra: 14708 / 2249 - 1, // geometric, at least one turn
  toolsPerTurn: 29907 / 14708,
  // A turn that calls tools may add a reply after them; a turn without tools has one message.
  secondMessageAfterTools: (19045 / 14708 - 1) / (1 - 1 / (1 + 29907 / 14708)),
  hookPerTool: 6700 / 29907 / 2, // a pre and a post hook, each this likely
  permissionPerTool: 360 / 29907,
  subagentPerTool: 327 / 29907,
  externalPerTool: 34 / 29907,
  completeMissing: 13 / 29907,
  turnEndMissing: 20 / 14708,
  resumePerPrompt: 90 / 2249,
  shutdownBeforeResume: 0.36,
  shutdownAtEnd: 0.85, // 104 * 0.85 + 90 * 0.36 ≈ 121
};
// Per prompt, after its turns: rare session events and their rates.
const RARE = [
  ['system.notification', 347 / 2249],
  ['session.model_change', (277 - 104) / 2249],
  ['session.compaction_start', 163 / 2249],
  ['session.workspace_file_changed', 103 / 2249],
  ['session.error', 54 / 2249],
  ['session.info', 38 / 2249],
  ['session.plan_changed', 20 / 2249],
  ['session.mode_changed', 20 / 2249],
  ['abort', 17 / 2249],
  ['session.task_complete', 17 / 2249],
  ['session.truncation', 5 / 2249],
  ['session.permissions_changed', 2 / 2249],
  ['session.warning', 2 / 2249],
  ['session.context_changed', 1 / 2249],
];

/** Every data value a string, nested JSON serialized (seed 001's encoding); null stays null. */
function stringifyData(data) {
  const out = {};
  for (const [k, v] of Object.entries(data)) out[k] = v === null || typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);
  return out;
}

/**
 * Write one session. `s`: {rng, pool, sysPrompt, id, home, cwd, branch, startMs, stringified,
 * cut ('end' | 'mid' | null), interactions, stop() -> bool, write(str)}.
 * Returns what the stores repeat: prompts, turns, files, the model, the time span, counts and cuts.
 */
export function writeSession(s) {
  const { rng, pool } = s;
  const st = { id: s.id, home: s.home, cwd: s.cwd, branch: s.branch, checkpoints: 0 };
  const counts = {};
  const cuts = [];
  const prompts = [];
  const files = [];
  let t = s.startMs;
  let prev = null;
  let line = 0;
  let model = rng.pick(S.MODELS);
  let turnId = 0;
  let midCutDone = s.cut !== 'mid';

  const emit = (type, data, dt = rng.int(5, 900)) => {
    t += dt;
    const id = rng.uuid();
    const ts = new Date(t).toISOString();
    const obj = { id, parentId: prev, timestamp: ts, type, data: s.stringified ? stringifyData(data) : data };
    prev = id;
    line += 1;
    counts[type] = (counts[type] ?? 0) + 1;
    s.write(`${JSON.stringify(obj)}\n`);
    return ts;
  };
  const cutLine = (text) => {
    line += 1;
    cuts.push(line);
    return text.slice(0, Math.max(1, Math.floor(text.length * rng.next())));
  };

  emit('session.start', { sessionId: s.id, version: 1, producer: 'copilot-agent', copilotVersion: '1.0.98', startTime: new Date(t).toISOString(), context: { cwd: s.cwd, gitRoot: s.cwd, branch: s.branch }, alreadyInUse: false, remoteSteerable: false, selectedModel: model, contextTier: 'default' }, 0);
  emit('session.model_change', { newModel: model, cause: 'initial_resolution', source: 'automatic', reasoningEffort: 'medium', contextTier: null });
  emit('system.message', { content: s.sysPrompt, role: 'system', interactionId: rng.uuid(), metadata: { variables: { gitCommitTrailer: { clientName: 'copilot-cli', coauthorEnabled: true, sessionId: s.id } } } });

  for (let i = 0; i < s.interactions && !s.stop(); i++) {
    const interactionId = rng.uuid();
    if (i > 0 && rng.chance(P.resumePerPrompt)) {
      if (rng.chance(P.shutdownBeforeResume)) emit('session.shutdown', shutdownData(rng, t, model));
      if (!midCutDone) {
        // A crash mid-write: the line is cut, then the resumed process appends on a new line.
        s.write(`${cutLine(JSON.stringify({ id: rng.uuid(), parentId: prev, timestamp: new Date(t).toISOString(), type: 'assistant.message', data: { content: textFrom(rng, pool, 300) } }))}\n`);
        midCutDone = true;
      }
      emit('session.resume', { resumeTime: new Date(t).toISOString(), eventCount: line, selectedModel: model, context: { cwd: s.cwd, branch: s.branch }, alreadyInUse: false, remoteSteerable: false, sessionWasActive: false, continuePendingWork: false, reasoningEffort: 'medium', contextTier: 'default' }, rng.int(60_000, 86_400_000));
    }
    if (rng.chance(P.systemPerPrompt)) {
      const dev = rng.chance(0.5);
      emit('system.message', dev ? { content: textFrom(rng, pool, rng.int(200, 2000)), role: 'developer', interactionId } : { content: s.sysPrompt, role: 'system', interactionId });
    }
    const prompt = textFrom(rng, pool, rng.logNormal(80, 1, 3, 4000)).trim() || 'continue';
    const promptId = rng.uuid();
    const promptTs = emit('user.message', { content: prompt, transformedContent: `<current_datetime>${new Date(t).toISOString()}</current_datetime>\n\n${prompt}\n\n<reminder>${textFrom(rng, pool, rng.int(100, 1500))}</reminder>`, attachments: [], messageId: promptId, interactionId, turnId: String(turnId), delivery: 'idle', agentMode: 'interactive', isAutopilotContinuation: false, supportedNativeDocumentMimeTypes: [] }, rng.int(2000, 600_000));
    let reply = null;
    const turns = 1 + rng.geometric(P.turnsPerPromptExtra);
    for (let k = 0; k < turns; k++) {
      const tid = String(turnId++);
      emit('assistant.turn_start', { turnId: tid, interactionId });
      const nTools = Math.min(12, rng.geometric(P.toolsPerTurn));
      const calls = [];
      for (let j = 0; j < nTools; j++) {
        const tool = S.pickTool(rng);
        calls.push({ tool, id: tool === 'apply_patch' ? `custom_${rng.hex(32)}` : `call_${rng.hex(24)}`, args: S.toolArguments(rng, pool, tool, s.cwd) });
      }
      const msg = (content, requests) => {
        if (content) reply = content;
        const think = rng.chance(0.4);
        emit('assistant.message', { messageId: rng.uuid(), content, toolRequests: requests, interactionId, originatingMessageId: promptId, outputTokens: rng.int(10, 3000), requestId: rng.hex(20), ...(think ? { reasoningText: textFrom(rng, pool, rng.logNormal(400, 0.8, 20, 8000)), reasoningOpaque: rng.base64(rng.int(200, 2000)) } : {}), encryptedContent: rng.base64(rng.int(100, 1500)), turnId: tid, parentToolCallId: null, model, phase: content ? 'final_answer' : null }, rng.int(500, 20_000));
      };
      msg(nTools === 0 ? textFrom(rng, pool, rng.logNormal(600, 1.1, 5, 30_000)) : '', calls.map((c) => ({ type: c.tool === 'apply_patch' ? 'custom' : 'function', name: c.tool, toolCallId: c.id, toolTitle: c.tool, arguments: c.tool === 'apply_patch' ? c.args.input : c.args, intentionSummary: null })));
      for (const c of calls) writeTool(c, tid, interactionId);
      if (nTools > 0 && rng.chance(P.secondMessageAfterTools)) msg(textFrom(rng, pool, rng.logNormal(600, 1.1, 5, 30_000)), []);
      if (!rng.chance(P.turnEndMissing)) emit('assistant.turn_end', { turnId: tid });
    }
    prompts.push({ text: prompt, ts: promptTs, reply, endTs: new Date(t).toISOString() });
    for (const [type, p] of RARE) {
      if (!rng.chance(p)) continue;
      if (type === 'session.model_change') {
        const next = rng.pick(S.MODELS);
        emit(type, { previousModel: model, newModel: next, previousReasoningEffort: 'medium', reasoningEffort: 'high', source: 'model_command', contextTier: 'default' });
        model = next;
      } else if (type === 'session.compaction_start') {
        emit(type, S.rarePayload(rng, pool, type, st));
        st.checkpoints += 1;
        if (rng.chance(162 / 163)) emit('session.compaction_complete', S.rarePayload(rng, pool, 'session.compaction_complete', st), rng.int(5000, 60_000));
      } else {
        const data = S.rarePayload(rng, pool, type, st);
        if (type === 'session.workspace_file_changed') files.push({ path: `${s.cwd}/${data.path}`, ts: new Date(t).toISOString() });
        emit(type, data);
      }
    }
  }
  if (s.cut === 'end') {
    const text = JSON.stringify({ id: rng.uuid(), parentId: prev, timestamp: new Date(t + 1000).toISOString(), type: 'user.message', data: { content: textFrom(rng, pool, 200) } });
    s.write(cutLine(text));
  } else if (rng.chance(P.shutdownAtEnd)) {
    emit('session.shutdown', shutdownData(rng, s.startMs, model));
  }
  return { counts, cuts, prompts, files, model, endMs: t, lines: line };

  function writeTool(c, tid, interactionId) {
    if (rng.chance(P.hookPerTool)) hookPair('preToolUse', c);
    if (rng.chance(P.permissionPerTool)) {
      const requestId = rng.uuid();
      emit('permission.requested', { requestId, ownerSessionId: s.id, agentMode: 'interactive', permissionMode: 'manual', ...S.permissionPayloads(rng, pool, c.tool, c.id, s.cwd, c.args) });
      emit('permission.completed', { requestId, toolCallId: c.id, decisionSource: 'human_response', result: S.permissionResult(rng, s.cwd, c.tool, c.args) }, rng.int(1000, 60_000));
    }
    emit('tool.execution_start', { toolCallId: c.id, toolName: c.tool, toolTitle: c.tool, arguments: c.args, parentToolCallId: null, turnId: tid, mcpServerName: null, mcpToolName: null, model });
    if (rng.chance(P.subagentPerTool)) {
      emit('subagent.started', { toolCallId: c.id, agentName: 'explore', agentDisplayName: 'Explore Agent', agentDescription: 'Fast codebase exploration and answering questions.' });
      emit('subagent.completed', { toolCallId: c.id, agentName: 'explore', agentDisplayName: 'Explore Agent', model: 'claude-haiku-4.5', totalToolCalls: rng.int(1, 60), totalTokens: rng.int(1000, 900_000), durationMs: rng.int(1000, 90_000) }, rng.int(5000, 120_000));
    }
    if (rng.chance(P.externalPerTool)) {
      const requestId = rng.uuid();
      emit('external_tool.requested', { requestId, sessionId: s.id, toolCallId: c.id, toolName: 'jira_api', arguments: { endpoint: '/rest/api/2/search' }, workingDirectory: s.cwd });
      emit('external_tool.completed', { requestId });
    }
    if (!rng.chance(P.completeMissing)) {
      const result = S.toolResult(rng, pool);
      const ok = rng.chance(0.93);
      emit('tool.execution_complete', { toolCallId: c.id, model, interactionId, success: ok, result, toolTelemetry: {}, parentToolCallId: null, turnId: tid, ...(c.tool === 'bash' ? { shellExecution: { exitCode: ok ? 0 : 1 } } : {}), error: ok ? null : { code: 'failure', message: 'Command exited with code 1' } }, rng.logNormal(300, 1.5, 1, 600_000));
    }
    if (rng.chance(P.hookPerTool)) hookPair('postToolUse', c);
  }
  function hookPair(type, c) {
    const hookInvocationId = rng.uuid();
    emit('hook.start', { hookInvocationId, hookType: type, input: S.hookInput(s.id, new Date(t).toISOString(), c.tool) });
    emit('hook.end', { hookInvocationId, hookType: type, success: true });
  }
}

function shutdownData(rng, startMs, model) {
  return { shutdownType: 'routine', totalPremiumRequests: 7.5, totalApiDurationMs: rng.int(1000, 900_000), sessionStartTime: startMs, codeChanges: { linesAdded: rng.int(0, 500), linesRemoved: rng.int(0, 200), filesModified: [] }, modelMetrics: { [model]: { requests: { count: rng.int(1, 300), cost: 7.5 } } }, currentModel: model, currentTokens: 53210, systemTokens: 9635, conversationTokens: 31912, toolDefinitionsTokens: 12663 };
}
