// Payload shapes of the events.jsonl types, copied from the seed-000 fixture lines and the
// seed-001 schema samples; sizes of the text fields follow long-tailed distributions.
import { textFrom } from './prng.mjs';

export const MODELS = ['gpt-6.1-sol', 'claude-opus-4.7', 'claude-opus-4.6', 'claude-sonnet-5', 'claude-haiku-4.5'];
const TOOLS = [
  ['bash', 0.3],
  ['view', 0.22],
  ['edit', 0.1],
  ['apply_patch', 0.06],
  ['grep', 0.08],
  ['glob', 0.05],
  ['report_intent', 0.09],
  ['web_fetch', 0.05],
  ['create', 0.03],
  ['github-mcp-server-search_issues', 0.02],
];
const HOOKS = ['preToolUse', 'postToolUse'];

/** A tool name drawn by the weights above. */
export function pickTool(rng) {
  let r = rng.next();
  for (const [name, w] of TOOLS) {
    r -= w;
    if (r <= 0) return name;
  }
  return 'bash';
}

/** Arguments of a tool call, by tool. */
export function toolArguments(rng, pool, tool, cwd) {
  const file = `${cwd}/src/${rng.pick(['index', 'server', 'util', 'config', 'app'])}-${rng.int(1, 40)}.ts`;
  switch (tool) {
    case 'bash':
      return { command: rng.pick(['npm test', 'git status', 'ls -la', 'kubectl get pods -A', `cat ${file}`, 'make build']), description: textFrom(rng, pool, rng.int(10, 60)).trim() };
    case 'view':
    case 'create':
      return tool === 'view' ? { path: file } : { path: file, file_text: textFrom(rng, pool, rng.logNormal(800, 1, 20, 40_000)) };
    case 'edit':
      return { path: file, old_str: textFrom(rng, pool, rng.int(20, 400)), new_str: textFrom(rng, pool, rng.int(20, 400)) };
    case 'apply_patch':
      return { input: `*** Begin Patch\n*** Update File: ${file}\n-${textFrom(rng, pool, rng.int(10, 300))}\n+${textFrom(rng, pool, rng.int(10, 300))}\n*** End Patch\n` };
    case 'grep':
      return { pattern: rng.pick(['TODO', 'import', 'error', 'session']), path: cwd };
    case 'glob':
      return { pattern: '**/*.ts' };
    case 'report_intent':
      return { intent: textFrom(rng, pool, rng.int(10, 50)).trim() };
    case 'web_fetch':
      return { url: `https://docs.example.org/${rng.hex(8)}`, max_length: 20000 };
    default:
      return { query: textFrom(rng, pool, rng.int(10, 80)).trim() };
  }
}

/** A tool result: bytes to hundreds of KB, long-tailed (median ~400 B, mean ~4 KB). */
export function toolResult(rng, pool) {
  const len = rng.logNormal(400, 2.1, 2, 400_000);
  const full = textFrom(rng, pool, len);
  if (rng.chance(0.5)) return { content: full };
  const nl = full.indexOf('\n');
  return { content: nl > 0 && nl < 200 ? full.slice(0, nl) : full.slice(0, 200), detailedContent: full };
}

/** The ~36 KB system prompt, fixed per corpus (the real one barely changes between sessions). */
export function systemPrompt(pool) {
  return `You are the GitHub Copilot CLI, a terminal assistant built by GitHub.\n${pool.slice(0, 36_000)}`;
}

export function hookInput(sessionId, ts, tool) {
  return { sessionId, timestamp: ts, toolName: tool, cwd: '.' };
}

export function hookType(rng) {
  return rng.pick(HOOKS);
}

export function permissionPayloads(rng, pool, tool, toolCallId, cwd, args) {
  const intention = textFrom(rng, pool, rng.int(10, 60)).trim();
  if (tool === 'bash') {
    const cmd = args.command;
    return {
      permissionRequest: { kind: 'shell', toolCallId, intention, fullCommandText: cmd, shellType: 'bash', commands: [{ identifier: cmd, readOnly: false, allowMatchIdentifier: cmd }], possiblePaths: [], possibleUrls: [], hasWriteFileRedirection: false, canOfferSessionApproval: true },
      promptRequest: { kind: 'commands', toolCallId, intention, fullCommandText: cmd, commandIdentifiers: [cmd] },
    };
  }
  if (tool === 'web_fetch') {
    return { permissionRequest: { kind: 'url', toolCallId, intention, url: args.url }, promptRequest: { kind: 'url', toolCallId, intention, url: args.url } };
  }
  const fileName = args.path ?? `${cwd}/README.md`;
  return {
    permissionRequest: { kind: 'write', toolCallId, intention, fileName, diff: `-${textFrom(rng, pool, 40)}\n+${textFrom(rng, pool, 40)}\n`, canOfferSessionApproval: true },
    promptRequest: { kind: 'write', toolCallId, intention, fileName },
  };
}

export function permissionResult(rng, cwd, tool, args) {
  const r = rng.next();
  if (r < 0.7) return { kind: 'approved' };
  if (r < 0.85) {
    const approval = tool === 'bash' ? { kind: 'commands', commandIdentifiers: [args.command] } : { kind: 'write' };
    return { kind: 'approved-for-location', locationKey: cwd, approval };
  }
  if (r < 0.95) return { kind: 'denied-interactively-by-user', feedback: 'not now' };
  return { kind: 'approved-for-session', approval: { kind: 'write' } };
}

/** Payloads of the rare session-level events, keyed by type. */
export function rarePayload(rng, pool, type, s) {
  switch (type) {
    case 'system.notification':
      return { kind: { type: 'agent_completed', agentId: `agent-${rng.hex(6)}` }, content: `<system_notification>\n${textFrom(rng, pool, rng.int(40, 400))}</system_notification>` };
    case 'session.compaction_start':
      return { systemTokens: 9635, conversationTokens: rng.int(80_000, 150_000), toolDefinitionsTokens: 12663 };
    case 'session.compaction_complete':
      return { success: true, preCompactionTokens: 135342, preCompactionMessagesLength: 180, summaryContent: `\n\n<overview>\n${textFrom(rng, pool, rng.logNormal(3000, 0.6, 300, 30_000))}\n</overview>\n`, checkpointNumber: s.checkpoints, checkpointPath: `${s.home}/.copilot/session-state/${s.id}/checkpoints/checkpoint-${s.checkpoints}.md`, compactionTokensUsed: 42000, requestId: rng.hex(16), error: null, serviceRequestId: null, postCompactionTokens: 53210, messagesRemoved: 120, tokensRemoved: 82132 };
    case 'session.workspace_file_changed':
      return { path: `src/${rng.hex(6)}.ts`, operation: rng.pick(['create', 'update']) };
    case 'session.error':
      return { errorType: 'query', message: 'Execution failed: Error: Failed to get response from the AI model; retried 5 times', stack: `Error: Failed to get response\n${textFrom(rng, pool, 300)}`, statusCode: 503, providerCallId: rng.hex(12), serviceRequestId: null };
    case 'session.info':
      return { infoType: 'folder_trust', message: `Folder ${s.cwd} has been added to trusted folders.` };
    case 'session.plan_changed':
      return { operation: rng.pick(['create', 'update']) };
    case 'session.mode_changed':
      return { previousMode: 'interactive', newMode: rng.pick(['plan', 'autopilot']) };
    case 'abort':
      return { reason: 'user_initiated' };
    case 'session.task_complete':
      return { summary: `Completed the requested change:\n\n${textFrom(rng, pool, rng.int(100, 1500))}`, success: true };
    case 'session.truncation':
      return { tokenLimit: 168000, preTruncationTokensInMessages: 194428, preTruncationMessagesLength: 227, postTruncationTokensInMessages: 155949, postTruncationMessagesLength: 183, tokensRemovedDuringTruncation: 38479, messagesRemovedDuringTruncation: 44, performedBy: 'system', toolDefinitionsTokenCount: 12663 };
    case 'session.permissions_changed':
      return { previousAllowAllPermissions: false, allowAllPermissions: true };
    case 'session.warning':
      return { warningType: 'mcp', message: "MCP server 'github-mcp-server' is taking longer than expected to start" };
    case 'session.context_changed':
      return { cwd: s.cwd, gitRoot: s.cwd, branch: s.branch, headCommit: rng.hex(40), repository: 'example/app', hostType: 'github', repositoryHost: 'github.com' };
    default:
      return {};
  }
}
