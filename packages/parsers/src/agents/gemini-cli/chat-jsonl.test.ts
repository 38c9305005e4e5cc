import { describe, expect, it } from 'vitest';
import { parseChat } from './chat-parser.js';
import { FamilyPaths } from './paths.js';
import { GEMINI_PROFILE } from './profile.js';
import { brief, type Home, jsonl, run } from './test-helpers/memory.js';

// One focused test per record kind of a JSONL chat (v0.39+), on synthetic lines shaped like the
// real recordings (Irrlicht, live 0.61.0 run).

const paths = new FamilyPaths(GEMINI_PROFILE);
const SID = '11111111-0000-4000-8000-000000000001';
const REL = '.gemini/tmp/app/chats/session-2026-10-01T10-00-11111111.jsonl';
const CONTEXT_ID = 'd04923d38bb0f6017037e74183378ef4';
const at = (s: number) => `2026-10-01T10:00:${String(s).padStart(2, '0')}.000Z`;
const meta = { sessionId: SID, projectHash: 'ab'.repeat(32), startTime: at(0), lastUpdated: at(0), kind: 'main' };
const context = (dir: string) => ({ id: CONTEXT_ID, timestamp: at(0), type: 'user', content: [{ text: `<session_context>\nThis is the Gemini CLI.\n- **Workspace Directories:**\n  - ${dir}\n- **Directory Structure:**\n</session_context>` }] });
const user = (id: string, s: number, text: string, extra: object = {}) => ({ id, timestamp: at(s), type: 'user', content: [{ text }], ...extra });
const gemini = (id: string, s: number, content: unknown, extra: object = {}) => ({ id, timestamp: at(s), type: 'gemini', content, thoughts: [], tokens: null, model: 'gemini-3.5-flash', ...extra });

async function chat(...lines: (object | string)[]) {
  const home: Home = { [REL]: jsonl(...lines), '.gemini/tmp/app/.project_root': '/srv/app' };
  return run((a, ctx, hooks) => parseChat(a, ctx, paths, hooks), home, REL);
}

describe('gemini-cli JSONL chat: one record kind at a time', () => {
  it('metadata line: the session start row at startTime; its sessionId is the rows session', async () => {
    const { rows, skips } = await chat(meta, { $set: { lastUpdated: at(1) } });
    expect(brief(rows)).toEqual([[1, 'system', `session start: kind=main projectHash=${'ab'.repeat(32)}`]]);
    expect([rows[0].timestamp_utc, rows[0].session_id, rows[0].project_path, rows[0].tag]).toEqual([at(0), SID, '/srv/app', 'session_start']);
    expect(skips).toEqual([{ line: 2, reason: 'metadata update (lastUpdated)' }]);
  });

  it('the <session_context> message inside the first $set.messages: one system row, once', async () => {
    const { rows } = await chat(meta, { $set: { messages: [context('/srv/app')] } }, { $set: { messages: [context('/srv/app')] } });
    expect(brief(rows).slice(1)).toEqual([[2, 'system', 'session context: <session_context>']]);
  });

  it('a user record: displayContent (what was typed) over content (what the model got, @file expanded)', async () => {
    const { rows } = await chat(meta, user('u1', 5, 'fix @a.js', { content: [{ text: 'fix @a.js' }, { text: '\n--- Content from referenced files ---\nx' }], displayContent: [{ text: 'fix @a.js' }] }));
    expect(brief(rows)[1]).toEqual([2, 'user', 'fix @a.js']);
    expect(rows[1].text).toBe('fix @a.js');
  });

  it('a user record without displayContent: its text parts joined; media parts named', async () => {
    const { rows } = await chat(meta, user('u1', 5, 'look', { content: [{ text: 'look at' }, { text: 'this' }, { inlineData: { mimeType: 'image/png', data: 'AAAA' } }] }));
    expect(rows[1].text).toBe('look at\nthis\n[inlineData image/png]');
  });

  it('a synthetic continuation the CLI sends as a user turn is a system row, not a prompt', async () => {
    const { rows } = await chat(meta, user('u1', 5, 'System: Please continue.'));
    expect(brief(rows)[1]).toEqual([2, 'system', 'synthetic prompt: System: Please continue.']);
    expect(rows[1].tag).toBe('synthetic_prompt');
  });

  it('a gemini record: thinking per thought (own time), the model row, the reply, then each call and its result', async () => {
    const call = { id: 'run_shell_command__1', name: 'run_shell_command', args: { command: 'ls', description: 'list' }, result: [{ functionResponse: { id: 'run_shell_command__1', name: 'run_shell_command', response: { output: 'a.js' } } }], status: 'success', timestamp: at(9) };
    const { rows } = await chat(meta, gemini('g1', 8, 'Listing.', { thoughts: [{ subject: 'Plan', description: 'List files.', timestamp: at(7) }], toolCalls: [call] }));
    expect(rows.slice(1).map((r) => [r.timestamp_utc, r.turn_type, r.text, r.tool_name, r.tool_use_id, r.model])).toEqual([
      [at(7), 'thinking', '**Plan** List files.', '', '', 'gemini-3.5-flash'],
      [at(8), 'system', 'model: gemini-3.5-flash', '', '', 'gemini-3.5-flash'],
      [at(8), 'assistant', 'Listing.', '', '', 'gemini-3.5-flash'],
      [at(9), 'tool_use', 'ls', 'run_shell_command', 'run_shell_command__1', 'gemini-3.5-flash'],
      [at(9), 'tool_result', 'a.js', 'run_shell_command', 'run_shell_command__1', 'gemini-3.5-flash'],
    ]);
  });

  it('thought parts stand in for thoughts[] when that is empty (a history copy renders them)', async () => {
    const { rows } = await chat(meta, gemini('g1', 8, [{ text: '**Plan** go', thought: true }, { text: 'ok' }]));
    expect(brief(rows).slice(1)).toEqual([
      [2, 'thinking', '**Plan** go'],
      [2, 'system', 'model: gemini-3.5-flash'],
      [2, 'assistant', 'ok'],
    ]);
  });

  it('a failed or cancelled call: the status prefixes the result; an empty result falls back to resultDisplay (a diff)', async () => {
    const calls = [
      { id: 'replace__1', name: 'replace', args: { file_path: '/srv/app/a.js' }, result: [], resultDisplay: { fileDiff: '--- a\n+++ b', fileName: 'a.js' }, status: 'success', timestamp: at(9) },
      { id: 'write_file__2', name: 'write_file', args: { file_path: '/srv/app/b.js' }, result: [{ functionResponse: { id: 'write_file__2', name: 'write_file', response: { error: 'denied' } } }], status: 'error', timestamp: at(9) },
      { id: 'glob__3', name: 'glob', args: { pattern: '*.js' }, result: null, status: 'cancelled', timestamp: at(9) },
    ];
    const { rows } = await chat(meta, gemini('g1', 8, '', { toolCalls: calls }));
    expect(rows.filter((r) => r.turn_type === 'tool_result').map((r) => r.text)).toEqual(['--- a\n+++ b', '[error] denied', '[cancelled] ']);
    expect(rows.filter((r) => r.turn_type === 'tool_use').map((r) => r.text)).toEqual(['/srv/app/a.js', '/srv/app/b.js', '*.js']);
    expect(rows.some((r) => r.turn_type === 'assistant')).toBe(false);
  });

  it('the synthetic tool-response user record (v0.44+) gives no row when the call already has its result', async () => {
    const call = { id: 'c1', name: 'run_shell_command', args: { command: 'ls' }, result: [{ functionResponse: { id: 'c1', name: 'run_shell_command', response: { output: 'x' } } }], status: 'success', timestamp: at(9) };
    const response = { id: 'u2', timestamp: at(10), type: 'user', content: [{ functionResponse: { id: 'c1', name: 'run_shell_command', response: { output: 'x' } } }] };
    const { rows, skips } = await chat(meta, gemini('g1', 8, 'go', { toolCalls: [call] }), response);
    expect(rows.filter((r) => r.turn_type === 'tool_result').length).toBe(1);
    expect(skips).toContainEqual({ line: 3, reason: 'tool responses already have rows' });
  });

  it('a tool-response user record whose call has no result yet gives the result row (no prompt)', async () => {
    const response = { id: 'u2', timestamp: at(10), type: 'user', content: [{ functionResponse: { id: 'c9', name: 'read_file', response: { output: 'body' } } }] };
    const { rows } = await chat(meta, response);
    expect(rows.slice(1).map((r) => [r.turn_type, r.text, r.tool_name, r.tool_use_id])).toEqual([['tool_result', 'body', 'read_file', 'c9']]);
  });

  it('info, warning and error records are system rows; an empty info (the compression marker) gives none', async () => {
    const { rows, skips } = await chat(meta, { id: 'i1', timestamp: at(1), type: 'info', content: 'Request cancelled.' }, { id: 'w1', timestamp: at(2), type: 'warning', content: 'slow' }, { id: 'e1', timestamp: at(3), type: 'error', content: [{ text: 'quota' }] }, { id: 'i2', timestamp: at(4), type: 'info', content: '' });
    expect(brief(rows).slice(1)).toEqual([
      [2, 'system', 'info: Request cancelled.'],
      [3, 'system', 'warning: slow'],
      [4, 'system', 'error: quota'],
    ]);
    expect(skips).toEqual([{ line: 5, reason: 'empty info message' }]);
  });

  it('a message type the CLI does not write is reported unknown and its text kept', async () => {
    const { rows, ctx } = await chat(meta, { id: 'x1', timestamp: at(1), type: 'note', content: 'hello' });
    expect(brief(rows).slice(1)).toEqual([[2, 'system', 'note: hello']]);
    expect(ctx.unknowns).toEqual([{ kind: 'message type note', line: 2 }]);
  });

  it('a rewritten record: the id counts once, from its last write (the tool-call record written twice)', async () => {
    const first = gemini('g1', 8, 'Running.', { thoughts: [{ subject: 'S', description: 'd', timestamp: at(7) }] });
    const call = { id: 'c1', name: 'run_shell_command', args: { command: 'echo hi' }, result: [{ functionResponse: { id: 'c1', name: 'run_shell_command', response: { output: 'hi' } } }], status: 'success', timestamp: at(9) };
    const { rows, skips } = await chat(meta, first, { $set: { lastUpdated: at(8) } }, { ...first, toolCalls: [call] });
    expect(brief(rows).slice(1)).toEqual([
      [4, 'thinking', '**S** d'],
      [4, 'system', 'model: gemini-3.5-flash'],
      [4, 'assistant', 'Running.'],
      [4, 'tool_use', 'echo hi'],
      [4, 'tool_result', 'hi'],
    ]);
    expect(skips[0]).toEqual({ line: 2, reason: 'message g1 written again at line 4' });
  });

  it('a rewind: one system row at the latest time; the rewound prompt keeps its row', async () => {
    const { rows } = await chat(meta, user('u1', 5, 'first'), user('u2', 6, 'second'), { $rewindTo: 'u2' }, user('u3', 9, 'again'));
    expect(brief(rows).slice(1)).toEqual([
      [2, 'user', 'first'],
      [3, 'user', 'second'],
      [4, 'system', 'rewind: messages from u2 on were discarded (the earlier rows stay)'],
      [5, 'user', 'again'],
    ]);
    expect([rows[3].timestamp_utc, rows[3].tag]).toEqual([at(6), 'rewind']);
  });

  it('$set.messages copies (resume, compression) are not new messages: known ids and re-keyed texts give none', async () => {
    const reply = gemini('g1', 6, 'ok');
    const resume = { $set: { messages: [context('/srv/app'), { ...user('u1', 30, 'hi'), id: 'u1' }, { id: 'k1', timestamp: at(30), type: 'user', content: [{ text: 'hi' }] }, { id: 'k2', timestamp: at(30), type: 'gemini', content: [{ text: 'ok' }] }] } };
    const { rows, skips } = await chat(meta, { $set: { messages: [context('/srv/app')] } }, user('u1', 5, 'hi'), reply, resume);
    expect(brief(rows).map((r) => r[1])).toEqual(['system', 'system', 'user', 'system', 'assistant']);
    expect(skips).toContainEqual({ line: 5, reason: 'copies of messages that already have rows' });
  });

  it('compression: the state snapshot is a compaction summary, the acknowledgement a history rewrite', async () => {
    const set = {
      $set: {
        messages: [
          context('/srv/app'),
          { id: 'k1', timestamp: at(30), type: 'user', content: [{ text: '<scratchpad>s</scratchpad>\n\n<state_snapshot>\n<overall_goal>g</overall_goal>\n</state_snapshot>' }] },
          { id: 'k2', timestamp: at(30), type: 'gemini', content: [{ text: 'Got it. Thanks for the additional context!' }] },
        ],
      },
    };
    const { rows } = await chat(meta, { $set: { sessionId: SID } }, set);
    expect(brief(rows).slice(1)).toEqual([
      [2, 'system', 'recorder re-initialized (resume or compression)'],
      [3, 'system', 'session context: <session_context>'],
      [3, 'system', 'compaction summary: <scratchpad>s</scratchpad>'],
      [3, 'system', 'history rewrite (gemini): Got it. Thanks for the additional context!'],
    ]);
    expect(rows[3].tag).toBe('compaction');
  });

  it('a resume that writes the metadata line again (0.61): one re-initialized row, not two', async () => {
    const ctxSet = { $set: { messages: [context('/srv/app')] } };
    const { rows } = await chat(meta, ctxSet, user('u1', 5, 'hi'), { ...meta, startTime: at(40), lastUpdated: at(40) }, ctxSet, { $set: { sessionId: SID } }, user('u2', 41, 'more'));
    expect(brief(rows).slice(2)).toEqual([
      [3, 'user', 'hi'],
      [4, 'system', 'recorder re-initialized (resume or compression)'],
      [7, 'user', 'more'],
    ]);
    expect(rows[3].timestamp_utc).toBe(at(40));
  });

  it('$set summary, directories and memoryScratchpad give their rows, once per value', async () => {
    const pad = { workflowSummary: 'fix', toolSequence: ['read_file', 'replace'], touchedPaths: ['/srv/app/a.js'], validationStatus: 'passed' };
    const { rows } = await chat(meta, { $set: { summary: 'Fix it', lastUpdated: at(3) } }, { $set: { summary: 'Fix it' } }, { $set: { directories: ['/srv/app', '/srv/lib'] } }, { $set: { memoryScratchpad: pad } });
    expect(brief(rows).slice(1)).toEqual([
      [2, 'system', 'session name: Fix it'],
      [4, 'system', 'workspace directories: /srv/app, /srv/lib'],
      [5, 'system', 'memory scratchpad: summary=fix tools=read_file, replace touched=/srv/app/a.js validation=passed'],
    ]);
    expect(rows[1].timestamp_utc).toBe(at(3));
  });

  it('an unknown $set key and a record of no known shape are reported, never dropped silently', async () => {
    const { ctx, skips } = await chat(meta, { $set: { mood: 'x' } }, { what: 1 });
    expect(ctx.unknowns).toEqual([
      { kind: '$set.mood', line: 2 },
      { kind: 'record without id, uuid, $set, $rewindTo or metadata', line: 3 },
    ]);
    expect(skips.map((s) => s.line)).toEqual([2, 3]);
  });

  it('a cut metadata line: the rows still get the session the file states later ($set.sessionId)', async () => {
    const { rows } = await chat(JSON.stringify(meta).slice(0, 40), user('u1', 5, 'hi'), { $set: { sessionId: SID } });
    expect(brief(rows).map((r) => r[1])).toEqual(['system', 'user', 'system']);
    expect(rows.every((r) => r.session_id === SID)).toBe(true);
  });

  it('a line that is not JSON is a bad-line row in the session, and reading goes on', async () => {
    const { rows } = await chat(meta, '{"id": "broken', user('u1', 5, 'still here'));
    expect(brief(rows).slice(1)).toEqual([
      [2, 'system', 'parser: unparseable line (invalid JSON): {"id": "broken'],
      [3, 'user', 'still here'],
    ]);
    expect([rows[1].session_id, rows[1].tag]).toEqual([SID, 'bad_line']);
  });
});
