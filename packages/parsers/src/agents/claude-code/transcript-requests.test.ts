import { describe, expect, it } from 'vitest';
import { parseText } from './test-helpers/context.js';
import { assistant, chain, jsonl, MAIN_REL, SID, user } from './test-helpers/lines.js';
import { transcriptParser } from './transcript.js';

// The 2.1.3xx record kinds, one focused test per row kind, then the variations a file nobody has
// seen may bring: missing fields, wrong types, unknown kinds, a cut line.
const parse = (body: string) => parseText(transcriptParser, MAIN_REL, body);
const T = (s: string) => `2026-10-01T10:00:${s}.000Z`;
const shape = (system: unknown, tools: unknown, t = T('02')) => ({ type: 'api-request-shape', sessionId: SID, shapeHash: 'h', timestamp: t, version: '2.1.332', shape: { system, tools } });
const request = (model: unknown, t = T('03'), extra: Record<string, unknown> = {}) => ({
  type: 'api-request',
  sessionId: SID,
  id: 'r',
  timestamp: t,
  querySource: 'repl_main_thread',
  params: { model, output_config: { effort: 'high' } },
  ...extra,
});
const att = (attachment: Record<string, unknown>, t?: string) => chain('attachment', { attachment }, t);
const texts = (rows: { text: string }[]) => rows.map((r) => r.text);

describe('transcript 2.1.3xx: request records', () => {
  it('api-request-shape: the system prompt and the tool list once, again only when they change', async () => {
    const sys = [{ type: 'text', text: 'You are Claude Code.' }, { type: 'text', text: 'Be brief.' }];
    const tools = [{ name: 'Bash', input_schema: {} }, { name: 'mcp__gh__list_issues' }];
    const { rows, ctx } = await parse(jsonl(user('a', {}, T('01')), shape(sys, tools), shape(sys, tools, T('05')), shape(sys, [{ name: 'Bash' }], T('06')), shape([{ type: 'text', text: 'Other.' }], [{ name: 'Bash' }], T('07'))));
    expect(rows.slice(1).map((r) => [r.source_line, r.tag, r.text, r.timestamp_utc])).toEqual([
      [2, 'system_prompt', 'system prompt: You are Claude Code.\n\nBe brief.', T('02')],
      [2, 'tools_offered', 'tools offered: Bash, mcp__gh__list_issues', T('02')],
      [4, 'tools_offered', 'tools offered: Bash', T('06')],
      [5, 'system_prompt', 'system prompt: Other.', T('07')],
    ]);
    expect(ctx.mcpServers).toEqual([{ name: 'gh', scope: '', tools: [{ name: 'list_issues' }] }]);
  });

  it('api-request: model X first, old -> new on a change, a counted skip when unchanged', async () => {
    const { rows } = await parse(jsonl(user('a', {}, T('01')), request('claude-opus-5-5'), request('claude-opus-5-5', T('04')), request('claude-haiku-5-5', T('05'), { querySource: undefined, params: { model: 'claude-haiku-5-5' } })));
    expect(rows.slice(1).map((r) => [r.text, r.model, r.tag, r.timestamp_utc])).toEqual([
      ['model: claude-opus-5-5 (requested, source=repl_main_thread effort=high)', 'claude-opus-5-5', 'model', T('03')],
      ['model: claude-opus-5-5 -> claude-haiku-5-5 (requested)', 'claude-haiku-5-5', 'model', T('05')],
    ]);
  });

  it('cost-state: a cost row each time the running total changed, at the preceding line`s time', async () => {
    const c = (total: number, inT: number) => ({
      type: 'cost-state',
      sessionId: SID,
      totalCostUSD: total,
      totalAPIDuration: 900,
      totalToolDuration: 20,
      totalLinesAdded: 3,
      totalLinesRemoved: 1,
      modelUsage: { 'claude-opus-5-5': { inputTokens: inT, outputTokens: 7, cacheReadInputTokens: 100, cacheCreationInputTokens: 0, webSearchRequests: 0, costUSD: total } },
      hasUnknownModelCost: false,
    });
    const { rows } = await parse(jsonl(user('a', {}, T('01')), c(0.0123456789, 10), c(0.0123456789, 10), user('b', {}, T('09')), c(0.02, 20)));
    expect(rows.filter((r) => r.tag === 'cost').map((r) => [r.text, r.timestamp_utc])).toEqual([
      ['cost: $0.012346 total; claude-opus-5-5 $0.012346 in=10 out=7 cache_read=100; api 900 ms, tools 20 ms; lines +3 -1', T('01')],
      ['cost: $0.02 total; claude-opus-5-5 $0.02 in=20 out=7 cache_read=100; api 900 ms, tools 20 ms; lines +3 -1', T('09')],
    ]);
  });

  it('prompt_snapshot: no row while a shape gives the prompt; a file with snapshots only gets one system prompt row at the first', async () => {
    const snap = (t: string) => att({ type: 'prompt_snapshot', systemPrompt: ['Section one.', 'Section two.'], cliPrefix: 'You are Claude Code.', tools: [{ name: 'mcp__db__query' }] }, t);
    const only = await parse(jsonl(user('a', {}, T('01')), snap(T('02')), snap(T('03'))));
    expect(only.rows.slice(1).map((r) => [r.source_line, r.tag, r.text, r.timestamp_utc])).toEqual([[2, 'system_prompt', 'system prompt: You are Claude Code.\n\nSection one.\n\nSection two.', T('02')]]);
    expect(only.ctx.mcpServers).toEqual([{ name: 'db', scope: '', tools: [{ name: 'query' }] }]);
    const both = await parse(jsonl(user('a', {}, T('01')), snap(T('02')), shape([{ type: 'text', text: 'Sent.' }], []), snap(T('04'))));
    expect(texts(both.rows.filter((r) => r.tag === 'system_prompt'))).toEqual(['system prompt: Sent.']);
  });

  it('blobs, latches, tools-used and bookkeeping kinds give no row and are not unknown; continued-in and ended-by-model give rows', async () => {
    const { rows, ctx } = await parse(
      jsonl(
        user('a', {}, T('01')),
        { type: 'api-request-blob', sessionId: SID, hash: 'x', message: { role: 'user', content: 'a' } },
        { type: 'atis-latch', atis: '', sessionId: SID },
        { type: 'tools-used', tools: ['Bash'], sessionId: SID },
        { type: 'session-owner', sessionId: SID },
        { type: 'continued-in', timestamp: T('07'), sessionId: SID, continuedInSessionId: 'next-session' },
        { type: 'ended-by-model', timestamp: T('08'), sessionId: SID },
      ),
    );
    expect(rows.slice(1).map((r) => [r.text, r.timestamp_utc])).toEqual([
      ['continued in session next-session', T('07')],
      ['session ended by the model', T('08')],
    ]);
    expect(ctx.unknowns).toEqual([]);
  });
});

describe('transcript 2.1.3xx: attachments', () => {
  it('environment, session context, custom agent types, remote session; model and date counted', async () => {
    const { rows } = await parse(
      jsonl(
        user('a', {}, T('01')),
        att({ type: 'environment', snapshot: { workingDirectory: '/srv/app', isWorktree: true, isGitRepo: true, additionalWorkingDirectories: ['/srv/lib', { path: '/srv/docs' }], platform: 'darwin', shell: 'zsh' } }),
        att({ type: 'environment', snapshot: { workingDirectory: '/srv/app', isWorktree: true, isGitRepo: true, additionalWorkingDirectories: ['/srv/lib', { path: '/srv/docs' }], platform: 'darwin', shell: 'zsh' } }),
        att({ type: 'session_context', context: { gitStatus: 'Current branch: main', extra: { n: 1 } } }),
        att({ type: 'agent_listing_delta', addedTypes: ['Explore', 'my-reviewer'], builtInTypes: ['Explore'], removedTypes: ['old-agent'] }),
        att({ type: 'agent_listing_delta', addedTypes: ['Plan'], builtInTypes: ['Plan'] }),
        att({ type: 'remote_session_change', url: 'https://claude.ai/code/session_1', commit: 'c', pr: 'p' }),
        att({ type: 'model', identity: { modelId: 'm' } }),
        att({ type: 'date', date: '2026-10-01' }),
      ),
    );
    expect(rows.slice(1).map((r) => [r.source_line, r.tag, r.text])).toEqual([
      [2, 'environment', 'environment: cwd=/srv/app platform=darwin shell=zsh git=yes worktree=yes additional_dirs=/srv/lib, /srv/docs'],
      [4, 'session_context', 'session context: gitStatus: Current branch: main\nextra: {"n":1}'],
      [5, 'tools_offered', 'agent types offered: +my-reviewer, -old-agent'],
      [7, 'remote_session', 'remote session: https://claude.ai/code/session_1'],
    ]);
  });

  it('deferred_tools_delta: one row per change, needs-auth and pending servers named, each failure once per file', async () => {
    const d = (extra: Record<string, unknown>) => att({ type: 'deferred_tools_delta', addedNames: [], removedNames: [], readdedNames: [], ...extra }, T('02'));
    const failed = [{ name: 'jira', errorCode: 'ETIMEDOUT', error: 'timed out' }, 'bare-name', { errorCode: 'X' }];
    const { rows, ctx } = await parse(
      jsonl(
        user('a', {}, T('01')),
        d({ addedNames: ['WebFetch', 'mcp__jira__search'], pendingMcpServers: ['slack'], needsAuthMcpServers: ['notion'], failedMcpServers: failed }),
        d({ addedNames: ['WebFetch', 'mcp__jira__search'], pendingMcpServers: ['slack'], needsAuthMcpServers: ['notion'], failedMcpServers: failed }),
        d({ removedNames: ['WebFetch'], readdedNames: ['mcp__slack__post'] }),
        d({}),
      ),
    );
    expect(rows.slice(1).map((r) => [r.source_line, r.tag, r.text])).toEqual([
      [2, 'tools_offered', 'tools offered (deferred): +WebFetch, +mcp__jira__search; MCP pending: slack; MCP needs auth: notion'],
      [2, 'mcp_failure', 'mcp server jira failed: ETIMEDOUT: timed out'],
      [2, 'mcp_failure', 'mcp server bare-name failed: failed'],
      [4, 'tools_offered', 'tools offered (deferred): removed: WebFetch; readded: mcp__slack__post'],
    ]);
    expect(ctx.mcpServers.map((s) => [s.name, s.failure?.message, s.tools])).toEqual([
      ['jira', 'ETIMEDOUT: timed out', undefined],
      ['bare-name', 'failed', undefined],
      ['jira', undefined, [{ name: 'search' }]],
      ['slack', undefined, [{ name: 'post' }]],
    ]);
  });

  it('a structured permissionDecision gives the decision row (and wins over the text rule)', async () => {
    const call = assistant([{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'rm -rf x' } }]);
    const res = user([{ type: 'tool_result', tool_use_id: 't1', content: "The user doesn't want to proceed with this tool use." }], {
      permissionDecision: { decision: 'reject', source: 'user', reasonType: 'prompt' },
    });
    const { rows } = await parse(jsonl(call, res));
    expect(rows.map((r) => [r.turn_type, r.tag ?? '', r.tool_name, r.text])).toEqual([
      ['tool_use', '', 'Bash', 'rm -rf x'],
      ['tool_result', '', 'Bash', "The user doesn't want to proceed with this tool use."],
      ['system', 'permission_decision', 'Bash', 'permission decision: reject source=user reason=prompt'],
    ]);
  });
});

describe('transcript: what no table knows is counted through ctx.unknown, never dropped silently', () => {
  it('an unknown record kind, attachment type, user block and assistant block: no row, one unknown report each', async () => {
    const { rows, ctx } = await parse(
      jsonl(
        user('a', {}, T('01')),
        { type: 'brand-new-kind', sessionId: SID },
        att({ type: 'hologram_delta', x: 1 }),
        att({ x: 1 }),
        user([{ type: 'document', source: {} }, { type: 'text', text: 'see doc' }]),
        assistant([{ type: 'fancy_block', x: 1 }]),
        {},
      ),
    );
    expect(texts(rows)).toEqual(['a', 'see doc']);
    expect(ctx.unknowns).toEqual([
      { kind: 'brand-new-kind', line: 2 },
      { kind: 'attachment hologram_delta', line: 3 },
      { kind: 'attachment (no type)', line: 4 },
      { kind: 'user block document', line: 5 },
      { kind: 'assistant block fancy_block', line: 6 },
      { kind: '(no type)', line: 7 },
    ]);
  });
});

describe('transcript 2.1.3xx: hostile variations', () => {
  it('missing fields and wrong types give counted skips or partial rows, never a throw', async () => {
    const { rows, ctx } = await parse(
      jsonl(
        user('a', {}, T('01')),
        { type: 'api-request-shape', shape: 'not an object' },
        { type: 'api-request-shape', shape: { system: 'text', tools: { name: 'x' } } },
        { type: 'api-request-shape', shape: { system: [null, 5, { text: 7 }, 'plain'], tools: [null, { name: 3 }, { noname: true }] } },
        { type: 'api-request', params: 'x' },
        { type: 'api-request', params: { model: ['a'] } },
        { type: 'cost-state', totalCostUSD: 'abc', modelUsage: 'x' },
        { type: 'cost-state', totalCostUSD: '0.5' },
        att({ type: 'deferred_tools_delta', addedNames: 'x', failedMcpServers: [null, 5, { name: 'ok' }] }),
        att({ type: 'environment', snapshot: 'x' }),
        att({ type: 'environment', snapshot: {} }),
        att({ type: 'session_context', context: null }),
        att({ type: 'prompt_snapshot', systemPrompt: 'x', tools: 'y' }),
        user([{ type: 'tool_result', tool_use_id: 'zz', content: 'out' }], { permissionDecision: { decision: 5 } }),
        '{"type":"api-request-shape","shape":{"system":[{"type":"text","text":"cut',
      ),
    );
    expect(rows.slice(1).map((r) => [r.source_line, r.tag ?? '', r.text])).toEqual([
      [3, 'system_prompt', 'system prompt: text'],
      [4, 'system_prompt', 'system prompt: 7\n\nplain'],
      [4, 'tools_offered', 'tools offered: 3'],
      [8, 'cost', 'cost: $0.5 total'],
      [9, 'mcp_failure', 'mcp server 5 failed: failed'],
      [9, 'mcp_failure', 'mcp server ok failed: failed'],
      [14, '', 'out'],
      [14, 'permission_decision', 'permission decision: 5'],
      [15, 'bad_line', 'parser: unparseable line (invalid JSON): {"type":"api-request-shape","shape":{"system":[{"type":"text","text":"cut'],
    ]);
    expect(ctx.unknowns).toEqual([]);
  });
});
