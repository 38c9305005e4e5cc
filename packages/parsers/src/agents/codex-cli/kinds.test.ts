import { describe, expect, it } from 'vitest';
import { parseRollout } from './rollout.js';
import { collectRows, memoryArtifact, recordingContext } from './test-helpers/artifact.js';

// One focused test per row kind of the envelope layout, on lines shaped as the spec and source give them.
const SID = '019a2222-0000-7000-8000-000000000001';
const REL = `.codex/sessions/2026/10/02/rollout-2026-10-02T10-00-00-${SID}.jsonl`;
let n = 0;
const line = (type: string, payload: unknown, ts?: string) => JSON.stringify({ timestamp: ts ?? `2026-10-02T08:00:${String(n++ % 60).padStart(2, '0')}.000Z`, type, payload });
const META = line('session_meta', { id: SID, timestamp: '2026-10-02T08:00:00.000Z', cwd: '/w', originator: 'codex-tui', cli_version: '0.140.0', source: 'cli' });
const ev = (p: Record<string, unknown>) => line('event_msg', p);
const item = (p: Record<string, unknown>) => line('response_item', p);

async function rowsOf(body: string[], includeThinking = true) {
  const ctx = recordingContext(includeThinking);
  const rows = await collectRows((a, c) => parseRollout(a, c), memoryArtifact(REL, `${[META, ...body].join('\n')}\n`), ctx);
  return { rows: rows.filter((r) => r.tag !== 'session_start'), ctx };
}
const texts = async (body: string[], includeThinking = true) => (await rowsOf(body, includeThinking)).rows.map((r) => r.text);

describe('response items', () => {
  it('user message: injected context items are context rows; typed items one user row; images marked', async () => {
    const { rows } = await rowsOf([item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: '<skill>\nname: x\n</skill>' }, { type: 'input_text', text: 'look at this' }, { type: 'input_image', image_url: 'data:image/png;base64,AAA' }] })]);
    expect(rows.map((r) => [r.turn_type, r.text, r.tag])).toEqual([
      ['system', 'context skill: <skill>\nname: x\n</skill>', 'context'],
      ['user', 'look at this\n[image]', undefined],
    ]);
  });

  it('developer and system messages are developer-message rows, never shortened', async () => {
    const long = 'x'.repeat(30_000);
    expect(await texts([item({ type: 'message', role: 'developer', content: [{ type: 'input_text', text: long }] })])).toEqual([`developer message: ${long}`]);
  });

  it('reasoning: summaries joined by a blank line, else the raw content; none when only encrypted', async () => {
    expect(await texts([item({ type: 'reasoning', summary: [{ type: 'summary_text', text: 'a' }, { type: 'summary_text', text: 'b' }], encrypted_content: 'gAAAA' })])).toEqual(['a\n\nb']);
    expect(await texts([item({ type: 'reasoning', summary: [], content: [{ type: 'reasoning_text', text: 'raw' }] })])).toEqual(['raw']);
    expect(await texts([item({ type: 'reasoning', summary: [], content: null, encrypted_content: 'gAAAA' })])).toEqual([]);
    expect(await texts([item({ type: 'reasoning', summary: [{ type: 'summary_text', text: 'a' }] })], false)).toEqual([]);
  });

  it('function calls: the command of shell tools (string or argv), the arguments of others', async () => {
    const rows = (
      await rowsOf([
        item({ type: 'function_call', name: 'shell', arguments: '{"command":["bash","-lc","make test"]}', call_id: 'c1' }),
        item({ type: 'function_call', name: 'update_plan', arguments: '{"plan":[]}', call_id: 'c2' }),
        item({ type: 'function_call', name: 'exec_command', arguments: 'not json', call_id: 'c3' }),
      ])
    ).rows;
    expect(rows.map((r) => [r.tool_name, r.tool_use_id, r.text])).toEqual([
      ['shell', 'c1', 'bash -lc make test'],
      ['update_plan', 'c2', '{"plan":[]}'],
      ['exec_command', 'c3', 'not json'],
    ]);
  });

  it('tool outputs: strings, JSON-wrapped output with exit code, content arrays, objects; the tool name remembered', async () => {
    const rows = (
      await rowsOf([
        item({ type: 'custom_tool_call', name: 'exec', call_id: 'k1', input: 'await tools.exec_command({cmd:"x"})', status: 'completed' }),
        item({ type: 'custom_tool_call_output', call_id: 'k1', output: [{ type: 'input_text', text: 'Script failed' }, { type: 'input_image', image_url: 'data:' }] }),
        item({ type: 'function_call', name: 'shell', arguments: '{"command":["false"]}', call_id: 'k2' }),
        item({ type: 'function_call_output', call_id: 'k2', output: '{"output":"boom","metadata":{"exit_code":2,"duration_seconds":0.1}}' }),
        item({ type: 'function_call_output', call_id: 'k3', output: { content: 'from an object', success: true } }),
      ])
    ).rows.filter((r) => r.turn_type === 'tool_result');
    expect(rows.map((r) => [r.tool_name, r.text])).toEqual([
      ['exec', 'Script failed\n[image]'],
      ['shell', '[exit 2] boom'],
      ['', 'from an object'],
    ]);
  });

  it('web search, tool search, image generation, local shell calls; ghost snapshots and remote compaction', async () => {
    const { rows } = await rowsOf([
      item({ type: 'web_search_call', status: 'completed', action: { type: 'search', query: 'codex rollout format' } }),
      item({ type: 'tool_search_call', call_id: 't1', arguments: { query: 'jobs', limit: 8 } }),
      item({ type: 'tool_search_output', call_id: 't1', tools: [{ type: 'namespace', name: 'codex_app', tools: [{ type: 'function', name: 'automation_update' }] }] }),
      item({ type: 'image_generation_call', id: 'ig_1', status: 'completed', revised_prompt: 'a cat', result: 'AAAA' }),
      item({ type: 'ghost_snapshot', ghost_commit: { id: 'abc', parent: 'def' } }),
      item({ type: 'compaction', encrypted_content: 'gAAAA' }),
    ]);
    expect(rows.map((r) => [r.turn_type, r.tool_name, r.tool_use_id, r.text])).toEqual([
      ['tool_use', 'web_search', '', 'codex rollout format'],
      ['tool_use', 'tool_search', 't1', 'jobs'],
      ['tool_result', 'tool_search', 't1', 'tools: codex_app.automation_update'],
      ['tool_use', 'image_generation', 'ig_1', 'a cat'],
      ['system', '', '', 'ghost snapshot: {"id":"abc","parent":"def"}'],
      ['system', '', '', 'context compaction (encrypted remote summary)'],
    ]);
  });
});

describe('events', () => {
  it('event copies of prompts, replies and reasoning give no row when their item is there, in either order', async () => {
    const { rows } = await rowsOf([
      ev({ type: 'task_started', turn_id: 't' }),
      item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }),
      ev({ type: 'user_message', message: 'hi', images: [] }),
      ev({ type: 'agent_reasoning', text: 'think' }),
      item({ type: 'reasoning', summary: [{ type: 'summary_text', text: 'think' }] }),
      ev({ type: 'agent_message', message: 'hello' }),
      ev({ type: 'item_completed', item: { type: 'AgentMessage', content: [{ type: 'Text', text: 'hello' }] } }),
      item({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'hello' }] }),
      ev({ type: 'task_complete', turn_id: 't' }),
    ]);
    expect(rows.map((r) => [r.turn_type, r.text])).toEqual([
      ['user', 'hi'],
      ['thinking', 'think'],
      ['assistant', 'hello'],
    ]);
  });

  it('an event copy whose item never came (a file cut between the two) is a row at the end of its turn', async () => {
    const { rows } = await rowsOf([ev({ type: 'task_started' }), item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'q' }] }), ev({ type: 'agent_message', message: 'only the event' })]);
    expect(rows.map((r) => [r.turn_type, r.text, r.source_line])).toEqual([
      ['user', 'q', 3],
      ['assistant', 'only the event', 4],
    ]);
  });

  it('turn aborted, rollback, undo, review, error, thread rename', async () => {
    expect(
      await texts([
        ev({ type: 'turn_aborted', reason: 'replaced' }),
        ev({ type: 'thread_rolled_back', num_turns: 2 }),
        ev({ type: 'undo_completed', success: true, message: 'restored' }),
        ev({ type: 'entered_review_mode', target: { type: 'uncommittedChanges' } }),
        ev({ type: 'exited_review_mode', review_output: { findings: [{}, {}], overall_correctness: 'patch is incorrect', overall_explanation: 'a bug' } }),
        ev({ type: 'error', message: 'stream disconnected' }),
        ev({ type: 'thread_name_updated', thread_name: 'Build fix' }),
      ]),
    ).toEqual(['turn aborted: replaced', 'rollback: 2 turns dropped from context (earlier rows stay)', 'undo: success=true restored', 'review started: {"type":"uncommittedChanges"}', 'review result: patch is incorrect a bug (2 findings)', 'error: stream disconnected', 'session name: Build fix']);
  });

  it('patch_apply_end: one file-changed row per path, moves named; the tool remembered', async () => {
    const { rows } = await rowsOf([
      item({ type: 'custom_tool_call', name: 'apply_patch', call_id: 'p1', input: '*** Begin Patch' }),
      ev({ type: 'patch_apply_end', call_id: 'p1', success: true, changes: { '/w/a.js': { type: 'update', move_path: '/w/b.js' }, '/w/c.js': { type: 'add', content: 'x' } } }),
    ]);
    expect(rows.slice(1).map((r) => [r.text, r.tool_name, r.tool_use_id])).toEqual([
      ['file changed: /w/a.js (update -> /w/b.js) success=true', 'apply_patch', 'p1'],
      ['file changed: /w/c.js (add) success=true', 'apply_patch', 'p1'],
    ]);
  });

  it('exec_command_end: an exec-end row; the user’s own !command a user row; item_completed CommandExecution never repeats it', async () => {
    const { rows } = await rowsOf([
      ev({ type: 'exec_command_end', call_id: 'e1', command: ['/bin/zsh', '-lc', 'ls'], cwd: '/w', source: 'agent', exit_code: 1, duration: { secs: 1, nanos: 500000000 } }),
      ev({ type: 'item_completed', item: { type: 'CommandExecution', id: 'e1', command: ['/bin/zsh', '-lc', 'ls'], exit_code: 1 } }),
      ev({ type: 'exec_command_end', call_id: 'u1', command: ['git', 'status'], cwd: '/w', source: 'user_shell', exit_code: 0 }),
    ]);
    expect(rows.map((r) => [r.turn_type, r.text, r.tool_use_id])).toEqual([
      ['system', 'exec end: exit=1 source=agent cwd=/w duration=1.5s command=/bin/zsh -lc ls', 'e1'],
      ['user', '!git status', 'u1'],
    ]);
  });

  it('MCP call end, plan, web search end and other notices', async () => {
    expect(
      await texts([
        ev({ type: 'mcp_tool_call_end', call_id: 'm1', invocation: { server: 'gh', tool: 'issues' }, duration: '1.2s', result: { Ok: { isError: true } } }),
        ev({ type: 'item_completed', item: { type: 'Plan', text: '1. test\n2. fix' } }),
        ev({ type: 'web_search_end', call_id: 'w1', query: 'rust tracing' }),
        ev({ type: 'thread_goal_updated', goal: { text: 'ship' } }),
      ]),
    ).toEqual(['mcp call end: gh.issues ok=false duration=1.2s', 'plan: 1. test\n2. fix', 'web_search_end: rust tracing', 'thread_goal_updated: {"goal":{"text":"ship"}}']);
  });

  it('an approval request, should a build persist one, is a permission request row', async () => {
    const { rows } = await rowsOf([ev({ type: 'exec_approval_request', call_id: 'a1', command: ['rm', '-rf', 'build'], reason: 'outside the sandbox' })]);
    expect(rows.map((r) => [r.text, r.tag])).toEqual([['approval request: rm -rf build reason=outside the sandbox', 'permission_request']]);
  });
});

describe('context records', () => {
  it('turn_context: rows the first time and on a change only; a cwd change is a row and a fact as of its line', async () => {
    const tc = (p: Record<string, unknown>) => line('turn_context', { model: 'm1', effort: 'low', summary: 'auto', approval_policy: 'on-request', sandbox_policy: { type: 'workspace-write', network_access: true, writable_roots: ['/tmp'] }, cwd: '/w', ...p }, '2026-10-02T09:00:00.000Z');
    const { rows, ctx } = await rowsOf([tc({}), tc({}), tc({ cwd: '/w/sub' }), tc({ cwd: '/w/sub', effort: 'high' }), tc({ cwd: '/w/sub', effort: 'high', sandbox_policy: { type: 'danger-full-access' } })]);
    expect(rows.map((r) => [r.text, r.project_path])).toEqual([
      ['model: m1 effort=low summary=auto', '/w'],
      ['approval policy: on-request sandbox=workspace-write network=true writable_roots=["/tmp"]', '/w'],
      ['cwd: /w -> /w/sub', '/w/sub'],
      ['model: m1 -> m1 effort=high summary=auto', '/w/sub'],
      ['approval policy: on-request -> on-request sandbox=danger-full-access network=- writable_roots=-', '/w/sub'],
    ]);
    expect(ctx.facts.filter((f) => f.key === 'cwd').map((f) => [f.value, f.at])).toEqual([
      ['/w', expect.any(String)],
      ['/w/sub', '2026-10-02T09:00:00.000Z'],
    ]);
  });

  it('world_state: no row, except approved command prefixes when they change', async () => {
    const ws = (prefixes: string[]) => line('world_state', { full: true, state: { environments: { environments: { local: { cwd: '/w' } } }, permissions: { approved_command_prefixes: prefixes } } });
    expect(await texts([ws([]), ws([]), ws(['npm test']), ws(['npm test'])])).toEqual(['permission setting: approved_command_prefixes=["npm test"]']);
  });

  it('a later session_meta (copied history) changes nothing; unknown kinds are counted, never dropped silently', async () => {
    const { rows, ctx } = await rowsOf([line('session_meta', { id: 'other', cwd: '/elsewhere' }), line('brand_new_kind', {}), ev({ type: 'brand_new_event' }), item({ type: 'brand_new_item' }), ev({ type: 'item_completed', item: { type: 'BrandNewItem' } })]);
    expect(rows).toEqual([]);
    expect(ctx.unknowns.map((u) => u.kind)).toEqual(['rollout:brand_new_kind', 'event_msg:brand_new_event', 'response_item:brand_new_item', 'item_completed:BrandNewItem']);
  });

  it('kinds newer builds persist are known: agent messages between agents are rows, section breaks and notices are counted skips', async () => {
    const { rows, ctx } = await rowsOf([item({ type: 'agent_message', content: [{ type: 'input_text', text: 'worker done' }] }), ev({ type: 'agent_reasoning_section_break' }), ev({ type: 'model_reroute', message: 'rerouted to gpt-5.5' }), ev({ type: 'request_user_input', call_id: 'q1', reason: 'which branch?' })]);
    expect(rows.map((r) => r.text)).toEqual(['agent message: worker done', 'model_reroute: rerouted to gpt-5.5', 'approval request: - reason=which branch?']);
    expect(ctx.unknowns).toEqual([]);
  });

  it('a fork: lines before its own first turn are the parent’s copied history, tagged fork_replay', async () => {
    const fork = '019a3333-0000-7000-8000-000000000001';
    const body = [
      line('session_meta', { id: fork, timestamp: '2026-10-02T10:00:00.000Z', cwd: '/w', forked_from_id: SID }),
      line('turn_context', { turn_id: '019a2222-0001-7000-8000-000000000001', model: 'm' }),
      item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'parent prompt' }] }),
      line('turn_context', { turn_id: '019a3333-0001-7000-8000-000000000001', model: 'm' }),
      item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'fork prompt' }] }),
    ];
    const rows = await collectRows((a, c) => parseRollout(a, c), memoryArtifact(`.codex/sessions/2026/10/02/rollout-2026-10-02T12-00-00-${fork}.jsonl`, `${body.join('\n')}\n`), recordingContext());
    expect(rows.filter((r) => r.turn_type === 'user').map((r) => [r.text, r.tag, r.session_id])).toEqual([
      ['parent prompt', 'fork_replay', fork],
      ['fork prompt', undefined, fork],
    ]);
    expect(rows[0].text).toBe(`session start: codex - originator=- source=- cwd=/w forked from ${SID}`);
  });
});
