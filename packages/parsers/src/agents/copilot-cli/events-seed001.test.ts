import { describe, expect, it } from 'vitest';
import { jsonl, runEvents, SID } from './test-helpers/events-run.js';

// Seed 001's sample payloads, as the seed prints them (stringified encoding: every data value a
// string, nested JSON serialized), in one log; expected texts by hand from seed 000's Parser plan.

const line = (type: string, data: Record<string, unknown>, n: number) => JSON.stringify({ id: `s1-${n}`, parentId: null, timestamp: `2026-04-30T01:45:${String(n).padStart(2, '0')}.000Z`, type, data });

const RECORDS: [string, Record<string, unknown>][] = [
  [
    'session.start',
    {
      sessionId: SID,
      version: '1',
      producer: 'copilot-agent',
      copilotVersion: '1.0.36-0',
      startTime: '2026-04-30T01:45:16.518Z',
      context: '{"cwd":"C:\\\\Users\\\\AB000725"}',
      alreadyInUse: 'false',
      remoteSteerable: 'false',
      selectedModel: 'claude-opus-4.6',
      contextTier: 'default',
    },
  ],
  ['session.model_change', { newModel: 'claude-opus-4.7', previousModel: 'claude-opus-4.6', previousReasoningEffort: 'medium', reasoningEffort: 'high', contextTier: 'default' }],
  ['system.message', { role: 'system', content: 'You are the GitHub Copilot CLI, a terminal assistant built by GitHub…' }],
  [
    'user.message',
    { content: 'Search Jira issues', transformedContent: '<current_datetime>…', attachments: '[]', interactionId: 'i', parentAgentTaskId: null, supportedNativeDocumentMimeTypes: '[]', agentMode: null, isAutopilotContinuation: 'false', source: null },
  ],
  ['assistant.turn_start', { turnId: '0', interactionId: 'i' }],
  ['assistant.message', { messageId: 'm', content: 'What would you like to search for in Jira?', toolRequests: '[]', outputTokens: '144', reasoningText: 'Ask first.', turnId: '5', parentToolCallId: null, model: 'claude-opus-4.7', phase: null }],
  ['tool.execution_start', { toolCallId: 'tooluse_y', toolName: 'report_intent', arguments: '{"intent":"Searching for SKILL.md"}', parentToolCallId: null, turnId: '5', mcpServerName: null, mcpToolName: null, model: 'claude-opus-4.7' }],
  ['tool.execution_complete', { toolCallId: 'tooluse_y', model: 'claude-opus-4.6', interactionId: 'i', success: 'true', result: '{"content":"Intent logged","detailedContent":"Searching…"}', toolTelemetry: '{}', parentToolCallId: null, turnId: '5', error: null }],
  ['permission.requested', { requestId: 'r1', permissionRequest: '{"kind":"shell","toolCallId":"toolu_bdrk_017"}', promptRequest: '{"kind":"commands","fullCommandText":"Get-Location","intent":"…"}' }],
  ['permission.completed', { requestId: 'r1', toolCallId: 'toolu_bdrk_017', result: '{"kind":"approved"}' }],
  ['hook.start', { hookInvocationId: 'h1', hookType: 'postToolUse', input: '{"sessionId":"0f4cd0bd-…","timestamp":"…"}' }],
  ['hook.end', { hookInvocationId: 'h1', hookType: 'postToolUse', success: 'true' }],
  ['subagent.started', { toolCallId: 'tooluse_9P', agentName: 'explore', agentDisplayName: 'Explore Agent', agentDescription: 'Fast codebase exploration…' }],
  ['subagent.completed', { toolCallId: 'tooluse_4r', agentName: 'explore', agentDisplayName: 'Explore Agent', model: 'claude-haiku-4.5', totalToolCalls: '47', totalTokens: '795147', durationMs: '12340' }],
  ['session.mode_changed', { previousMode: 'interactive', newMode: 'plan' }],
  ['session.permissions_changed', { previousAllowAllPermissions: 'false', allowAllPermissions: 'true' }],
  ['session.plan_changed', { operation: 'create' }],
  ['session.context_changed', { cwd: 'C:\\Users\\AB000725\\vwsre-tools', gitRoot: 'C:\\Users\\AB000725\\vwsre-tools', branch: 'dev-may-3', headCommit: '3e81', repository: 'W/vwsre-tools', hostType: 'github' }],
  ['session.workspace_file_changed', { path: 'describe_tables.py', operation: 'create' }],
  ['session.compaction_start', { systemTokens: '9635', conversationTokens: '113044' }],
  ['session.compaction_complete', { success: 'true', summaryContent: '\n\n<overview>\nThe user is an SRE…\n</overview>\n', checkpointNumber: '1', error: null }],
  ['session.truncation', { tokenLimit: '168000', messagesRemovedDuringTruncation: '44', performedBy: 'system' }],
  ['session.task_complete', { summary: 'Completed both requested features', success: 'true' }],
  ['session.error', { errorType: 'query', message: 'Execution failed: Error: Failed to get response from the AI model…', statusCode: '503', serviceRequestId: null }],
  ['session.warning', { warningType: 'mcp', message: "MCP server 'github-mcp-server' is taking longer than expected…" }],
  ['session.info', { infoType: 'folder_trust', message: 'Folder C:\\Users\\AB000725\\playground has been added to trusted folders.' }],
  ['abort', { reason: 'user_initiated' }],
  ['session.resume', { resumeTime: '2026-04-17T04:21:28.410Z', eventCount: '2632', selectedModel: 'claude-opus-4.6', context: '{"cwd":"C:\\\\Users\\\\AB000725\\\\vwsre-project"}', sessionWasActive: 'false' }],
  ['session.shutdown', { shutdownType: 'routine', totalPremiumRequests: '7.5', sessionStartTime: '1777513516518', codeChanges: '{"linesAdded":0,"linesRemoved":0,"filesModified":[]}', currentModel: 'claude-opus-4.7' }],
];

const LOG = jsonl(RECORDS.map(([type, data], i) => line(type, data, i + 1)));

describe("seed 001's stringified sample records", () => {
  it('give the Parser plan rows, line by line', async () => {
    const run = await runEvents(LOG, { includeThinking: true });
    const W = 'C:\\Users\\AB000725';
    expect(run.rows.map((r) => [r.source_line, r.turn_type, r.text])).toEqual([
      [1, 'system', `session start: copilot 1.0.36-0 producer=copilot-agent cwd=${W}`],
      [2, 'system', 'model: claude-opus-4.6 -> claude-opus-4.7 effort=high'],
      [3, 'system', 'system prompt: You are the GitHub Copilot CLI, a terminal assistant built by GitHub…'],
      [4, 'user', 'Search Jira issues'],
      [6, 'assistant', 'What would you like to search for in Jira?'],
      [6, 'thinking', 'Ask first.'],
      [7, 'tool_use', '{"intent":"Searching for SKILL.md"}'],
      // The longer of the two: content (13 characters) over detailedContent (10).
      [8, 'tool_result', 'Intent logged'],
      // The subject and the intention (its key named intent) from promptRequest, this sample's
      // permissionRequest having neither.
      [9, 'system', 'permission request: shell Get-Location intention=…'],
      [10, 'system', 'permission decision: approved source=-'],
      [11, 'system', 'hook postToolUse start: {"sessionId":"0f4cd0bd-…","timestamp":"…"}'],
      [12, 'system', 'hook postToolUse end: success=true output={}'],
      [13, 'system', 'subagent.started: explore'],
      [14, 'system', 'subagent.completed: explore'],
      [15, 'system', 'agent mode: interactive -> plan'],
      [16, 'system', 'permission mode: allow-all - -> -'],
      [21, 'system', 'compaction summary: \n\n<overview>\nThe user is an SRE…\n</overview>\n'],
      [23, 'system', 'session.task_complete: Completed both requested features'],
      [24, 'system', 'session.error: Execution failed: Error: Failed to get response from the AI model…'],
      [25, 'system', "session.warning: MCP server 'github-mcp-server' is taking longer than expected…"],
      [26, 'system', 'session.info folder_trust: Folder C:\\Users\\AB000725\\playground has been added to trusted folders.'],
      [27, 'system', 'abort: user_initiated'],
      [28, 'system', 'session resumed'],
      [29, 'system', 'session end: routine files modified: -'],
    ]);
    expect(run.skips.map((s) => s.line)).toEqual([5, 17, 18, 19, 20, 22]);
  });

  it('track the model, tool names and the working directory through the stringified values', async () => {
    const run = await runEvents(LOG);
    const at = (n: number) => run.rows.find((r) => r.source_line === n)!;
    expect([at(4).model, at(7).model, at(8).model, at(8).tool_name]).toEqual(['claude-opus-4.7', 'claude-opus-4.7', 'claude-opus-4.6', 'report_intent']);
    expect([at(10).tool_use_id, at(9).tool_use_id]).toEqual(['toolu_bdrk_017', 'toolu_bdrk_017']);
    expect([at(21).project_path, at(21).git_branch]).toEqual(['C:\\Users\\AB000725\\vwsre-tools', 'dev-may-3']);
    expect([at(29).project_path, at(29).git_branch]).toEqual(['C:\\Users\\AB000725\\vwsre-project', '']);
    expect(run.facts.filter((f) => f.key === 'cwd').map((f) => f.value)).toEqual(['C:\\Users\\AB000725', 'C:\\Users\\AB000725\\vwsre-tools', 'C:\\Users\\AB000725\\vwsre-project']);
  });
});
